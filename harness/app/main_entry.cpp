#include "app/main_entry.hpp"

#include <exception>
#include <iostream>

#include "app/standard_streams.hpp"
#include "exec/interrupt.hpp"
#include "reports/last_words.hpp"

namespace hostcb {

int hostcb_main(const CaseRegistration& register_cases, int argc, char** argv) {
  guard_standard_streams();      // before any fd is opened, the interrupt pipe's included
  install_interrupt_handlers();  // then at once: an early ^C still gets reports
  on_second_signal(write_last_words);  // a second signal ends hostcb: its reports say so
  int code = kExitFailed;
  try {
    code = exit_code_after_interrupt(run_cli(register_cases, std::vector<std::string>(argv, argv + argc)));
  } catch (const PlanningInterrupted&) {
    std::cerr << "hostcb: interrupted while planning; nothing ran, no report was written\n";
    code = 128 + interrupt_signal();
  } catch (const std::exception& e) {
    std::cerr << "hostcb: internal error: " << e.what() << "\n";
  }
  return finish_stdout(code);
}

}  // namespace hostcb
