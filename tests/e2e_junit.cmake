# End to end: `hostcb run` writes a schema-valid JUnit file and a JSON file in which
# every scenario of `hostcb list` appears exactly once. Without a GPU (exit 77) each is
# skipped with the no-device reason, and the exit code must then be 77. Inputs: HOSTCB_EXE, XMLLINT, XSD, WORK_DIR.
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(xml "${WORK_DIR}/results.xml")
set(json "${WORK_DIR}/results.json")

execute_process(COMMAND "${HOSTCB_EXE}" list OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "hostcb list exited ${rc}")
endif()
string(STRIP "${listing}" listing)
string(REGEX REPLACE "\t[^\n]*" "" listing "${listing}")  # notes such as "(needs runtime 12.4+)"
string(REPLACE "\n" ";" ids "${listing}")
list(LENGTH ids expected)

execute_process(COMMAND "${HOSTCB_EXE}" run -j 4 --junit "${xml}" --json "${json}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 AND NOT rc EQUAL 77)
  message(FATAL_ERROR "hostcb run exited ${rc}\n${out}\n${err}")
endif()

execute_process(COMMAND "${XMLLINT}" --noout --schema "${XSD}" "${xml}" RESULT_VARIABLE valid ERROR_VARIABLE why)
if(NOT valid EQUAL 0)
  message(FATAL_ERROR "JUnit file does not validate against ${XSD}:\n${why}")
endif()

function(xpath_count expression out_var)
  execute_process(COMMAND "${XMLLINT}" --xpath "${expression}" "${xml}" OUTPUT_VARIABLE n RESULT_VARIABLE xrc)
  string(STRIP "${n}" n)
  set(${out_var} "${n}" PARENT_SCOPE)
endfunction()

xpath_count("count(//testcase)" cases)
if(NOT cases EQUAL expected)
  message(FATAL_ERROR "${cases} testcases in the JUnit file, ${expected} scenarios listed")
endif()
foreach(id IN LISTS ids)
  string(FIND "${id}" "/" slash)
  string(SUBSTRING "${id}" 0 ${slash} family)
  math(EXPR rest_at "${slash} + 1")
  string(SUBSTRING "${id}" ${rest_at} -1 rest)
  xpath_count("count(//testcase[@classname='${family}' and @name='${rest}'])" n)
  if(NOT n EQUAL 1)
    message(FATAL_ERROR "scenario ${id} appears ${n} times in the JUnit file")
  endif()
endforeach()

file(READ "${json}" doc)
string(JSON results LENGTH "${doc}" results)
string(JSON version GET "${doc}" format_version)
if(NOT results EQUAL expected OR NOT version EQUAL 3)
  message(FATAL_ERROR "JSON: ${results} results (expected ${expected}), format_version ${version}")
endif()

# The exit code follows from what the run found, never the other way round: without a
# usable GPU nothing can pass, so the run must say 77 (a CTest skip), not 0 (a pass).
string(JSON gpu_usable GET "${doc}" environment gpu_usable)
string(JSON passed GET "${doc}" summary passed)
if(NOT gpu_usable AND NOT rc EQUAL 77)
  message(FATAL_ERROR "no usable GPU (environment.gpu_usable is false) but exit ${rc}: an all-skipped run must exit 77")
endif()
if(passed EQUAL 0 AND rc EQUAL 0)
  message(FATAL_ERROR "nothing passed but exit 0: a run in which nothing ran must exit 77")
endif()

if(rc EQUAL 77)
  xpath_count("count(//testcase/skipped[starts-with(@message, 'no usable CUDA device') or starts-with(@message, 'excluded: ')])" skipped)
  if(NOT skipped EQUAL expected)
    message(FATAL_ERROR "exit 77 but only ${skipped} of ${expected} testcases skipped for want of a device (or excluded)")
  endif()
  message(STATUS "no GPU: all ${expected} scenarios skipped with the reason, exit 77")
else()
  message(STATUS "GPU run: ${expected} scenarios reported once each, exit 0")
endif()
