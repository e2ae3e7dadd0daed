# hostcb_discover_scenarios(<target>)
#
# In the spirit of gtest_discover_tests: after every build of <target>, run
# `<target> list --format json` and register one CTest test per scenario, named
# `scenario:<id>`, running `<target> run --filter <id>`. Labels: gpu, scenario,
# the family, and api=<value> where the scenario has an api axis. Exit code 77
# (nothing could run, e.g. no usable GPU) is a CTest skip, never a pass.
set(_HOSTCB_SCENARIO_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/hostcb_write_scenario_tests.cmake)

function(hostcb_discover_scenarios target)
  set(generated "${CMAKE_CURRENT_BINARY_DIR}/${target}_scenario_tests.cmake")
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_COMMAND}
            -D "HOSTCB_EXE=$<TARGET_FILE:${target}>"
            -D "OUTPUT_FILE=${generated}"
            -D "WORKING_DIR=${CMAKE_CURRENT_BINARY_DIR}"
            -P ${_HOSTCB_SCENARIO_SCRIPT}
    BYPRODUCTS ${generated}
    COMMENT "Discovering hostcb scenarios for CTest"
    VERBATIM)
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${generated})
endfunction()
