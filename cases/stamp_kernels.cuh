// Kernels that pass a per-launch value through host functions, for families that check
// stream order around host nodes (ordering, topology's mixed graph).
//
// `stamp` counts graph launches on the device and leaves launch k's number for the host;
// a host function reads it, and leaves its own value for `echo`, which stores it per
// launch. All of it lives in mapped pinned memory, so host and device see one copy.
#pragma once
#include <cstdint>

namespace hostcb::cases {

inline constexpr int kMaxStampedLaunches = 128;

struct StampCells {
  unsigned generation;    // launches the device has seen (stamp increments it)
  unsigned from_kernel;   // stamp: launch k writes k
  unsigned from_host;     // a host function writes launch k's answer
  unsigned copied;        // a copy node may copy from_host here
  unsigned echoes[kMaxStampedLaunches];  // echo: what launch k's kernel read, at [k-1]
};

// The host function's answer for launch k (anything that cannot be mistaken for k).
inline unsigned host_answer(std::uint64_t launch) { return 1000u + static_cast<unsigned>(launch); }

__global__ void stamp(StampCells* cells);
// Stores `cells->from_host`, or `cells->copied` when `read_copy` is set.
__global__ void echo(StampCells* cells, int read_copy);

}  // namespace hostcb::cases
