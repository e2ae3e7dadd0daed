// The scenario families, one file each. register_all_cases is the one list of them.
#pragma once
#include "family.hpp"
#include "registry.hpp"

namespace hostcb::cases {

Family replay_family();            // replay.cu
Family stream_callback_family();   // stream_callback.cu
Family capture_contract_family();  // capture_contract.cu
Family injected_family();          // injected.cu (known-bad control)

void register_all_cases(Registry& registry);

}  // namespace hostcb::cases
