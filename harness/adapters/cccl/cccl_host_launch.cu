/*
 * hostcb adapters over CCCL's cuda::host_launch (<cuda/launch>), one per form its header
 * offers, built from this file with HOSTCB_CCCL_FORM set (harness/adapters/cccl/CMakeLists.txt):
 *
 *   1 cccl_host_launch_ref    host_launch(stream, cuda::std::ref(call)): `call`, the callable,
 *                             is a local of launch_host_func, as a user writes it, and dies
 *                             when launch_host_func returns
 *   2 cccl_host_launch_value  host_launch(stream, [fn, user_data] { fn(user_data); })
 *   3 cccl_host_launch_args   host_launch(stream, fn, user_data): a function with its argument
 *   4 cccl_host_launch_fnptr  host_launch(stream, &f): a plain function pointer, no arguments
 *
 * What CCCL does with each (cuda/__launch/host_launch.h, CCCL 3.5.0 from nvidia-cuda-cccl
 * 13.3.5.0.6): a reference_wrapper goes to cuLaunchHostFunc with userData = the address of the
 * referenced callable (kept by nobody: the caller must keep it alive); everything else
 * (callable by value, function with arguments, function pointer) is moved into a heap record
 * passed to cuStreamAddCallback, whose launcher calls it only when the status is CUDA_SUCCESS
 * and deletes it after that one call. The header's branch for "a function pointer without
 * arguments" tests is_function_v<_Callable> && is_pointer_v<_Callable>, which no type
 * satisfies, so a function pointer takes the heap-record path too.
 * host_launch reports failures by throwing cuda::cuda_error; these adapters return its status.
 */
#include <cuda/launch>
#include <cuda/std/functional>
#include <cuda/std/__cccl/version.h>
#include <hostcb/adapter.h>

#include <array>
#include <cstdio>
#include <cuda.h>
#include <mutex>
#include <utility>

#ifndef HOSTCB_CCCL_FORM
#error "HOSTCB_CCCL_FORM: 1 ref, 2 value, 3 args, 4 fnptr"
#endif

namespace {

constexpr const char *form_names[] = {"", "cccl_host_launch_ref", "cccl_host_launch_value", "cccl_host_launch_args",
                                      "cccl_host_launch_fnptr"};
constexpr const char *form_calls[] = {"", "cuda::host_launch(stream, cuda::std::ref(callable))",
                                      "cuda::host_launch(stream, callable by value)",
                                      "cuda::host_launch(stream, fn, user_data)",
                                      "cuda::host_launch(stream, &function)"};

#define HOSTCB_STR2(x) #x
#define HOSTCB_STR(x) HOSTCB_STR2(x)

thread_local char last_error_text[256];

#if HOSTCB_CCCL_FORM == 1 || HOSTCB_CCCL_FORM == 4
/* The user's callable: calls hostcb's host function with its argument. */
struct host_call {
  hostcb_host_fn fn;
  void *user_data;
  void operator()() const { fn(user_data); }
};
#endif

#if HOSTCB_CCCL_FORM == 4
/* A plain function pointer carries no argument: a user who has only `void (*)()` keeps what
 * each function calls in a table of its own. Each (fn, user_data) pair gets one slot for the
 * life of the process, and one function calls that slot, so the table never changes what a
 * replay calls. */
constexpr size_t slot_count = 1024;
std::mutex slots_mutex;
std::array<host_call, slot_count> slots;
size_t slots_used = 0;

template <size_t I> void call_slot() { slots[I](); }

template <size_t... I> constexpr std::array<void (*)(), sizeof...(I)> make_slot_functions(std::index_sequence<I...>) {
  return {&call_slot<I>...};
}
constexpr auto slot_functions = make_slot_functions(std::make_index_sequence<slot_count>{});

void (*slot_function(hostcb_host_fn fn, void *user_data))() {
  std::lock_guard<std::mutex> lock(slots_mutex);
  for (size_t i = 0; i < slots_used; ++i)
    if (slots[i].fn == fn && slots[i].user_data == user_data) return slot_functions[i];
  if (slots_used == slot_count) return nullptr;
  slots[slots_used] = host_call{fn, user_data};
  return slot_functions[slots_used++];
}
#endif

int launch_host_func(void *stream, hostcb_host_fn fn, void *user_data) {
  last_error_text[0] = '\0';
  cuda::stream_ref ref{static_cast<cudaStream_t>(stream)};
  try {
#if HOSTCB_CCCL_FORM == 1
    host_call call{fn, user_data};
    cuda::host_launch(ref, cuda::std::ref(call));
#elif HOSTCB_CCCL_FORM == 2
    cuda::host_launch(ref, [fn, user_data] { fn(user_data); });
#elif HOSTCB_CCCL_FORM == 3
    cuda::host_launch(ref, fn, user_data);
#elif HOSTCB_CCCL_FORM == 4
    void (*function)() = slot_function(fn, user_data);
    if (!function) {
      std::snprintf(last_error_text, sizeof last_error_text, "all %zu function slots are taken", slot_count);
      return static_cast<int>(cudaErrorMemoryAllocation);
    }
    cuda::host_launch(ref, function);
#endif
  } catch (const cuda::cuda_error &e) {
    std::snprintf(last_error_text, sizeof last_error_text, "%s", e.what());
    return static_cast<int>(e.status());
  }
  return 0;
}

const char *last_error() { return last_error_text[0] ? last_error_text : nullptr; }

const char *describe() {
  return "CCCL " HOSTCB_STR(CCCL_MAJOR_VERSION) "." HOSTCB_STR(CCCL_MINOR_VERSION) "." HOSTCB_STR(
      CCCL_PATCH_VERSION) " (CCCL_VERSION " HOSTCB_STR(CCCL_VERSION) "): ";
}

const char *describe_form() {
  static char text[200];
  static std::once_flag once;
  std::call_once(once, [] { std::snprintf(text, sizeof text, "%s%s", describe(), form_calls[HOSTCB_CCCL_FORM]); });
  return text;
}

const char *versions() {
  static char text[64];
  static std::once_flag once;
  std::call_once(once, [] {
    std::snprintf(text, sizeof text, "cccl=%d.%d.%d", CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION, CCCL_PATCH_VERSION);
  });
  return text;
}

const hostcb_adapter adapter = [] {
  hostcb_adapter a{};
  a.abi_version = HOSTCB_ADAPTER_ABI_VERSION;
  a.struct_size = sizeof(hostcb_adapter);
  a.name = form_names[HOSTCB_CCCL_FORM];
  a.launch_host_func = launch_host_func;
  a.last_error = last_error;
  a.describe = describe_form;
  a.versions = versions;
  return a;
}();

} // namespace

extern "C" const hostcb_adapter *hostcb_adapter_v1(void) { return &adapter; }
