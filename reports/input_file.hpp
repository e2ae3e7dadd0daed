// Reading a file the user named as input (expectations, results files, a previous matrix).
#pragma once
#include <cstddef>
#include <string>

namespace hostcb {

// The whole file. Throws UsageError "PATH: cannot read the WHAT: REASON" for a missing or
// unreadable file, "PATH: is a directory, not a WHAT" and "PATH: ... bytes; more than".
std::string read_input_file(const std::string& path, const std::string& what, std::size_t max_bytes);

}  // namespace hostcb
