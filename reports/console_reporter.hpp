// The console: one line per scenario as it finishes, with its position in the plan as
// progress, the failures under it, and a summary. Colours only on a terminal, and never
// when NO_COLOR is set (https://no-color.org).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "model/result.hpp"

namespace spdlog {
class logger;
}

namespace hostcb {

class ConsoleReporter {
 public:
  ConsoleReporter();
  void on_result(const Result& result, std::size_t index, std::size_t total);
  void summary(const RunReport& report, const std::vector<std::string>& written_files);
  void error(const std::string& message);

 private:
  std::shared_ptr<spdlog::logger> log_;
};

}  // namespace hostcb
