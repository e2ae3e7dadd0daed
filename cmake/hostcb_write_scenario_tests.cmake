cmake_minimum_required(VERSION 3.24)
# Run by hostcb_discover_scenarios after each build: turns `hostcb list --format json`
# into add_test() calls. Inputs: HOSTCB_EXE, OUTPUT_FILE, WORKING_DIR, MODE (family or
# scenario), RESULTS_DIR, FAMILY_RUN_SCRIPT, CMAKE_EXE.
execute_process(COMMAND "${HOSTCB_EXE}" list --format json
                OUTPUT_VARIABLE listing ERROR_VARIABLE errors RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "hostcb list failed (exit ${rc}): ${errors}")
endif()

string(JSON count LENGTH "${listing}" scenarios)
set(content "# Generated from `hostcb list`: do not edit.\n")
set(families "")
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
    if(MODE STREQUAL "scenario")
      string(APPEND content
        "add_test([==[scenario:${id}]==] [==[${HOSTCB_EXE}]==] run --filter [==[${id}]==])\n"
        "set_tests_properties([==[scenario:${id}]==] PROPERTIES LABELS [==[${labels}]==] "
        "SKIP_RETURN_CODE 77 WORKING_DIRECTORY [==[${WORKING_DIR}]==] TIMEOUT 300)\n")
    else()
      if(NOT family IN_LIST families)
        list(APPEND families "${family}")
        # The family's one run: it passes when it produced its results file, whatever the
        # scenarios' verdicts (those are the scenarios' own tests'), and is a skip when
        # nothing ran in it.
        string(APPEND content
          "add_test([==[family:${family}]==] [==[${CMAKE_EXE}]==] -D [==[HOSTCB_EXE=${HOSTCB_EXE}]==] "
          "-D [==[FAMILY=${family}]==] -D [==[RESULTS=${RESULTS_DIR}/${family}.json]==] -P [==[${FAMILY_RUN_SCRIPT}]==])\n"
          "set_tests_properties([==[family:${family}]==] PROPERTIES LABELS [==[gpu;family;${family}]==] "
          "FIXTURES_SETUP [==[hostcb_family_${family}]==] "
          "SKIP_REGULAR_EXPRESSION [==[hostcb family run: nothing ran]==] "
          "WORKING_DIRECTORY [==[${WORKING_DIR}]==] TIMEOUT 3600)\n")
      endif()
      string(APPEND content
        "add_test([==[scenario:${id}]==] [==[${HOSTCB_EXE}]==] result [==[${RESULTS_DIR}/${family}.json]==] [==[${id}]==])\n"
        "set_tests_properties([==[scenario:${id}]==] PROPERTIES LABELS [==[${labels}]==] "
        "FIXTURES_REQUIRED [==[hostcb_family_${family}]==] "
        "SKIP_RETURN_CODE 77 WORKING_DIRECTORY [==[${WORKING_DIR}]==] TIMEOUT 60)\n")
    endif()
  endforeach()
endif()
file(WRITE "${OUTPUT_FILE}" "${content}")
