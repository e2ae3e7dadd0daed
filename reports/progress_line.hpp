// The console's progress line, on a terminal only: after each start and each result,
// "[12/925 done; 8 more started] replay/api=driver/..." (the one started last) rewritten in
// place, and wiped before any other line is printed. Workers side by side finish out of
// order while the result lines keep the plan's order: this line shows that the run moves.
// Called one at a time (the reporters are).
#pragma once
#include <cstddef>
#include <cstdio>
#include <string>

namespace hostcb {

class ProgressLine {
 public:
  // Shown only when `out` is a terminal.
  explicit ProgressLine(std::FILE* out);
  void planned(std::size_t total) { total_ = total; }
  void started(const std::string& id);
  void finished(std::size_t total);  // one more result; `total` planned
  void wipe();                       // before a line of its own is printed; idempotent

 private:
  void draw();
  std::FILE* out_;
  bool shown_ = false, enabled_ = false;
  std::size_t started_ = 0, done_ = 0, total_ = 0;
  std::string last_started_;
};

}  // namespace hostcb
