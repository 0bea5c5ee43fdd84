# Runs test_capi with the hash shoal-cli prints for the same level and steps: the C API must
# give the editor's hash.
# Usage: cmake -DCLI= -DTEST= -DSCENE= -DSTEPS= -DWORK_DIR= -P capi_test.cmake
cmake_minimum_required(VERSION 3.21)
foreach(var CLI TEST SCENE STEPS WORK_DIR)
  if(NOT ${var})
    message(FATAL_ERROR "pass -D${var}=...")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

execute_process(COMMAND "${CLI}" run "${SCENE}" --steps ${STEPS}
  OUTPUT_VARIABLE cli_out RESULT_VARIABLE code)
string(REGEX MATCH "hash: ([0-9a-f]+)" line "${cli_out}")
if(NOT code EQUAL 0 OR NOT line)
  message(FATAL_ERROR "shoal-cli run gave no hash (exit ${code}):\n${cli_out}")
endif()
message(STATUS "shoal-cli: ${line}")

execute_process(COMMAND "${TEST}" "${SCENE}" ${STEPS} "${CMAKE_MATCH_1}" "${WORK_DIR}"
  RESULT_VARIABLE code)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "test_capi failed (exit ${code})")
endif()
