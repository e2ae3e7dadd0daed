// Known behaviour, kept in a file, so a nightly run stays green on bugs someone already
// knows about and turns red the day one is fixed. This file and expectations.cpp are the one
// place that knows the entry format (docs/nightly.md describes it for users).
//
// The file is JSON with comments (// and /* */). Each entry names scenarios by a glob over
// their ids, or a list of globs, optionally only where axes, drivers, runtimes and layer
// versions are in ranges, and the results they are known to end with:
//   {
//     "format": "hostcb-expectations", "format_version": 1,
//     "expectations": [
//       { "id": ["replay/*forward=cuda_bindings_*", "ordering/*forward=cuda_bindings_*"],
//         "axes": { "replays": ">=2" },               // the scenario's axis values; optional
//         "driver": { "min": "525", "max": "580" },   // the driver's version string; optional
//         "runtime": { "min": "12.0" },                // the CUDA runtime; optional
//         "layers": { "cuda-bindings": ">=13.0,<13.5" }, // what the loaded layers drive; optional
//         "expect": ["error"],                         // failed and/or error
//         "reason": "cuda-bindings 13.3.1 frees its trampoline record after one call",
//         "link": "https://..." } ] }                  // optional
// A scenario is named when one of the globs matches its id. Bounds are inclusive and compare
// only as many numbers as they give: "580" holds every 580.x.y. An entry with a driver range
// never applies when the driver's version string is unknown. A "layers" range (PEP 440, as
// Python's packaging: model/version_specifier.hpp) holds when a loaded layer (--adapter)
// reports that package in its versions with a version in the range; with no layer reporting
// it the entry never applies. An "axes" range, in the same grammar, holds for a scenario
// whose value of that axis is in it, compared as a version (whole numbers: numerically); a
// scenario without that axis is not named. The first entry that applies to a scenario is
// the one used.
//
// After the run: a result that is one of the expected ones becomes xfail; a pass becomes
// xpass (a failure of the run: the entry can be retired); any other result stays as it was.
//
// `run` reads the shipped expectations/known-layer-bugs.jsonc by default, found beside the
// binary (the install prefix, the wheel, the build tree): choose_expectations() below.
#pragma once
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/axes.hpp"
#include "model/environment.hpp"
#include "model/result.hpp"
#include "model/version_specifier.hpp"

