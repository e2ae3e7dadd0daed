// The time reports are stamped with.
#pragma once
#include <string>

namespace hostcb {

std::string utc_now();  // ISO 8601, e.g. 2026-11-30T00:07:10Z

}  // namespace hostcb
