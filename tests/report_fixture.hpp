// A fixed RunReport with one result of each of the six kinds and hostile strings, for report tests.
#pragma once
#include "model/result.hpp"

inline hostcb::RunReport sample_report() {
  using namespace hostcb;
  RunReport report;
  report.started_utc = "2026-11-30T01:02:03Z";
  report.seconds = 1.5;
  Environment& env = report.environment;
  env.hostcb_version = "0.1.0";
  env.git_revision = "abc123";
  env.command_line = "hostcb run --filter 'replay/*'";
  env.hostname = "gpu-host-7";
  env.os = "Linux 6.1 x86_64";
  env.driver = "580.159.04";
  env.driver_source = "nvml";
  env.driver_version = 13000;
  env.runtime_version = 13000;
  env.toolkit_version = 13000;
  env.devices = {{0, "NVIDIA H200", 9, 0, "GPU-00000000-1111-2222-3333-444444444444"}};
  env.gpu_usable = true;

  auto make = [](std::string family, std::string rest, Status status, double seconds) {
    Result r;
    r.family = family;
    r.id = family + "/" + rest;
    r.status = status;
    r.seconds = seconds;
    return r;
  };
  Result passed = make("replay", "api=driver/replays=5", Status::passed, 0.0123);
  passed.properties = {{"callback_calls", "10"}, {"callback_threads", "1"}};
  Result failed = make("replay", "api=runtime/replays=5", Status::failed, 0.5);
  failed.failures = {
      {failed.id, 2, "callback#3", "cases/replay.cu", 42, "host function #1 was called 1 times; expected exactly 5"},
      {failed.id, 3, "runner", "cases/replay.cu", 57, "nasty: <tag> & \"quotes\" 'apos' ]]> tab\there\nnewline"},
      {failed.id, -1, "", "", 0, std::string("controls \x01\x02 and bad utf-8 \xff\xfe end")},
  };
  failed.failures_dropped = 7;
  Result error = make("stream_callback", "api=driver/callbacks=5", Status::error, 0.25);
  error.reason = "cuLaunchHostFunc(stream, fn, ud) failed: CUDA_ERROR_ILLEGAL_ADDRESS (700) at cases/x.cu:9";
  Result skipped = make("stream_callback", "api=runtime/callbacks=5", Status::skipped, 0);
  skipped.reason = "no usable CUDA device: cudaGetDeviceCount returned cudaErrorInsufficientDriver (35)";
  // Only with an expectations file: a listed failure (xfail) and a listed one that passed (xpass).
  Result xfail = make("stream_callback", "api=driver/callbacks=100", Status::xfail, 0.125);
  xfail.failures = {{xfail.id, 4, "callback#2", "cases/stream_callback.cu", 77, "received status 700; expected 0"}};
  xfail.expectation = "driver bug 4711 (https://example.invalid/4711)";
  Result xpass = make("replay", "api=driver/replays=100", Status::xpass, 0.0625);
  xpass.expectation = "was broken once (https://example.invalid/fixed)";
  report.results = {passed, failed, error, skipped, xfail, xpass};
  return report;
}
