#include <iostream>
#include <sstream>

#include "cases/cases.hpp"
#include "catch_compat.hpp"
#include "app/cli.hpp"

using namespace hostcb;

namespace {
struct CliResult {
  int code;
  std::string out, err;
};

// Runs the CLI in-process with the shipped families, capturing both streams.
CliResult cli(std::vector<std::string> args) {
  args.insert(args.begin(), "hostcb");
  std::ostringstream out, err;
  auto* old_out = std::cout.rdbuf(out.rdbuf());
  auto* old_err = std::cerr.rdbuf(err.rdbuf());
  int code = run_cli(cases::register_all_cases, args);
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  return {code, out.str(), err.str()};
}

std::size_t lines(const std::string& text) {
  std::size_t n = 0;
  for (char c : text) n += c == '\n';
  return n;
}
}  // namespace

TEST_CASE("list prints every scenario id, one per line", "[cli]") {
  CliResult r = cli({"list"});
  CHECK(r.code == kExitPassed);
  // replay, ordering, lifetime, update, topology, concurrency, contracts, multi_gpu,
  // callback_fault, stream_callback, stream_host_func, capture_contract, device_fault, fuzz
  CHECK(lines(r.out) == 180 + 108 + 318 + 312 + 176 + 108 + 10 + 42 + 16 + 36 + 36 + 6 + 60 + 84);
  CHECK(contains(r.out, "replay/api=driver/forward=direct/build=capture_global/replays=5/sync=each\n"));
  CHECK(contains(r.out, "capture_contract/api=runtime/mode=relaxed\n"));
  CHECK_FALSE(contains(r.out, "fault=crashes"));
}

TEST_CASE("list honours filters and axis overrides and controls", "[cli]") {
  CHECK(lines(cli({"list", "--filter", "replay/*-*api=driver*"}).out) == 90);
  CHECK(lines(cli({"list", "--filter", "replay/*forward=direct*", "--axis", "replays=7"}).out) == 2 * 5 * 2);
  CHECK(contains(cli({"list", "--axis", "replays=7"}).out, "replays=7/sync=end\n"));
  CliResult controls = cli({"list", "--controls", "--filter", "callback_fault/*"});
  CHECK(controls.code == kExitPassed);
  CHECK(lines(controls.out) == 2 * 3 * 8);  // and the excluded wrapper defects, with why
  CHECK(contains(controls.out, "fault=blocks\t(known-bad control: must end error mentioning 'timed out at launch 2 of 3')"));
}

TEST_CASE("list in json describes families and axes and scenarios", "[cli]") {
  CliResult r = cli({"list", "--format", "json", "--filter", "stream_callback/*"});
  CHECK(r.code == kExitPassed);
  CHECK(contains(r.out, "\"format\": \"hostcb-list\""));
  CHECK(contains(r.out, "\"id\": \"stream_callback/api=driver/forward=direct/gate=held/callbacks=100\""));
}

TEST_CASE("bad input is a one-line error and exit code 2", "[cli]") {
  for (auto args : std::vector<std::vector<std::string>>{
           {"run", "--axis", "nodes=3"},
           {"list", "--axis", "api=cuda"},
           {"list", "--axis", "replays=0"},
           {"list", "--axis", "replays"},
           {"run", "--filter", "nosuch/*"},
           {"run", "--filter", "replay/*::x"},
           {"list", "--filter", "callback_fault/*fault=crashes"},
           {"run", "--isolate", "threads"},
           {"run", "--timeout", "0"},
           {"list", "--format", "xml"},
           {"run", "--device", "-1"},
           {"run", "--junit", "/nonexistent-dir/report.xml"},
           {"run", "--json", "/nonexistent-dir/report.json"},
           {"frobnicate"},
           {}}) {
    CliResult r = cli(args);
    std::string joined;
    for (const auto& a : args) joined += a + " ";
    INFO("hostcb " << joined << "-> " << r.err);
    CHECK(r.code == kExitUsage);
    CHECK(lines(r.err) == 1);
    CHECK(contains(r.err, "hostcb: "));
  }
}

TEST_CASE("help explains and exits 0", "[cli]") {
  CliResult r = cli({"run", "--help"});
  CHECK(r.code == 0);
  CHECK(contains(r.out, "--filter"));
  CHECK(contains(r.out, "--junit"));
  CHECK(contains(r.out, "Exit codes"));
}

TEST_CASE("list ends with its total on stderr, so stdout stays one id per line", "[cli]") {
  CliResult r = cli({"list", "--filter", "replay"});
  CHECK(r.code == kExitPassed);
  CHECK(lines(r.out) == 180);  // a bare family name means family/*
  CHECK(r.err == "180 scenarios (0 excluded, 0 known-bad controls)\n");
}

TEST_CASE("list --families names each family with its count, axes and summary", "[cli]") {
  CliResult r = cli({"list", "--families"});
  CHECK(r.code == kExitPassed);
  CHECK(lines(r.out) == 14);
  CHECK(r.out.rfind("replay\t180 scenarios\taxes: api forward build replays sync\ta graph of", 0) == 0);
  CHECK(r.err == "1492 scenarios in the families listed\n");
}

TEST_CASE("a mistyped family or negative pattern is refused with a hint", "[cli]") {
  CliResult typo = cli({"list", "--filter", "repaly"});
  CHECK(typo.code == kExitUsage);
  CHECK(typo.err.find("did you mean the family 'replay'?") != std::string::npos);
  CliResult negative = cli({"list", "--filter", "replay/*-*replays=1OO*"});
  CHECK(negative.code == kExitUsage);
  CHECK(negative.err.find("negative filter pattern '-*replays=1OO*' matches no scenario") != std::string::npos);
}

TEST_CASE("a mistyped subcommand or option gets a suggestion", "[cli]") {
  CliResult sub = cli({"rn"});
  CHECK(sub.code == kExitUsage);
  CHECK(sub.err == "hostcb: unknown subcommand 'rn'; did you mean 'run'? (see hostcb --help)\n");
  CliResult option = cli({"run", "--filtr", "x"});
  CHECK(option.code == kExitUsage);
  CHECK(option.err == "hostcb: unknown option '--filtr' for run; did you mean '--filter'? (see hostcb --help)\n");
  CliResult extras = cli({"list", "a", "b"});
  CHECK(extras.err == "hostcb: unexpected arguments 'a' 'b' for list (see hostcb --help)\n");
}

TEST_CASE("each subcommand's help has its own exit codes", "[cli]") {
  CHECK(cli({"report", "--help"}).out.find("0 merged, 1 a report or stdout could not be written") != std::string::npos);
  CHECK(cli({"list", "--help"}).out.find("Exit codes: 0 listed, 1 stdout could not be written") != std::string::npos);
  CliResult run = cli({"run", "--help"});
  CHECK(run.out.find("--timeout SECONDS") != std::string::npos);
  CHECK(run.out.find("FLOAT") == std::string::npos);
}
