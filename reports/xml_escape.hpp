// Text made safe for XML 1.0, the way JUnit consumers need it.
//
// - Invalid UTF-8 becomes U+FFFD; code points XML 1.0 forbids (most C0 controls,
//   U+FFFE, U+FFFF) are dropped.
// - Attributes escape & < > " ' and write tab, newline and carriage return as
//   character references, so parsers keep them.
// - CDATA sections split every "]]>" so it cannot end the section early.
#pragma once
#include <string>

namespace hostcb {

std::string xml_clean(const std::string& text);      // UTF-8 repair and forbidden characters only
std::string xml_attribute(const std::string& text);  // for attribute values
std::string xml_text(const std::string& text);       // for element content
std::string xml_cdata(const std::string& text);      // a whole <![CDATA[...]]> section

}  // namespace hostcb
