#include "reports/junit_writer.hpp"

#include <cstdio>
#include <map>
#include <vector>

#include "model/errors.hpp"
#include "reports/xml_escape.hpp"

namespace hostcb {

namespace {

std::string seconds3(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", seconds < 0 ? 0.0 : seconds);
  return text;
}

// The id without its family; with --repeat, "#N" names the pass so every testcase stays unique.
std::string case_name(const Result& result) {
  std::string prefix = result.family + "/";
  std::string name = result.id.compare(0, prefix.size(), prefix) == 0 ? result.id.substr(prefix.size()) : result.id;
  return result.iteration > 0 ? str(name, " #", result.iteration) : name;
}


struct Suite {
  std::string name;
  std::vector<const Result*> cases;
  Counts counts;
  double seconds = 0;
};

// The suite and class a result belongs to: its family, and the device when one run
// covered several ("replay@device1"), so that every testcase stays unique.
std::string suite_name(const Result& r) { return r.device < 0 ? r.family : str(r.family, "@device", r.device); }

// JUnit knows four outcomes: an xfail is written as a skip, an xpass as a failure.
void write_counts(std::string& out, const Counts& counts, double seconds) {
  out += str(" tests=\"", counts.total(), "\" failures=\"", counts.failed + counts.xpass, "\" errors=\"", counts.error,
             "\" skipped=\"", counts.skipped + counts.xfail, "\" time=\"", seconds3(seconds), "\"");
}

void write_case(std::string& out, const Result& r) {
  out += str("    <testcase classname=\"", xml_attribute(suite_name(r)), "\" name=\"", xml_attribute(case_name(r)),
             "\" time=\"", seconds3(r.seconds), "\">\n");
  if (!r.properties.empty()) {
    out += "      <properties>\n";
    for (const auto& [name, value] : r.properties)
      out += str("        <property name=\"", xml_attribute(name), "\" value=\"", xml_attribute(value), "\"/>\n");
    out += "      </properties>\n";
  }
  std::string details = describe_failures(r);
  switch (r.status) {
    case Status::passed: break;
    case Status::skipped:
      out += str("      <skipped message=\"", xml_attribute(r.reason), "\"/>\n");
      break;
    case Status::failed: {
      std::string message = r.failures.empty() ? "failed" : describe_failure(r.failures.front());
      out += str("      <failure type=\"failed\" message=\"", xml_attribute(first_line(message)), "\">",
                 xml_cdata(details), "</failure>\n");
      break;
    }
    case Status::error:
      out += str("      <error type=\"error\" message=\"", xml_attribute(first_line(r.reason)), "\">",
                 xml_cdata(r.reason + "\n" + details), "</error>\n");
      break;
    case Status::xfail: {  // a known failure: a skip with its reason, the details kept in the message
      std::string what = !r.failures.empty() ? describe_failure(r.failures.front()) : r.reason;
      out += str("      <skipped message=\"", xml_attribute(str("xfail: ", r.expectation, "; ", first_line(what))), "\"/>\n");
      break;
    }
    case Status::xpass:
      out += str("      <failure type=\"xpass\" message=\"",
                 xml_attribute(str("xpass: listed as failing (", r.expectation, ") but passed: retire the entry")),
                 "\"/>\n");
      break;
  }
  out += "    </testcase>\n";
}

}  // namespace

std::string junit_xml(const RunReport& report) {
  std::vector<Suite> suites;
  std::map<std::string, std::size_t> index;
  for (const auto& r : report.results) {
    auto [it, fresh] = index.emplace(suite_name(r), suites.size());
    if (fresh) suites.push_back(Suite{suite_name(r), {}, {}, 0});
    Suite& suite = suites[it->second];
    suite.cases.push_back(&r);
    suite.counts.add(r.status);
    suite.seconds += r.seconds;
  }

  const Environment& env = report.environment;
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"hostcb\"";
  write_counts(out, count_results(report.results), report.seconds);
  out += str(" timestamp=\"", xml_attribute(report.started_utc), "\">\n");
  for (const auto& suite : suites) {
    out += str("  <testsuite name=\"", xml_attribute(suite.name), "\"");
    write_counts(out, suite.counts, suite.seconds);
    out += str(" timestamp=\"", xml_attribute(report.started_utc), "\" hostname=\"", xml_attribute(env.hostname),
               "\">\n    <properties>\n");
    for (const auto& [name, value] : environment_properties(env))
      out += str("      <property name=\"", xml_attribute(name), "\" value=\"", xml_attribute(value), "\"/>\n");
    out += "    </properties>\n";
    for (const Result* r : suite.cases) write_case(out, *r);
    out += "  </testsuite>\n";
  }
  out += "</testsuites>\n";
  return out;
}

}  // namespace hostcb
