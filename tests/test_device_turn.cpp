// Turns on the GPU across processes (runner/device_turn.hpp): a lock file that cannot be
// made is an error naming HOSTCB_LOCK_DIR, never a run without turns.
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "catch_compat.hpp"
#include "model/errors.hpp"
#include "model/registry.hpp"
#include "runner/device_turn.hpp"
#include "stub_cases.hpp"

using namespace hostcb;

TEST_CASE("a lock folder gone mid-run makes the turn an error that names HOSTCB_LOCK_DIR", "[device_turn]") {
  Registry registry;
  stub::register_stub_cases(registry);
  const Scenario fresh = registry.resolve("stub_fresh/copy=1");
  Environment env;
  char made[] = "/tmp/hostcb-turn-test-XXXXXX";
  REQUIRE(mkdtemp(made) != nullptr);
  const std::string folder = made;
  setenv("HOSTCB_LOCK_DIR", folder.c_str(), 1);
  CHECK(DeviceTurn::folder_problem().empty());
  { DeviceTurn turn(fresh, env); }  // taken and let go
  for (const char* file : {"/hostcb-turn-cpu-stand-in.turn", "/hostcb-turn-cpu-stand-in.turnstile"})
    ::unlink((folder + file).c_str());
  ::rmdir(folder.c_str());
  CHECK(contains(DeviceTurn::folder_problem(), "HOSTCB_LOCK_DIR=" + folder + ": the folder for the GPU's lock files"));
  std::string what;
  try {
    DeviceTurn turn(fresh, env);
  } catch (const std::runtime_error& e) {
    what = e.what();
  }
  CHECK(contains(what, "could not take its turn on the GPU: cannot open " + folder));
  CHECK(contains(what, "(HOSTCB_LOCK_DIR=" + folder + ")"));
  unsetenv("HOSTCB_LOCK_DIR");
}
