// Known behaviour, kept in a file, so a nightly run stays green on bugs someone already
// knows about and turns red the day one is fixed.
//
// The file is JSON with comments (// and /* */). Each entry names scenarios by a glob over
// their ids, optionally only for some drivers and runtimes, and the result they are known
// to end with:
//   {
//     "format": "hostcb-expectations", "format_version": 1,
//     "expectations": [
//       { "id": "replay/*forward=cuda_bindings_*/replays=5/*",
//         "driver": { "min": "525", "max": "580" },   // the driver's version string; optional
//         "runtime": { "min": "12.0" },                // the CUDA runtime; optional
//         "layers": { "cuda-bindings": ">=13.0,<13.5" }, // what the loaded layers drive; optional
//         "expect": ["error"],                         // failed and/or error
//         "reason": "cuda-bindings 13.3.1 frees its trampoline record after one call",
//         "link": "https://..." } ] }
// Bounds are inclusive and compare only as many numbers as they give: "580" holds every
// 580.x.y. An entry with a driver range never applies when the driver's version string is
// unknown. A "layers" range (model/version_specifier.hpp: Python's packaging specifiers)
// holds when a loaded layer (--adapter) reports that package in its versions with a version
// in the range; with no layer reporting it the entry never applies. The first entry that
// applies to a scenario is the one used.
//
// After the run: a result that is one of the expected ones becomes xfail; a pass becomes
// xpass (a failure of the run: the entry can be retired); any other result stays as it was.
#pragma once
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/environment.hpp"
#include "model/result.hpp"
#include "model/version_specifier.hpp"

namespace hostcb {

struct VersionRange {
  std::string min, max;  // dotted numbers; empty: unbounded
  bool contains(const std::string& version) const;
};

struct Expectation {
  std::string id_pattern;
  std::optional<VersionRange> driver, runtime;
  std::vector<std::pair<std::string, VersionSpecifier>> layers;  // package -> range, all must hold
  std::vector<Status> expect;  // failed and/or error
  std::string reason;
  std::string link;
  int line = 0;  // where the entry starts in its file
  std::string describe() const;  // "REASON (LINK)"
};

struct Expectations {
  std::string path;
  std::vector<Expectation> entries;
  std::vector<std::string> warnings;  // "PATH:LINE: warning: ...", one per duplicate entry
  // The entries' indices by glob, in file order (parse_expectations makes them): a lookup
  // is one hash lookup for the exact ids and one match per distinct wildcard glob.
  std::unordered_map<std::string, std::vector<std::size_t>> exact_ids;
  std::vector<std::pair<std::string, std::vector<std::size_t>>> globs;
};

// Throws UsageError "PATH:LINE:COLUMN: what is wrong" for a file that cannot be read, is
// not JSON (or over 16 MiB, or nested over 16 deep), or breaks the format (a version
// number over 9 digits, min above max). Nothing is run with a file that does not load.
Expectations load_expectations(const std::string& path);
Expectations parse_expectations(const std::string& text, const std::string& path);

// One warning line per entry whose glob matches none of `planned_ids` ("PATH:LINE:
// warning: ..."): a typo, or a scenario that no longer exists. `planned_ids` is every id
// the binary could run with its layers, not one run's selection (run_command.cpp). Entries
// whose layers no loaded layer reports are not looked at: a shipped file names every
// layer, a run loads few.
std::vector<std::string> unmatched_expectation_warnings(const Expectations& expectations,
                                                        const std::vector<std::string>& planned_ids,
                                                        const Environment& env);

// Throws UsageError "PATH:LINE: unknown layer package ..." for a "layers" key that is neither
// a package a shipped layer reports (kKnownLayerPackages) nor one a loaded layer reports.
void check_layer_packages(const Expectations& expectations, const Environment& env);

// The packages hostcb's own layer modules and plugins report (tests/test_expectations.cpp
// keeps it true to harness/adapters): an expectations file may name these without loading them.
extern const std::vector<std::string> kKnownLayerPackages;

// The first entry that applies to this scenario in this environment, or nullptr.
const Expectation* find_expectation(const Expectations& expectations, const std::string& id, const Environment& env);

// Turns a matching result into xfail, and a pass that was expected to fail into xpass.
// The run applies it to each result before any reporter sees it.
void apply_expectation(Result& result, const Expectations& expectations, const Environment& env);

// -1, 0 or 1, comparing only as many numbers as `bound` has ("580" vs "580.159.04" is 0).
int compare_version_prefix(const std::string& version, const std::string& bound);

}  // namespace hostcb
