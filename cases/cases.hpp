// The scenario families, one file each. register_all_cases is the one list of them.
#pragma once
#include "model/family.hpp"
#include "model/registry.hpp"

namespace hostcb::cases {

Family replay_family();            // replay.cu
Family stream_callback_family();   // stream_callback.cu
Family capture_contract_family();  // capture_contract.cu
Family callback_fault_family();    // callback_fault.cu
Family device_fault_family();      // device_fault.cu
Family ordering_family();          // ordering.cu
Family lifetime_family();          // lifetime.cu
Family update_family();            // update.cu
Family topology_family();          // topology.cu
Family concurrency_family();       // concurrency.cu
Family contracts_family();         // contracts.cu
Family multi_gpu_family();         // multi_gpu.cu

void register_all_cases(Registry& registry);

}  // namespace hostcb::cases
