#include <atomic>
#include <thread>
#include <vector>

#include "catch_compat.hpp"
#include "callback/failure_channel.hpp"

using namespace hostcb;

TEST_CASE("the channel under contention loses nothing and respects its bound", "[channel]") {
  constexpr int kThreads = 16, kPerThread = 2000;
  FailureChannel channel(64);
  std::vector<std::thread> producers;
  for (int t = 0; t < kThreads; ++t)
    producers.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) channel.push({"s", i, "callback#" + std::to_string(t), "f.cu", 1, "m"});
    });
  for (auto& p : producers) p.join();
  DrainedFailures drained = channel.drain();
  CHECK(drained.kept.size() == 64);
  CHECK(drained.dropped == kThreads * kPerThread - 64);
  CHECK(drained.total() == static_cast<std::uint64_t>(kThreads * kPerThread));
}

TEST_CASE("draining while producers push loses nothing", "[channel]") {
  constexpr int kThreads = 8, kPerThread = 5000;
  FailureChannel channel(100000);
  std::atomic<bool> done{false};
  std::uint64_t seen = 0;
  std::thread drainer([&] {
    while (!done.load()) seen += channel.drain().total();
  });
  std::vector<std::thread> producers;
  for (int t = 0; t < kThreads; ++t)
    producers.emplace_back([&] {
      for (int i = 0; i < kPerThread; ++i) channel.push({"s", i, "", "", 0, "m"});
    });
  for (auto& p : producers) p.join();
  done = true;
  drainer.join();
  seen += channel.drain().total();
  CHECK(seen == static_cast<std::uint64_t>(kThreads * kPerThread));
}

TEST_CASE("drain empties the channel and resets the dropped count", "[channel]") {
  FailureChannel channel(1);
  channel.push({"s", 1, "", "", 0, "first"});
  channel.push({"s", 2, "", "", 0, "second"});
  DrainedFailures first = channel.drain();
  REQUIRE(first.kept.size() == 1);
  CHECK(first.kept[0].message == "first");
  CHECK(first.dropped == 1);
  CHECK(channel.drain().total() == 0);
}
