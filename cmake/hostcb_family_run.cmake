cmake_minimum_required(VERSION 3.24)
# One family's run for CTest's per-family mode (cmake -P): `hostcb run -q -j JOBS --filter
# FILTER --json RESULTS OPTIONS...`. Passes when the run wrote its results (exit 0, 1 or 77: the
# verdicts are the scenarios' own tests'); fails on a usage error or when no results file
# came out, and then every scenario of the family fails with it. Inputs: HOSTCB_EXE,
# FILTER (the family's scenarios of the selection), OPTIONS ('|'-separated: adapters,
# axes, expectations), RESULTS, JOBS (its workers), REQUIRE_GPU (true: OPTIONS has
# --require-gpu, and a run that found no usable GPU fails here, with the reason).
if(NOT JOBS)
  set(JOBS 1)  # a test file written before JOBS existed
endif()
file(REMOVE "${RESULTS}")  # never let a scenario read an earlier run's result
get_filename_component(dir "${RESULTS}" DIRECTORY)
file(MAKE_DIRECTORY "${dir}")
string(REPLACE "|" ";" options "${OPTIONS}")
execute_process(COMMAND "${HOSTCB_EXE}" run -q -j "${JOBS}" --filter "${FILTER}" --json "${RESULTS}" ${options}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ECHO_OUTPUT_VARIABLE)
if(NOT EXISTS "${RESULTS}")
  message(FATAL_ERROR "hostcb run --filter '${FILTER}' exited ${rc} and wrote no results")
endif()
# Exit 1 is also every failed scenario's: the verdict line says whether --require-gpu
# found a scenario skipped for want of a GPU.
if(REQUIRE_GPU AND rc EQUAL 1 AND out MATCHES "exit 1: [^\n]*--require-gpu: ([^\n]*)")
  message(FATAL_ERROR "hostcb family run: REQUIRE_GPU, and ${CMAKE_MATCH_1}")
endif()
if(NOT rc MATCHES "^(0|1|77)$")
  message(FATAL_ERROR "hostcb run --filter '${FILTER}' exited ${rc}")
endif()
if(rc EQUAL 77)
  # Matched by the test's SKIP_REGULAR_EXPRESSION: a family in which nothing ran is a
  # skip, never a pass (its scenarios' tests still run and skip with their reasons).
  message(STATUS "hostcb family run: nothing ran in '${FILTER}'")
else()
  message(STATUS "hostcb run --filter '${FILTER}': exit ${rc}; each scenario's test reports its own result")
endif()
