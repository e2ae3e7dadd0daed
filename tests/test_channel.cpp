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

TEST_CASE("past its capacity the channel still keeps the first failure of each check it has not seen", "[channel]") {
  // A layer that hands 100 stream callbacks a foreign userData fails 100 [count] checks
  // first; the one [userdata] line that says what it did wrong must survive them.
  FailureChannel channel(32);
  for (int i = 0; i < 100; ++i) channel.push({"s", -1, "runner", "", 0, "[count] host function #" + std::to_string(i)});
  channel.push({"s", -1, "runner", "", 0, "[userdata] 100 call(s) carried a userData that is no host function"});
  channel.push({"s", -1, "runner", "", 0, "[userdata] a second one"});
  channel.push({"s", -1, "runner", "", 0, "no tag at all"});
  DrainedFailures drained = channel.drain();
  REQUIRE(drained.kept.size() == 33);
  CHECK(drained.kept.back().message.rfind("[userdata] 100", 0) == 0);
  CHECK(drained.dropped == 70);  // 68 [count], the second [userdata], the untagged one
  CHECK(drained.total() == 103);
}

TEST_CASE("the failures kept past the capacity for their check are bounded", "[channel]") {
  FailureChannel channel(1);
  channel.push({"s", -1, "", "", 0, "[count] first"});
  for (int i = 0; i < 100; ++i) channel.push({"s", -1, "", "", 0, "[check" + std::string(1, char('a' + i % 26)) + std::to_string(i) + "] x"});
  DrainedFailures drained = channel.drain();
  CHECK(drained.kept.size() == 1 + FailureChannel::kMaxLateChecks);
  CHECK(drained.total() == 101);
}

TEST_CASE("a failure's leading check tag", "[channel]") {
  CHECK(leading_check_tag("[userdata] x") == "[userdata]");
  CHECK(leading_check_tag("x [userdata]").empty());
  CHECK(leading_check_tag("[unclosed").empty());
  CHECK(leading_check_tag("").empty());
}
