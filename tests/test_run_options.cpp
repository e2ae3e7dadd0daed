// What run's new options turn into: -j's worker count, a repeated --filter's one filter,
// and --shuffle's order (the same for a seed on every platform, so a run can be replayed).
#include <algorithm>
#include <numeric>

#include "app/options.hpp"
#include "app/run_session.hpp"
#include "catch_compat.hpp"
#include "model/errors.hpp"

using namespace hostcb;

TEST_CASE("run -j takes a count from 1 to 256 or auto: one worker per core, at most 8 a device", "[options]") {
  CHECK(worker_count("1", 1) == 1);
  CHECK(worker_count("256", 1) == 256);
  for (const char* bad : {"0", "257", "-1", "", "2x", "auto2", " 2"}) {
    INFO(bad);
    CHECK_THROWS_AS(worker_count(bad, 1), UsageError);
  }
  const unsigned one = worker_count("auto", 1), three = worker_count("auto", 3);
  CHECK(one >= 1);
  CHECK(one <= kAutoWorkersPerDevice);
  CHECK(three <= 3 * kAutoWorkersPerDevice);
  CHECK(three >= one);
  CHECK(worker_count("auto", 0) == one);  // no device visible: counted as one
}

TEST_CASE("repeated --filter options join their positive and their negative patterns", "[options]") {
  CHECK(joined_filter({}) == "*");
  CHECK(joined_filter({"a-x"}) == "a-x");  // one is left as it is
  CHECK(joined_filter({"a", "b"}) == "a:b");
  CHECK(joined_filter({"a-x", "b"}) == "a:b-x");
  CHECK(joined_filter({"a-x", "b-y:z"}) == "a:b-x:y:z");
  CHECK(joined_filter({"-x", "b"}) == "*:b-x");  // no positive part is '*'
}

TEST_CASE("a shuffle seed gives one order, the same on every platform", "[options]") {
  std::vector<std::size_t> order(8);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::vector<std::size_t> a = order, b = order, c = order;
  shuffle_order(a, 42);
  shuffle_order(b, 42);
  shuffle_order(c, 43);
  CHECK(a == b);
  CHECK(a != c);
  CHECK(std::is_permutation(a.begin(), a.end(), order.begin()));
  // mt19937_64 and Fisher-Yates are both fully specified: this is seed 42's order anywhere.
  CHECK(a == std::vector<std::size_t>{7, 0, 5, 1, 2, 4, 3, 6});
}
