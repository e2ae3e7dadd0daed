// hostcb's entry point: the registry of every case family, handed to the CLI.
#include "app/main_entry.hpp"
#include "cases/cases.hpp"

int main(int argc, char** argv) { return hostcb::hostcb_main(hostcb::cases::register_all_cases, argc, argv); }
