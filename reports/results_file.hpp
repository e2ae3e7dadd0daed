// Reading what hostcb wrote: a `run --json` results file or a `report --json` matrix,
// through one bounded reader (a regular file, at most 1 GiB, nesting limited: never a
// FIFO that blocks, never a crash on a deep document) and one format check, so that
// `hostcb report` and `hostcb result` refuse the same files the same way (exit 2).
#pragma once
#include <nlohmann/json.hpp>

#include <initializer_list>
#include <string>
#include <vector>

#include "model/result.hpp"

namespace hostcb {

// The document, once its "format" is `format` and its "format_version" one of
// `versions`. Throws UsageError "PATH: not a WHAT (...)" or "PATH: WHAT format_version 99;
// this hostcb reads 1, 2 or 3".
nlohmann::ordered_json read_hostcb_document(const std::string& path, const char* format,
                                            std::initializer_list<int> versions, const char* what);

struct ResultsFile {
  nlohmann::ordered_json doc;
  std::vector<Result> results;  // every entry of "results", in file order
};
// A results file (format 1, 2 or 3) with every result read. Throws UsageError naming the
// file for anything else: a missing key, an unknown status, a number out of range.
ResultsFile read_results_file(const std::string& path);

// The worst of several results for one scenario (its --repeat passes): error, failed,
// xpass, passed, xfail, skipped, in that order. A pass that failed is never hidden
// behind one that passed.
Status worst_status(const std::vector<Status>& statuses);

}  // namespace hostcb
