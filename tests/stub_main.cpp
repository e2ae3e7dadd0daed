// hostcb_stub: the hostcb CLI over CPU-only stub families (tests/stub_cases.hpp), so the
// supervisor, its workers, signals and reports can be tested end to end without a GPU.
#include <iostream>

#include "app/cli.hpp"
#include "exec/interrupt.hpp"
#include "stub_cases.hpp"

int main(int argc, char** argv) {
  hostcb::install_interrupt_handlers();  // as hostcb's main: first thing
  return hostcb::exit_code_after_interrupt(
      hostcb::run_cli(hostcb::stub::register_stub_cases, std::vector<std::string>(argv, argv + argc)));
}
