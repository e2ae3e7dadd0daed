#include "exec/poisoned_frees.hpp"

#include <cstdlib>

namespace hostcb {

void poison_frees_in_workers() {
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer's allocator poisons freed memory itself and reports a read of it; glibc's
  // settings change nothing there but the timing (without its cache, hostcb's tests of a hung
  // worker's end went over their limits under ASan beside other tests).
  return;
#endif
  setenv("MALLOC_PERTURB_", kMallocPerturb, 0);  // 0: a value already set wins
  // glibc puts a small freed chunk in its per-thread cache without perturbing it: with no
  // cache, every free goes where MALLOC_PERTURB_ fills it.
  setenv("GLIBC_TUNABLES", "glibc.malloc.tcache_count=0", 0);
  setenv("PYTHONMALLOC", "debug", 0);
}

}  // namespace hostcb
