// The fuzz program generator: one seed, one program, on every platform; only legal
// operations; every kind of operation and node appears somewhere.
#include <fstream>
#include <set>
#include <sstream>

#include "catch_compat.hpp"
#include "cases/fuzz/generator.hpp"
#include "cases/fuzz/model.hpp"
#include "cases/fuzz/rng.hpp"
#include "reports/atomic_file.hpp"

using namespace hostcb::fuzz;

namespace {
std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}
}  // namespace

TEST_CASE("fuzz rng is splitmix64 to the bit", "[fuzz]") {
  Rng rng(0);  // the published first outputs of splitmix64 from state 0
  CHECK(rng.next() == 0xe220a8397b1dcdafull);
  CHECK(rng.next() == 0x6e789e6aa1b965f4ull);
}

TEST_CASE("fuzz seed 17 size 40 is the approved program", "[fuzz]") {
  const std::string received = to_text(generate(17, 40));
  const std::string approved_path = std::string(HOSTCB_APPROVED_DIR) + "/fuzz_seed17_size40.approved.txt";
  if (received != read_text(approved_path)) {
    const std::string received_path = std::string(HOSTCB_TEST_TMP) + "/fuzz_seed17_size40.received.txt";
    hostcb::write_file_atomically(received_path, received);
    FAIL("the program of seed 17 changed: every fuzz id now names another program; compare with:\n  diff " +
         approved_path + " " + received_path);
  }
  CHECK(to_text(generate(17, 40)) == received);  // and again, in the same process
}

TEST_CASE("fuzz programs are legal as generated, over many seeds and sizes", "[fuzz]") {
  std::set<OpKind> ops;
  std::set<ItemKind> items;
  for (std::uint64_t seed = 1; seed <= 300; ++seed)
    for (int size : {1, 5, 40, 120}) {
      Program program = generate(seed, size);
      REQUIRE(static_cast<int>(program.ops.size()) == size);
      INFO(to_text(program));
      // legalize drops whatever is not legal where it stands: nothing, here
      REQUIRE(legalize(program).ops.size() == program.ops.size());
      for (const auto& op : program.ops) {
        ops.insert(op.kind);
        // A host-node update names one of the graph's own host nodes, never a child
        // graph's site (-1): the GPU run's seed 14 did, and the executor had no such node.
        if (op.kind == OpKind::graph_set_host || op.kind == OpKind::exec_set_host) REQUIRE(op.node >= 0);
        for (const auto& item : op.items) items.insert(item.kind);
      }
    }
  CHECK(ops.size() == 11);
  CHECK(items.size() == 5);
}
