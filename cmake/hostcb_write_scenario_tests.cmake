# Included by the file hostcb_discover_scenarios() generates, when ctest reads its tests:
# turns `hostcb list` (one id a line, `family/axis=value/...`) into add_test() calls, written to HOSTCB_TESTS_FILE and
# included. Inputs (set by that file): HOSTCB_EXE, HOSTCB_OPTIONS (adapters, axes),
# HOSTCB_FILTER, HOSTCB_RUN_OPTIONS (expectations, --require-gpu, EXTRA_ARGS), HOSTCB_MODE,
# HOSTCB_JOBS, HOSTCB_SCENARIO_PREFIX, HOSTCB_FAMILY_PREFIX, HOSTCB_LABELS, HOSTCB_RESULTS_DIR,
# HOSTCB_WORKING_DIR, HOSTCB_FAMILY_RUN_SCRIPT, HOSTCB_CMAKE, HOSTCB_PYTHON_EXE (may be empty),
# HOSTCB_REQUIRE_GPU, HOSTCB_PROPERTIES (bracket-quoted arguments), HOSTCB_DISCOVERY_TIMEOUT.
cmake_policy(VERSION 3.24)  # ctest reads test files under the old policies; include() scopes this
set(_filter "")
if(NOT HOSTCB_FILTER STREQUAL "")
  set(_filter --filter "${HOSTCB_FILTER}")
endif()
if(NOT DEFINED HOSTCB_DISCOVERY_TIMEOUT)
  set(HOSTCB_DISCOVERY_TIMEOUT 60)  # a test file written before DISCOVERY_TIMEOUT existed
endif()
# The project's Python for the listing (a ready name embeds it); ctest's own environment is
# put back as it was, for the next directory's listing and the tests.
set(_had_python "$ENV{HOSTCB_PYTHON}")
if(NOT "${HOSTCB_PYTHON_EXE}" STREQUAL "")
  set(ENV{HOSTCB_PYTHON} "${HOSTCB_PYTHON_EXE}")
endif()
execute_process(COMMAND "${HOSTCB_EXE}" list ${_filter} ${HOSTCB_OPTIONS}
                OUTPUT_VARIABLE _listing ERROR_VARIABLE _errors RESULT_VARIABLE _rc TIMEOUT ${HOSTCB_DISCOVERY_TIMEOUT})
if(_had_python STREQUAL "")
  unset(ENV{HOSTCB_PYTHON})
else()
  set(ENV{HOSTCB_PYTHON} "${_had_python}")
endif()
if(NOT _rc EQUAL 0)
  # One failing test says why, instead of no tests (or a ctest that stops reading).
  string(STRIP "${_errors}" _errors)
  if(_rc MATCHES "timeout")
    set(_why "it did not finish within ${HOSTCB_DISCOVERY_TIMEOUT} s (DISCOVERY_TIMEOUT)")
  else()
    set(_why "exit ${_rc}")
  endif()
  add_test("${HOSTCB_SCENARIO_PREFIX}discovery" "${HOSTCB_CMAKE}" -E echo "hostcb list failed (${_why}): ${_errors}")
  set_tests_properties("${HOSTCB_SCENARIO_PREFIX}discovery" PROPERTIES FAIL_REGULAR_EXPRESSION "hostcb list failed")
  return()
endif()

# A pattern that matches exactly one id: '-' and ':' separate a filter's parts, so they
# become '?' (an id differing only there does not exist).
macro(_hostcb_exact_pattern id out)
  string(REPLACE "-" "?" ${out} "${id}")
  string(REPLACE ":" "?" ${out} "${${out}}")
endmacro()

set(_content "# Generated from `hostcb list` by hostcb_write_scenario_tests.cmake: do not edit.\n")
# What every test gets after hostcb's own properties: the caller's PROPERTIES, with the
# project's Python as an ENVIRONMENT_MODIFICATION (hostcb_discover_scenarios put it there).
set(_after "")
if(NOT "${HOSTCB_PROPERTIES}" STREQUAL "")
  set(_after "set_tests_properties([==[@TEST@]==] PROPERTIES ${HOSTCB_PROPERTIES})\n")
endif()
macro(_hostcb_after test)
  string(REPLACE "@TEST@" "${test}" _this "${_after}")
  string(APPEND _content "${_this}")
endmacro()
# A TIMEOUT among them is each scenario's: a family run, which runs all N of its scenarios,
# gets N times it (their limits end to end), not the one scenario's.
set(_scenario_timeout "")  # whole seconds, rounded up
if(HOSTCB_PROPERTIES MATCHES "\\[==\\[TIMEOUT\\]==\\] \\[==\\[([0-9]+)(\\.[0-9]*)?\\]==\\]")
  set(_scenario_timeout "${CMAKE_MATCH_1}")
  if("${CMAKE_MATCH_2}" MATCHES "[1-9]")
    math(EXPR _scenario_timeout "${_scenario_timeout} + 1")
  endif()
