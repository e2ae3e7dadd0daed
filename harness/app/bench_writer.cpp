#include "app/bench_writer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "model/errors.hpp"
#include "reports/xml_escape.hpp"

namespace hostcb {

namespace {

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// Only direct-layer paths are held to the bar; the rule is in app/bench_stats.hpp.
bool judged(const PathResult& p) { return p.forward == "direct"; }
BarVerdict verdict(const PathResult& p) { return judge_bar(p.bar_interval()); }
bool under_bar(const PathResult& p) { return !judged(p) || verdict(p) != BarVerdict::over; }
std::string interval_text(const RatioInterval& r) { return str("[", fixed(r.lower, 3), ", ", fixed(r.upper, 3), "]"); }
nlohmann::ordered_json interval_json(const RatioInterval& r) {
  return {{"estimate", r.estimate}, {"lower", r.lower}, {"upper", r.upper}, {"level", kIntervalLevel},
          {"resamples", r.resamples}};
}

nlohmann::ordered_json distribution_json(const Distribution& d) {
  return {{"min", d.min}, {"p50", d.p50}, {"p90", d.p90}, {"p99", d.p99}, {"max", d.max}};
}

std::string device_line(const Environment& env) {
  std::string gpu = env.devices.empty() ? "no GPU" : env.devices[std::min<std::size_t>(env.selected_device, env.devices.size() - 1)].name;
  return str(gpu, ", driver ", env.driver_version, ", runtime ", env.runtime_version, ", hostcb ", env.hostcb_version,
             " (", env.git_revision, ")");
}

// --- SVG ------------------------------------------------------------------------------

const char* kMeasured = "#c0392b";
const char* kBaseline = "#2c7bb6";

// One horizontal box per arm: a line from min to p99, a box from p50 to p90, a tick at
// p50, a dot at max (drawn at the edge when off the scale).
std::string latency_svg(const std::vector<const PathResult*>& rows) {
  double top = 1;
  for (const auto* p : rows) top = std::max({top, p->latency.p99, p->baseline_latency.p99});
  top *= 1.15;
  const double left = 300, width = 560, row_h = 34;
  const double height = 40 + row_h * rows.size();
  auto x = [&](double us) { return left + width * std::min(us, top) / top; };
  std::string svg = str("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"", left + width + 30, "\" height=\"", height,
                        "\" font-family=\"sans-serif\" font-size=\"12\">\n");
  for (int t = 0; t <= 5; ++t) {
    double us = top * t / 5, px = x(us);
    svg += str("<line x1=\"", px, "\" y1=\"20\" x2=\"", px, "\" y2=\"", height - 18, "\" stroke=\"#ddd\"/>",
               "<text x=\"", px, "\" y=\"", height - 4, "\" text-anchor=\"middle\">", fixed(us, 1), " us</text>\n");
  }
  double y = 28;
  for (const auto* p : rows) {
    svg += str("<text x=\"", left - 8, "\" y=\"", y + 12, "\" text-anchor=\"end\">",
               xml_text(p->path + " · " + p->api + " · " + p->forward), "</text>\n");
    int arm = 0;
    for (const Distribution* d : {&p->latency, &p->baseline_latency}) {
      const char* colour = arm == 0 ? kMeasured : kBaseline;
      double cy = y + 6 + arm * 12;
      svg += str("<line x1=\"", x(d->min), "\" y1=\"", cy, "\" x2=\"", x(d->p99), "\" y2=\"", cy, "\" stroke=\"", colour,
                 "\"/>", "<rect x=\"", x(d->p50), "\" y=\"", cy - 4, "\" width=\"", std::max(1.0, x(d->p90) - x(d->p50)),
                 "\" height=\"8\" fill=\"", colour, "\" fill-opacity=\"0.35\" stroke=\"", colour, "\"/>",
                 "<line x1=\"", x(d->p50), "\" y1=\"", cy - 5, "\" x2=\"", x(d->p50), "\" y2=\"", cy + 5,
                 "\" stroke=\"", colour, "\" stroke-width=\"2\"/>", "<circle cx=\"", x(d->max), "\" cy=\"", cy,
                 "\" r=\"2\" fill=\"", colour, "\"/>\n");
      ++arm;
    }
    y += row_h;
  }
  return svg + "</svg>\n";
}

// A line chart, x on a log scale, two lines: through the harness and raw.
std::string series_svg(const Series& series) {
  const double left = 70, width = 520, top_px = 20, height = 240;
  double xmin = 1e300, xmax = 0, ymax = 0;
  for (const auto& p : series.points) {
    xmin = std::min(xmin, p.x);
    xmax = std::max(xmax, p.x);
    ymax = std::max({ymax, p.us, p.baseline_us});
  }
  if (series.points.empty()) return "";
  ymax = ymax > 0 ? ymax * 1.15 : 1;
  double lx0 = std::log10(xmin), lx1 = std::max(lx0 + 1e-9, std::log10(xmax));
  auto px = [&](double v) { return left + width * (std::log10(v) - lx0) / (lx1 - lx0); };
  auto py = [&](double v) { return top_px + height * (1 - v / ymax); };
  std::string svg = str("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"", left + width + 40, "\" height=\"",
                        top_px + height + 50, "\" font-family=\"sans-serif\" font-size=\"12\">\n");
  for (int t = 0; t <= 4; ++t) {
    double v = ymax * t / 4;
    svg += str("<line x1=\"", left, "\" y1=\"", py(v), "\" x2=\"", left + width, "\" y2=\"", py(v),
               "\" stroke=\"#ddd\"/><text x=\"", left - 6, "\" y=\"", py(v) + 4, "\" text-anchor=\"end\">", fixed(v, 2),
               "</text>\n");
  }
  for (const auto& p : series.points)
    svg += str("<text x=\"", px(p.x), "\" y=\"", top_px + height + 16, "\" text-anchor=\"middle\">", fixed(p.x, 0),
               "</text>\n");
  svg += str("<text x=\"", left + width / 2, "\" y=\"", top_px + height + 36, "\" text-anchor=\"middle\">",
             xml_text(series.x_label), "</text>\n<text x=\"14\" y=\"", top_px + height / 2,
             "\" transform=\"rotate(-90 14 ", top_px + height / 2, ")\" text-anchor=\"middle\">", xml_text(series.y_label),
             "</text>\n");
  for (int arm = 0; arm < 2; ++arm) {
    std::string points;
    for (const auto& p : series.points) points += str(px(p.x), ",", py(arm == 0 ? p.us : p.baseline_us), " ");
    const char* colour = arm == 0 ? kMeasured : kBaseline;
    svg += str("<polyline fill=\"none\" stroke=\"", colour, "\" stroke-width=\"2\" points=\"", points, "\"/>\n");
    for (const auto& p : series.points)
      svg += str("<circle cx=\"", px(p.x), "\" cy=\"", py(arm == 0 ? p.us : p.baseline_us), "\" r=\"3\" fill=\"", colour,
                 "\"/>\n");
  }
  return svg + "</svg>\n";
}

}  // namespace

bool bench_meets_bar(const BenchReport& report) {
  return std::all_of(report.paths.begin(), report.paths.end(), under_bar);
}

std::string bench_table(const BenchReport& r) {
  std::string out = str("hostcb bench on ", device_line(r.environment), "\n", r.options.launches,
                        " launches per path and arm; latency (launch call to callback entry, sync per launch) with "
                        "the arms alternating launch by launch, throughput in 10 alternating rounds. Ratios read as "
                        "cost (above 1: the harness arm is slower): p50 harness/raw, throughput raw/harness; "
                        "[95% bootstrap interval]\n\n");
  char line[640];
  std::snprintf(line, sizeof line, "%-18s %-8s %-22s %8s %8s %8s %8s %8s | %8s %7s %-16s %-9s | %9s %9s %7s %-16s\n",
                "path", "api", "forward", "min us", "p50 us", "p90 us", "p99 us", "max us", "raw p50", "ratio",
                "95% interval", "bar", "launch/s", "raw l/s", "ratio", "95% interval");
  out += line;
  for (const auto& p : r.paths) {
    std::snprintf(line, sizeof line,
                  "%-18s %-8s %-22s %8.2f %8.2f %8.2f %8.2f %8.1f | %8.2f %7.3f %-16s %-9s | %9.0f %9.0f %7.3f %-16s%s\n",
                  p.path.c_str(), p.api.c_str(), p.forward.c_str(), p.latency.min, p.latency.p50, p.latency.p90,
                  p.latency.p99, p.latency.max, p.baseline_latency.p50, p.p50_ratio(),
                  interval_text(p.bar_interval()).c_str(), judged(p) ? verdict_name(verdict(p)) : "-", p.throughput,
                  p.baseline_throughput, p.throughput_ratio(), interval_text(p.throughput_interval).c_str(),
                  under_bar(p) ? "" : "  over the bar");
    out += line;
  }
  out += str("\none-empty-node graph launch: ", fixed(r.empty_graph_launch_us, 3), " us\n");
  for (const auto& s : r.series) {
    out += str("\n", s.name, ": ", s.x_label, " -> ", s.y_label, " (harness / raw)\n");
    for (const auto& p : s.points) out += str("  ", fixed(p.x, 0), ": ", fixed(p.us, 3), " / ", fixed(p.baseline_us, 3), "\n");
  }
  out += str("\n", bar_rule_text(), ": ", bench_meets_bar(r) ? "met" : "MISSED", "\n");
  for (const auto& problem : r.problems) out += "problem: " + problem + "\n";
  return out;
}

std::string bench_json(const BenchReport& r) {
  nlohmann::ordered_json paths = nlohmann::ordered_json::array();
  for (const auto& p : r.paths)
    paths.push_back({{"path", p.path},
                     {"api", p.api},
                     {"forward", p.forward},
                     {"latency_us", distribution_json(p.latency)},
                     {"baseline_latency_us", distribution_json(p.baseline_latency)},
                     {"p50_ratio", p.p50_ratio()},
                     {"p50_ratio_interval", interval_json(p.bar_interval())},
                     {"bar", judged(p) ? verdict_name(verdict(p)) : "not judged"},
                     {"throughput_per_s", p.throughput},
                     {"baseline_throughput_per_s", p.baseline_throughput},
                     {"throughput_ratio", p.throughput_ratio()},
                     {"throughput_ratio_interval", interval_json(p.throughput_interval)}});
  nlohmann::ordered_json series = nlohmann::ordered_json::array();
  for (const auto& s : r.series) {
    nlohmann::ordered_json points = nlohmann::ordered_json::array();
    for (const auto& p : s.points) points.push_back({{"x", p.x}, {"us", p.us}, {"baseline_us", p.baseline_us}});
    series.push_back({{"name", s.name}, {"x_label", s.x_label}, {"y_label", s.y_label}, {"points", points}});
  }
  nlohmann::ordered_json devices = nlohmann::ordered_json::array();
  for (const auto& d : r.environment.devices) devices.push_back({{"name", d.name}, {"uuid", d.uuid}});
  nlohmann::ordered_json doc = {
      {"format", "hostcb-bench"},
      {"format_version", kBenchFormatVersion},
      {"environment",
       {{"hostcb_version", r.environment.hostcb_version},
        {"git_revision", r.environment.git_revision},
        {"hostname", r.environment.hostname},
        {"driver_version", r.environment.driver_version},
        {"runtime_version", r.environment.runtime_version},
        {"devices", devices}}},
      {"options", {{"launches", r.options.launches}, {"warmup", r.options.warmup}, {"quick", r.options.quick}}},
      {"bar",
       {{"p50_ratio_at_most", kHarnessCostBar},
        {"judged_on", "lower bound of the 95% paired bootstrap interval of the ratio of medians"},
        {"interval_level", kIntervalLevel},
        {"resamples", kBootstrapResamples},
        {"seed", kBootstrapSeed},
        {"rule", bar_rule_text()},
        {"met", bench_meets_bar(r)}}},
      {"empty_graph_launch_us", r.empty_graph_launch_us},
      {"paths", paths},
      {"series", series},
      {"problems", r.problems}};
  return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::string bench_html(const BenchReport& r) {
  std::string html = str(
      "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\"><head><meta charset=\"utf-8\"/>"
      "<title>hostcb bench</title>\n"
      "<style>body{font-family:sans-serif;margin:24px;color:#222}table{border-collapse:collapse;font-size:12px}"
      "td,th{border:1px solid #ccc;padding:3px 6px;text-align:right}th{background:#f4f4f4}td.l{text-align:left}"
      ".over{color:#c0392b;font-weight:bold}.key span{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px}"
      "</style></head><body>\n<h1>hostcb bench</h1>\n<p>",
      xml_text(device_line(r.environment)), "; ", r.options.launches,
      " launches per path and arm. Latency: from the launch call to the callback's entry with a sync after each launch, "
      "the two arms alternating launch by launch (for "
      "graphs of several host functions, the first one). Ratios are harness over raw: the same CUDA calls with a bare "
      "function and no probe, channel or forwarding layer; throughput's ratio is raw over harness, so both read as "
      "a cost (above 1: the harness arm is slower). Intervals are 95% bootstrap intervals over the paired launches "
      "(latency) or paired rounds (throughput).</p>\n<p><b>Bar</b>: each direct-layer path's p50 within ",
      kHarnessCostBar, "&#215; its raw baseline, judged on the interval: a path misses it only when the whole "
      "interval lies above ", kHarnessCostBar, " (within: the interval lies at or below it; straddles: it holds ",
      kHarnessCostBar, ", so the data do not show a cost over the bar). ", kBootstrapResamples,
      " resamples of the pairs, fixed seed. Verdict: <b class=\"", bench_meets_bar(r) ? "" : "over", "\">",
      bench_meets_bar(r) ? "met" : "missed", "</b>. One-empty-node graph launch: ", fixed(r.empty_graph_launch_us, 3),
      " us.</p>\n<p class=\"key\"><span style=\"background:", kMeasured, "\"></span>through the harness<span style=\"background:",
      kBaseline, "\"></span>raw baseline</p>\n");
  for (const char* api : {"runtime", "driver"}) {
    std::vector<const PathResult*> rows;
    for (const auto& p : r.paths)
      if (p.api == api) rows.push_back(&p);
    if (rows.empty()) continue;
    html += str("<h2>Latency, ", api, " API</h2>\n<p>Line: min to p99; box: p50 to p90; tick: p50; dot: max.</p>\n",
                latency_svg(rows));
  }
  for (const auto& s : r.series)
    html += str("<h2>Scaling: ", xml_text(s.name), "</h2>\n", series_svg(s));
  html += "<h2>All paths</h2>\n<table><tr><th>path</th><th>api</th><th>forward</th><th>min us</th><th>p50 us</th>"
          "<th>p90 us</th><th>p99 us</th><th>max us</th><th>raw p50 us</th><th>p50 ratio</th><th>95% interval</th>"
          "<th>bar</th><th>launches/s</th><th>raw launches/s</th><th>throughput ratio (raw/harness)</th>"
          "<th>95% interval</th></tr>\n";
  for (const auto& p : r.paths)
    html += str("<tr><td class=\"l\">", xml_text(p.path), "</td><td class=\"l\">", xml_text(p.api), "</td><td class=\"l\">",
                xml_text(p.forward), "</td><td>", fixed(p.latency.min, 2), "</td><td>", fixed(p.latency.p50, 2), "</td><td>",
                fixed(p.latency.p90, 2), "</td><td>", fixed(p.latency.p99, 2), "</td><td>", fixed(p.latency.max, 1),
                "</td><td>", fixed(p.baseline_latency.p50, 2), "</td><td", under_bar(p) ? "" : " class=\"over\"", ">",
                fixed(p.p50_ratio(), 3), "</td><td>", interval_text(p.bar_interval()), "</td><td>",
                judged(p) ? verdict_name(verdict(p)) : "-", "</td><td>", fixed(p.throughput, 0), "</td><td>",
                fixed(p.baseline_throughput, 0), "</td><td>", fixed(p.throughput_ratio(), 3), "</td><td>",
                interval_text(p.throughput_interval), "</td></tr>\n");
  html += "</table>\n";
  for (const auto& problem : r.problems) html += "<p class=\"over\">problem: " + xml_text(problem) + "</p>\n";
  return html + "</body></html>\n";
}

}  // namespace hostcb
