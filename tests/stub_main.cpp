// hostcb_stub: the hostcb CLI over CPU-only stub families (tests/stub_cases.hpp), so the
// supervisor, its workers, signals and reports can be tested end to end without a GPU.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "app/main_entry.hpp"
#include "stub_cases.hpp"

int main(int argc, char** argv) {
  // A worker that takes HOSTCB_STUB_WORKER_START_S seconds to start, as a CUDA context and
  // a Python layer's import do: what a standby worker saves can be seen.
  if (argc > 1 && std::strcmp(argv[1], "worker") == 0)
    if (const char* start = std::getenv("HOSTCB_STUB_WORKER_START_S"))
      std::this_thread::sleep_for(std::chrono::duration<double>(std::atof(start)));
  return hostcb::hostcb_main(hostcb::stub::register_stub_cases, argc, argv);
}
