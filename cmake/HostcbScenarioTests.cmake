# hostcb_discover_scenarios([TARGET <executable>] [PREFIX <name>] [ADAPTERS <spec>...]
#                           [FILTER <filter>] [AXES <name=values>...] [EXPECTATIONS <file>]
#                           [LABELS <label>...] [MODE family|scenario] [JOBS <n>])
#
# In the spirit of gtest_discover_tests: registers one CTest test per scenario that
# `<executable> list --format json` names with the same adapters, filter and axes. The
# listing is made when ctest reads its test files (so an adapter built by this project, or a
# Python layer installed since, is what the list sees), not at configure time.
#
#   TARGET        the hostcb executable target: hostcb in hostcb's own tree, the imported
#                 hostcb::hostcb of find_package(hostcb) (the default)
#   PREFIX        names the tests `<name>:<id>` and the family runs `<name>:family:<family>`;
#                 without it `scenario:<id>` and `family:<family>` (hostcb's own tree)
#   ADAPTERS      --adapter arguments: paths (generator expressions such as
#                 $<TARGET_FILE:mylayer> work), ready names (cuda_bindings:runtime), @options
#   FILTER, AXES  --filter and --axis arguments, for the listing and every run
#   EXPECTATIONS  --expectations for every run: a listed failure is xfail (the test passes);
#                 without it, hostcb run reads the shipped known layer bugs installed beside
#                 it (share/hostcb/known-layer-bugs.jsonc; HOSTCB_EXPECTATIONS= for none)
#   LABELS        more labels; every test has gpu, scenario, its family and api=<value>
#   MODE          family (the default, HOSTCB_CTEST_MODE): each family runs once, in one
#                 worker, as a fixture test that writes its results JSON; each scenario's test
#                 then prints its own result from that file (`hostcb result`) and exits with
#                 its status, so CTest pays one CUDA context per family. scenario: each
#                 scenario's test is its own `hostcb run` (a fresh process each, about 0.2 s).
#   JOBS          workers of each family run (its -j), and the CPUs its test claims from
#                 `ctest -j` (PROCESSORS): 2 by default (HOSTCB_CTEST_JOBS). Family runs go
#                 side by side under `ctest -j`; each worker is a CUDA context, and a GPU
#                 holds a bounded number of them (`ctest -j 16` over runs of 16 workers
#                 each ran out of device memory on an H200). A scenario that must have the
#                 GPU to itself waits for its turn across all of them (runner/device_turn.hpp).
#
# Exit code 77 (skipped, e.g. no usable GPU) is a CTest skip, never a pass. A listing that
# fails is one failing test, `<prefix>discovery`, with hostcb's message. No argument may
# contain '|' (it separates arguments on the way to the family runs).
set(HOSTCB_CTEST_MODE "family" CACHE STRING "how CTest runs scenarios: family (one run per family) or scenario")
set_property(CACHE HOSTCB_CTEST_MODE PROPERTY STRINGS family scenario)
set(HOSTCB_CTEST_JOBS "2" CACHE STRING "workers of each per-family CTest run (hostcb run -j), and the CPUs it claims")
set(_HOSTCB_SCENARIO_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/hostcb_write_scenario_tests.cmake)
set(_HOSTCB_FAMILY_RUN_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/hostcb_family_run.cmake)

function(hostcb_discover_scenarios)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "TARGET;PREFIX;FILTER;EXPECTATIONS;MODE;JOBS" "ADAPTERS;AXES;LABELS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "hostcb_discover_scenarios: unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_TARGET)
    set(arg_TARGET hostcb::hostcb)
  endif()
  if(NOT TARGET ${arg_TARGET})
    message(FATAL_ERROR "hostcb_discover_scenarios: no target ${arg_TARGET} (find_package(hostcb) makes hostcb::hostcb)")
  endif()
  if(NOT arg_MODE)
    set(arg_MODE "${HOSTCB_CTEST_MODE}")
  endif()
  if(NOT arg_JOBS)
    set(arg_JOBS "${HOSTCB_CTEST_JOBS}")
  endif()
  if(NOT arg_JOBS MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "hostcb_discover_scenarios: JOBS is a positive number, not '${arg_JOBS}'")
  endif()
  if(NOT arg_MODE MATCHES "^(family|scenario)$")
    message(FATAL_ERROR "hostcb_discover_scenarios: MODE is family or scenario, not '${arg_MODE}'")
  endif()
  if(arg_PREFIX)
    set(scenario_prefix "${arg_PREFIX}:")
    set(family_prefix "${arg_PREFIX}:family:")
    set(name "${arg_PREFIX}")
  else()
    set(scenario_prefix "scenario:")
    set(family_prefix "family:")
    set(name "scenarios")
  endif()
  set(options "")  # for the listing and every run
  foreach(adapter IN LISTS arg_ADAPTERS)
    list(APPEND options --adapter "${adapter}")
  endforeach()
  foreach(axis IN LISTS arg_AXES)
    list(APPEND options --axis "${axis}")
  endforeach()
  set(run_options "")
  if(arg_EXPECTATIONS)
    get_filename_component(expectations "${arg_EXPECTATIONS}" ABSOLUTE)
    set(run_options --expectations "${expectations}")
  endif()

  # The listing runs when ctest reads this directory's tests: this file, its generator
  # expressions resolved, includes the script that lists and adds the tests.
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/hostcb-${name}")
  file(GENERATE OUTPUT "${dir}/discover.cmake" CONTENT
"# Generated by hostcb_discover_scenarios(): do not edit.
set(HOSTCB_EXE [==[$<TARGET_FILE:${arg_TARGET}>]==])
set(HOSTCB_OPTIONS [==[${options}]==])
set(HOSTCB_FILTER [==[${arg_FILTER}]==])
set(HOSTCB_RUN_OPTIONS [==[${run_options}]==])
set(HOSTCB_MODE [==[${arg_MODE}]==])
set(HOSTCB_JOBS [==[${arg_JOBS}]==])
set(HOSTCB_SCENARIO_PREFIX [==[${scenario_prefix}]==])
set(HOSTCB_FAMILY_PREFIX [==[${family_prefix}]==])
set(HOSTCB_LABELS [==[${arg_LABELS}]==])
set(HOSTCB_RESULTS_DIR [==[${dir}/results]==])
set(HOSTCB_TESTS_FILE [==[${dir}/tests.cmake]==])
set(HOSTCB_WORKING_DIR [==[${CMAKE_CURRENT_BINARY_DIR}]==])
set(HOSTCB_FAMILY_RUN_SCRIPT [==[${_HOSTCB_FAMILY_RUN_SCRIPT}]==])
set(HOSTCB_CMAKE [==[${CMAKE_COMMAND}]==])
include([==[${_HOSTCB_SCENARIO_SCRIPT}]==])
")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${dir}/discover.cmake")
endfunction()
