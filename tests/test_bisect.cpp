// hostcb bisect's choice of versions (app/bisect.hpp): a planted boundary is found in
// either direction, in about log2(versions) runs, past versions that cannot be judged;
// --all judges every version and names a boundary only when there is exactly one.
#include <string>
#include <vector>

#include "app/bisect.hpp"
#include "catch_compat.hpp"

using namespace hostcb;

namespace {

// Versions judged from a string of verdicts, one letter a version: g good, b bad, u unknown.
struct Planted {
  std::string verdicts;
  std::vector<std::size_t> asked;
  VersionOutcome operator()(std::size_t i) {
    asked.push_back(i);
    const char c = verdicts.at(i);
    return {c == 'g' ? BisectVerdict::good : c == 'b' ? BisectVerdict::bad : BisectVerdict::unknown, std::string(1, c)};
  }
};

Bisection run(Planted& planted, bool all = false) {
  return bisect_versions(planted.verdicts.size(), [&](std::size_t i) { return planted(i); }, all);
}

}  // namespace

TEST_CASE("bisect finds the first bad version after the last good one, in few runs", "[bisect]") {
  for (std::size_t first_bad = 1; first_bad < 16; ++first_bad) {
    Planted planted{std::string(first_bad, 'g') + std::string(16 - first_bad, 'b'), {}};
    const Bisection b = run(planted);
    INFO(planted.verdicts);
    REQUIRE(b.before.has_value());
    CHECK(*b.before == first_bad - 1);
    CHECK(*b.after == first_bad);
    CHECK_FALSE(b.between_unknown);
    CHECK(planted.asked.size() <= 6);  // the two ends, then log2(16)
    CHECK(b.order == planted.asked);
  }
}

TEST_CASE("bisect finds a fix as well: the last bad and the first good", "[bisect]") {
  Planted planted{"bbbbbbg", {}};
  const Bisection b = run(planted);
  REQUIRE(b.before.has_value());
  CHECK(*b.before == 5);
  CHECK(*b.after == 6);
}

TEST_CASE("bisect steps over versions that cannot be judged, and says the boundary spans them", "[bisect]") {
  Planted ends{"uggguubbu", {}};
  Bisection b = run(ends);
  REQUIRE(b.before.has_value());
  CHECK(*b.before == 3);
  CHECK(*b.after == 6);
  CHECK(b.between_unknown);
  Planted none{"uuu", {}};
  b = run(none);
  CHECK_FALSE(b.before.has_value());
  CHECK(b.why_none == "no version could be judged");
  Planted one{"ugu", {}};
  CHECK(run(one).why_none == "only one version could be judged");
}

TEST_CASE("bisect names no boundary when the ends agree, and runs only them", "[bisect]") {
  Planted planted{"gggbgg", {}};
  const Bisection b = run(planted);
  CHECK_FALSE(b.before.has_value());
  CHECK(b.why_none.find("both good") != std::string::npos);
  CHECK(planted.asked == std::vector<std::size_t>{0, 5});
}

TEST_CASE("bisect --all runs every version and wants exactly one change", "[bisect]") {
  Planted once{"ggubb", {}};
  Bisection b = run(once, true);
  CHECK(once.asked.size() == 5);
  REQUIRE(b.before.has_value());
  CHECK(*b.before == 1);
  CHECK(*b.after == 3);
  CHECK(b.between_unknown);
  Planted twice{"gbgg", {}};
  b = run(twice, true);
  CHECK_FALSE(b.before.has_value());
  CHECK(b.why_none == "2 changes between the versions, not one");
  Planted single{"g", {}};
  CHECK(run(single).why_none == "fewer than two versions");
}
