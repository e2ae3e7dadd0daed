# Run by hostcb_discover_scenarios after each build: turns `hostcb list --format json`
# into add_test() calls. Inputs: HOSTCB_EXE, OUTPUT_FILE, WORKING_DIR.
execute_process(COMMAND "${HOSTCB_EXE}" list --format json
                OUTPUT_VARIABLE listing ERROR_VARIABLE errors RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "hostcb list failed (exit ${rc}): ${errors}")
endif()

string(JSON count LENGTH "${listing}" scenarios)
set(content "# Generated from `hostcb list`: do not edit.\n")
if(count GREATER 0)
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON id GET "${listing}" scenarios ${i} id)
    string(JSON family GET "${listing}" scenarios ${i} family)
    set(labels "gpu;scenario;${family}")
    string(JSON api ERROR_VARIABLE no_api GET "${listing}" scenarios ${i} params api)
    if(NOT no_api)
      list(APPEND labels "api=${api}")
    endif()
    string(APPEND content
      "add_test([==[scenario:${id}]==] [==[${HOSTCB_EXE}]==] run --filter [==[${id}]==])\n"
      "set_tests_properties([==[scenario:${id}]==] PROPERTIES LABELS [==[${labels}]==] "
      "SKIP_RETURN_CODE 77 WORKING_DIRECTORY [==[${WORKING_DIR}]==] TIMEOUT 300)\n")
  endforeach()
endif()
file(WRITE "${OUTPUT_FILE}" "${content}")
