// hostcb_stub: the hostcb CLI over CPU-only stub families (tests/stub_cases.hpp), so the
// supervisor, its workers, signals and reports can be tested end to end without a GPU.
#include "app/main_entry.hpp"
#include "stub_cases.hpp"

int main(int argc, char** argv) { return hostcb::hostcb_main(hostcb::stub::register_stub_cases, argc, argv); }
