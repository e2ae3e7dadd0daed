/*
 * Adapters for testing the loader without a GPU, one variant per build (FAKE_VARIANT):
 *   ok            "fake": every operation calls fn(user_data) at once, from a thread of
 *                 its own, and appends its name to $FAKE_ADAPTER_LOG (when set);
 *                 versions() says "fake-binding=1.2.3" and "python=3.0.0"
 *   no_symbol     exports no hostcb_adapter_v1
 *   wrong_abi     says ABI version 3
 *   small_struct  says its struct is 8 bytes
 *   no_launch     has no operation at all (launch_host_func, add_host_node and
 *                 add_stream_callback NULL)
 *   no_stream_callback  every operation but add_stream_callback
 *   bad_name      is called "bad-name"
 *   init_fails    init refuses, saying why
 *   taken_name    is called "direct", like a built-in layer
 *   init_crashes  init dies of SIGSEGV
 *   counts_init   init and teardown append a line to $FAKE_ADAPTER_LOG (when set)
 *   other_stream     "fake", whose stream callback hands the callback another stream than
 *                    the one it was enqueued on (known-bad: the probe must say [stream])
 *   other_user_data  "fake", whose stream callback hands it another userData (known-bad:
 *                    a stray call, [userdata]; never dereferenced by hostcb)
 *   init_hangs    init never returns (it logs "init PID" first)
 *   init_hangs_in_worker   the same, only in a worker process (`... worker ...`)
 *   init_prints_in_worker  init prints 200 KB to stdout in a worker, then succeeds
 *   init_forks    init starts a process that logs "forked PID PARENT", keeps every
 *                 descriptor it inherited and sleeps 20 s; init itself succeeds at once
 * The PIDs let a test check that nothing it started is left behind.
 */
#include <hostcb/adapter.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int adapter_node_token;

struct call {
  hostcb_host_fn fn;
  void *user_data;
};

static void *run_call(void *opaque) {
  struct call *c = (struct call *)opaque;
  c->fn(c->user_data);
  return NULL;
}

/* Like a driver: the function runs on another thread; this one waits for it. */
static int launch_host_func(void *stream, hostcb_host_fn fn, void *user_data) {
  (void)stream;
  struct call c = {fn, user_data};
  pthread_t thread;
  if (pthread_create(&thread, NULL, run_call, &c) != 0) return 2; /* cudaErrorMemoryAllocation */
  pthread_join(thread, NULL);
  return 0;
}

static void log_line(const char *line);

/* The version-2 operations: each proves the pointers arrived by calling fn at once. */
static int add_host_node(void *graph, void *const *deps, size_t num_deps, hostcb_host_fn fn, void *user_data,
                         void **node_out) {
  (void)graph, (void)deps, (void)num_deps;
  log_line("add_host_node");
  *node_out = (void *)&adapter_node_token;
  return launch_host_func(NULL, fn, user_data);
}
static int hands_other_stream, hands_other_user_data; /* the known-bad variants */
static int add_stream_callback(void *stream, hostcb_stream_callback callback, void *user_data) {
  log_line("add_stream_callback");
  callback(hands_other_stream ? (void *)&adapter_node_token : stream, 0,
           hands_other_user_data ? (char *)user_data + 1 : user_data);
  return 0;
}
static int begin_capture(void *stream, int mode) {
  (void)stream;
  char line[40];
  snprintf(line, sizeof line, "begin_capture %d", mode);
  log_line(line);
  return 0;
}
static int end_capture(void *stream, void **graph_out) {
  (void)stream;
  log_line("end_capture");
  *graph_out = (void *)&adapter_node_token; /* a stand-in: the stub family releases it unused */
  return 0;
}
static int graph_set_host_node(void *graph, void *node, hostcb_host_fn fn, void *user_data) {
  (void)graph, (void)node;
  log_line("graph_set_host_node");
  return launch_host_func(NULL, fn, user_data);
}
static int exec_set_host_node(void *exec, void *node, hostcb_host_fn fn, void *user_data) {
  (void)exec, (void)node;
  log_line("exec_set_host_node");
  return launch_host_func(NULL, fn, user_data);
}
static const char *versions(void) { return "fake-binding=1.2.3\npython=3.0.0\n"; }

static int init_fails(const char *options) {
  (void)options;
  return 1;
}
static int init_crashes(const char *options) {
  (void)options;
  raise(SIGSEGV);
  return 0;
}

