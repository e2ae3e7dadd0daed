/* pending_signal INT|TERM|HUP PROGRAM ARG...: runs PROGRAM with that signal already pending
 * (blocked, raised, then exec: a pending signal survives exec). It arrives the moment the
 * program unblocks it: the earliest a signal can reach its main, without a race. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: pending_signal INT|TERM|HUP PROGRAM ARG...\n");
    return 2;
  }
  int signo = strcmp(argv[1], "INT") == 0 ? SIGINT : strcmp(argv[1], "HUP") == 0 ? SIGHUP : SIGTERM;
  signal(signo, SIG_DFL);  /* a shell's background job ignores SIGINT: not inherited here */
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, signo);
  if (sigprocmask(SIG_BLOCK, &set, NULL) != 0 || raise(signo) != 0) {
    perror("pending_signal");
    return 2;
  }
  execv(argv[2], argv + 2);
  perror("pending_signal: exec");
  return 2;
}
