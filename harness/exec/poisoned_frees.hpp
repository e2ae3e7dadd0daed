// Freed memory that never reads as valid, in the workers: a layer that calls through a record
// it already freed passes whenever the freed bytes still hold the old values, as they often
// do right after a free (issue 41, item 7). Workers start with the allocators' own poisoning,
// so such a read fails or crashes at once: glibc's MALLOC_PERTURB_ (C and C++ layers, and
// the C structs of Python extensions) fills what is allocated and freed, with its per-thread
// cache off (GLIBC_TUNABLES=glibc.malloc.tcache_count=0: a chunk freed into it is not
// filled); PYTHONMALLOC=debug
// fills freed Python memory with 0xDD (a Python layer's callable dropped too early). A value
// the user set is left as it is. --no-poison starts workers without them, as does a build with
// AddressSanitizer, whose own allocator poisons and reports. In this process
// (--isolate none) the allocators had started before: nothing changes there.
#pragma once

namespace hostcb {

// Sets both for the workers this process starts from now on; call before any thread runs.
void poison_frees_in_workers();

// MALLOC_PERTURB_'s byte: a fn pointer filled with it is no address code lives at.
inline constexpr const char* kMallocPerturb = "165";

}  // namespace hostcb
