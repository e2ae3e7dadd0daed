// The bench bar's rule (app/bench_stats.hpp): a paired bootstrap interval for the ratio
// of medians, and a path misses the bar only when the whole interval lies above it.
#include <cmath>
#include <cstdint>
#include <iostream>
#include <sstream>

#include "app/bench_stats.hpp"
#include "app/cli.hpp"
#include "cases/cases.hpp"
#include "catch_compat.hpp"

using namespace hostcb;

namespace {

// Deterministic "latencies": a slow drift both arms share (as on the GPU: neighbouring
// launches see the same conditions), plus a little noise of each arm's own.
struct Arms {
  std::vector<double> harness, raw;
};
Arms drifting(std::size_t n, double cost, double noise) {
  Arms arms;
  std::uint64_t state = 12345;
  auto uniform = [&] {  // [0, 1)
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state >> 11) / 9007199254740992.0;
  };
  for (std::size_t i = 0; i < n; ++i) {
    double base = 10.0 + 3.0 * std::sin(static_cast<double>(i) / 50.0);
    arms.raw.push_back(base * (1 + noise * (uniform() - 0.5)));
    arms.harness.push_back(base * cost * (1 + noise * (uniform() - 0.5)));
  }
  return arms;
}

}  // namespace

TEST_CASE("bench median is Distribution's p50", "[bench][stats]") {
  std::vector<double> v{5, 1, 4, 2, 3, 9};
  CHECK(median(v) == Distribution::of(v).p50);
  CHECK(median(v) == 4);  // the sorted values' element n/2
  CHECK(median({}) == 0);
}

TEST_CASE("bench bar: a small cost is within the bar", "[bench][stats]") {
  Arms arms = drifting(2000, 1.01, 0.02);
  RatioInterval r = paired_median_ratio(arms.harness, arms.raw);
  CHECK(r.resamples == kBootstrapResamples);
  CHECK(r.estimate == median(arms.harness) / median(arms.raw));
  CHECK(r.lower <= r.estimate);
  CHECK(r.estimate <= r.upper);
  CHECK(r.lower > 0.98);
  CHECK(r.upper < 1.05);
  CHECK(judge_bar(r) == BarVerdict::within);
}

TEST_CASE("bench bar: a cost clearly over 1.05 misses it", "[bench][stats]") {
  Arms arms = drifting(2000, 1.15, 0.02);
  RatioInterval r = paired_median_ratio(arms.harness, arms.raw);
  CHECK(r.lower > 1.05);
  CHECK(judge_bar(r) == BarVerdict::over);
  CHECK(std::string(verdict_name(judge_bar(r))) == "over");
}

TEST_CASE("bench bar: a noisy path whose median is over 1.05 but whose interval holds it passes", "[bench][stats]") {
  // Two modes 2 us apart (the callback thread's wake-up on the H200), mixed near half
  // and half in each arm: the point ratio lands on 1.2, the data cannot tell.
  Arms arms;
  for (int i = 0; i < 41; ++i) {
    arms.raw.push_back(i % 2 == 0 ? 10.0 : 12.0);       // 21 at 10, 20 at 12: median 10
    arms.harness.push_back(i % 2 == 0 ? 12.0 : 10.0);   // 21 at 12, 20 at 10: median 12
  }
  RatioInterval r = paired_median_ratio(arms.harness, arms.raw);
  CHECK(r.estimate > kHarnessCostBar);  // the old rule (p50 ratio <= 1.05) called this a miss
  CHECK(r.lower <= kHarnessCostBar);
  CHECK(r.upper > kHarnessCostBar);
  CHECK(judge_bar(r) == BarVerdict::straddles);
}

TEST_CASE("bench bar: the interval is reproducible and follows the pairs", "[bench][stats]") {
  Arms arms = drifting(500, 1.03, 0.05);
  RatioInterval a = paired_median_ratio(arms.harness, arms.raw), b = paired_median_ratio(arms.harness, arms.raw);
  CHECK(a.lower == b.lower);
  CHECK(a.upper == b.upper);
  RatioInterval other = paired_median_ratio(arms.harness, arms.raw, kBootstrapSeed + 1);
  CHECK(std::abs(other.lower - a.lower) < 0.01);
  // Pairing matters: the shared drift cancels within a pair. Unpaired (the raw arm
  // reversed), the same samples give a wider interval.
  std::vector<double> reversed(arms.raw.rbegin(), arms.raw.rend());
  RatioInterval unpaired = paired_median_ratio(arms.harness, reversed);
  CHECK(unpaired.upper - unpaired.lower > a.upper - a.lower);
}

TEST_CASE("bench bar: degenerate inputs give a point, not a crash", "[bench][stats]") {
  RatioInterval none = paired_median_ratio({}, {});
  CHECK(none.estimate == 0);
  CHECK(none.resamples == 0);
  RatioInterval one = paired_median_ratio({2.0}, {1.0});
  CHECK(one.estimate == 2.0);
  CHECK(one.lower == 2.0);
  CHECK(judge_bar(one) == BarVerdict::over);
  CHECK(judge_bar({1.0, 1.0, 1.05, 1}) == BarVerdict::within);  // at the bar is within it
  CHECK(bootstrap_resamples_for(2000) == kBootstrapResamples);
  CHECK(bootstrap_resamples_for(10000000) == 200);
}

TEST_CASE("bench --help states the interval rule", "[bench][cli]") {
  std::ostringstream out;
  auto* old_out = std::cout.rdbuf(out.rdbuf());
  int code = run_cli(cases::register_all_cases, {"hostcb", "bench", "--help"});
  std::cout.rdbuf(old_out);
  CHECK(code == 0);
  CHECK(contains(out.str(), "95% percentile bootstrap interval"));
  CHECK(contains(out.str(), "lower bound is above 1.05"));
  CHECK(contains(bar_rule_text(), "lower bound"));
}
