#include "exec/output_tail.hpp"

#include <utility>

#include "model/errors.hpp"
#include "protocol/worker_protocol.hpp"

namespace hostcb {

void OutputTail::feed(const char* data, std::size_t size) {
  partial_.append(data, size);
  for (std::size_t nl; (nl = partial_.find('\n')) != std::string::npos; partial_.erase(0, nl + 1)) add(partial_.substr(0, nl));
  if (partial_.size() > 4096) {  // a line without end: keep its tail, and a mark in it counts
    std::size_t after_mark = protocol::after_last_mark(partial_);
    if (after_mark != std::string::npos) {
      clear();
      partial_.erase(0, after_mark);
    }
    if (partial_.size() > 4096) partial_.erase(0, partial_.size() - 4096);
  }
}

void OutputTail::clear() {
  first_.clear();
  lines_.clear();
  skipped_ = 0;
  headlines_.clear();
}

std::string OutputTail::describe() {
  if (!partial_.empty()) add(std::exchange(partial_, ""));
  std::string text;
  for (const auto& h : headlines_) text += "sanitizer: " + h + "\n";
  if (!first_.empty()) text += "what the worker wrote:\n";
  for (const auto& line : first_) text += "  " + line + "\n";
  if (skipped_) text += str("  ... (", skipped_, " lines)\n");
  for (const auto& line : lines_) text += "  " + line + "\n";
  return text;
}

void OutputTail::add(std::string line) {
  if (protocol::is_mark(line)) {
    clear();  // a scenario starts or ended: what came before (this line's head too) is not its
    return;
  }
  line = line.substr(0, 300);
  bool headline = line.find("ERROR: AddressSanitizer") != std::string::npos ||
                  line.find("ERROR: LeakSanitizer") != std::string::npos ||
                  line.find("runtime error:") != std::string::npos;
  if (headline && headlines_.size() < 4) headlines_.push_back(line);
  if (first_.size() < kFirst) {
    first_.push_back(std::move(line));
    return;
  }
  lines_.push_back(std::move(line));
  if (lines_.size() > kLast) {
    lines_.pop_front();
    ++skipped_;
  }
}

}  // namespace hostcb
