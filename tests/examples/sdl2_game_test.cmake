# Runs examples/sdl2-game headless and checks it against shoal-cli:
#   - `sdl2-game SCENE --frames N --fixed` prints the `hash:` line `shoal-cli run SCENE
#     --steps N` prints (one step per frame, no input: the same run);
#   - a level that does not load is refused with exit 1 and a message naming the file;
#   - --fixed without --frames is refused.
# Usage: cmake -DCLI=<shoal-cli> -DGAME=<sdl2-game> -DSCENE=<level> -DWORK_DIR=<scratch>
#        -P sdl2_game_test.cmake
cmake_minimum_required(VERSION 3.21)
foreach(var CLI GAME SCENE WORK_DIR)
  if(NOT ${var})
    message(FATAL_ERROR "pass -D${var}=...")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
# No display needed: SDL's dummy video driver draws into memory.
set(ENV{SDL_VIDEODRIVER} dummy)
set(steps 300)
set(failures 0)

function(fail text)
  message(STATUS "FAIL: ${text}")
  math(EXPR failures "${failures} + 1")
  set(failures ${failures} PARENT_SCOPE)
endfunction()

execute_process(COMMAND "${CLI}" run "${SCENE}" --steps ${steps}
  OUTPUT_VARIABLE cli_out RESULT_VARIABLE code)
string(REGEX MATCH "hash: [0-9a-f]+" expected "${cli_out}")
if(NOT code EQUAL 0 OR NOT expected)
  message(FATAL_ERROR "shoal-cli run gave no hash (exit ${code}):\n${cli_out}")
endif()
message(STATUS "shoal-cli: ${expected}")

execute_process(COMMAND "${GAME}" "${SCENE}" --frames ${steps} --fixed
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE code)
string(STRIP "${out}" out)
if(NOT code EQUAL 0 OR NOT out STREQUAL expected)
  fail("sdl2-game --frames ${steps} --fixed: exit ${code}, printed '${out}' (want '${expected}') ${err}")
else()
  message(STATUS "ok: sdl2-game --frames ${steps} --fixed: ${out}")
endif()

file(WRITE "${WORK_DIR}/broken.json" "{\"format\": \"shoal-scene\",\n")
execute_process(COMMAND "${GAME}" "${WORK_DIR}/broken.json" --frames 1 --fixed
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE code)
if(NOT code EQUAL 1 OR NOT err MATCHES "^sdl2-game: [^\n]*broken.json:2:")
  fail("a broken level: exit ${code} (want 1), said '${err}' (want 'sdl2-game: <file>:2:...')")
else()
  string(STRIP "${err}" err)
  message(STATUS "ok: a broken level is refused: ${err}")
endif()

execute_process(COMMAND "${GAME}" "${SCENE}" --fixed
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE code)
if(NOT code EQUAL 1 OR NOT err MATCHES "--fixed needs --frames")
  fail("--fixed alone: exit ${code} (want 1), said '${err}'")
else()
  message(STATUS "ok: --fixed alone is refused")
endif()

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} check(s) failed")
endif()
