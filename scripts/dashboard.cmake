# CTest dashboard script, Nightly model: configure, build, test (with JUnit output), and
# submit to a CDash server when one is named. Many GPU machines report into one place.
#
#   [HOSTCB_CDASH_AUTH_TOKEN=...] ctest -S scripts/dashboard.cmake
#         [-DHOSTCB_CDASH_URL=https://cdash.example.org/submit.php?project=hostcb]
#         [-DCTEST_BUILD_NAME=h200-driver580-cuda13.0] [-DHOSTCB_CMAKE_ARGS="-C;/opt/cuda-12.4/hostcb-cuda12.cmake"]
#         [-DCTEST_BINARY_DIRECTORY=...] -VV
#
# Without HOSTCB_CDASH_URL nothing is submitted; the results stay in the build folder
# (Testing/ and ctest-junit.xml).
#
# - A broken machine still shows, red: when configure fails, build and tests are skipped
#   and what exists (Configure and Done) is submitted; when the build fails, the tests
#   still run and everything is submitted. The script then fails (exit non-zero).
# - A submission counts only when every part was accepted: ctest_submit's RETURN_VALUE
#   is 0 even when CDash answers HTTP 200 with <status>ERROR</status> (ctest only prints
#   "Errors occurred during submission"), so the script also reads ctest's submit log
#   (Testing/Temporary/LastSubmit_<tag>.log) and fails unless it says "Submission
#   successful". An HTTP error (401, 500) or no server fails it as well.
# - Projects that require tokens: the environment variable HOSTCB_CDASH_AUTH_TOKEN, when
#   set, is sent as "Authorization: Bearer <token>" with each part. It is read from the
#   environment only (never a -D, which would land in logs) and never printed; note that
#   `ctest --debug` dumps curl's traffic, headers included.
# - The build name says what this machine tests: GPU, driver and the CUDA version of
#   the compiler configure uses (hostcb-cuda12.cmake's 12.4 nvcc, not the nvcc on PATH).
#   The name is fixed by ctest_start, before ctest_configure, so the script configures
#   once beforehand and reads CMAKE_CUDA_COMPILER_VERSION from what that configure
#   determined (CMakeFiles/<cmake version>/CMakeCUDACompiler.cmake); a configure that
#   failed before finding a CUDA compiler gives "cuda-unknown", never PATH's version.
#   A given -DCTEST_BUILD_NAME skips all of this.
#
# Tested against a fake CDash on 127.0.0.1 (tests/dashboard/, ctest label "dashboard"):
# that test sets CTEST_SOURCE_DIRECTORY to a tiny stand-in project so that this very
# script runs in seconds; left unset, the source is this repository.
cmake_minimum_required(VERSION 3.21)  # ctest_test(OUTPUT_JUNIT)

