# Runs an example that prints "hash: <16 hex digits>" for SCENE and STEPS (examples/minimal-c)
# and compares its output with what `shoal-cli run SCENE --steps STEPS` prints on that line.
# Usage: cmake -DCLI= -DEXAMPLE= -DSCENE= -DSTEPS= -P example_test.cmake
cmake_minimum_required(VERSION 3.21)
foreach(var CLI EXAMPLE SCENE STEPS)
  if(NOT ${var})
    message(FATAL_ERROR "pass -D${var}=...")
  endif()
endforeach()
execute_process(COMMAND "${CLI}" run "${SCENE}" --steps ${STEPS}
  OUTPUT_VARIABLE cli_out RESULT_VARIABLE code)
string(REGEX MATCH "hash: [0-9a-f]+" expected "${cli_out}")
if(NOT code EQUAL 0 OR NOT expected)
  message(FATAL_ERROR "shoal-cli run gave no hash (exit ${code}):\n${cli_out}")
endif()
execute_process(COMMAND "${EXAMPLE}" "${SCENE}" ${STEPS}
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE code)
if(NOT code EQUAL 0 OR NOT out STREQUAL "${expected}\n")
  message(FATAL_ERROR "${EXAMPLE}: exit ${code}, printed '${out}' (want '${expected}') ${err}")
endif()
message(STATUS "ok: ${out}")
# A bad level is refused with a message naming the file, exit 2.
execute_process(COMMAND "${EXAMPLE}" "${SCENE}.missing" 1
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE code)
if(NOT code EQUAL 2 OR NOT err MATCHES "\\.missing")
  message(FATAL_ERROR "${EXAMPLE} on a missing file: exit ${code}, '${err}' (want 2 and its name)")
endif()
