#include "cases/stamp_kernels.cuh"

namespace hostcb::cases {

// volatile: the host writes these cells between kernels of one graph launch.
__global__ void stamp(StampCells* cells) {
  volatile StampCells* c = cells;
  unsigned launch = c->generation + 1;
  c->generation = launch;
  c->from_kernel = launch;
  __threadfence_system();
}

__global__ void echo(StampCells* cells, int read_copy) {
  volatile StampCells* c = cells;
  unsigned launch = c->generation;
  if (launch >= 1 && launch <= kMaxStampedLaunches) c->echoes[launch - 1] = read_copy ? c->copied : c->from_host;
  __threadfence_system();
}

}  // namespace hostcb::cases
