# Runs shoal-cli the way a user or a script would and checks exit codes, messages and outputs.
# Usage: cmake -DCLI=<path to shoal-cli> -DWORK_DIR=<scratch dir> -DPYTHON=<python3>
#        -DJUNIT_CHECK=<junit_check.py> -P cli_test.cmake
# Dependency-free: CMake's own string(JSON) checks that JSON output parses.
cmake_minimum_required(VERSION 3.21)

if(NOT CLI OR NOT WORK_DIR)
  message(FATAL_ERROR "pass -DCLI=<shoal-cli> and -DWORK_DIR=<scratch dir>")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

# Counters live in global properties so the helpers can be functions: a macro would paste
# the tool's output (quotes, backslashes) into CMake code.
set_property(GLOBAL PROPERTY cli_checks 0)
set_property(GLOBAL PROPERTY cli_failures 0)

function(count_check passed label)
  get_property(checks GLOBAL PROPERTY cli_checks)
  math(EXPR checks "${checks} + 1")
  set_property(GLOBAL PROPERTY cli_checks ${checks})
  if(passed)
    message(STATUS "ok: ${label}")
  else()
    get_property(failures GLOBAL PROPERTY cli_failures)
    math(EXPR failures "${failures} + 1")
    set_property(GLOBAL PROPERTY cli_failures ${failures})
    message(STATUS "FAIL: ${label}")
  endif()
endfunction()

# run_cli(<prefix> args...): sets <prefix>_out, <prefix>_err, <prefix>_code.
function(run_cli prefix)
  execute_process(COMMAND "${CLI}" ${ARGN}
    WORKING_DIRECTORY "${WORK_DIR}"
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE code)
  set(${prefix}_out "${out}" PARENT_SCOPE)
  set(${prefix}_err "${err}" PARENT_SCOPE)
  set(${prefix}_code "${code}" PARENT_SCOPE)
endfunction()

# check(<label> <condition>...): the condition is written with variable names, not values
# (e.g. `hash1 STREQUAL hash2`), so empty values and special characters stay intact.
function(check label)
  if(${ARGN})
    count_check(TRUE "${label}")
  else()
    count_check(FALSE "${label}")
  endif()
endfunction()

# expect_code(<prefix> <code> <label>)
function(expect_code prefix code label)
  if("${${prefix}_code}" STREQUAL "${code}")
    count_check(TRUE "${label}: exit ${code}")
  else()
    count_check(FALSE "${label}: exit ${${prefix}_code}, expected ${code}\n  stdout: ${${prefix}_out}\n  stderr: ${${prefix}_err}")
  endif()
endfunction()

# expect_contains(<text> <needle> <label>)
function(expect_contains text needle label)
  string(FIND "${text}" "${needle}" position)
  if(position GREATER_EQUAL 0)
    count_check(TRUE "${label}")
  else()
    count_check(FALSE "${label}: '${needle}' not found in:\n${text}")
  endif()
endfunction()