if(NOT CTEST_SOURCE_DIRECTORY)
  get_filename_component(CTEST_SOURCE_DIRECTORY "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
endif()
if(NOT CTEST_BINARY_DIRECTORY)
  set(CTEST_BINARY_DIRECTORY "${CTEST_SOURCE_DIRECTORY}/build-dashboard")
endif()
set(CTEST_CMAKE_GENERATOR "Ninja")
set(CTEST_NIGHTLY_START_TIME "01:00:00 UTC")
if(NOT CTEST_SITE)
  site_name(CTEST_SITE)
endif()
set(configure_options "-DCMAKE_BUILD_TYPE=RelWithDebInfo;${HOSTCB_CMAKE_ARGS}")

# The CUDA version configure determined in this build folder, or "unknown".
function(hostcb_configured_cuda_version out)
  set(version "unknown")
  file(GLOB found "${CTEST_BINARY_DIRECTORY}/CMakeFiles/*/CMakeCUDACompiler.cmake")
  set(ours "${CTEST_BINARY_DIRECTORY}/CMakeFiles/${CMAKE_VERSION}/CMakeCUDACompiler.cmake")
  if(EXISTS "${ours}")
    set(found "${ours}")  # an older CMake's folder may linger beside it
  endif()
  list(LENGTH found count)
  if(count EQUAL 1)
    file(STRINGS "${found}" line REGEX "^set\\(CMAKE_CUDA_COMPILER_VERSION \"[0-9.]+\"\\)")
    if(line MATCHES "\"([0-9]+\\.[0-9]+)")
      set(version "${CMAKE_MATCH_1}")
    endif()
  endif()
  set(${out} "${version}" PARENT_SCOPE)
endfunction()

if(NOT CTEST_BUILD_NAME)
  execute_process(COMMAND nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
                  OUTPUT_VARIABLE gpu OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE gpu_rc)
  if(NOT gpu_rc EQUAL 0 OR NOT gpu)
    set(gpu "no-gpu")
  endif()
  string(REGEX REPLACE "\n.*" "" gpu "${gpu}")
  # Configure once, as ctest_configure will, only to learn the compiler (output kept in
  # the build folder); ctest_configure below re-runs it and reports it.
  file(MAKE_DIRECTORY "${CTEST_BINARY_DIRECTORY}")
  execute_process(COMMAND ${CMAKE_COMMAND} -S "${CTEST_SOURCE_DIRECTORY}" -B "${CTEST_BINARY_DIRECTORY}"
                          -G "${CTEST_CMAKE_GENERATOR}" ${configure_options}
                  OUTPUT_FILE "${CTEST_BINARY_DIRECTORY}/hostcb-name-configure.log"
                  ERROR_FILE "${CTEST_BINARY_DIRECTORY}/hostcb-name-configure.log")
  hostcb_configured_cuda_version(cuda)
  string(REGEX REPLACE "[^A-Za-z0-9.]+" "-" CTEST_BUILD_NAME "${gpu}-cuda${cuda}")
endif()
message(STATUS "dashboard: site ${CTEST_SITE}, build ${CTEST_BUILD_NAME}")

ctest_start(Nightly)
ctest_configure(OPTIONS "${configure_options}" RETURN_VALUE configure_rc)
set(failed "")  # what went wrong, a list
if(NOT configure_rc EQUAL 0)
  list(APPEND failed "configure failed (${configure_rc}); build and tests skipped, Configure and Done submitted")
else()
  include(ProcessorCount)
  ProcessorCount(jobs)
  if(jobs EQUAL 0)
    set(jobs 2)
  endif()
  ctest_build(FLAGS "-j${jobs}" RETURN_VALUE build_rc NUMBER_ERRORS build_errors)
  ctest_test(PARALLEL_LEVEL ${jobs} OUTPUT_JUNIT "${CTEST_BINARY_DIRECTORY}/ctest-junit.xml" RETURN_VALUE test_rc)
  if(NOT build_rc EQUAL 0 OR build_errors GREATER 0 OR NOT test_rc EQUAL 0)
    list(APPEND failed "build (${build_rc}, ${build_errors} errors) or tests (${test_rc}) failed")
  endif()
endif()

if(HOSTCB_CDASH_URL)
  set(CTEST_SUBMIT_URL "${HOSTCB_CDASH_URL}")
  set(headers "")
  if(DEFINED ENV{HOSTCB_CDASH_AUTH_TOKEN} AND NOT "$ENV{HOSTCB_CDASH_AUTH_TOKEN}" STREQUAL "")
    set(headers HTTPHEADER "Authorization: Bearer $ENV{HOSTCB_CDASH_AUTH_TOKEN}")
    message(STATUS "dashboard: sending an Authorization header (HOSTCB_CDASH_AUTH_TOKEN)")
  endif()
  ctest_submit(${headers} RETURN_VALUE submit_rc CAPTURE_CMAKE_ERROR submit_error)
  # RETURN_VALUE misses an HTTP 200 whose reply says <status>ERROR</status>: ctest's
  # own submit log of this run is the only place that says so.
  file(STRINGS "${CTEST_BINARY_DIRECTORY}/Testing/TAG" tag LIMIT_COUNT 1)
  set(submit_log "${CTEST_BINARY_DIRECTORY}/Testing/Temporary/LastSubmit_${tag}.log")
  set(submit_said "")
  if(EXISTS "${submit_log}")
    file(STRINGS "${submit_log}" submit_said REGEX "Submission successful|Errors occurred during submission|Problems when submitting")
  endif()
  if(NOT submit_rc EQUAL 0 OR NOT submit_error EQUAL 0 OR NOT submit_said MATCHES "Submission successful"
     OR submit_said MATCHES "Errors occurred|Problems when")
    string(STRIP "${submit_said}" submit_said)
    message(SEND_ERROR "submission failed (return value ${submit_rc}; ctest's log ${submit_log}: "
                       "'${submit_said}'); rerun with -VV to see CDash's reply")
    list(APPEND failed "submission failed")
  endif()
else()
  message(STATUS "HOSTCB_CDASH_URL is not set: nothing submitted. Results: ${CTEST_BINARY_DIRECTORY}/ctest-junit.xml")
endif()
if(failed)
  list(JOIN failed "; " failed)
  message(FATAL_ERROR "dashboard: ${failed}")
endif()
