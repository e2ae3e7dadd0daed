#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include "reports/atomic_file.hpp"
#include "catch_compat.hpp"
#include "reports/junit_writer.hpp"
#include "report_fixture.hpp"

using namespace hostcb;

namespace {
std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Times, timestamps and host names change from run to run: the baseline holds placeholders.
std::string mask(std::string xml) {
  xml = std::regex_replace(xml, std::regex(R"( time="[0-9.]+")"), R"( time="*")");
  xml = std::regex_replace(xml, std::regex(R"(timestamp="[^"]*")"), R"(timestamp="*")");
  xml = std::regex_replace(xml, std::regex(R"(hostname="[^"]*")"), R"(hostname="*")");
  xml = std::regex_replace(xml, std::regex(R"re((name="hostname" value=)"[^"]*")re"), R"re($1"*")re");
  return xml;
}

#if HOSTCB_HAVE_XMLLINT
bool xmllint(const std::string& arguments) {
  return std::system((std::string(HOSTCB_XMLLINT) + " " + arguments + " >/dev/null 2>&1").c_str()) == 0;
}

std::string xmllint_output(const std::string& arguments) {
  // One file per test process: CTest runs test cases side by side (-j), and a shared
  // file let one case read another's xmllint output.
  std::string out_path = std::string(HOSTCB_TEST_TMP) + "/xmllint." + std::to_string(::getpid()) + ".out";
  std::system((std::string(HOSTCB_XMLLINT) + " " + arguments + " >" + out_path + " 2>&1").c_str());
  return read_file(out_path);
}

#endif

std::string write_sample(const std::string& name) {
  std::string path = std::string(HOSTCB_TEST_TMP) + "/" + name;
  write_file_atomically(path, junit_xml(sample_report()));
  return path;
}
}  // namespace

TEST_CASE("JUnit output matches the approved baseline", "[junit]") {
  std::string received = mask(junit_xml(sample_report()));
  std::string approved_path = std::string(HOSTCB_APPROVED_DIR) + "/junit_sample.approved.xml";
  std::string approved = read_file(approved_path);
  if (received != approved) {
    std::string received_path = std::string(HOSTCB_TEST_TMP) + "/junit_sample.received.xml";
    write_file_atomically(received_path, received);
    FAIL("JUnit output differs from the baseline; compare with:\n  diff " + approved_path + " " + received_path +
         "\nand copy the received file over the approved one if the change is intended");
  }
}

#if HOSTCB_HAVE_XMLLINT
TEST_CASE("JUnit output validates against the schema", "[junit]") {
  std::string path = write_sample("junit_schema.xml");
  INFO(xmllint_output(std::string("--noout --schema ") + HOSTCB_JUNIT_XSD + " " + path));
  CHECK(xmllint(std::string("--noout --schema ") + HOSTCB_JUNIT_XSD + " " + path));
}

TEST_CASE("the schema can fail: a skip without its reason is rejected", "[junit]") {
  std::string xml = junit_xml(sample_report());
  std::string broken = std::regex_replace(xml, std::regex(R"(<skipped message="[^"]*"/>)"), "<skipped/>");
  REQUIRE(broken != xml);
  std::string path = std::string(HOSTCB_TEST_TMP) + "/junit_broken.xml";
  write_file_atomically(path, broken);
  CHECK_FALSE(xmllint(std::string("--noout --schema ") + HOSTCB_JUNIT_XSD + " " + path));
}

TEST_CASE("hostile strings survive: CDATA terminators stay text and forbidden characters go", "[junit]") {
  std::string path = write_sample("junit_nasty.xml");
  std::string failure_text = xmllint_output("--xpath 'string(//failure)' " + path);
  CHECK(contains(failure_text, "<tag> & \"quotes\" 'apos' ]]> tab\there"));
  CHECK(contains(failure_text, "controls  and bad utf-8 \xEF\xBF\xBD\xEF\xBF\xBD end"));
  CHECK(contains(failure_text, "7 more failure(s) dropped"));
  CHECK(contains(failure_text, "[launch 2] [callback#3] cases/replay.cu:42: host function #1"));
  std::string message = xmllint_output("--xpath 'string(//failure/@message)' " + path);
  CHECK(contains(message, "[launch 2]"));
}

#endif

TEST_CASE("suite and top-level counts add up", "[junit]") {
  std::string xml = junit_xml(sample_report());
  // JUnit has four outcomes: an xfail counts as skipped, an xpass as a failure.
  CHECK(contains(xml, R"(<testsuites name="hostcb" tests="6" failures="2" errors="1" skipped="2" time="1.500")"));
  CHECK(contains(xml, R"(<testsuite name="replay" tests="3" failures="2" errors="0" skipped="0" time="0.575")"));
  CHECK(contains(xml, R"(<testsuite name="stream_callback" tests="3" failures="0" errors="1" skipped="2")"));
  CHECK(contains(xml, R"(<property name="device.0.name" value="NVIDIA H200"/>)"));
}

TEST_CASE("a run over several devices keeps every testcase unique: one suite per family and device", "[junit]") {
  RunReport report = sample_report();
  report.environment.selected_device = kAllDevices;
  RunReport second = sample_report();
  for (auto& r : report.results) r.device = 0;
  for (auto& r : second.results) {
    r.device = 1;
    report.results.push_back(r);
  }
  std::string xml = junit_xml(report);
  CHECK(contains(xml, R"(<testsuite name="replay@device0" tests="3")"));
  CHECK(contains(xml, R"(<testsuite name="replay@device1" tests="3")"));
  CHECK(contains(xml, R"(<testcase classname="replay@device1" name="api=driver/replays=5")"));
  CHECK(contains(xml, R"(<property name="device.selected" value="all"/>)"));
}
