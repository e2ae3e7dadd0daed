// Text from outside hostcb (a layer's exception, a results file's ids, an expectations
// file's reasons) on its way to a terminal: control bytes are written as escapes, so no
// ESC sequence, BEL or NUL a layer or a file holds reaches the terminal as itself.
#pragma once
#include <string>

namespace hostcb {

// Each C0 control byte but tab (and newline, where `keep_newlines`), DEL and the C1
// controls as UTF-8 encodes them (U+0080-U+009F) becomes \n, \r or \xHH / \u00HH. Every
// other byte, invalid UTF-8 included, is kept.
std::string terminal_text(const std::string& text, bool keep_newlines);

}  // namespace hostcb
