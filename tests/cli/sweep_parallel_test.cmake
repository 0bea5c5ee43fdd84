# A sweep sharded the way docs/cli.md ("Sweeps on many machines") shows, by GNU parallel on
# this machine: three shards at once, merged, must be the unsharded sweep's file byte for byte.
# Usage: cmake -DCLI=<shoal-cli> -DPARALLEL=<parallel> -DWORK_DIR=<scratch dir> -P sweep_parallel_test.cmake
cmake_minimum_required(VERSION 3.21)
foreach(var CLI PARALLEL WORK_DIR)
  if(NOT ${var})
    message(FATAL_ERROR "pass -D${var}=...")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(vary --vary convoy.separationWeight=4:12:4 --vary swarm.speed=2:3.5:0.5 --seeds 2 --steps 120)

function(must label)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${WORK_DIR}"
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE code)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${label}: exit ${code}\n${out}\n${err}")
  endif()
  message(STATUS "ok: ${label}")
endfunction()

must("the whole sweep" "${CLI}" sweep demo ${vary} --jobs 1 --out whole.csv)
must("three shards by GNU parallel" "${PARALLEL}" --will-cite --halt now,fail=1 --jobs 3
  "${CLI}" sweep demo ${vary} --jobs 1 --shard {}/3 --out shard{}.csv ::: 1 2 3)
must("merge" "${CLI}" sweep merge shard1.csv shard2.csv shard3.csv --out merged.csv)
file(READ "${WORK_DIR}/whole.csv" whole)
file(READ "${WORK_DIR}/merged.csv" merged)
if(NOT whole STREQUAL merged)
  message(FATAL_ERROR "the merged shards differ from the whole sweep")
endif()
string(REGEX MATCHALL "\n" lines "${whole}")
list(LENGTH lines count)
if(NOT count EQUAL 25)
  message(FATAL_ERROR "expected a header and 24 rows (3 x 4 values x 2 seeds), got ${count} lines")
endif()
message(STATUS "ok: 24 runs in three shards by GNU parallel, merged byte for byte")
