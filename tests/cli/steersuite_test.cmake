# shoal-cli import steersuite and run --json's scores (docs/cli.md, "import"): every case in
# tests/data/steersuite converts to a scene that validates under --strict; the simple cases'
# agents all reach their goals (the checks the passing criteria became pass); what does not
# map is reported; bad XML names file:line:column; run --json scores each group.
# Usage: cmake -DCLI=<shoal-cli> -DDATA=<tests/data/steersuite> -DWORK_DIR=<dir> -P this
cmake_minimum_required(VERSION 3.21)

if(NOT CLI OR NOT DATA OR NOT WORK_DIR)
  message(FATAL_ERROR "pass -DCLI=<shoal-cli>, -DDATA=<tests/data/steersuite>, -DWORK_DIR=<dir>")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(failures 0)

macro(fail message)
  message(STATUS "FAIL: ${message}")
  math(EXPR failures "${failures} + 1")
endmacro()

function(run_cli prefix)
  execute_process(COMMAND "${CLI}" ${ARGN} WORKING_DIRECTORY "${WORK_DIR}"
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE code)
  set(${prefix}_out "${out}" PARENT_SCOPE)
  set(${prefix}_err "${err}" PARENT_SCOPE)
  set(${prefix}_code "${code}" PARENT_SCOPE)
endfunction()

macro(expect_code prefix code label)
  if(NOT "${${prefix}_code}" STREQUAL "${code}")
    fail("${label}: exit ${${prefix}_code}, expected ${code}\n  stdout: ${${prefix}_out}\n  stderr: ${${prefix}_err}")
  else()
    message(STATUS "ok: ${label}")
  endif()
endmacro()

macro(expect_contains text needle label)
  string(FIND "${text}" "${needle}" at)
  if(at LESS 0)
    fail("${label}: '${needle}' not found in:\n${text}")
  else()
    message(STATUS "ok: ${label}")
  endif()
endmacro()

# Every case converts and validates strictly.
foreach(case crossing obstacle regions)
  run_cli(imp import steersuite "${DATA}/${case}.xml" --out "${case}.json")
  expect_code(imp 0 "import ${case}")
  run_cli(val validate --strict "${case}.json")
  expect_code(val 0 "validate --strict ${case}")
endforeach()

# The conversion: x stays, z becomes -y; each agent keeps its own goal.
file(READ "${WORK_DIR}/crossing.json" crossing)
expect_contains("${crossing}" "{\"position\": [8, -1], \"heading\": 180, \"goal\": [-8, -1]}"
  "agent A: (x 8, z 1) to (x -8, z 1) becomes (8, -1) to (-8, -1), facing -x")
expect_contains("${crossing}" "{\"position\": [1, -8], \"heading\": 90, \"goal\": [1, 8]}"
  "agent B: facing -z becomes facing +y")
expect_contains("${crossing}" "\"metric\": \"walkers.atGoal\", \"equals\": \"walkers.agents\""
  "'All agents reach their goals' is a check")
expect_contains("${crossing}" "\"metric\": \"all.penetrations\", \"atMost\": 0"
  "'No collisions' is a check")

# The simple cases' agents all reach their goals: the checks pass.
foreach(case crossing obstacle)
  run_cli(chk check "${case}.json")
  expect_code(chk 0 "check ${case}: every agent reaches its goal, no collisions")
endforeach()

# What does not map is reported, each with its place in the file.
run_cli(reg import steersuite "${DATA}/regions.xml" --out regions2.json)
foreach(needle
    "regions.xml:14:5: <description> is dropped"
    "<obstacleHeight> is dropped"
    "obstacleRegion: 12 square obstacles"
    "its agents start at rest, not at the case's speed 1.2 m/s"
    "goal <seekStaticTarget> after the first is dropped"
    "agent 'runner': <fleeStaticTarget> is not supported"
    "agent 'chaser': <seekDynamicTarget> is not supported"
    "passing criterion \"the crowd looks natural\" is not recognised"
    "agent names are not kept")
  expect_contains("${reg_err}" "${needle}" "regions: warning '${needle}'")
endforeach()
run_cli(reg3 import steersuite "${DATA}/regions.xml" --out regions3.json)
file(READ "${WORK_DIR}/regions2.json" regions2)
file(READ "${WORK_DIR}/regions3.json" regions3)
if(NOT regions2 STREQUAL regions3)
  fail("one seed gives one scene: two imports of regions.xml differ")
endif()
run_cli(reg4 import steersuite "${DATA}/regions.xml" --out regions4.json --seed 7)
file(READ "${WORK_DIR}/regions4.json" regions4)
if(regions2 STREQUAL regions4)
  fail("--seed 7 places the random parts elsewhere than seed 1")
endif()

# Bad input: file:line:column and exit 2; nothing written.
file(WRITE "${WORK_DIR}/broken.xml" "<SteerBenchTestCase>\n  <header>\n    <name>x</name>\n  </heade>\n")
run_cli(bad import steersuite broken.xml --out broken.json)
expect_code(bad 2 "import of malformed XML")
expect_contains("${bad_err}" "broken.xml:4:" "the XML error names the line")
if(EXISTS "${WORK_DIR}/broken.json")
  fail("a refused import wrote its --out file")
