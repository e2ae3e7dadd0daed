// hostcb bench's statistics: distributions of samples, and the interval the bar is
// judged on. Plain C++, no CUDA, so the rule is unit-tested (tests/test_bench_stats.cpp).
//
// The bar's rule, precisely. For each path the two arms are measured launch by launch
// in alternation, so sample i of the harness arm and sample i of the raw arm form a pair
// taken under the same conditions. The statistic is the ratio of medians,
//   R = median(harness latencies) / median(raw latencies)
// (the median being the p50 of Distribution: the sorted samples' element n/2). Its 95%
// interval is a percentile bootstrap over the pairs: draw n pair indices with
// replacement (splitmix64 from a fixed seed, so a report is reproducible from its
// samples), take R of the drawn pairs, repeat; the interval runs from the 2.5th to the
// 97.5th percentile of those R. A direct-layer path misses the bar only when the whole
// interval lies above it (lower bound > kHarnessCostBar): the data show the harness
// costs more than 5% over raw. Upper bound <= bar: shown within; otherwise the interval
// straddles the bar and the path passes (the data do not show a cost over it). A wide
// interval says the run had too few launches to tell: raise --launches.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace hostcb {

inline constexpr double kHarnessCostBar = 1.05;  // direct-layer p50 over its raw baseline
inline constexpr double kIntervalLevel = 0.95;
inline constexpr int kBootstrapResamples = 2000;
inline constexpr std::uint64_t kBootstrapSeed = 0x686f737463620012ull;

struct Distribution {  // microseconds
  double min = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;
  static Distribution of(std::vector<double> samples);
};

// The sorted values' element n/2 (Distribution's p50); 0 for none.
double median(std::vector<double> values);

// A ratio with its bootstrap interval; resamples 0: no interval (too few pairs).
struct RatioInterval {
  double estimate = 0, lower = 0, upper = 0;
  int resamples = 0;
};

// median(a) / median(b) over paired samples (a[i] with b[i]; the longer one is cut to
// the shorter), with the percentile bootstrap interval described above. Fewer than two
// pairs, or a zero median in b: estimate only (or 0), lower = upper = estimate.
RatioInterval paired_median_ratio(const std::vector<double>& a, const std::vector<double>& b,
                                  std::uint64_t seed = kBootstrapSeed, int resamples = kBootstrapResamples);

// kBootstrapResamples, fewer past 200,000 pairs (at least 200) to bound the work.
int bootstrap_resamples_for(std::size_t pairs);

enum class BarVerdict { within, straddles, over };
// within: upper <= bar; over: lower > bar (misses the bar); straddles: in between (passes).
BarVerdict judge_bar(const RatioInterval& ratio, double bar = kHarnessCostBar);
const char* verdict_name(BarVerdict verdict);  // "within", "straddles", "over"
// One line for --help, the table and the page.
std::string bar_rule_text();

}  // namespace hostcb
