// hostcb_stub: the hostcb CLI over CPU-only stub families (tests/stub_cases.hpp), so the
// supervisor, its workers, signals and reports can be tested end to end without a GPU.
#include <iostream>

#include "app/cli.hpp"
#include "stub_cases.hpp"

int main(int argc, char** argv) {
  return hostcb::run_cli(hostcb::stub::register_stub_cases, std::vector<std::string>(argv, argv + argc));
}