namespace hostcb {

struct VersionRange {
  std::string min, max;  // dotted numbers; empty: unbounded
  bool contains(const std::string& version) const;
};

struct Expectation {
  std::vector<std::string> id_patterns;  // one glob, or the list given
  std::vector<std::pair<std::string, VersionSpecifier>> axes;  // axis -> range, all must hold
  std::optional<VersionRange> driver, runtime;
  std::vector<std::pair<std::string, VersionSpecifier>> layers;  // package -> range, all must hold
  std::vector<Status> expect;  // failed and/or error
  std::string reason;
  std::string link;  // may be empty
  int line = 0;      // where the entry starts in its file
  std::string describe() const;  // "REASON (LINK)", or "REASON" without a link
  std::string ids() const;       // the globs as written: "a/*" or "a/*, b/*"
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
// not JSON (or over 16 MiB, or nested over 16 deep), or breaks the format (a malformed
// version or range, min above max, a range no version is in). Nothing is run with a file
// that does not load.
Expectations load_expectations(const std::string& path);
Expectations parse_expectations(const std::string& text, const std::string& path);

// The shipped known layer bugs (expectations/known-layer-bugs.jsonc, installed into
// share/hostcb/), looked for beside the running binary BIN, in this order:
//   BIN/../share/hostcb/known-layer-bugs.jsonc   an install (cmake --install's prefix) and
//                                                the wheel (site-packages/hostcb/{bin,share})
//   BIN/share/hostcb/known-layer-bugs.jsonc      the build tree (a link to the source file)
// The paths looked at, in that order, and the first that exists (nullopt when none does).
std::vector<std::string> shipped_expectations_candidates();
std::optional<std::string> find_shipped_expectations();
inline constexpr const char* kShippedExpectations = "shipped";
inline constexpr const char* kExpectationsVariable = "HOSTCB_EXPECTATIONS";

// The expectations file a run reads, and where that choice came from, first that says:
//   --no-expectations (`off`)           none
//   --expectations NAME (`given`)       NAME; "shipped": the shipped file (a UsageError when
//                                       it is not found). A file named shipped is ./shipped.
//   $HOSTCB_EXPECTATIONS (`variable`)   set and empty: none; otherwise as --expectations
//   by default                          the shipped file when found; else none
// `path` is "" for none. `by_default` is true for the last rule only (the run says so when
// the file could apply: run_command.cpp).
struct ExpectationsChoice {
  std::string path;
  std::string origin;  // "--expectations", "$HOSTCB_EXPECTATIONS" or "the shipped default"
  bool by_default = false;
};
ExpectationsChoice choose_expectations(const std::optional<std::string>& given, bool off, const char* variable);

// The path `--expectations NAME` reads: NAME itself, or for "shipped" the shipped file
// (find_shipped_expectations); throws UsageError naming where it looked when there is none.
std::string expectations_path(const std::string& name);

// A scenario an expectations file is checked against: its id and axis values.
struct PlannedScenario {
  PlannedScenario(std::string scenario_id, Params scenario_params = {})
      : id(std::move(scenario_id)), params(std::move(scenario_params)) {}
  PlannedScenario(const char* scenario_id) : id(scenario_id) {}
  std::string id;
  Params params;
};

// One warning line per entry that names none of `planned` ("PATH:LINE: warning: ..."): a
// typo, or a scenario that no longer exists. `planned` is every scenario the binary could
// run with its layers, not one run's selection (run_command.cpp). Entries whose layers no
// loaded layer reports are not looked at: a shipped file names every layer, a run loads few.
std::vector<std::string> unmatched_expectation_warnings(const Expectations& expectations,
                                                        const std::vector<PlannedScenario>& planned,
                                                        const Environment& env);

// One warning line per package that entries are keyed on and a loaded layer reports with a
// version that is no PEP 440 version: no range holds it, so those entries never apply.
std::vector<std::string> unplaced_version_warnings(const Expectations& expectations, const Environment& env);

// One warning line when entries have a driver range and the driver's version string is
// known but no dotted numbers ("580.159.04-custom"): those entries never apply. (An unknown,
// empty, driver string is no warning: without a driver nothing runs.)
std::vector<std::string> driver_version_warnings(const Expectations& expectations, const Environment& env);

// Whether some entry asks only for packages that `adapters` (the loaded layers) report: an
// entry without "layers" does. Entries keyed on layers no loaded layer reports never apply.
bool layers_may_apply(const Expectations& expectations, const std::vector<AdapterInfo>& adapters);

// Throws UsageError "PATH:LINE: unknown layer package ..." for a "layers" key that is neither
// a package a shipped layer reports (kKnownLayerPackages) nor one a loaded layer reports.
void check_layer_packages(const Expectations& expectations, const Environment& env);

// Throws UsageError "PATH:LINE: unknown axis ..." for an "axes" key no scenario of
// `planned` has.
void check_axes(const Expectations& expectations, const std::vector<PlannedScenario>& planned);

// What run and list do with the expectations file at `path`: load it, check its layer
// packages and axes, and collect every warning above, against every scenario the
// binary could run with the loaded layers (controls included, at the default axes and at
// the command's `axes` overrides: what a run's own filter or --axis leaves out says
// nothing, what its --axis adds counts) and those layers.
class Registry;
Expectations load_checked_expectations(const std::string& path, const Registry& registry,
                                       const std::vector<std::string>& axes, std::vector<std::string>& warnings);

// The packages hostcb's own layer modules and plugins report (tests/test_expectations.cpp
// keeps it true to harness/adapters): an expectations file may name these without loading them.
extern const std::vector<std::string> kKnownLayerPackages;

// Whether the entry's driver, runtime and layer conditions hold in `env` (axes and ids are
// the scenario's); when they do not and `why` is given, it says which one fails first
// ("no loaded layer reports cupy-cuda13x", "cuda-bindings 13.5.0 is not in >=12.9,<13.5").
bool entry_applies(const Expectation& e, const Environment& env, std::string* why = nullptr);

// The first entry that applies to this scenario in this environment, or nullptr.
const Expectation* find_expectation(const Expectations& expectations, const std::string& id, const Params& params,
                                    const Environment& env);

// Turns a matching result into xfail, and a pass that was expected to fail into xpass.
// The run applies it to each result before any reporter sees it.
void apply_expectation(Result& result, const Expectations& expectations, const Environment& env);

// -1, 0 or 1, comparing only as many numbers as `bound` has ("580" vs "580.159.04" is 0).
int compare_version_prefix(const std::string& version, const std::string& bound);

}  // namespace hostcb
