#include <stdexcept>
#include <string>

#include "catch_compat.hpp"
#include "model/version_specifier.hpp"

using namespace hostcb;

namespace {
struct Row {
  const char* spec;
  const char* version;
  bool contains;
};
}  // namespace

TEST_CASE("version ranges hold what Python's packaging says for release versions", "[versions]") {
  // Each row's answer is packaging 26.4's (SpecifierSet(spec).contains(Version(version))).
  const Row rows[] = {
      {">=13.0,<13.5", "13.3.1", true},  {">=13.0,<13.5", "13.5.0", false}, {">=13.0,<13.5", "13.4.4", true},
      {">=13.0,<13.5", "12.9.10", false}, {">=13.0,<13.5", "13", true},      {"<13.5", "13.5", false},
      {"<=13.5", "13.5.0.0", true},       {"==12.9.*", "12.9.10", true},     {"==12.9.*", "12.10", false},
      {"==12.9.*", "12.9", true},         {"!=13.3.*", "13.3.1", false},     {"!=13.3.*", "13.4.0", true},
      {"~=0.30", "0.30.4", true},         {"~=0.30", "0.31", true},          {"~=0.30", "1.0", false},
      {"~=13.4.0", "13.4.9", true},       {"~=13.4.0", "13.5.0", false},     {"==13.0", "13.0.0", true},
      {"!=13.0", "13.0.1", true},         {">13.4", "13.4.0", false},        {">13.4", "13.4.1", true},
      {"> 13.4 , <= 14", "14.0", true},
  };
  for (const auto& row : rows) {
    INFO(row.spec << " contains " << row.version);
    CHECK(VersionSpecifier::parse(row.spec).contains(row.version) == row.contains);
  }
}

TEST_CASE("a version that is no plain release is in no range", "[versions]") {
  // packaging would place these; hostcb compares releases only (version_specifier.hpp).
  for (const char* version : {"13.5.0rc1", "1.0.post1", "2.0+local", "", "13..1", "unknown", "1234567890.0"}) {
    INFO(version);
    CHECK_FALSE(VersionSpecifier::parse(">=0").contains(version));
  }
}

TEST_CASE("a malformed version range is refused, saying what is wrong", "[versions]") {
  const std::pair<const char*, const char*> bad[] = {
      {"", "an empty version range"},
      {"13.0", "'13.0' starts with no operator"},
      {">=13.0,", "'' starts with no operator"},
      {">=13.x", "'13.x' is no release version"},
      {"~=13", "~= needs at least two numbers"},
      {">=13.*", "only == and != take a version ending in .*"},
      {"===13.0", "'=13.0' is no release version"},
      {"=>13", "'=>13' starts with no operator"},
      // Issue 33, item 14: the cause of a refusal, and ranges no version is in.
      {">=9999999999", "'9999999999' has a number of 10 digits; a release number has at most 9"},
      {"<1.2.3,>1.2.3", "'<1.2.3,>1.2.3' holds no release version: its clauses exclude each other"},
      {">=2,<1.9", "holds no release version"},
      {"==1.*,!=1.*", "holds no release version"},
      {"<0", "holds no release version"},
      {"==1.2,!=1.2.0", "holds no release version"},
  };
  for (const auto& [text, why] : bad) {
    INFO(text);
    try {
      VersionSpecifier::parse(text);
      FAIL("accepted");
    } catch (const std::invalid_argument& e) {
      CHECK(std::string(e.what()).find(why) != std::string::npos);
    }
  }
}

TEST_CASE("a range that holds some version is kept, however narrow", "[versions]") {
  // Issue 33, item 14: only a range with no version in it is refused.
  for (const char* text : {">1.2.3,<1.2.4", ">=1.2.3,<=1.2.3", "==1.2.*,!=1.2.0", ">0", "<0.0.1", "!=0", "~=1.2,!=1.2.*,<2",
                           ">=999999999,<999999999.1", ">999999999.999999999"}) {
    INFO(text);
    CHECK_NOTHROW(VersionSpecifier::parse(text));
  }
  CHECK(VersionSpecifier::parse(">1.2.3,<1.2.4").contains("1.2.3.1"));
}
