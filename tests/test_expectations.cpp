#include "catch_compat.hpp"
#include "model/errors.hpp"
#include "app/expectations.hpp"

using namespace hostcb;

namespace {
std::string refusal(const std::string& text) {
  try {
    parse_expectations(text, "x.jsonc");
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

const char* kHeader = "{\"format\": \"hostcb-expectations\", \"format_version\": 1,\n\"expectations\": [\n";

Environment env_with(const std::string& driver, int runtime) {
  Environment env;
  env.driver = driver;
  env.runtime_version = runtime;
  return env;
}

Result result(const std::string& id, Status status) {
  Result r;
  r.id = id;
  r.status = status;
  return r;
}
}  // namespace

TEST_CASE("version bounds compare only the numbers they give", "[expectations]") {
  CHECK(compare_version_prefix("580.159.04", "580") == 0);
  CHECK(compare_version_prefix("580.159.04", "580.160") == -1);
  CHECK(compare_version_prefix("12.4", "12.10") == -1);  // numbers, not text
  CHECK(VersionRange{"550", "580"}.contains("580.159.04"));
  CHECK_FALSE(VersionRange{"550", "575"}.contains("580.159.04"));
  CHECK_FALSE(VersionRange{"12.6", ""}.contains("12.4"));
  CHECK_FALSE(VersionRange{"", "999"}.contains(""));  // an unknown driver is in no range
}

TEST_CASE("the first entry that applies wins, by id, driver and runtime", "[expectations]") {
  Expectations ex = parse_expectations(std::string(kHeader) +
                                           R"({"id": "replay/*", "driver": {"max": "570"}, "expect": ["error"], "reason": "old driver", "link": "l1"},
                                              {"id": "replay/*", "runtime": {"min": "12.4", "max": "12.9"}, "expect": ["failed"], "reason": "12.x", "link": "l2"}
                                              ]})",
                                       "x.jsonc");
  REQUIRE(ex.entries.size() == 2);
  CHECK(ex.entries[1].line == 4);
  CHECK(find_expectation(ex, "replay/a", env_with("560.1", 13000))->reason == "old driver");
  CHECK(find_expectation(ex, "replay/a", env_with("580.159.04", 12040))->reason == "12.x");
  CHECK(find_expectation(ex, "replay/a", env_with("580.159.04", 13000)) == nullptr);
  CHECK(find_expectation(ex, "replay/a", env_with("", 13000)) == nullptr);  // unknown driver
  CHECK(find_expectation(ex, "ordering/a", env_with("560.1", 12040)) == nullptr);
}

TEST_CASE("expected failures become xfail, passes become xpass, other results stay", "[expectations]") {
  Expectations ex = parse_expectations(
      std::string(kHeader) + R"({"id": "f/*", "expect": ["failed"], "reason": "known", "link": "https://x"}]})", "e.jsonc");
  std::vector<Result> results = {result("f/failed", Status::failed), result("f/passed", Status::passed),
                                 result("f/error", Status::error), result("f/skipped", Status::skipped),
                                 result("g/failed", Status::failed)};
  apply_expectations(results, ex, Environment{});
  CHECK(results[0].status == Status::xfail);
  CHECK(results[0].expectation == "known (https://x)");
  CHECK(results[1].status == Status::xpass);
  CHECK(results[2].status == Status::error);  // listed as failed, not error: still an error
  CHECK(results[3].status == Status::skipped);
  CHECK(results[4].status == Status::failed);  // not listed
  Counts counts = count_results(results);
  CHECK(counts.xfail == 1);
  CHECK(counts.xpass == 1);
  CHECK(counts.any_bad());
}

TEST_CASE("a malformed expectations file is refused with its line and column", "[expectations]") {
  CHECK(refusal("{\"format\": \"hostcb-expectations\",\n  \"format_version\": 1\n  \"expectations\": []}")
            .rfind("x.jsonc:3:16: not valid JSON", 0) == 0);
  CHECK(refusal(std::string(kHeader) + R"({"id": "a", "expect": ["fial"], "reason": "r", "link": "l"}]})")
            .rfind("x.jsonc:3:13: \"expect\" lists \"fial\"", 0) == 0);
  CHECK(refusal(std::string(kHeader) + R"({"id": "a", "expect": ["failed"], "reason": "r"}]})")
            .rfind("x.jsonc:3:1: \"link\" must be a non-empty string", 0) == 0);
  CHECK(refusal(std::string(kHeader) + R"({"id": "a", "expect": ["failed"], "reason": "r", "link": "l", "driver": {"min": "5x"}}]})")
            .find("\"driver.min\" must be a version string") != std::string::npos);
  CHECK(refusal("{\"format\": \"other\", \"format_version\": 1, \"expectations\": []}")
            .find("\"format\" must be \"hostcb-expectations\"") != std::string::npos);
  CHECK(refusal(std::string(kHeader) + "]}").empty());  // an empty list is fine
  // Comments are allowed anywhere, and braces inside them do not confuse the positions.
  CHECK(refusal(std::string(kHeader) + "// { not an entry\n/* { */ {\"id\": \"a\", \"expect\": [\"failed\"], \"reason\": \"r\"}]}")
            .rfind("x.jsonc:4:9: \"link\"", 0) == 0);
}
