#include "app/bench_stats.hpp"

#include <algorithm>
#include <cmath>

#include "model/errors.hpp"

namespace hostcb {

Distribution Distribution::of(std::vector<double> samples) {
  Distribution d;
  if (samples.empty()) return d;
  std::sort(samples.begin(), samples.end());
  auto at = [&](double q) { return samples[std::min(samples.size() - 1, static_cast<std::size_t>(q * samples.size()))]; };
  d.min = samples.front();
  d.p50 = at(0.50);
  d.p90 = at(0.90);
  d.p99 = at(0.99);
  d.max = samples.back();
  return d;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

namespace {

// splitmix64: the same stream on every platform (std's distributions are not).
struct SplitMix {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) {  // multiply-shift; the bias is below 2^-40 for n < 2^24
    return static_cast<std::size_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
  }
};

double ratio(double a, double b) { return b > 0 ? a / b : 0; }

}  // namespace

RatioInterval paired_median_ratio(const std::vector<double>& a, const std::vector<double>& b, std::uint64_t seed,
                                  int resamples) {
  const std::size_t n = std::min(a.size(), b.size());
  std::vector<double> ra(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(n));
  std::vector<double> rb(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(n));
  RatioInterval out;
  out.estimate = out.lower = out.upper = ratio(median(ra), median(rb));
  if (n < 2 || out.estimate == 0 || resamples < 1) return out;
  SplitMix rng{seed};
  std::vector<double> ratios(static_cast<std::size_t>(resamples));
  for (double& r : ratios) {
    for (std::size_t k = 0; k < n; ++k) {  // one draw per pair: a pair stays a pair
      std::size_t i = rng.below(n);
      ra[k] = a[i];
      rb[k] = b[i];
    }
    r = ratio(median(ra), median(rb));
  }
  std::sort(ratios.begin(), ratios.end());
  const double tail = (1 - kIntervalLevel) / 2;
  const auto last = ratios.size() - 1;
  out.lower = ratios[static_cast<std::size_t>(std::floor(tail * last))];
  out.upper = ratios[static_cast<std::size_t>(std::ceil((1 - tail) * last))];
  out.resamples = resamples;
  return out;
}

int bootstrap_resamples_for(std::size_t pairs) {
  constexpr double kWork = 4e8;  // pair draws in all
  if (pairs == 0 || pairs * static_cast<double>(kBootstrapResamples) <= kWork) return kBootstrapResamples;
  return std::max(200, static_cast<int>(kWork / static_cast<double>(pairs)));
}

BarVerdict judge_bar(const RatioInterval& r, double bar) {
  if (r.lower > bar) return BarVerdict::over;
  return r.upper <= bar ? BarVerdict::within : BarVerdict::straddles;
}

const char* verdict_name(BarVerdict verdict) {
  switch (verdict) {
    case BarVerdict::within: return "within";
    case BarVerdict::straddles: return "straddles";
    case BarVerdict::over: return "over";
  }
  return "?";
}

std::string bar_rule_text() {
  return str("bar: each direct-layer path's p50 ratio (harness over raw) is judged on a 95% bootstrap interval over "
             "the paired launches (",
             kBootstrapResamples, " resamples, fixed seed); a path misses only when the interval's lower bound is "
             "above ",
             kHarnessCostBar, "x");
}

}  // namespace hostcb
