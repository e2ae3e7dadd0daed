# CTest dashboard script, Nightly model: configure, build, test (with JUnit output), and
# submit to a CDash server when one is named. Many GPU machines report into one place.
#
#   ctest -S scripts/dashboard.cmake [-DHOSTCB_CDASH_URL=https://cdash.example.org/submit.php?project=hostcb]
#         [-DCTEST_BUILD_NAME=h200-driver580-cuda13.0] [-DHOSTCB_CMAKE_ARGS="-C;/opt/cuda-12.4/hostcb-cuda12.cmake"]
#         [-DCTEST_BINARY_DIRECTORY=...] -VV
# Without HOSTCB_CDASH_URL nothing is submitted; the results stay in the build folder
# (Testing/ and ctest-junit.xml). The script fails when configure, build or a test fails.
cmake_minimum_required(VERSION 3.21)  # ctest_test(OUTPUT_JUNIT)

get_filename_component(CTEST_SOURCE_DIRECTORY "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
if(NOT CTEST_BINARY_DIRECTORY)
  set(CTEST_BINARY_DIRECTORY "${CTEST_SOURCE_DIRECTORY}/build-dashboard")
endif()
set(CTEST_CMAKE_GENERATOR "Ninja")
set(CTEST_NIGHTLY_START_TIME "01:00:00 UTC")
site_name(CTEST_SITE)

# The build name says what this machine tests: GPU, driver and toolkit.
if(NOT CTEST_BUILD_NAME)
  execute_process(COMMAND nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
                  OUTPUT_VARIABLE gpu OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE gpu_rc)
  if(NOT gpu_rc EQUAL 0 OR NOT gpu)
    set(gpu "no-gpu")
  endif()
  string(REGEX REPLACE "\n.*" "" gpu "${gpu}")
  execute_process(COMMAND nvcc --version OUTPUT_VARIABLE nvcc ERROR_QUIET)
  string(REGEX MATCH "release ([0-9.]+)" _ "${nvcc}")
  string(REGEX REPLACE "[^A-Za-z0-9.]+" "-" CTEST_BUILD_NAME "${gpu}-cuda${CMAKE_MATCH_1}")
endif()

ctest_start(Nightly)
ctest_configure(OPTIONS "-DCMAKE_BUILD_TYPE=RelWithDebInfo;${HOSTCB_CMAKE_ARGS}" RETURN_VALUE configure_rc)
if(NOT configure_rc EQUAL 0)
  message(FATAL_ERROR "configure failed (${configure_rc})")
endif()
include(ProcessorCount)
ProcessorCount(jobs)
ctest_build(FLAGS "-j${jobs}" RETURN_VALUE build_rc NUMBER_ERRORS build_errors)
ctest_test(PARALLEL_LEVEL ${jobs} OUTPUT_JUNIT "${CTEST_BINARY_DIRECTORY}/ctest-junit.xml" RETURN_VALUE test_rc)

if(HOSTCB_CDASH_URL)
  set(CTEST_SUBMIT_URL "${HOSTCB_CDASH_URL}")
  ctest_submit(RETURN_VALUE submit_rc)
  if(NOT submit_rc EQUAL 0)
    message(SEND_ERROR "submission to ${HOSTCB_CDASH_URL} failed")
  endif()
else()
  message(STATUS "HOSTCB_CDASH_URL is not set: nothing submitted. Results: ${CTEST_BINARY_DIRECTORY}/ctest-junit.xml")
endif()
if(NOT build_rc EQUAL 0 OR build_errors GREATER 0 OR NOT test_rc EQUAL 0)
  message(FATAL_ERROR "build (${build_rc}, ${build_errors} errors) or tests (${test_rc}) failed")
endif()
