// hostcb's entry point: the registry of every case family, handed to the CLI.
#include <exception>
#include <iostream>

#include "cases/cases.hpp"
#include "app/cli.hpp"
#include "exec/interrupt.hpp"

int main(int argc, char** argv) {
  hostcb::install_interrupt_handlers();  // before anything else: an early ^C still gets reports
  try {
    return hostcb::exit_code_after_interrupt(hostcb::run_cli(hostcb::cases::register_all_cases, std::vector<std::string>(argv, argv + argc)));
  } catch (const std::exception& e) {
    std::cerr << "hostcb: internal error: " << e.what() << "\n";
    return hostcb::kExitFailed;
  }
}
