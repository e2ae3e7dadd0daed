/*
 * A plugin built against the version-1 header (tests/adapters/v1/hostcb/adapter.h, frozen
 * as it shipped): its struct ends at `describe`, so hostcb must read nothing past it and
 * list every operation version 2 added as missing. Named "v1"; launch_host_func and
 * add_stream_callback call the function at once, as the fake adapter does.
 */
#include <hostcb/adapter.h>

#if HOSTCB_ADAPTER_ABI_VERSION != 1
#error "v1_adapter.c must be built against the frozen version-1 header"
#endif

static int launch_host_func(void *stream, hostcb_host_fn fn, void *user_data) {
  (void)stream;
  fn(user_data);
  return 0;
}
static int add_stream_callback(void *stream, hostcb_stream_callback callback, void *user_data) {
  callback(stream, 0, user_data);
  return 0;
}
static const char *describe(void) { return "a version-1 plugin"; }

static const struct hostcb_adapter adapter = {
    HOSTCB_ADAPTER_ABI_VERSION, sizeof(struct hostcb_adapter), "v1", NULL, NULL, launch_host_func,
    NULL, add_stream_callback, NULL, describe};

HOSTCB_ADAPTER_EXPORT const struct hostcb_adapter *hostcb_adapter_v1(void) { return &adapter; }
