# hostcb_discover_scenarios([TARGET <executable>] [PREFIX <name>] [ADAPTERS <spec>...]
#                           [FILTER <filter>] [AXES <name=values>...] [EXPECTATIONS <file>]
#                           [LABELS <label>...] [MODE family|scenario] [JOBS <n>]
#                           [PYTHON <python3>] [REQUIRE_GPU] [EXTRA_ARGS <arg>...]
#                           [PROPERTIES <name> <value>...] [DISCOVERY_TIMEOUT <seconds>])
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
#   PYTHON        the python3 a Python layer (a ready name such as cuda_bindings:runtime, a
#                 Python adapter library) embeds, for the listing and every run: by default
#                 the one this project names, Python3_EXECUTABLE (find_package(Python3)),
#                 else Python_EXECUTABLE; with neither, $HOSTCB_PYTHON or the python3 on PATH
#                 when ctest runs. It goes in as HOSTCB_PYTHON, so an adapter's own
#                 @python=PATH still wins.
#   REQUIRE_GPU   no usable GPU is a failure, not a skip: every run gets --require-gpu, and a
#                 family run that found no GPU fails with the reason (its scenarios' tests are
#                 then not run, which CTest counts as failed)
#   EXTRA_ARGS    more arguments for every run (family runs and MODE scenario's runs), not
#                 the listing: --timeout 60, --isolate scenario, --repeat 3, ...
#   PROPERTIES    test properties set on every test this registers (scenarios' and family
#                 runs'), after hostcb's own: TIMEOUT 600 ENVIRONMENT "A=1;B=2". A TIMEOUT
#                 is each scenario's: a family run of N scenarios gets N times it
#   DISCOVERY_TIMEOUT  seconds the listing may take (default 60: a Python layer imports its
#                 package first); past it, the one failing test `<prefix>discovery` says so
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
  cmake_parse_arguments(PARSE_ARGV 0 arg "REQUIRE_GPU" "TARGET;PREFIX;FILTER;EXPECTATIONS;MODE;JOBS;PYTHON;DISCOVERY_TIMEOUT"
                        "ADAPTERS;AXES;LABELS;EXTRA_ARGS;PROPERTIES")
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
  if(NOT DEFINED arg_DISCOVERY_TIMEOUT)
    set(arg_DISCOVERY_TIMEOUT 60)
  endif()
  if(NOT arg_DISCOVERY_TIMEOUT MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "hostcb_discover_scenarios: DISCOVERY_TIMEOUT is a positive number of seconds, not '${arg_DISCOVERY_TIMEOUT}'")
  endif()
  # The Python the project names: a ready name resolves with it, not with whatever python3
  # is on PATH when ctest runs.
  if(NOT arg_PYTHON)
    if(Python3_EXECUTABLE)
      set(arg_PYTHON "${Python3_EXECUTABLE}")
    elseif(Python_EXECUTABLE)
      set(arg_PYTHON "${Python_EXECUTABLE}")
    endif()
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
  if(arg_REQUIRE_GPU)
    list(APPEND run_options --require-gpu)
  endif()
  list(APPEND run_options ${arg_EXTRA_ARGS})
  # Each argument bracket-quoted, for set_tests_properties(). The project's Python goes in as
  # an ENVIRONMENT_MODIFICATION, first, so one given in PROPERTIES keeps it (and may override it).
  set(properties "")
  set(python_modification "")
  if(arg_PYTHON)
    set(python_modification "HOSTCB_PYTHON=set:${arg_PYTHON}")
  endif()
  set(key TRUE)
  foreach(item IN LISTS arg_PROPERTIES)
    if(NOT key AND previous STREQUAL "ENVIRONMENT_MODIFICATION" AND python_modification)
      set(item "${python_modification};${item}")
      set(python_modification "")
    endif()
    string(APPEND properties " [==[${item}]==]")
    set(previous "${item}")
    if(key)
      set(key FALSE)
    else()
      set(key TRUE)
    endif()
  endforeach()
  if(python_modification)
    string(APPEND properties " [==[ENVIRONMENT_MODIFICATION]==] [==[${python_modification}]==]")
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
set(HOSTCB_PYTHON_EXE [==[${arg_PYTHON}]==])
set(HOSTCB_REQUIRE_GPU [==[${arg_REQUIRE_GPU}]==])
set(HOSTCB_PROPERTIES [===[${properties}]===])
set(HOSTCB_DISCOVERY_TIMEOUT [==[${arg_DISCOVERY_TIMEOUT}]==])
set(HOSTCB_CMAKE [==[${CMAKE_COMMAND}]==])
include([==[${_HOSTCB_SCENARIO_SCRIPT}]==])
")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${dir}/discover.cmake")
endfunction()