endif()
set(_families "")
string(REPLACE ";" "\\;" _listing "${_listing}")
string(REPLACE "\n" ";" _lines "${_listing}")
foreach(_line IN LISTS _lines)
  if(NOT _line MATCHES "^([a-z0-9_]+)/[^\t]*")
    continue()
  endif()
  set(_id "${CMAKE_MATCH_0}")
  set(_family "${CMAKE_MATCH_1}")
  set(_labels "gpu;scenario;${_family}")
  if(_id MATCHES "/api=([^/]+)")
    list(APPEND _labels "api=${CMAKE_MATCH_1}")
  endif()
  list(APPEND _labels ${HOSTCB_LABELS})
  if(NOT _family IN_LIST _families)
    list(APPEND _families "${_family}")
    set(_count_${_family} 0)
  endif()
  math(EXPR _count_${_family} "${_count_${_family}} + 1")
  set(_results "${HOSTCB_RESULTS_DIR}/${_family}.json")
  set(_test "${HOSTCB_SCENARIO_PREFIX}${_id}")
  if(HOSTCB_MODE STREQUAL "scenario")
    _hostcb_exact_pattern("${_id}" _pattern)
    set(_command "[==[${HOSTCB_EXE}]==] run -j 1 --filter [==[${_pattern}]==]")
    foreach(_arg IN LISTS HOSTCB_OPTIONS HOSTCB_RUN_OPTIONS)
      string(APPEND _command " [==[${_arg}]==]")
    endforeach()
    string(APPEND _content "add_test([==[${_test}]==] ${_command})\n"
      "set_tests_properties([==[${_test}]==] PROPERTIES LABELS [==[${_labels}]==] "
      "SKIP_RETURN_CODE 77 WORKING_DIRECTORY [==[${HOSTCB_WORKING_DIR}]==] TIMEOUT 300)\n")
    _hostcb_after("${_test}")
  else()
    string(APPEND _content
      "add_test([==[${_test}]==] [==[${HOSTCB_EXE}]==] result [==[${_results}]==] [==[${_id}]==])\n"
      "set_tests_properties([==[${_test}]==] PROPERTIES LABELS [==[${_labels}]==] "
      "FIXTURES_REQUIRED [==[${HOSTCB_FAMILY_PREFIX}${_family}]==] "
      "SKIP_RETURN_CODE 77 WORKING_DIRECTORY [==[${HOSTCB_WORKING_DIR}]==] TIMEOUT 60)\n")
    _hostcb_after("${_test}")
  endif()
endforeach()

if(NOT HOSTCB_MODE STREQUAL "scenario")
  # Each family's one run: the selection less every other family (FAMILY/* without a
  # filter). It passes when it wrote its results file, whatever the scenarios' verdicts
  # (those are the scenarios' own tests'), and is a skip when nothing ran in it.
  set(_positive "")
  set(_negative "")
  if(NOT HOSTCB_FILTER STREQUAL "")
    string(FIND "${HOSTCB_FILTER}" "-" _dash)
    set(_positive "${HOSTCB_FILTER}")
    if(NOT _dash EQUAL -1)
      string(SUBSTRING "${HOSTCB_FILTER}" 0 ${_dash} _positive)
      math(EXPR _after "${_dash} + 1")
      string(SUBSTRING "${HOSTCB_FILTER}" ${_after} -1 _negative)
    endif()
    if(_positive STREQUAL "")
      set(_positive "*")
    endif()
  endif()
  set(_options ${HOSTCB_OPTIONS} ${HOSTCB_RUN_OPTIONS})
  string(REPLACE ";" "|" _options "${_options}")
  foreach(_family IN LISTS _families)
    if(HOSTCB_FILTER STREQUAL "")
      set(_family_filter "${_family}/*")
    else()
      set(_negatives "${_negative}")
      foreach(_other IN LISTS _families)
        if(_other STREQUAL _family)
          continue()
        elseif(_negatives STREQUAL "")
          set(_negatives "${_other}/*")
        else()
          string(APPEND _negatives ":${_other}/*")
        endif()
      endforeach()
      set(_family_filter "${_positive}")
      if(NOT _negatives STREQUAL "")
        string(APPEND _family_filter "-${_negatives}")
      endif()
    endif()
    set(_test "${HOSTCB_FAMILY_PREFIX}${_family}")
    string(APPEND _content
      "add_test([==[${_test}]==] [==[${HOSTCB_CMAKE}]==] -D [==[HOSTCB_EXE=${HOSTCB_EXE}]==] "
      "-D [==[FILTER=${_family_filter}]==] -D [==[OPTIONS=${_options}]==] "
      "-D [==[RESULTS=${HOSTCB_RESULTS_DIR}/${_family}.json]==] -D [==[JOBS=${HOSTCB_JOBS}]==] "
      "-D [==[REQUIRE_GPU=${HOSTCB_REQUIRE_GPU}]==] "
      "-P [==[${HOSTCB_FAMILY_RUN_SCRIPT}]==])\n"
      "set_tests_properties([==[${_test}]==] PROPERTIES LABELS [==[gpu;family;${_family};${HOSTCB_LABELS}]==] "
      "FIXTURES_SETUP [==[${_test}]==] SKIP_REGULAR_EXPRESSION [==[hostcb family run: nothing ran]==] "
      "PROCESSORS ${HOSTCB_JOBS} "
      "WORKING_DIRECTORY [==[${HOSTCB_WORKING_DIR}]==] TIMEOUT 3600)\n")
    _hostcb_after("${_test}")
    if(NOT _scenario_timeout STREQUAL "")
      math(EXPR _family_timeout "${_scenario_timeout} * ${_count_${_family}}")
      string(APPEND _content "set_tests_properties([==[${_test}]==] PROPERTIES TIMEOUT ${_family_timeout})\n")
    endif()
  endforeach()
endif()

# Written (for a look at what was registered), then read as this directory's tests.
file(WRITE "${HOSTCB_TESTS_FILE}" "${_content}")
include("${HOSTCB_TESTS_FILE}")