# hash_of(<var> <stdout>): the 16 hex digits of the last line "hash: ...".
function(hash_of var text)
  string(REGEX MATCH "\nhash: ([0-9a-f]+)\n$" line "\n${text}")
  set(${var} "${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()

# --- validate -------------------------------------------------------------------------------
run_cli(v validate)
expect_code(v 0 "validate (embedded demo)")
check("validate prints 'demo: ok (N groups, M agents)'"
  v_out MATCHES "^demo: ok \\([0-9]+ groups, [0-9]+ agents\\)\n$")

file(WRITE "${WORK_DIR}/broken.json" "{\n  \"format\": \"shoal-scene\",\n  \"version\": 1,\n  \"groups\": [\n")
run_cli(vb validate demo broken.json)
expect_code(vb 2 "validate demo + a truncated file")
expect_contains("${vb_out}" "demo: ok" "the good file is still reported ok")
expect_contains("${vb_err}" "broken.json" "the error names the bad file")

file(WRITE "${WORK_DIR}/newer.json" "{\"format\": \"shoal-scene\", \"version\": 99}\n")
run_cli(vn validate newer.json)
expect_code(vn 2 "validate a newer format version")
expect_contains("${vn_err}" "newer.json" "the version error names the file")

run_cli(vm validate missing.json)
expect_code(vm 2 "validate a missing file")
expect_contains("${vm_err}" "missing.json: cannot open" "the missing file is named")

# Limits: a file bigger than the read limit, a device of zeros, a level that cannot place its
# agents (a warning, an error under --strict).
if(EXISTS /dev/zero)
  run_cli(vz validate /dev/zero)
  expect_code(vz 2 "validate /dev/zero")
  expect_contains("${vz_err}" "/dev/zero:1:1: a NUL byte; this is not a text file" "a device of zeros is refused at its first byte")
endif()
string(REPEAT " " 1100000 blanks)
file(WRITE "${WORK_DIR}/blank.json" "${blanks}")
run_cli(vl validate --max-file-size 1 blank.json)
expect_code(vl 2 "validate a file over --max-file-size")
expect_contains("${vl_err}" "blank.json: the file is 1 MB; files are read up to 1 MB (raise the limit with --max-file-size MB)" "the size and the limit are named")
run_cli(vlb validate --max-file-size 0 blank.json)
expect_code(vlb 2 "--max-file-size 0")
expect_contains("${vlb_err}" "--max-file-size '0' must be a whole number of megabytes" "the bad limit is named")
file(WRITE "${WORK_DIR}/hidden-spawn.json" "{\"format\": \"shoal-scene\", \"version\": 3,
  \"bounds\": {\"min\": [-10, -10], \"max\": [10, 10]}, \"player\": {\"position\": [-8, -8]},
  \"obstacles\": [{\"shape\": \"circle\", \"center\": [1, 1], \"radius\": 5}],
  \"groups\": [{\"name\": \"s\", \"kind\": \"swarm\", \"spawn\": {\"min\": [0, 0], \"max\": [2, 2], \"count\": 20}}]}\n")
run_cli(vw validate hidden-spawn.json)
expect_code(vw 0 "validate a level whose spawn area lies under an obstacle")
expect_contains("${vw_out}" "hidden-spawn.json: ok (1 group, 0 agents, 1 warning)" "ok says there is a warning")
expect_contains("${vw_err}" "hidden-spawn.json: warning: groups[0] 's': its spawn area [0, 0] to [2, 2] placed 0 of 20 agents: no place in it is clear" "the warning names the group, the area and the count")
run_cli(vws validate --strict hidden-spawn.json)
expect_code(vws 2 "validate --strict with a warning")
expect_contains("${vws_err}" "refused: 1 warning (--strict)" "--strict says why")
run_cli(rw run hidden-spawn.json --steps 2 --json)
expect_code(rw 0 "run a level with a warning")
expect_contains("${rw_err}" "warning: groups[0] 's'" "run prints the warning")
string(JSON warningCount ERROR_VARIABLE warningError LENGTH "${rw_out}" warnings)
check("run --json lists the warning (${warningError})" warningCount EQUAL 1)

# What a message quotes from a file reaches the terminal escaped: a NUL in a key no longer
# ends the message, an escape sequence in a name no longer drives the terminal.
file(WRITE "${WORK_DIR}/nul-key.json" [=[{"format": "shoal-scene", "version": 3,
  "bounds": {"min": [-10, -10], "max": [10, 10]}, "player": {"enabled": false},
  "groups": [{"na\u0000me": "s", "kind": "swarm"}]}
]=])
run_cli(vnk validate nul-key.json)
expect_code(vnk 2 "validate a key with a NUL in it")
expect_contains("${vnk_err}" [=[groups[0]: unknown key 'na\0me' (did you mean 'name'?); allowed keys: name,]=] "the whole message, the NUL escaped")
file(WRITE "${WORK_DIR}/escape-name.json" [=[{"format": "shoal-scene", "version": 3,
  "bounds": {"min": [-10, -10], "max": [10, 10]}, "player": {"enabled": false},
  "groups": [{"name": "a\u001b[2Jb", "kind": "swarm", "agents": [{"position": [0, 0]}]}]}
]=])
run_cli(ren run escape-name.json --steps 2)
expect_code(ren 0 "run a group whose name holds an escape sequence")
expect_contains("${ren_out}" [=[group 'a\x1B[2Jb' (swarm): 1 agents]=] "the summary escapes the name")
string(ASCII 27 escapeChar)
string(FIND "${ren_out}${ren_err}" "${escapeChar}" rawEscape)
check("no raw escape character reaches the terminal" rawEscape EQUAL -1)

# --- run ------------------------------------------------------------------------------------
run_cli(r1 run demo --steps 200)
run_cli(r2 run --steps 200)
expect_code(r1 0 "run demo --steps 200")
expect_code(r2 0 "run (no file) --steps 200")
hash_of(hash1 "${r1_out}")
hash_of(hash2 "${r2_out}")
string(LENGTH "${hash1}" hashLength)
check("the last line is 'hash: <16 hex digits>' (${hash1})" hash1 MATCHES "^[0-9a-f]+$" AND hashLength EQUAL 16)
check("two runs of 200 steps give the same hash (${hash1} / ${hash2})" hash1 STREQUAL hash2)
expect_contains("${r1_out}" "wall crossings: 0\n" "the demo crosses no wall")
expect_contains("${r1_out}" "checks: passed" "the demo passes the runtime checks")

# A body that cannot fit (a level 0.1 m tall, bodies 0.35 m across) fails the run's checks,
# and the message names the group, the agent, the step and the place.
file(WRITE "${WORK_DIR}/squeezed.json" [=[
{"format": "shoal-scene", "version": 2, "bounds": {"min": [-5, 0], "max": [5, 0.1]},
 "player": {"enabled": false},
 "groups": [{"name": "bees", "kind": "swarm", "agents": [{"position": [0, 0.05]}]}]}
]=])
run_cli(rq run squeezed.json --steps 30)
expect_code(rq 1 "run: a body that does not fit fails the checks")
expect_contains("${rq_out}" "checks: FAILED" "the summary says the checks failed")
expect_contains("${rq_err}" "group 'bees' agent 0 overlaps a wall or obstacle by 0.300 m at step 0, at (0.00, 0.05) m (at most 0.05 m is allowed)" "the failure names group, agent, step and place")
run_cli(rqj run squeezed.json --steps 30 --json)
expect_code(rqj 1 "run --json: a body that does not fit fails the checks")
string(JSON passed ERROR_VARIABLE jsonError GET "${rqj_out}" passed)
check("run --json says \"passed\": false (${passed})" passed STREQUAL "OFF")
string(JSON firstFailure ERROR_VARIABLE jsonError GET "${rqj_out}" failures 0)
expect_contains("${firstFailure}" "agent 0 overlaps a wall" "run --json lists the failures")

run_cli(rs run demo --steps 200 --seed 12345)
hash_of(hashSeed "${rs_out}")
expect_code(rs 0 "run --seed")
check("--seed changes the hash (${hashSeed})" hashSeed MATCHES "^[0-9a-f]+$" AND NOT hashSeed STREQUAL hash1)

run_cli(rj run demo --steps 200 --json)
expect_code(rj 0 "run --json")
string(JSON jsonHash ERROR_VARIABLE jsonError GET "${rj_out}" hash)
check("--json output parses (${jsonError})" NOT jsonError)
check("--json hash matches the text run" jsonHash STREQUAL hash1)
string(JSON groupCount ERROR_VARIABLE jsonError LENGTH "${rj_out}" groups)
check("--json lists the groups" NOT jsonError AND groupCount GREATER 0)
if(jsonError)
  set(groupCount 0)
endif()
string(JSON passed ERROR_VARIABLE jsonError GET "${rj_out}" passed)
check("--json says the checks passed" passed STREQUAL "ON")
string(JSON firstGroup ERROR_VARIABLE jsonError GET "${rj_out}" groups 0 name)
string(JSON firstKind ERROR_VARIABLE jsonError GET "${rj_out}" groups 0 kind)
string(JSON playerEnabled ERROR_VARIABLE jsonError GET "${rj_out}" player enabled)
string(REGEX MATCHALL "\n" jsonLines "${rj_out}")
list(LENGTH jsonLines jsonLineCount)
check("--json prints one line" jsonLineCount EQUAL 1)

# --set
run_cli(so run demo --steps 10 --set player.moveSpeed=99.5)
expect_code(so 2 "--set with an out-of-range value")
expect_contains("${so_err}" "--set player.moveSpeed=99.5: player: moveSpeed = 99.5 is out of range; allowed [" "the range error names the value and the range")

run_cli(sk run demo --steps 10 "--set=${firstGroup}.noSuchParam=1")
expect_code(sk 2 "--set an unknown parameter")
expect_contains("${sk_err}" "noSuchParam" "the unknown parameter is named")
expect_contains("${sk_err}" "known:" "the known parameters are listed")

run_cli(sg run demo --steps 10 --set noSuchGroup.speed=1)
expect_code(sg 2 "--set an unknown group")
expect_contains("${sg_err}" "no group 'noSuchGroup'; groups: '${firstGroup}'" "the groups are listed")

run_cli(sf run demo --steps 10 --set player.moveSpeed=fast)
expect_code(sf 2 "--set a value that is not a number")
expect_contains("${sf_err}" "'fast' is not a finite number" "the bad value is named")

run_cli(sh run demo --steps 10 --set player.moveSpeed=1e400)
expect_code(sh 2 "--set a value beyond double range")
expect_contains("${sh_err}" "'1e400' is not a finite number" "the overflowing value is named")

run_cli(sx run demo --steps 10 --set moveSpeed)
expect_code(sx 2 "--set without group.param=value")

# A valid change to the first group's speed changes the run.
set(speedKey_fishSchool moveSpeed)
set(speedKey_tankSquad moveSpeed)
set(speedKey_swarm speed)
set(speedKey_leaderFollow maxSpeed)
set(speedKey_worm speed)
set(speedKey "${speedKey_${firstKind}}")
run_cli(sv run demo --steps 200 --set "${firstGroup}.${speedKey}=1.5")
expect_code(sv 0 "--set ${firstGroup}.${speedKey}=1.5")
hash_of(hashSet "${sv_out}")
check("a valid --set changes the hash (${hashSet})" hashSet MATCHES "^[0-9a-f]+$" AND NOT hashSet STREQUAL hash1)

# --input
file(WRITE "${WORK_DIR}/drag.txt" "# press right of the start, then drag\n0 pointer 6 3 down\n60 pointer -6 -3 move\n150 pointer -6 -3 up\n")
run_cli(ri1 run demo --steps 200 --input drag.txt)
run_cli(ri2 run demo --steps 200 --input drag.txt)
expect_code(ri1 0 "run --input drag.txt")
hash_of(hashInput1 "${ri1_out}")
hash_of(hashInput2 "${ri2_out}")
check("the same input script gives the same hash (${hashInput1})" hashInput1 MATCHES "^[0-9a-f]+$" AND hashInput1 STREQUAL hashInput2)
if(playerEnabled STREQUAL "ON")
  check("the input script changes the run" NOT hashInput1 STREQUAL hash1)
endif()

file(WRITE "${WORK_DIR}/bad-input.txt" "0 pointer 1 1 down\n5 pointer 1 1 press\n")
run_cli(rib run demo --steps 10 --input bad-input.txt)
expect_code(rib 2 "a bad input script")
expect_contains("${rib_err}" "bad-input.txt:2: pointer action 'press' must be down, up or move" "the script error names file and line")

# --metrics / --trajectory
run_cli(rm run demo --steps 20 --metrics m.csv --trajectory t.csv)
expect_code(rm 0 "run --metrics m.csv --trajectory t.csv")
check("the metrics and trajectory files are written" EXISTS "${WORK_DIR}/m.csv" AND EXISTS "${WORK_DIR}/t.csv")
if(EXISTS "${WORK_DIR}/m.csv" AND EXISTS "${WORK_DIR}/t.csv")
  file(STRINGS "${WORK_DIR}/m.csv" metricsLines)
  list(LENGTH metricsLines metricsLineCount)
  list(GET metricsLines 0 metricsHeader)
  check("metrics CSV header" metricsHeader MATCHES "^step,group,kind,agents,active,nearestMin,")
  math(EXPR expectedMetricsLines "21 * ${groupCount} + 1")
  check("metrics CSV has a row per step (0..20) per group (${metricsLineCount})" metricsLineCount EQUAL expectedMetricsLines)
  file(STRINGS "${WORK_DIR}/t.csv" trajectoryLines LIMIT_COUNT 2)
  list(GET trajectoryLines 0 trajectoryHeader)
  check("trajectory CSV header" trajectoryHeader STREQUAL "step,group,agent,x,y,heading,speed")
  list(GET trajectoryLines 1 trajectoryFirst)
  check("trajectory rows start at step 0" trajectoryFirst MATCHES "^0,[^,]+,0,-?[0-9]+\\.[0-9]+,")
endif()

run_cli(rmj run demo --steps 5 --metrics m.json)
expect_code(rmj 0 "run --metrics m.json")
check("the metrics JSON file is written" EXISTS "${WORK_DIR}/m.json")
if(EXISTS "${WORK_DIR}/m.json")
  file(READ "${WORK_DIR}/m.json" metricsJson)
  string(JSON rowCount ERROR_VARIABLE jsonError LENGTH "${metricsJson}" rows)
  check("metrics JSON parses (${jsonError})" NOT jsonError)
  math(EXPR expectedRows "6 * ${groupCount}")
  check("metrics JSON has a row per step per group" rowCount EQUAL expectedRows)
endif()

run_cli(rmx run demo --steps 5 --metrics m.txt)
expect_code(rmx 2 "--metrics with an unknown extension")
check("no file is written for a refused run" NOT EXISTS "${WORK_DIR}/m.txt")

run_cli(rmd run demo --steps 5 --metrics no-such-dir/m.csv)
expect_code(rmd 2 "--metrics into a missing folder")
expect_contains("${rmd_err}" "no-such-dir/m.csv: cannot write" "the unwritable path is named")

# Outputs never replace inputs or each other (checked before anything is written).
file(READ "${WORK_DIR}/hidden-spawn.json" sceneBefore)
run_cli(rci run hidden-spawn.json --steps 2 --metrics hidden-spawn.json)
expect_code(rci 2 "--metrics onto the scene file")
expect_contains("${rci_err}" "--metrics 'hidden-spawn.json' is the scene file; an output never replaces an input" "the clash is named")
file(READ "${WORK_DIR}/hidden-spawn.json" sceneAfter)
check("the scene file is untouched" sceneBefore STREQUAL sceneAfter)
file(WRITE "${WORK_DIR}/script.txt" "0 pointer 1 1 down\n")
run_cli(rcs run demo --steps 2 --input script.txt --trajectory ./script.txt)
expect_code(rcs 2 "--trajectory onto the input script")
expect_contains("${rcs_err}" "is the --input script" "the script clash is named")
run_cli(rco run demo --steps 2 --metrics out.json --trajectory ./sub/../out.json)
expect_code(rco 2 "--metrics and --trajectory naming one file")
expect_contains("${rco_err}" "--metrics and --trajectory both name" "the two outputs are named")
check("nothing is written for a refused run" NOT EXISTS "${WORK_DIR}/out.json")

# Input scripts keep the coordinate limit (3.5e38 is a double but no float).
file(WRITE "${WORK_DIR}/far.txt" "0 pointer 3.5e38 0 down\n")
run_cli(rif run demo --steps 2 --input far.txt)
expect_code(rif 2 "an input script pointer beyond the coordinate limit")
expect_contains("${rif_err}" "far.txt:1: x '3.5e38' is more than 16384 m from the origin" "the far pointer is named")

# Bad options
run_cli(ro run demo --steps many)
expect_code(ro 2 "--steps that is not a number")
run_cli(ru run demo --frobnicate)
expect_code(ru 2 "an unknown option")
run_cli(rc explode)
expect_code(rc 2 "an unknown command")
run_cli(rh run --help)
expect_code(rh 0 "run --help")
expect_contains("${rh_out}" "--set <group.param=value>" "run --help lists --set")

# --- bench ----------------------------------------------------------------------------------
run_cli(b bench --agents 300 --family swarm,fishSchool --steps 3 --warmup 1 --json)
expect_code(b 0 "bench --json (small)")
string(REGEX REPLACE "\n$" "" benchOut "${b_out}")
string(REPLACE "\n" ";" benchLines "${benchOut}")
list(LENGTH benchLines benchLineCount)
check("bench prints one JSON line per result" benchLineCount EQUAL 2)
foreach(line IN LISTS benchLines)
  string(JSON keyCount ERROR_VARIABLE jsonError LENGTH "${line}")
  check("bench line parses with 7 keys (${jsonError})" NOT jsonError AND keyCount EQUAL 7)
  foreach(key family agents ms_per_step ns_per_agent_step reference_ms_per_step speedup bytes_per_agent)
    string(JSON value ERROR_VARIABLE jsonError GET "${line}" ${key})
    check("bench key ${key} present" NOT jsonError)
  endforeach()
  string(JSON agents GET "${line}" agents)
  check("bench scene has the agents asked for (${agents})" agents EQUAL 300)
  string(JSON referenceType TYPE "${line}" reference_ms_per_step)
  check("the reference is measured at 300 agents" referenceType STREQUAL "NUMBER")
endforeach()

run_cli(bt bench --agents 100 --family leaderFollow,worm,tankSquad --steps 2 --warmup 0)
expect_code(bt 0 "bench text table")
expect_contains("${bt_out}" "ns/agent-step" "the table has its header")
expect_contains("${bt_out}" "peak RSS" "the table reports peak RSS")

run_cli(bf bench --family dragons)
expect_code(bf 2 "bench --family with an unknown family")
expect_contains("${bf_err}" "allowed: all, fishSchool, tankSquad, swarm, leaderFollow, worm" "the families are listed")

# Presets: the list, the user's own beside the built-ins, and --preset as if the file held them.
set(ENV{XDG_DATA_HOME} "${WORK_DIR}/data")
run_cli(pl presets)
expect_code(pl 0 "presets")
string(REGEX MATCHALL "[^\n]+" presetLines "${pl_out}")
list(LENGTH presetLines presetCount)
check("presets lists at least two per family (${presetCount})" presetCount GREATER_EQUAL 10)
foreach(line IN LISTS presetLines)
  check("a preset line is name, family, key=value... (${line})"
        line MATCHES "^[a-z-]+  (fishSchool|tankSquad|swarm|leaderFollow|worm)(  [A-Za-z]+=[-0-9.e]+)+$")
endforeach()
run_cli(pw presets worm)
expect_code(pw 0 "presets worm")
check("presets FAMILY lists only that family" pw_out MATCHES "worm" AND NOT pw_out MATCHES "fishSchool")
run_cli(px presets dragons)
expect_code(px 2 "presets with an unknown family")
expect_contains("${px_err}" "unknown family 'dragons'; allowed: fishSchool" "the families are listed")

file(WRITE "${WORK_DIR}/data/Shoal/shoal/presets/fishSchool/my school.json"
  "{\"format\": \"shoal-preset\", \"version\": 1, \"name\": \"my school\", \"family\": \"fishSchool\", \"params\": {\"moveSpeed\": 5}}\n")
file(WRITE "${WORK_DIR}/data/Shoal/shoal/presets/fishSchool/broken.json" "{\"format\":")
run_cli(pu presets fishSchool)
expect_code(pu 0 "presets with a user preset and a broken file")
expect_contains("${pu_out}" "\"my school\"  fishSchool  moveSpeed=5  (yours)" "the user's preset is listed")
expect_contains("${pu_err}" "broken.json:1:11: syntax error" "the broken file is named with its line and column")

run_cli(pr0 run demo --steps 120)
run_cli(pr1 run demo --steps 120 --preset school=tight-school)
expect_code(pr1 0 "run --preset")
string(REGEX MATCH "hash: [0-9a-f]+" hash0 "${pr0_out}")
string(REGEX MATCH "hash: [0-9a-f]+" hash1 "${pr1_out}")
check("a preset changes the run" NOT hash0 STREQUAL hash1)
file(READ "${DEMO_SCENE}" demoText)
string(JSON school0 GET "${demoText}" groups 0 name)
set(tuned "${demoText}")
foreach(pair neighborRadius=2.5 keepMinDistance=1 keepMaxDistance=1.3 keepWeight=1.5)
  string(REPLACE "=" ";" pair "${pair}")
  list(GET pair 0 key)
  list(GET pair 1 value)
  string(JSON tuned SET "${tuned}" groups 0 params ${key} ${value})
endforeach()
file(WRITE "${WORK_DIR}/tight.json" "${tuned}")
run_cli(pr2 run tight.json --steps 120)
string(REGEX MATCH "hash: [0-9a-f]+" hash2 "${pr2_out}")
check("--preset runs as the file saved with its values (${school0})" hash1 STREQUAL hash2 AND school0 STREQUAL "school")
run_cli(pr3 run demo --steps 10 "--preset" "school=my school")
expect_code(pr3 0 "run --preset with the user's preset")
run_cli(pr4 run demo --steps 10 --preset school=fast-squad)
expect_code(pr4 2 "run --preset of another family")
expect_contains("${pr4_err}" "'fast-squad' is a tankSquad preset; fishSchool presets: loose-school, tight-school" "the refusal names the family and the choices")
run_cli(pr5 run demo --steps 10 --preset nowhere=tight-school)
expect_code(pr5 2 "run --preset of a missing group")
expect_contains("${pr5_err}" "the scene has no group 'nowhere'; groups: 'school'" "the groups are listed")

# --- record and replay ------------------------------------------------------------------------
# A run with --seed, --set and a script that edits parameters while it runs, recorded; the
# replay ends with the run's hash, a shorter replay with the shorter run's, and a recording
# whose edit was changed by hand no longer matches (exit 1, both hashes named).
file(WRITE "${WORK_DIR}/edits.txt" "0 pointer 6 3 down\n60 set school keepWeight 1.4\n90 set player moveSpeed 4.5\n150 pointer -6 -3 up\n200 target squad 30 -4\n")
run_cli(rr1 run demo --steps 300 --seed 9 --set swarm.speed=2.5 --input edits.txt --record run.shoalrec)
expect_code(rr1 0 "run --record")
hash_of(recorded "${rr1_out}")
run_cli(rr2 replay run.shoalrec)
expect_code(rr2 0 "replay")
hash_of(replayed "${rr2_out}")
check("replay ends with the recorded run's hash (${recorded})" recorded STREQUAL replayed)
run_cli(rr3 replay run.shoalrec --steps 120)
hash_of(replayed120 "${rr3_out}")
run_cli(rr4 run demo --steps 120 --seed 9 --set swarm.speed=2.5 --input edits.txt)
hash_of(run120 "${rr4_out}")
check("a shorter replay is the shorter run" replayed120 STREQUAL run120)
file(READ "${WORK_DIR}/run.shoalrec" recordingText)
string(REPLACE "\"value\": 1.4" "\"value\": 1.5" editedText "${recordingText}")
file(WRITE "${WORK_DIR}/edited.shoalrec" "${editedText}")
run_cli(rr5 replay edited.shoalrec)
expect_code(rr5 1 "replay of an edited recording")
expect_contains("${rr5_err}" "the recorded run with ${recorded}" "the mismatch names the recorded hash")
string(REPLACE "\"version\": 1," "\"version\": 7," newerText "${recordingText}")
file(WRITE "${WORK_DIR}/newer.shoalrec" "${newerText}")
run_cli(rr6 replay newer.shoalrec)
expect_code(rr6 2 "replay of a newer recording")
expect_contains("${rr6_err}" "newer.shoalrec: this recording was written by a newer Shoal (format version 7)" "the version is named")
run_cli(rr7 replay "${DEMO_SCENE}")
expect_code(rr7 2 "replay of a scene file")
expect_contains("${rr7_err}" "format: this is not a Shoal recording" "a scene is not a recording")
run_cli(rr8 run demo --steps 5 --input edits.txt --record edits.txt)
expect_code(rr8 2 "--record over the input script")
run_cli(rr9 run demo --steps 5 --input edits.txt --record nowhere/run.shoalrec)
expect_code(rr9 2 "--record into a missing folder")
expect_contains("${rr9_err}" "nowhere/run.shoalrec" "the file is named")

# --- check ----------------------------------------------------------------------------------
# The demo's checks all pass; a scene with one true and one false check fails (exit 1) and
# says which, with the value; bad input is exit 2; --junit is JUnit XML a CI server reads.
run_cli(ck1 check)
expect_code(ck1 0 "check (the demo's checks)")
expect_contains("${ck1_out}" "demo: 8 of 8 passed (1320 steps, 22 s)" "check runs the demo 2 s past its latest window")
expect_contains("${ck1_out}" "  pass  'the squad parks round its target': squad.atGoal equal to squad.agents by 20 s: held at " "a check is listed with its name, condition and what it measured")
file(WRITE "${WORK_DIR}/checked.json" [=[{"format": "shoal-scene", "version": 3,
 "bounds": {"min": [-10, -10], "max": [10, 10]},
 "groups": [{"name": "school", "kind": "fishSchool", "spawn": {"min": [-2, -2], "max": [2, 2], "count": 5}}],
 "checks": [{"name": "nobody crosses a wall", "metric": "all.wallCrossings", "equals": 0},
            {"metric": "school.agents", "above": 10, "after": 1}]}
]=])
run_cli(ck2 check checked.json demo --junit results.xml)
expect_code(ck2 1 "check with a false check")
expect_contains("${ck2_out}" "checked.json: 1 of 2 passed (600 steps, 10 s)" "the scene's summary line")
expect_contains("${ck2_out}" "  pass  'nobody crosses a wall': all.wallCrossings equal to 0: 0" "the true check passes")
expect_contains("${ck2_out}" "  FAIL  school.agents above 10 after 1 s: 5 at 1 s (wanted above 10)" "the false check fails with its value and time")
execute_process(COMMAND "${PYTHON}" "${JUNIT_CHECK}" "${WORK_DIR}/results.xml"
  OUTPUT_VARIABLE junitOut ERROR_VARIABLE junitErr RESULT_VARIABLE junitCode)
check("--junit writes JUnit XML (${junitErr})" junitCode EQUAL 0)
expect_contains("${junitOut}" "tests=10 failures=1 errors=0" "the JUnit file counts every check")
file(WRITE "${WORK_DIR}/nogroup.json" [=[{"format": "shoal-scene", "version": 3,
 "bounds": {"min": [-10, -10], "max": [10, 10]}, "groups": [],
 "checks": [{"metric": "squad.atGoal", "atLeast": 1}]}
]=])
run_cli(ck3 check nogroup.json checked.json --junit errors.xml)
expect_code(ck3 2 "check of a scene whose check names a missing group")
expect_contains("${ck3_err}" "nogroup.json: checks[0].metric: there is no group 'squad'; groups: none, or all" "the missing group is named")
expect_contains("${ck3_out}" "checked.json: 1 of 2 passed" "the other scenes are still checked")
execute_process(COMMAND "${PYTHON}" "${JUNIT_CHECK}" "${WORK_DIR}/errors.xml"
  OUTPUT_VARIABLE junitOut2 RESULT_VARIABLE junitCode2)
check("a scene that could not be checked is a JUnit error" junitCode2 EQUAL 0)
expect_contains("${junitOut2}" "tests=3 failures=1 errors=1" "the error is counted")
run_cli(ck4 check checked.json --junit checked.json)
expect_code(ck4 2 "--junit onto the scene")
run_cli(ck5 check demo --steps 0)
expect_code(ck5 2 "check --steps 0")
expect_contains("${ck5_err}" "check: --steps '0' must be a whole number in [1, 100000000]" "the allowed steps are named")
run_cli(ck6 check demo --steps 60)
expect_code(ck6 1 "the demo checked for 1 s only")
expect_contains("${ck6_out}" "by 20 s: the run ended at 1 s without it holding (0 to 0)" "a deadline the run never reached fails, saying why")

get_property(checks GLOBAL PROPERTY cli_checks)
get_property(failures GLOBAL PROPERTY cli_failures)
message(STATUS "${checks} checks, ${failures} failed")
if(failures GREATER 0)
  message(FATAL_ERROR "${failures} of ${checks} shoal-cli checks failed")
endif()
