// The fuzz family's one kernel, for what runs its programs without a GPU.
#pragma once

namespace hostcb::cases {

// fuzz_tick(unsigned* cell), whose whole work is to add 1 to *cell atomically (the cells
// are mapped pinned memory: the host reads the counts): its address, as cudaLaunchKernel
// and a kernel node take it. The CPU stand-in of CUDA runs it as that increment
// (tests/sim_cases.cpp).
const void* fuzz_tick_kernel();

}  // namespace hostcb::cases
