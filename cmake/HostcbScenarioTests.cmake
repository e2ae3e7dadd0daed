# hostcb_discover_scenarios(<target>)
#
# In the spirit of gtest_discover_tests: after every build of <target>, run
# `<target> list --format json` and register one CTest test per scenario, named
# `scenario:<id>`. Labels: gpu, scenario, the family, and api=<value> where the scenario has
# an api axis. Exit code 77 (skipped, e.g. no usable GPU) is a CTest skip, never a pass.
#
# HOSTCB_CTEST_MODE chooses how the scenarios run:
#   family    (default) each family runs once, in one worker, as a fixture
#             (`family:<name>`, FIXTURES_SETUP) that writes its results JSON; each
#             scenario's test then prints its own result from that file (`hostcb result`)
#             and exits with its status. One CUDA context per family, not per scenario.
#   scenario  each scenario's test is its own `hostcb run --filter <id>`: a fresh process
#             and CUDA context per scenario (about 0.2 s each, serialized per GPU).
set(HOSTCB_CTEST_MODE "family" CACHE STRING "how CTest runs scenarios: family (one run per family) or scenario")
set_property(CACHE HOSTCB_CTEST_MODE PROPERTY STRINGS family scenario)
if(NOT HOSTCB_CTEST_MODE MATCHES "^(family|scenario)$")
  message(FATAL_ERROR "HOSTCB_CTEST_MODE must be family or scenario, not '${HOSTCB_CTEST_MODE}'")
endif()
set(_HOSTCB_SCENARIO_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/hostcb_write_scenario_tests.cmake)
set(_HOSTCB_FAMILY_RUN_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/hostcb_family_run.cmake)

function(hostcb_discover_scenarios target)
  set(generated "${CMAKE_CURRENT_BINARY_DIR}/${target}_scenario_tests.cmake")
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_COMMAND}
            -D "HOSTCB_EXE=$<TARGET_FILE:${target}>"
            -D "OUTPUT_FILE=${generated}"
            -D "WORKING_DIR=${CMAKE_CURRENT_BINARY_DIR}"
            -D "MODE=${HOSTCB_CTEST_MODE}"
            -D "RESULTS_DIR=${CMAKE_CURRENT_BINARY_DIR}/ctest-results"
            -D "FAMILY_RUN_SCRIPT=${_HOSTCB_FAMILY_RUN_SCRIPT}"
            -D "CMAKE_EXE=${CMAKE_COMMAND}"
            -P ${_HOSTCB_SCENARIO_SCRIPT}
    BYPRODUCTS ${generated}
    COMMENT "Discovering hostcb scenarios for CTest"
    VERBATIM)
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${generated})
endfunction()
