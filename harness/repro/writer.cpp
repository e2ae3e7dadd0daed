#include "repro/writer.hpp"

#include <sstream>

namespace hostcb::repro {

std::string count_expression(Expected e) {
  std::ostringstream out;
  if (e.per_launch == 1) out << "launch";
  else if (e.per_launch != 0) out << e.per_launch << " * launch";
  if (e.fixed != 0 || e.per_launch == 0) out << (e.per_launch != 0 ? " + " : "") << e.fixed;
  return out.str();
}

}  // namespace hostcb::repro
