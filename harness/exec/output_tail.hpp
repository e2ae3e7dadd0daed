// What a worker wrote, kept for crash reports: the first and last lines of the scenario in
// hand, and every sanitizer headline.
//
// Output and events come through two pipes, so the order between them is lost: output a
// scenario wrote before its result can be read after the next one's start event. The
// worker therefore writes a mark line (protocol::output_mark) into the output itself at each
// scenario's start and end; the tail starts afresh at each mark, in the output's own order.
#pragma once
#include <cstddef>
#include <deque>
#include <string>
#include <vector>

namespace hostcb {

class OutputTail {
 public:
  void feed(const char* data, std::size_t size);
  void clear();
  // "sanitizer: ...\nwhat the worker wrote:\n  line\n..."; empty when nothing was written.
  std::string describe();

 private:
  // The first lines say what the scenario was doing; the last ones how it ended (a
  // sanitizer report can be long).
  static constexpr std::size_t kFirst = 10, kLast = 20;
  void add(std::string line);
  std::vector<std::string> first_;
  std::deque<std::string> lines_;
  std::size_t skipped_ = 0;
  std::vector<std::string> headlines_;
  std::string partial_;
};

}  // namespace hostcb
