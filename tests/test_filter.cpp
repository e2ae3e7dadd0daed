#include "catch_compat.hpp"
#include "model/errors.hpp"
#include "model/filter.hpp"

using namespace hostcb;

TEST_CASE("globs: star is any run and question mark one character, anchored at both ends", "[filter]") {
  CHECK(glob_match("*", ""));
  CHECK(glob_match("*", "replay/api=driver"));
  CHECK(glob_match("replay/*", "replay/api=driver"));
  CHECK_FALSE(glob_match("replay/*", "xreplay/api=driver"));
  CHECK(glob_match("*api=driver*", "replay/api=driver/build=node"));
  CHECK(glob_match("replay/api=?river", "replay/api=driver"));
  CHECK_FALSE(glob_match("replay/api=?river", "replay/api=river"));
  CHECK(glob_match("*a*b*c", "xaxxbxxc"));
  CHECK_FALSE(glob_match("*a*b*c", "xaxxbxx"));
  CHECK(glob_match("a**b", "ab"));
}

TEST_CASE("gtest-style filters with positive and negative patterns", "[filter]") {
  Filter f = Filter::parse("replay/*:stream_callback/*-*replays=100*:*api=driver*");
  CHECK(f.positive() == std::vector<std::string>{"replay/*", "stream_callback/*"});
  CHECK(f.negative() == std::vector<std::string>{"*replays=100*", "*api=driver*"});
  CHECK(f.matches("replay/api=runtime/replays=5"));
  CHECK(f.matches("stream_callback/api=runtime/callbacks=5"));
  CHECK_FALSE(f.matches("replay/api=runtime/replays=100"));
  CHECK_FALSE(f.matches("replay/api=driver/replays=5"));
  CHECK_FALSE(f.matches("capture_contract/api=runtime"));
}

TEST_CASE("a filter with only negatives keeps everything else", "[filter]") {
  Filter f = Filter::parse("-*driver*");
  CHECK(f.positive() == std::vector<std::string>{"*"});
  CHECK(f.matches("replay/api=runtime"));
  CHECK_FALSE(f.matches("replay/api=driver"));
}

TEST_CASE("empty patterns are errors", "[filter]") {
  CHECK_THROWS_AS(Filter::parse(""), UsageError);  // an unset $FILTER is not a full run
  CHECK_THROWS_AS(Filter::parse("a::b"), UsageError);
  CHECK_THROWS_AS(Filter::parse("a:"), UsageError);
  CHECK_THROWS_AS(Filter::parse("a-"), UsageError);
  CHECK_THROWS_AS(Filter::parse("a-b:"), UsageError);
}

TEST_CASE("axis overrides: name=v1,v2", "[filter]") {
  AxisOverride o = parse_axis_override("replays=1,7");
  CHECK(o.axis == "replays");
  CHECK(o.values == std::vector<std::string>{"1", "7"});
  for (const char* bad : {"replays", "=1", "replays=", "replays=1,,2", "replays=1,1"})
    CHECK_THROWS_AS(parse_axis_override(bad), UsageError);
}

TEST_CASE("axis overrides: ranges of whole numbers, mixed with single values", "[filter]") {
  CHECK(parse_axis_override("seed=1-3,9").values == std::vector<std::string>{"1", "2", "3", "9"});
  CHECK(parse_axis_override("seed=5-5").values == std::vector<std::string>{"5"});
  CHECK(parse_axis_override("seed=1-1000").values.size() == 1000);
  CHECK(parse_axis_override("seed=1-1000000").values.size() == 1000000);
  for (const char* bad : {"seed=3-1", "seed=1-", "seed=-3", "seed=a-3", "seed=1-2-3", "seed=1-3,2",
                          "seed=0-1000000", "seed=1-1000000,1000001", "seed=5-9,1-5", "seed=1-5,3-4", "seed=9,1-9"})
    CHECK_THROWS_AS(parse_axis_override(bad), UsageError);
  CHECK(parse_axis_override("seed=6-9,1-5,10").values.size() == 10);
  CHECK(parse_axis_override("seed=1-5,007").values.size() == 6);  // "007" is not 7: the axis refuses it later
}
