# The soak in its short form: the 10,000-agent level of every family (tests/data/soak) with its
# scripted player and squads. Nobody crosses a wall and no body overlaps one by more than
# 5 cm, in any group; the run's own verdict on lasting body overlaps is reported, not judged
# here (the body tests in test_solidbodies judge those on scenes built for them).
# Usage: cmake -DCLI=<shoal-cli> -DDATA=<tests/data> -DSTEPS=<n> -P soak_test.cmake
cmake_minimum_required(VERSION 3.21)
execute_process(COMMAND "${CLI}" run "${DATA}/soak/soak-10k.json"
                        --input "${DATA}/soak/soak-10k.input" --steps ${STEPS} --json
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE code)
if(NOT code EQUAL 0 AND NOT code EQUAL 1)
  message(FATAL_ERROR "shoal-cli run failed (${code}):\n${err}")
endif()
string(JSON crossings GET "${out}" wallCrossings)
string(JSON groups LENGTH "${out}" groups)
set(failed FALSE)
if(NOT crossings EQUAL 0)
  message(STATUS "FAIL: ${crossings} wall crossings in ${STEPS} steps")
  set(failed TRUE)
endif()
math(EXPR last "${groups} - 1")
foreach(g RANGE ${last})
  string(JSON name GET "${out}" groups ${g} name)
  string(JSON depth GET "${out}" groups ${g} peakWallOverlapDepth)
  if(depth GREATER 0.05)
    message(STATUS "FAIL: group '${name}' overlapped a wall by ${depth} m")
    set(failed TRUE)
  endif()
endforeach()
string(JSON checks GET "${out}" failedChecks)
message(STATUS "${STEPS} steps: ${crossings} crossings; ${checks} failed checks in all:\n${err}")
if(failed)
  message(FATAL_ERROR "the soak crossed or entered walls")
endif()