endif()
file(WRITE "${WORK_DIR}/nobounds.xml" "<SteerBenchTestCase>\n  <header>\n    <version>1.0</version>\n  </header>\n</SteerBenchTestCase>\n")
run_cli(nb import steersuite nobounds.xml --out nobounds.json)
expect_code(nb 2 "import without worldBounds")
expect_contains("${nb_err}" "nobounds.xml:2:3: <header> needs a <worldBounds> element"
  "a missing element names its parent's place")
file(WRITE "${WORK_DIR}/badnumber.xml" "<SteerBenchTestCase><header><worldBounds><xmin>-1</xmin><xmax>one</xmax><ymin>0</ymin><ymax>0</ymax><zmin>-1</zmin><zmax>1</zmax></worldBounds></header></SteerBenchTestCase>\n")
run_cli(bn import steersuite badnumber.xml --out badnumber.json)
expect_code(bn 2 "import with a word for a number")
expect_contains("${bn_err}" "badnumber.xml:1:57: <xmax> must be a finite number, got \"one\""
  "a bad number names its element's place")
file(WRITE "${WORK_DIR}/other.xml" "<scene/>\n")
run_cli(ot import steersuite other.xml --out other.json)
expect_code(ot 2 "import of another XML format")
expect_contains("${ot_err}" "other.xml:1:1: the root element is <scene>" "the root is named")
run_cli(fmt import opensteer "${DATA}/crossing.xml" --out x.json)
expect_code(fmt 2 "import of an unknown format")
run_cli(noout import steersuite "${DATA}/crossing.xml")
expect_code(noout 2 "import without --out")

# run --json: per-group SteerBench-style scores, the hash unchanged by them.
run_cli(rj run crossing.json --steps 3000 --json)
expect_code(rj 0 "run --json crossing")
string(JSON collisions GET "${rj_out}" groups 0 scores collisions)
string(JSON timeToGoal GET "${rj_out}" groups 0 scores timeToGoal)
string(JSON timeToGoalType TYPE "${rj_out}" groups 0 scores timeToGoal)
string(JSON pathLength GET "${rj_out}" groups 0 scores pathLength)
string(JSON energy GET "${rj_out}" groups 0 scores energy)
string(JSON jsonHash GET "${rj_out}" hash)
if(NOT collisions EQUAL 0)
  fail("crossing: ${collisions} collisions, expected 0")
endif()
if(NOT timeToGoalType STREQUAL "NUMBER" OR timeToGoal LESS 12 OR timeToGoal GREATER 47)
  fail("crossing: time to goal ${timeToGoal} s, expected between the straight trip (12.3 s) and the check's 47 s")
endif()
if(pathLength LESS 15.5 OR pathLength GREATER 20)
  fail("crossing: path length ${pathLength} m, expected about the 16 m trip")
endif()
if(NOT energy GREATER 0)
  fail("crossing: energy ${energy}, expected above 0")
endif()
run_cli(rt run crossing.json --steps 3000)
string(REGEX MATCH "hash: ([0-9a-f]+)" line "${rt_out}")
if(NOT CMAKE_MATCH_1 STREQUAL jsonHash)
  fail("run --json's hash ${jsonHash} differs from run's ${CMAKE_MATCH_1}")
endif()
# regions: in 10 s no walker has made its 45 m trip, so there is no time to goal (null).
run_cli(rr run regions.json --steps 600 --json)
string(JSON regionsTime TYPE "${rr_out}" groups 0 scores timeToGoal)
if(NOT regionsTime STREQUAL "NULL")
  fail("regions: walkers still under way have a time to goal ${regionsTime}, expected null")
endif()

# Collision events: three bees 0.7 m across in a level 1 m wide overlap in three pairs from
# the start to the end (each pair counted once for each of its two bees: 6); a body on a
# layer the bees' mask leaves out overlaps them but is no collision of either.
file(WRITE "${WORK_DIR}/crowded.json" [=[
{"format": "shoal-scene", "version": 3, "bounds": {"min": [-0.5, 0], "max": [0.5, 0.1]},
 "player": {"enabled": false},
 "groups": [{"name": "bees", "kind": "swarm",
             "agents": [{"position": [-0.2, 0.05]}, {"position": [0, 0.05]}, {"position": [0.2, 0.05]}]},
            {"name": "ghosts", "kind": "swarm", "collision": {"layers": [2], "mask": [2]},
             "agents": [{"position": [0.1, 0.05]}]}]}
]=])
run_cli(cr run crowded.json --steps 60 --json)
string(JSON beeCollisions GET "${cr_out}" groups 0 scores collisions)
string(JSON ghostCollisions GET "${cr_out}" groups 1 scores collisions)
if(NOT beeCollisions EQUAL 6 OR NOT ghostCollisions EQUAL 0)
  fail("crowded: ${beeCollisions} bee and ${ghostCollisions} ghost collisions, expected 6 and 0")
else()
  message(STATUS "ok: collision events count pairs that meet, once each")
endif()

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} steersuite checks failed")
endif()
