cmake_minimum_required(VERSION 3.24)
# One family's run for CTest's per-family mode (cmake -P): `hostcb run --filter FAMILY/*
# --json RESULTS`. Passes when the run wrote its results (exit 0, 1 or 77: the verdicts
# are the scenarios' own tests'); fails on a usage error or when no results file came out,
# and then every scenario of the family fails with it. Inputs: HOSTCB_EXE, FAMILY, RESULTS.
file(REMOVE "${RESULTS}")  # never let a scenario read an earlier run's result
get_filename_component(dir "${RESULTS}" DIRECTORY)
file(MAKE_DIRECTORY "${dir}")
execute_process(COMMAND "${HOSTCB_EXE}" run -q --filter "${FAMILY}/*" --json "${RESULTS}" RESULT_VARIABLE rc)
if(NOT EXISTS "${RESULTS}")
  message(FATAL_ERROR "hostcb run for ${FAMILY} exited ${rc} and wrote no results")
endif()
if(NOT rc MATCHES "^(0|1|77)$")
  message(FATAL_ERROR "hostcb run for ${FAMILY} exited ${rc}")
endif()
if(rc EQUAL 77)
  # Matched by the test's SKIP_REGULAR_EXPRESSION: a family in which nothing ran is a
  # skip, never a pass (its scenarios' tests still run and skip with their reasons).
  message(STATUS "hostcb family run: nothing ran in ${FAMILY}")
else()
  message(STATUS "family ${FAMILY}: exit ${rc}; each scenario's test reports its own result")
endif()
