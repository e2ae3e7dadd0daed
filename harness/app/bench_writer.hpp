// hostcb bench's outputs: a console table, versioned JSON, and a self-contained HTML page
// with the plots drawn as inline SVG (no script, no network). The page is also
// well-formed XML, so the tests can check that every name in it is escaped.
#pragma once
#include <string>

#include "app/bench.hpp"

namespace hostcb {

inline constexpr int kBenchFormatVersion = 2;  // 2: intervals, and the bar judged on them

std::string bench_table(const BenchReport& report);
std::string bench_json(const BenchReport& report);
std::string bench_html(const BenchReport& report);
// Whether no direct-layer path misses the bar (app/bench_stats.hpp states the rule).
bool bench_meets_bar(const BenchReport& report);

}  // namespace hostcb
