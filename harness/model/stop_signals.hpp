// The signals that stop a run: the first is remembered (the workers are stopped, every report
// written), a second ends hostcb at once (exec/interrupt.hpp). SIGHUP, a closed terminal or
// ssh session, is handled as SIGTERM is.
#pragma once
#include <signal.h>

namespace hostcb {

inline constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};
inline constexpr int kStopSignalCount = 3;

// "SIGINT", "SIGTERM", "SIGHUP"; "a signal" for any other. Async-signal-safe.
inline const char* stop_signal_name(int signo) noexcept {
  switch (signo) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    default: return "a signal";
  }
}

// Its place in kStopSignals, or -1.
inline int stop_signal_index(int signo) noexcept {
  for (int k = 0; k < kStopSignalCount; ++k)
    if (kStopSignals[k] == signo) return k;
  return -1;
}

}  // namespace hostcb
