// Report files are written whole or not at all: the text goes to a temporary file in
// the same folder, is flushed to disk, then renamed over the target. A reader (or a CI
// job that kills us) never sees half a report.
#pragma once
#include <functional>
#include <string>

namespace hostcb {

// Throws std::runtime_error ("cannot write <path>: <reason>") on failure, and refuses to
// replace an existing non-regular file or symbolic link. An existing file keeps its mode.
// `on_temporary`, when given, is told the temporary file's name once it exists (and
// before anything is written to it): reports/last_words.hpp removes it on a second signal.
void write_file_atomically(const std::string& path, const std::string& content,
                           const std::function<void(const std::string&)>& on_temporary = nullptr);

// A name for a file beside `path` ending in `suffix`: the report's name cut so that the
// whole still fits in NAME_MAX (a legal 254-character name must not fail as too long).
std::string temporary_name_beside(const std::string& path, const std::string& suffix);

// Checks up front that `path` could be written (its folder exists and takes new files),
// so a bad --junit path fails before any scenario runs. Throws UsageError.
void check_writable(const std::string& path, const std::string& what);

}  // namespace hostcb