static void log_line(const char *line) {
  const char *path = getenv("FAKE_ADAPTER_LOG");
  FILE *f = path ? fopen(path, "a") : NULL;
  if (!f) return;
  fprintf(f, "%s\n", line);
  fclose(f);
}
static char counted_options[64] = "-";
static int init_counted(const char *options) {
  if (options) snprintf(counted_options, sizeof counted_options, "%s", options);
  char line[80];
  snprintf(line, sizeof line, "init %s", counted_options);
  log_line(line);
  return 0;
}
static void teardown_counted(void) {
  char line[80];
  snprintf(line, sizeof line, "teardown %s", counted_options);
  log_line(line);
}

static void log_pid(const char *what) {
  char line[64];
  snprintf(line, sizeof line, "%s %ld %ld", what, (long)getpid(), (long)getppid());
  log_line(line);
}
/* Whether this process is a worker: its second argument is "worker". */
static int in_worker(void) {
  char args[4096];
  FILE *f = fopen("/proc/self/cmdline", "r");
  if (!f) return 0;
  size_t n = fread(args, 1, sizeof args - 1, f);
  fclose(f);
  args[n] = 0;
  size_t first = strlen(args);
  return first + 1 < n && strcmp(args + first + 1, "worker") == 0;
}
static int init_hangs(const char *options) {
  (void)options;
  log_pid("init");
  for (;;) pause();
  return 1;
}
static int init_hangs_in_worker(const char *options) {
  return in_worker() ? init_hangs(options) : 0;
}
static int init_prints_in_worker(const char *options) {
  (void)options;
  if (!in_worker()) return 0;
  static char chunk[1024];
  memset(chunk, 'x', sizeof chunk - 1);
  chunk[sizeof chunk - 1] = '\n';
  for (int i = 0; i < 200; ++i) fwrite(chunk, 1, sizeof chunk, stdout);
  fflush(stdout);
  return 0;
}
static int init_forks(const char *options) {
  (void)options;
  pid_t pid = fork();
  if (pid == 0) {
    sleep(20);
    _exit(0);
  }
  char line[64];
  snprintf(line, sizeof line, "forked %ld %ld", (long)pid, (long)getpid());
  log_line(line);
  return pid < 0;
}

static const char *why(void) { return "no device for this fake"; }
static const char *describe(void) { return "fake adapter for tests"; }

#define STR2(x) #x
#define STR(x) STR2(x)
#define VARIANT STR(FAKE_VARIANT)

static struct hostcb_adapter adapter = {
    HOSTCB_ADAPTER_ABI_VERSION, sizeof(struct hostcb_adapter), "fake", NULL, NULL, launch_host_func,
    add_host_node, add_stream_callback, why, describe,
    begin_capture, end_capture, graph_set_host_node, exec_set_host_node, versions, HOSTCB_LAUNCH_ANYWHERE};

static const struct hostcb_adapter *make(void) {
  if (strcmp(VARIANT, "wrong_abi") == 0) adapter.abi_version = 3;
  if (strcmp(VARIANT, "small_struct") == 0) adapter.struct_size = 8;
  if (strcmp(VARIANT, "no_launch") == 0) {
    adapter.launch_host_func = NULL;
    adapter.add_host_node = NULL;
    adapter.add_stream_callback = NULL;
  }
  if (strcmp(VARIANT, "no_stream_callback") == 0) adapter.add_stream_callback = NULL;
  if (strcmp(VARIANT, "bad_name") == 0) adapter.name = "bad-name";
  if (strcmp(VARIANT, "init_fails") == 0) adapter.init = init_fails;
  if (strcmp(VARIANT, "taken_name") == 0) adapter.name = "direct";
  if (strcmp(VARIANT, "init_crashes") == 0) adapter.init = init_crashes;
  hands_other_stream = strcmp(VARIANT, "other_stream") == 0;
  hands_other_user_data = strcmp(VARIANT, "other_user_data") == 0;
  if (strcmp(VARIANT, "init_hangs") == 0) adapter.init = init_hangs;
  if (strcmp(VARIANT, "init_hangs_in_worker") == 0) adapter.init = init_hangs_in_worker;
  if (strcmp(VARIANT, "init_prints_in_worker") == 0) adapter.init = init_prints_in_worker;
  if (strcmp(VARIANT, "init_forks") == 0) adapter.init = init_forks;
  if (strcmp(VARIANT, "counts_init") == 0) {
    adapter.init = init_counted;
    adapter.teardown = teardown_counted;
    adapter.name = "counted";
  }
  return &adapter;
}

HOSTCB_ADAPTER_EXPORT const struct hostcb_adapter *hostcb_adapter_v1_for_tests(void) { return make(); }
#ifndef FAKE_NO_SYMBOL
HOSTCB_ADAPTER_EXPORT const struct hostcb_adapter *hostcb_adapter_v1(void) { return make(); }
#endif
