#include "reports/progress_line.hpp"

#include <unistd.h>

#include <fmt/format.h>

namespace hostcb {

namespace {
constexpr std::size_t kWidth = 100;  // columns it may take, its id cut to fit
}  // namespace

ProgressLine::ProgressLine(std::FILE* out) : out_(out), enabled_(isatty(fileno(out)) == 1) {}

void ProgressLine::started(const std::string& id) {
  ++started_;
  last_started_ = id;
  draw();
}

void ProgressLine::finished(std::size_t total) {
  ++done_;
  total_ = total;
  draw();
}

void ProgressLine::wipe() {
  if (!shown_) return;
  std::fputs("\r\033[K", out_);
  std::fflush(out_);
  shown_ = false;
}

void ProgressLine::draw() {
  if (!enabled_) return;
  // Results are reported in plan order: one that finished out of order counts as started.
  const std::size_t more = started_ > done_ ? started_ - done_ : 0;
  std::string line = fmt::format("[{}/{} done; {} more started] {}", done_, total_, more, more ? last_started_ : "");
  if (line.size() > kWidth) line = line.substr(0, kWidth - 3) + "...";
  std::fputs(("\r\033[K" + line).c_str(), out_);
  std::fflush(out_);
  shown_ = true;
}

}  // namespace hostcb
