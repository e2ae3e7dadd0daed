#include <fstream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

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

TEST_CASE("a version packaging refuses is in no range, every other one is placed", "[versions]") {
  // Issue 36: dev, pre, post and local versions were in no range, without a word.
  for (const char* version : {"", "13..1", "unknown", "1.0+", "13.x"}) {
    INFO(version);
    CHECK_FALSE(VersionSpecifier::parse(">=0").contains(version));
  }
  for (const char* version : {"13.5.0rc1", "1.0.post1", "2.0+local", "1234567890.0", "13.4.5.dev3+g1234abc"}) {
    INFO(version);
    CHECK(VersionSpecifier::parse(">=0").contains(version));
  }
  // The issue's own case: a development build inside the range, a pre-release of its end not.
  CHECK(VersionSpecifier::parse(">=12.9,<13.5").contains("13.4.5.dev3+g1234abc"));
  CHECK_FALSE(VersionSpecifier::parse(">=12.9,<13.5").contains("13.5.0rc1"));
  CHECK(VersionSpecifier::parse("==13.4.*").contains("13.4.5.dev3+g1234abc"));
}

TEST_CASE("a malformed version range is refused, saying what is wrong", "[versions]") {
  const std::pair<const char*, const char*> bad[] = {
      {"", "an empty version range"},
      {"13.0", "'13.0' starts with no operator"},
      {">=13.0,", "'' starts with no operator"},
      {">=13.x", "'13.x' is no version (PEP 440: "},
      {"~=13", "~= needs at least two numbers"},
      {">=13.*", "only == and != take a version ending in .*"},
      {"==13.0rc1.*", ".* follows release numbers only"},
      {">=13.0+local", "only == and != take a local version"},
      {"===a b", "=== takes one text without spaces"},
      {"===\xc3\xa4", "ASCII characters only"},
      {"=>13", "'=>13' starts with no operator"},
      // Issue 33, item 14, and 36: ranges no version is in (packaging's is_unsatisfiable()).
      {"<1.2.3,>1.2.3", "'<1.2.3,>1.2.3' holds no version: no version satisfies all its clauses"},
      {">=2,<1.9", "holds no version"},
      {"==1.*,!=1.*", "holds no version"},
      {"<0", "holds no version"},
      {"==1.2,!=1.2.0", "holds no version"},
      {">1.0a1,<1.0a2.dev0", "holds no version"},
      {"===1.0,===1.0.0", "holds no version"},
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

namespace {
nlohmann::json pep440_table() {
  std::ifstream in(std::string(HOSTCB_INPUTS_DIR) + "/pep440/table.json");
  REQUIRE(in);
  return nlohmann::json::parse(in);
}

// Whether `text` has a clause that is empty: packaging drops it, hostcb refuses it.
bool has_empty_clause(const std::string& text) {
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = text.find(',', start);
    const std::string clause = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (clause.find_first_not_of(" \t\n\r\f\v") == std::string::npos) return true;
    if (comma == std::string::npos) return false;
    start = comma + 1;
  }
}
}  // namespace

TEST_CASE("versions read and order as Python's packaging reads and orders them", "[versions]") {
  // tests/inputs/pep440/table.json: packaging's answers (scripts/pep440-table.py).
  const nlohmann::json table = pep440_table();
  std::vector<std::pair<Version, int>> placed;
  for (const auto& row : table["versions"]) {
    const std::string text = row[0];
    INFO("version '" << text << "'");
    const std::optional<Version> v = Version::parse(text);
    REQUIRE(v.has_value() == !row[1].is_null());
    if (!v) continue;
    CHECK(v->str() == row[1].get<std::string>());
    placed.emplace_back(*v, row[2].get<int>());
  }
  CHECK(placed.size() >= 250);
  std::size_t wrong = 0;
  for (const auto& [a, rank_a] : placed)
    for (const auto& [b, rank_b] : placed) {
      const int expected = rank_a < rank_b ? -1 : rank_a > rank_b ? 1 : 0;
      if (compare(a, b) != expected && ++wrong <= 5) FAIL_CHECK(a.str() << " vs " << b.str() << ": " << compare(a, b));
    }
  CHECK(wrong == 0);
}

TEST_CASE("version ranges accept, refuse and hold what Python's packaging says", "[versions]") {
  const nlohmann::json table = pep440_table();
  std::vector<std::string> versions;
  for (const auto& row : table["versions"]) versions.push_back(row[0]);
  std::size_t compared = 0, refused_as_empty = 0;
  for (const auto& row : table["ranges"]) {
    const std::string text = row[0];
    const bool valid = row[1], unsatisfiable = valid && row[2].get<bool>();
    INFO("range '" << text << "'");
    std::string refusal;
    std::optional<VersionSpecifier> spec;
    try {
      spec = VersionSpecifier::parse(text);
    } catch (const std::invalid_argument& e) {
      refusal = e.what();
    }
    if (!valid) {
      CHECK_FALSE(spec.has_value());
      continue;
    }
    if (unsatisfiable) {  // packaging holds it; hostcb refuses it, saying why
      CHECK(contains(refusal, "holds no version"));
      CHECK(row[3].get<std::string>().find('1') == std::string::npos);
      ++refused_as_empty;
      continue;
    }
    if (!spec) {  // only a range with an empty clause, which packaging drops
      CHECK(has_empty_clause(text));
      continue;
    }
    const std::string bits = row[3];
    REQUIRE(bits.size() == versions.size());
    for (std::size_t i = 0; i < versions.size(); ++i) {
      INFO("version '" << versions[i] << "'");
      CHECK(spec->contains(versions[i]) == (bits[i] == '1'));
    }
    ++compared;
  }
  CHECK(compared >= 150);
  CHECK(refused_as_empty >= 20);
}
