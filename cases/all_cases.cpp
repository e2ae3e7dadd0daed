#include "cases/cases.hpp"

namespace hostcb::cases {

// Order here is the order of `hostcb list` and of every report.
void register_all_cases(Registry& registry) {
  registry.add(replay_family());
  registry.add(ordering_family());
  registry.add(lifetime_family());
  registry.add(update_family());
  registry.add(topology_family());
  registry.add(concurrency_family());
  registry.add(contracts_family());
  registry.add(multi_gpu_family());
  registry.add(callback_fault_family());
  registry.add(stream_callback_family());
  registry.add(capture_contract_family());
  registry.add(device_fault_family());
}

}  // namespace hostcb::cases
