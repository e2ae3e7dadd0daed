#include "catch_compat.hpp"
#include "reports/xml_escape.hpp"

using namespace hostcb;

TEST_CASE("attributes escape markup and keep whitespace as references", "[xml]") {
  CHECK(xml_attribute("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&apos;");
  CHECK(xml_attribute("t\tn\nr\r") == "t&#9;n&#10;r&#13;");
}

TEST_CASE("element text escapes markup only", "[xml]") {
  CHECK(xml_text("a<b>&\"c'\n") == "a&lt;b&gt;&amp;\"c'\n");
}

TEST_CASE("characters XML 1.0 forbids are dropped and bad UTF-8 becomes U+FFFD", "[xml]") {
  CHECK(xml_clean(std::string("a\x01\x08\x0b\x0c\x1f" "b")) == "ab");
  CHECK(xml_clean(std::string("\xef\xbf\xbe")) == "");       // U+FFFE
  CHECK(xml_clean("\xff") == "\xEF\xBF\xBD");                // stray byte
  CHECK(xml_clean("\xc3") == "\xEF\xBF\xBD");                // truncated sequence
  CHECK(xml_clean("\xc0\xaf") == "\xEF\xBF\xBD");            // overlong '/'
  CHECK(xml_clean("\xed\xa0\x80") == "\xEF\xBF\xBD");        // a surrogate
  CHECK(xml_clean("caf\xc3\xa9 \xf0\x9f\x98\x80") == "caf\xc3\xa9 \xf0\x9f\x98\x80");  // valid stays
}

TEST_CASE("CDATA sections split their terminator so it cannot close them early", "[xml]") {
  CHECK(xml_cdata("x]]>y") == "<![CDATA[x]]]]><![CDATA[>y]]>");
  CHECK(xml_cdata("]]>]]>") == "<![CDATA[]]]]><![CDATA[>]]]]><![CDATA[>]]>");
  CHECK(xml_cdata("plain") == "<![CDATA[plain]]>");
}
