#include "reports/xml_escape.hpp"

namespace hostcb {

namespace {

bool xml_allows(char32_t c) {
  return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) ||
         (c >= 0x10000 && c <= 0x10FFFF);
}

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

// Decodes one code point at text[i], advancing i; returns U+FFFD for a malformed,
// overlong or surrogate sequence.
char32_t decode(const std::string& text, std::size_t& i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char b0 = byte(i);
  int length = b0 < 0x80 ? 1 : (b0 >> 5) == 0x6 ? 2 : (b0 >> 4) == 0xE ? 3 : (b0 >> 3) == 0x1E ? 4 : 0;
  if (length == 0 || i + length > text.size()) {
    ++i;
    return 0xFFFD;
  }
  char32_t c = length == 1 ? b0 : length == 2 ? (b0 & 0x1F) : length == 3 ? (b0 & 0x0F) : (b0 & 0x07);
  for (int k = 1; k < length; ++k) {
    unsigned char b = byte(i + k);
    if ((b >> 6) != 0x2) {
      ++i;
      return 0xFFFD;
    }
    c = (c << 6) | (b & 0x3F);
  }
  static const char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  i += length;
  if (c < smallest[length] || (c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF) return 0xFFFD;
  return c;
}

template <class Emit>
std::string transform(const std::string& text, Emit emit) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    char32_t c = decode(text, i);
    if (xml_allows(c)) emit(out, c);
  }
  return out;
}

}  // namespace

std::string xml_clean(const std::string& text) {
  return transform(text, [](std::string& out, char32_t c) { append_utf8(out, c); });
}

std::string xml_attribute(const std::string& text) {
  return transform(text, [](std::string& out, char32_t c) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      case '\t': out += "&#9;"; break;
      case '\n': out += "&#10;"; break;
      case '\r': out += "&#13;"; break;
      default: append_utf8(out, c);
    }
  });
}

std::string xml_text(const std::string& text) {
  return transform(text, [](std::string& out, char32_t c) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      default: append_utf8(out, c);
    }
  });
}

std::string xml_cdata(const std::string& text) {
  std::string clean = xml_clean(text);
  std::string out = "<![CDATA[";
  std::size_t start = 0, found;
  while ((found = clean.find("]]>", start)) != std::string::npos) {
    out += clean.substr(start, found - start) + "]]]]><![CDATA[>";
    start = found + 3;
  }
  return out + clean.substr(start) + "]]>";
}

}  // namespace hostcb
