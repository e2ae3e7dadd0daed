#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "reports/atomic_file.hpp"
#include "app/bench_writer.hpp"
#include "catch_compat.hpp"

using namespace hostcb;

namespace {
BenchReport sample_bench() {
  BenchReport r;
  r.environment.devices = {{0, "NVIDIA <H200>", 9, 0, "GPU-x"}};
  r.environment.driver_version = 13000;
  r.options.launches = 100;
  PathResult fast;
  fast.path = "graph_capture";
  fast.api = "runtime";
  fast.forward = "direct";
  fast.latency = {4.0, 4.4, 5.0, 6.0, 30.0};
  fast.baseline_latency = {4.0, 4.3, 4.9, 5.9, 20.0};
  fast.p50_interval = {4.4 / 4.3, 0.99, 1.06, 2000};
  fast.throughput_interval = {1.05, 0.98, 1.12, 2000};
  fast.throughput = 200000;
  fast.baseline_throughput = 210000;
  PathResult slow = fast;
  slow.path = "stream_host_func";
  slow.forward = "a&b<layer>";  // hostile names are escaped
  slow.latency.p50 = 9.0;
  slow.p50_interval = {};  // none: judged on the point ratio
  r.paths = {fast, slow};
  r.series.push_back({"chain", "host nodes", "us per node", {{1, 5.0, 4.8}, {10, 3.0, 2.9}, {100, 2.8, 2.7}}});
  r.empty_graph_launch_us = 0.18;
  return r;
}
}  // namespace

TEST_CASE("the bench bar applies to direct-layer paths only", "[bench]") {
  BenchReport r = sample_bench();
  CHECK(std::abs(r.paths[0].p50_ratio() - 4.4 / 4.3) < 1e-12);
  CHECK(bench_meets_bar(r));  // the slow one goes through another layer
  r.paths[1].forward = "direct";
  CHECK_FALSE(bench_meets_bar(r));
  CHECK(contains(bench_table(r), "over the bar"));
}

TEST_CASE("bench JSON is versioned and holds every path and series point", "[bench]") {
  auto doc = nlohmann::json::parse(bench_json(sample_bench()));
  CHECK(doc["format"] == "hostcb-bench");
  CHECK(doc["format_version"] == kBenchFormatVersion);
  CHECK(doc["paths"].size() == 2);
  CHECK(doc["paths"][0]["latency_us"]["p99"] == 6.0);
  CHECK(doc["series"][0]["points"].size() == 3);
  CHECK(doc["bar"]["met"] == true);
}

TEST_CASE("the bench page is self-contained, escaped, and draws its plots as SVG", "[bench]") {
  std::string html = bench_html(sample_bench());
  CHECK(contains(html, "<svg"));
  CHECK(contains(html, "<polyline"));
  CHECK(contains(html, "a&amp;b&lt;layer&gt;"));
  CHECK_FALSE(contains(html, "a&b<layer>"));
  CHECK_FALSE(contains(html, "<script"));
#if HOSTCB_HAVE_XMLLINT
  // Well-formed XML (HTML5 with inline SVG): an unescaped name would break it.
  auto well_formed = [](const std::string& text, const std::string& name) {
    std::string path = std::string(HOSTCB_TEST_TMP) + "/" + name;
    write_file_atomically(path, text);
    return std::system((std::string(HOSTCB_XMLLINT) + " --noout " + path + " 2>/dev/null").c_str()) == 0;
  };
  CHECK(well_formed(html, "bench.html"));
  std::string broken = html;
  broken.replace(broken.find("a&amp;b&lt;layer&gt;"), 20, "a&b<layer>");
  CHECK_FALSE(well_formed(broken, "bench-broken.html"));  // the check can fail
#endif
}

TEST_CASE("the bench bar is judged on the interval, shown in table, JSON and page", "[bench]") {
  BenchReport r = sample_bench();
  r.paths.resize(1);
  PathResult& p = r.paths[0];
  p.latency.p50 = 4.6;  // point ratio 1.07, over 1.05; the interval holds 1.05
  p.p50_interval = {4.6 / 4.3, 0.99, 1.12, 2000};
  CHECK(bench_meets_bar(r));
  std::string table = bench_table(r);
  CHECK(contains(table, "[0.990, 1.120]"));
  CHECK(contains(table, "straddles"));
  CHECK(contains(table, "lower bound"));
  CHECK(contains(table, ": met"));
  auto doc = nlohmann::json::parse(bench_json(r));
  CHECK(doc["format_version"] == 2);
  CHECK(doc["paths"][0]["p50_ratio_interval"]["lower"] == 0.99);
  CHECK(doc["paths"][0]["p50_ratio_interval"]["upper"] == 1.12);
  CHECK(doc["paths"][0]["throughput_ratio_interval"]["upper"] == 1.12);
  CHECK(doc["paths"][0]["bar"] == "straddles");
  CHECK(doc["bar"]["met"] == true);
  CHECK(contains(doc["bar"]["rule"].get<std::string>(), "lower bound"));
  std::string html = bench_html(r);
  CHECK(contains(html, "[0.990, 1.120]"));
  CHECK(contains(html, "misses it only when the whole interval lies above"));

  p.p50_interval.lower = 1.051;  // the whole interval over the bar: missed
  CHECK_FALSE(bench_meets_bar(r));
  CHECK(contains(bench_table(r), "over the bar"));
  CHECK(nlohmann::json::parse(bench_json(r))["paths"][0]["bar"] == "over");
  CHECK(contains(bench_html(r), "class=\"over\">missed"));
}
