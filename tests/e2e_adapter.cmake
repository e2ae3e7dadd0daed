# Runs stub_forward/forward=NAME through the adapter FAKE (PATH[@OPTIONS]) in a real
# worker, and checks the JSON: the one scenario's status (EXPECT_STATUS, default passed),
# its reason (EXPECT_REASON regex), and the adapter recorded in the environment.
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
if(NOT EXPECT_STATUS)
  set(EXPECT_STATUS passed)
endif()
execute_process(COMMAND "${HOSTCB_STUB}" run --adapter "${FAKE}" --filter "stub_forward/forward=${NAME}"
                        --json "${WORK_DIR}/r.json"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT EXISTS "${WORK_DIR}/r.json")
  message(FATAL_ERROR "no report (exit ${rc})\n${out}\n${err}")
endif()
file(READ "${WORK_DIR}/r.json" doc)
string(JSON status GET "${doc}" results 0 status)
string(JSON reason GET "${doc}" results 0 reason)
string(JSON adapter GET "${doc}" environment adapters 0 name)
string(JSON describe GET "${doc}" environment adapters 0 describe)
if(NOT status STREQUAL EXPECT_STATUS OR NOT adapter STREQUAL NAME)
  message(FATAL_ERROR "status ${status} (expected ${EXPECT_STATUS}), adapter '${adapter}': ${reason}\n${out}\n${err}")
endif()
if(EXPECT_REASON AND NOT reason MATCHES "${EXPECT_REASON}")
  message(FATAL_ERROR "reason does not match '${EXPECT_REASON}': ${reason}")
endif()
if(EXPECT_DESCRIBE AND NOT describe MATCHES "${EXPECT_DESCRIBE}")
  message(FATAL_ERROR "describe does not match '${EXPECT_DESCRIBE}': ${describe}")
endif()
message(STATUS "${NAME}: ${status}; ${describe}")
