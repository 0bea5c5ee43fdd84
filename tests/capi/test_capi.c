/* test_capi: the C API (<shoal/shoal_c.h>) from a C99 program, as a game in C uses it.
 * Usage: test_capi SCENE STEPS EXPECTED_HASH WORK_DIR
 * EXPECTED_HASH is what `shoal-cli run SCENE --steps STEPS` printed after "hash: "
 * (capi_test.cmake runs the CLI first); WORK_DIR is a scratch folder for bad files. */
#include <shoal/shoal_c.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_failures = 0;
static int g_checks = 0;

#define CHECK(condition)                                                                           \
    do {                                                                                           \
        ++g_checks;                                                                                \
        if (!(condition)) {                                                                        \
            ++g_failures;                                                                          \
            fprintf(stderr, "%s:%d: FAIL: %s (last error: %s)\n", __FILE__, __LINE__, #condition,  \
                    shoal_last_error());                                                           \
        }                                                                                          \
    } while (0)

/* status == want, with a message on this thread and on the world (when given) holding `part`. */
static void checkFailure(shoal_status status, shoal_status want, const shoal_world* world,
                         const char* part, int line)
{
    ++g_checks;
    if (status != want) {
        ++g_failures;
        fprintf(stderr, "test_capi.c:%d: FAIL: got %s, want %s (last error: %s)\n", line,
                shoal_status_name(status), shoal_status_name(want), shoal_last_error());
        return;
    }
    if (!strstr(shoal_last_error(), part) ||
        (world && !strstr(shoal_world_last_error(world), part))) {
        ++g_failures;
        fprintf(stderr, "test_capi.c:%d: FAIL: %s: the message '%s' does not name '%s'\n", line,
                shoal_status_name(status), shoal_last_error(), part);
    }
}
#define CHECK_FAILS(call, want, world, part) checkFailure((call), (want), (world), (part), __LINE__)

static char* readWholeFile(const char* path, size_t* length)
{
    FILE* file = fopen(path, "rb");
    char* text = NULL;
    long size = 0;
    if (!file)
        return NULL;
    if (fseek(file, 0, SEEK_END) == 0 && (size = ftell(file)) >= 0 &&
        fseek(file, 0, SEEK_SET) == 0) {
        text = (char*)malloc((size_t)size + 1);
        if (text && fread(text, 1, (size_t)size, file) != (size_t)size) {
            free(text);
            text = NULL;
        }
    }
    fclose(file);
    *length = (size_t)size;
    return text;
}

static void writeFile(const char* path, const char* text)
{
    FILE* file = fopen(path, "wb");
    if (!file) {
        fprintf(stderr, "test_capi: cannot write %s\n", path);
        exit(2);
    }
    fputs(text, file);
    fclose(file);
}

static void formatHash(const shoal_world* world, char out[17])
{
    uint64_t hash = 0;
    CHECK(shoal_world_state_hash(world, &hash) == SHOAL_OK);
    sprintf(out, "%016" PRIx64, hash);
}

/* The editor's hash, from a file and from memory. */
static void testHashes(const char* scene, int steps, const char* expected)
{
    shoal_world* world = NULL;
    shoal_world* fromMemory = NULL;
    char hash[17];
    char memoryHash[17];
    size_t length = 0;
    char* text = readWholeFile(scene, &length);
    uint64_t stepCount = 0;
    double time = 0.0;
    float dt = 0.0f;

    CHECK(shoal_world_create_from_file(scene, &world) == SHOAL_OK);
    CHECK(world != NULL);
    CHECK(shoal_world_step(world, steps) == SHOAL_OK);
    formatHash(world, hash);
    if (strcmp(hash, expected) != 0) {
        ++g_failures;
        fprintf(stderr, "FAIL: hash %s after %d steps, shoal-cli says %s\n", hash, steps, expected);
    }
    CHECK(shoal_world_step_count(world, &stepCount) == SHOAL_OK && stepCount == (uint64_t)steps);
    CHECK(shoal_world_dt(world, &dt) == SHOAL_OK && dt > 0.0f);
    CHECK(shoal_world_time(world, &time) == SHOAL_OK && fabs(time - steps * (double)dt) < 1e-9);

    CHECK(text != NULL);
    if (text) {
        /* No terminator needed: the length says where the text ends. */
        text[length] = 'X';
        CHECK(shoal_world_create_from_memory(text, length, "demo (memory)", &fromMemory) ==
              SHOAL_OK);
        /* On two threads: the same hash. */
        int threads = 0;
        CHECK(shoal_world_threads(fromMemory, &threads) == SHOAL_OK && threads == 1);
        CHECK(shoal_world_set_threads(fromMemory, 2) == SHOAL_OK);
        CHECK(shoal_world_threads(fromMemory, &threads) == SHOAL_OK && threads == 2);
        CHECK_FAILS(shoal_world_set_threads(fromMemory, 65), SHOAL_ERROR_INVALID_ARGUMENT,
                    fromMemory, "threads 65 is outside [0, 64]");
        CHECK_FAILS(shoal_world_set_threads(fromMemory, -1), SHOAL_ERROR_INVALID_ARGUMENT,
                    fromMemory, "threads -1");
        /* And on four lanes, where the CLI's reference ran the widest: the same hash. */
        int lanes = 0;
        CHECK(shoal_world_lane_width(fromMemory, &lanes) == SHOAL_OK && (lanes == 4 || lanes == 8));
        CHECK(shoal_world_set_lane_width(fromMemory, 4) == SHOAL_OK);
        CHECK(shoal_world_lane_width(fromMemory, &lanes) == SHOAL_OK && lanes == 4);
        CHECK_FAILS(shoal_world_set_lane_width(fromMemory, 16), SHOAL_ERROR_INVALID_ARGUMENT,
                    fromMemory, "width 16 is not 0 (the widest), 4 or 8");
        CHECK(shoal_world_step(fromMemory, steps) == SHOAL_OK);
        formatHash(fromMemory, memoryHash);
        CHECK(strcmp(memoryHash, hash) == 0);
    }
    free(text);
    shoal_world_destroy(fromMemory);
    shoal_world_destroy(world);
}

/* Bad input: a missing file, a file that is not a scene, null handles and pointers. */
static void testErrors(const char* workDir)
{
    char missing[4096];
    char bad[4096];
    shoal_world* world = (shoal_world*)&g_checks; /* must be reset to null on failure */
    static const char kBadJson[] = "{ \"format\": \"shoal-scene\", \"version\": 3, ";
    uint64_t hash = 0;
    int count = 0;

    sprintf(missing, "%s/no-such-level.json", workDir);
    CHECK_FAILS(shoal_world_create_from_file(missing, &world), SHOAL_ERROR_IO, NULL,
                "no-such-level.json");
    CHECK(world == NULL);

    sprintf(bad, "%s/broken-level.json", workDir);
    writeFile(bad, kBadJson);
    CHECK_FAILS(shoal_world_create_from_file(bad, &world), SHOAL_ERROR_PARSE, NULL,
                "broken-level.json");
    CHECK(world == NULL);
    CHECK_FAILS(shoal_world_create_from_memory(kBadJson, strlen(kBadJson), "inline.json", &world),
                SHOAL_ERROR_PARSE, NULL, "inline.json");
    CHECK_FAILS(shoal_world_create_from_memory("{}", 2, NULL, &world), SHOAL_ERROR_PARSE, NULL,
                "<memory>");
    /* Over the size limit: refused before a byte is read (so this short text is safe). */
    CHECK_FAILS(shoal_world_create_from_memory(kBadJson, (size_t)100 << 20, "huge.json", &world),
                SHOAL_ERROR_PARSE, NULL, "huge.json: the text is 100 MB");
    CHECK_FAILS(shoal_world_create_from_memory(NULL, 0, NULL, &world), SHOAL_ERROR_PARSE, NULL,
                "<memory>");
    CHECK_FAILS(shoal_world_create_from_memory(NULL, 5, NULL, &world), SHOAL_ERROR_INVALID_ARGUMENT,
                NULL, "JSON text");
    CHECK_FAILS(shoal_world_create_from_file(NULL, &world), SHOAL_ERROR_INVALID_ARGUMENT, NULL,
                "path");
    CHECK_FAILS(shoal_world_create_from_file(missing, NULL), SHOAL_ERROR_INVALID_ARGUMENT, NULL,
                "out-parameter");

    CHECK_FAILS(shoal_world_step(NULL, 1), SHOAL_ERROR_INVALID_ARGUMENT, NULL, "shoal_world_step");
    CHECK_FAILS(shoal_world_state_hash(NULL, &hash), SHOAL_ERROR_INVALID_ARGUMENT, NULL,
                "world is null");
    CHECK_FAILS(shoal_world_group_count(NULL, &count), SHOAL_ERROR_INVALID_ARGUMENT, NULL,
                "world is null");
    CHECK_FAILS(shoal_world_set_pointer(NULL, 0.0f, 0.0f, 0), SHOAL_ERROR_INVALID_ARGUMENT, NULL,
                "world is null");
    CHECK_FAILS(shoal_world_advance(NULL, 0.1, 8, NULL, NULL), SHOAL_ERROR_INVALID_ARGUMENT, NULL,
                "world is null");
    CHECK(strcmp(shoal_world_last_error(NULL), "") == 0);
    shoal_world_destroy(NULL);

    CHECK(strcmp(shoal_status_name(SHOAL_ERROR_IO), "SHOAL_ERROR_IO") == 0);
    CHECK(strcmp(shoal_status_name((shoal_status)999), "SHOAL_ERROR_UNKNOWN") == 0);
    CHECK(strcmp(shoal_kind_name(SHOAL_KIND_TANK_SQUAD), "tankSquad") == 0);
    CHECK(shoal_version_number() >= 100 && strchr(shoal_version_string(), '.') != NULL);
}

/* Groups, poses into the caller's buffers, ids. */
static void testReading(const char* scene)
{
    shoal_world* world = NULL;
    int groups = 0;
    int g = 0;
    size_t needed = 0;
    size_t n = 0;
    shoal_pose* poses = NULL;
    float* xs = NULL;
    uint32_t* ids = NULL;
    const char* name = NULL;
    shoal_kind kind = SHOAL_KIND_FISH_SCHOOL;
    int index = 0;
    float minX = 0, minY = 0, maxX = 0, maxY = 0;
    shoal_player player;
    size_t total = 0;

    CHECK(shoal_world_create_from_file(scene, &world) == SHOAL_OK);
    CHECK(shoal_world_step(world, 40) == SHOAL_OK); /* past a reordering into cell order */
    CHECK(shoal_world_group_count(world, &groups) == SHOAL_OK && groups == 5);
    CHECK(shoal_world_bounds(world, &minX, &minY, &maxX, &maxY) == SHOAL_OK && minX < maxX &&
          minY < maxY);
    for (g = 0; g < groups; ++g) {
        size_t i = 0;
        CHECK(shoal_world_group_name(world, g, &name) == SHOAL_OK && name && *name);
        CHECK(shoal_world_group_index(world, name, &index) == SHOAL_OK && index == g);
        CHECK(shoal_world_group_kind(world, g, &kind) == SHOAL_OK);
        CHECK(strlen(shoal_kind_name(kind)) > 0);
        CHECK(shoal_world_agent_count(world, g, &n) == SHOAL_OK && n > 0);
        total += n;

        /* A null buffer asks for the size; a small one is refused with the size needed. */
        CHECK(shoal_world_poses(world, g, NULL, 0, &needed) == SHOAL_OK && needed == n);
        poses = (shoal_pose*)calloc(n, sizeof *poses);
        needed = 0;
        CHECK_FAILS(shoal_world_poses(world, g, poses, n - 1, &needed),
                    SHOAL_ERROR_BUFFER_TOO_SMALL, world, "needed");
        CHECK(needed == n);
        CHECK(poses[0].id == 0 && poses[0].x == 0.0f); /* nothing written */
        CHECK(shoal_world_poses(world, g, poses, n, &needed) == SHOAL_OK && needed == n);

        xs = (float*)calloc(n, sizeof *xs);
        ids = (uint32_t*)calloc(n, sizeof *ids);
        needed = 0;
        CHECK_FAILS(shoal_world_pose_arrays(world, g, xs, NULL, NULL, ids, n / 2, &needed),
                    SHOAL_ERROR_BUFFER_TOO_SMALL, world, "needed");
        CHECK(needed == n);
        CHECK(shoal_world_pose_arrays(world, g, xs, NULL, NULL, ids, n, &needed) == SHOAL_OK);
        for (i = 0; i < n; ++i) {
            CHECK(xs[i] == poses[i].x && ids[i] == poses[i].id);
            CHECK(isfinite(poses[i].x) && isfinite(poses[i].y) && isfinite(poses[i].heading));
            CHECK(poses[i].x >= minX && poses[i].x <= maxX);
            /* id -> index */
            CHECK(shoal_world_agent_index(world, g, poses[i].id, &index) == SHOAL_OK &&
                  index == (int)i);
        }
        CHECK_FAILS(shoal_world_agent_index(world, g, 4000000000u, &index), SHOAL_ERROR_NOT_FOUND,
                    world, "4000000000");
        CHECK(index == -1);
        free(ids);
        free(xs);
        free(poses);
    }
    CHECK(total > 80);

    /* Group indices out of range are codes, never a crash. */
    CHECK_FAILS(shoal_world_agent_count(world, groups, &n), SHOAL_ERROR_OUT_OF_RANGE, world,
                "no group 5");
    CHECK_FAILS(shoal_world_poses(world, -1, NULL, 0, &n), SHOAL_ERROR_OUT_OF_RANGE, world,
                "no group -1");
    CHECK_FAILS(shoal_world_group_name(world, 1000, &name), SHOAL_ERROR_OUT_OF_RANGE, world,
                "0 to 4");
    CHECK_FAILS(shoal_world_group_index(world, "nobody", &index), SHOAL_ERROR_NOT_FOUND, world,
                "nobody");
    CHECK_FAILS(shoal_world_poses(world, 0, NULL, 0, NULL), SHOAL_ERROR_INVALID_ARGUMENT, world,
                "count is null");
    CHECK_FAILS(shoal_world_step(world, -3), SHOAL_ERROR_INVALID_ARGUMENT, world, "-3");

    CHECK(shoal_world_player(world, &player) == SHOAL_OK);
    CHECK(player.enabled == 1 && player.group == 0); /* the demo's player leads the school */
    CHECK(shoal_world_poses(world, 0, NULL, 0, &n) == SHOAL_OK);
    poses = (shoal_pose*)calloc(n, sizeof *poses);
    CHECK(shoal_world_poses(world, 0, poses, n, &n) == SHOAL_OK);
    CHECK(poses[0].x == player.x && poses[0].y == player.y);
    free(poses);
    shoal_world_destroy(world);
}

/* The pointer, targets and parameters by key. */
static void testInput(const char* scene)
{
    shoal_world* world = NULL;
    int squad = -1;
    int swarm = -1;
    double value = 0.0;
    uint64_t before = 0;
    uint64_t after = 0;
    int school = -1;
    shoal_pose tank;
    uint32_t tankIds[16];
    size_t count = 0;

    CHECK(shoal_world_create_from_file(scene, &world) == SHOAL_OK);
    CHECK(shoal_world_group_index(world, "squad", &squad) == SHOAL_OK);
    CHECK(shoal_world_group_index(world, "swarm", &swarm) == SHOAL_OK);

    CHECK(shoal_world_set_pointer(world, 1.0f, 2.0f, 1) == SHOAL_OK);
    CHECK_FAILS(shoal_world_set_pointer(world, NAN, 2.0f, 0), SHOAL_ERROR_INVALID_ARGUMENT, world,
                "finite");
    CHECK(shoal_world_set_target(world, squad, 3.0f, 4.0f) == SHOAL_OK);
    CHECK_FAILS(shoal_world_set_target(world, swarm, 3.0f, 4.0f), SHOAL_ERROR_UNSUPPORTED, world,
                "swarm");

    /* Goals: for every goal-seeking family; one tank of a squad may have its own. */
    CHECK(shoal_world_group_index(world, "school", &school) == SHOAL_OK);
    CHECK(shoal_world_set_goal(world, swarm, 10.0f, -15.0f) == SHOAL_OK);
    CHECK(shoal_world_set_goal(world, squad, -20.0f, -15.0f) == SHOAL_OK);
    CHECK_FAILS(shoal_world_set_goal(world, school, 0.0f, 0.0f), SHOAL_ERROR_UNSUPPORTED, world,
                "fish school");
    CHECK_FAILS(shoal_world_set_goal(world, swarm, INFINITY, 0.0f), SHOAL_ERROR_INVALID_ARGUMENT,
                world, "finite");
    CHECK(shoal_world_poses(world, squad, &tank, 1, &count) == SHOAL_ERROR_BUFFER_TOO_SMALL);
    CHECK(shoal_world_pose_arrays(world, squad, NULL, NULL, NULL, tankIds, 16, &count) == SHOAL_OK);
    CHECK(shoal_world_set_agent_goal(world, squad, tankIds[1], -30.0f, 18.0f) == SHOAL_OK);
    CHECK(shoal_world_clear_agent_goal(world, squad, tankIds[1]) == SHOAL_OK);
    CHECK_FAILS(shoal_world_set_agent_goal(world, squad, 999999u, 0.0f, 0.0f),
                SHOAL_ERROR_NOT_FOUND, world, "999999");
    CHECK_FAILS(shoal_world_set_agent_goal(world, swarm, 1u, 0.0f, 0.0f), SHOAL_ERROR_UNSUPPORTED,
                world, "no goals of their own");
    CHECK(shoal_world_set_agent_goal(world, squad, tankIds[2], -30.0f, 18.0f) == SHOAL_OK);
    CHECK(shoal_world_clear_goal(world, swarm) == SHOAL_OK);

    CHECK(shoal_world_param(world, swarm, "speed", &value) == SHOAL_OK && value == 3.0);
    CHECK(shoal_world_set_param(world, swarm, "speed", 2.5) == SHOAL_OK);
    CHECK(shoal_world_param(world, swarm, "speed", &value) == SHOAL_OK && value == 2.5);
    CHECK_FAILS(shoal_world_set_param(world, swarm, "warpFactor", 9.0), SHOAL_ERROR_UNKNOWN_KEY,
                world, "warpFactor");
    CHECK(strstr(shoal_last_error(), "known: speed") != NULL); /* the keys it has */
    CHECK_FAILS(shoal_world_param(world, swarm, "warpFactor", &value), SHOAL_ERROR_UNKNOWN_KEY,
                world, "warpFactor");
    CHECK(strstr(shoal_world_last_error(world), "known: speed") != NULL);
    CHECK_FAILS(shoal_world_set_param(world, swarm, "speed", -1000.0), SHOAL_ERROR_REFUSED, world,
                "speed");
    CHECK_FAILS(shoal_world_set_param(world, swarm, "speed", NAN), SHOAL_ERROR_REFUSED, world,
                "speed");
    CHECK(shoal_world_param(world, swarm, "speed", &value) == SHOAL_OK && value == 2.5);
    CHECK_FAILS(shoal_world_set_param(world, 17, "speed", 1.0), SHOAL_ERROR_OUT_OF_RANGE, world,
                "no group 17");
    CHECK_FAILS(shoal_world_set_param(world, swarm, NULL, 1.0), SHOAL_ERROR_INVALID_ARGUMENT, world,
                "key is null");
    CHECK(shoal_world_set_player_param(world, "moveSpeed", 4.0) == SHOAL_OK);
    CHECK_FAILS(shoal_world_set_player_param(world, "jumpHeight", 1.0), SHOAL_ERROR_UNKNOWN_KEY,
                world, "jumpHeight");

    /* The input moves the world the next step. */
    CHECK(shoal_world_state_hash(world, &before) == SHOAL_OK);
    CHECK(shoal_world_step(world, 10) == SHOAL_OK);
    CHECK(shoal_world_state_hash(world, &after) == SHOAL_OK && after != before);
    shoal_world_destroy(world);
}

/* advance(): frames adding up to N steps give step(N)'s hash; interpolated poses. */
static void testAdvance(const char* scene, int steps, const char* expected)
{
    shoal_world* world = NULL;
    char hash[17];
    int taken = 0;
    int frameSteps = 0;
    float alpha = -1.0f;
    float dt = 0.0f;
    size_t n = 0;
    size_t i = 0;
    shoal_pose* now = NULL;
    shoal_pose* before = NULL;
    shoal_pose* halfway = NULL;
    shoal_pose* previous = NULL;
    shoal_pose* byId = NULL;

    CHECK(shoal_world_create_from_file(scene, &world) == SHOAL_OK);
    CHECK(shoal_world_dt(world, &dt) == SHOAL_OK);
    /* Frames of 0.4 and 1.6 steps: each pair is two steps. */
    while (taken + 2 <= steps) {
        CHECK(shoal_world_advance(world, 0.4 * dt, 8, &frameSteps, &alpha) == SHOAL_OK);
        taken += frameSteps;
        CHECK(alpha >= 0.0f && alpha < 1.0f);
        CHECK(shoal_world_advance(world, 1.6 * dt, 8, &frameSteps, &alpha) == SHOAL_OK);
        taken += frameSteps;
    }
    while (taken < steps) {
        CHECK(shoal_world_advance(world, dt, 8, &frameSteps, NULL) == SHOAL_OK);
        taken += frameSteps;
    }
    CHECK(taken == steps);
    formatHash(world, hash);
    if (strcmp(hash, expected) != 0) {
        ++g_failures;
        fprintf(stderr, "FAIL: advance: hash %s after %d steps, shoal-cli says %s\n", hash, steps,
                expected);
    }

    /* A hitch: at most max_steps, the rest dropped. */
    CHECK(shoal_world_advance(world, 1.0, 3, &frameSteps, &alpha) == SHOAL_OK && frameSteps == 3);
    CHECK(shoal_world_advance(world, 0.5 * dt, 3, NULL, &alpha) == SHOAL_OK);
    CHECK(alpha > 0.0f && alpha < 1.0f);

    /* Interpolated poses: 0 is before the last step, 1 now, between lies between. */
    CHECK(shoal_world_poses(world, 2, NULL, 0, &n) == SHOAL_OK && n > 0);
    now = (shoal_pose*)calloc(n, sizeof *now);
    before = (shoal_pose*)calloc(n, sizeof *before);
    halfway = (shoal_pose*)calloc(n, sizeof *halfway);
    previous = (shoal_pose*)calloc(n, sizeof *previous);
    byId = (shoal_pose*)calloc(n, sizeof *byId);
    CHECK(shoal_world_poses(world, 2, before, n, &n) == SHOAL_OK);
    CHECK(shoal_world_step(world, 1) == SHOAL_OK);
    CHECK(shoal_world_poses(world, 2, now, n, &n) == SHOAL_OK);
    CHECK(shoal_world_interpolated_poses(world, 2, 0.0f, previous, n, &n) == SHOAL_OK);
    CHECK(shoal_world_interpolated_poses(world, 2, 0.5f, halfway, n, &n) == SHOAL_OK);
    /* The step may have reordered the group: agents are matched by id (0 to n - 1 here). */
    for (i = 0; i < n; ++i)
        CHECK(before[i].id < n);
    for (i = 0; i < n; ++i)
        byId[before[i].id] = before[i];
    for (i = 0; i < n; ++i) {
        const shoal_pose was = byId[now[i].id];
        const float lowX = was.x < now[i].x ? was.x : now[i].x;
        const float highX = was.x < now[i].x ? now[i].x : was.x;
        CHECK(previous[i].id == now[i].id && halfway[i].id == now[i].id);
        CHECK(previous[i].x == was.x && previous[i].y == was.y);
        CHECK(halfway[i].x >= lowX && halfway[i].x <= highX);
    }
    CHECK(shoal_world_interpolated_poses(world, 2, 1.0f, halfway, n, &n) == SHOAL_OK);
    CHECK(memcmp(halfway, now, n * sizeof *now) == 0);
    CHECK_FAILS(shoal_world_interpolated_poses(world, 2, NAN, halfway, n, &n),
                SHOAL_ERROR_INVALID_ARGUMENT, world, "alpha");
    free(byId);
    free(previous);
    free(halfway);
    free(before);
    free(now);
    shoal_world_destroy(world);
}

/* Snapshots: a world restored from one continues with the editor's hashes. */
static void testSnapshot(const char* scene, int steps, const char* expected)
{
    shoal_world* world = NULL;
    shoal_world* other = NULL;
    unsigned char* bytes = NULL;
    size_t size = 0;
    size_t needed = 0;
    char hash[17];
    const int half = steps / 2;
    uint64_t stepCount = 0;

    CHECK(shoal_world_create_from_file(scene, &world) == SHOAL_OK);
    CHECK(shoal_world_step(world, half) == SHOAL_OK);
    CHECK(shoal_world_snapshot(world, NULL, 0, &size) == SHOAL_OK && size > 0);
    bytes = (unsigned char*)malloc(size);
    CHECK_FAILS(shoal_world_snapshot(world, bytes, size - 1, &needed), SHOAL_ERROR_BUFFER_TOO_SMALL,
                world, "needed");
    CHECK(needed == size);
    CHECK(shoal_world_snapshot(world, bytes, size, &needed) == SHOAL_OK && needed == size);

    /* On: the hash at the end is the CLI's. */
    CHECK(shoal_world_step(world, steps - half) == SHOAL_OK);
    formatHash(world, hash);
    CHECK(strcmp(hash, expected) == 0);

    /* Back to the middle, in the same world and in another built from the same scene. */
    CHECK(shoal_world_restore(world, bytes, size) == SHOAL_OK);
    CHECK(shoal_world_step_count(world, &stepCount) == SHOAL_OK && stepCount == (uint64_t)half);
    CHECK(shoal_world_step(world, steps - half) == SHOAL_OK);
    formatHash(world, hash);
    CHECK(strcmp(hash, expected) == 0);
    CHECK(shoal_world_create_from_file(scene, &other) == SHOAL_OK);
    CHECK(shoal_world_restore(other, bytes, size) == SHOAL_OK);
    CHECK(shoal_world_step(other, steps - half) == SHOAL_OK);
    formatHash(other, hash);
    CHECK(strcmp(hash, expected) == 0);

    /* Bytes that are not a snapshot, or cut short: refused, nothing changes. */
    CHECK_FAILS(shoal_world_restore(other, bytes, size / 2), SHOAL_ERROR_REFUSED, other,
                "shoal_world_restore");
    CHECK_FAILS(shoal_world_restore(other, "not a snapshot", 14), SHOAL_ERROR_REFUSED, other,
                "shoal_world_restore");
    CHECK_FAILS(shoal_world_restore(other, NULL, 10), SHOAL_ERROR_INVALID_ARGUMENT, other,
                "data is null");
    formatHash(other, hash);
    CHECK(strcmp(hash, expected) == 0);
    free(bytes);
    shoal_world_destroy(other);
    shoal_world_destroy(world);
}

/* Agents added, removed and moved; queries. */
static void testAgents(const char* scene)
{
    shoal_world* world = NULL;
    int swarm = -1;
    int worms = -1;
    int school = -1;
    int clear = 0;
    int index = 0;
    uint32_t id = 0;
    uint32_t id2 = 0;
    size_t before = 0;
    size_t n = 0;
    size_t count = 0;
    size_t i = 0;
    float heading = 1.0f;
    shoal_pose pose;
    shoal_agent_hit hits[4];
    shoal_agent_hit nearest;
    shoal_ray_hit ray;
    float minX = 0, minY = 0, maxX = 0, maxY = 0;

    CHECK(shoal_world_create_from_file(scene, &world) == SHOAL_OK);
    CHECK(shoal_world_bounds(world, &minX, &minY, &maxX, &maxY) == SHOAL_OK);
    CHECK(shoal_world_group_index(world, "swarm", &swarm) == SHOAL_OK);
    CHECK(shoal_world_group_index(world, "worms", &worms) == SHOAL_OK);
    CHECK(shoal_world_group_index(world, "school", &school) == SHOAL_OK);
    CHECK(shoal_world_agent_count(world, swarm, &before) == SHOAL_OK);

    /* Spawn where it is clear; refused where it is not. */
    CHECK(shoal_world_place_is_clear(world, swarm, 0.0f, 5.0f, &clear) == SHOAL_OK);
    if (!clear) {
        ++g_failures;
        fprintf(stderr, "FAIL: [0, 5] in the demo is not clear for the swarm\n");
    }
    CHECK(shoal_world_spawn_agent(world, swarm, 0.0f, 5.0f, 0.5f, &id) == SHOAL_OK);
    CHECK(shoal_world_agent_count(world, swarm, &n) == SHOAL_OK && n == before + 1);
    CHECK(shoal_world_agent_index(world, swarm, id, &index) == SHOAL_OK);
    CHECK(shoal_world_spawn_agent(world, swarm, 1.0f, 5.0f, 0.0f, &id2) == SHOAL_OK && id2 != id);
    CHECK(shoal_world_place_is_clear(world, swarm, maxX + 10.0f, 0.0f, &clear) == SHOAL_OK &&
          clear == 0);
    CHECK_FAILS(shoal_world_spawn_agent(world, swarm, maxX + 10.0f, 0.0f, 0.0f, &id2),
                SHOAL_ERROR_REFUSED, world, "bounds");
    CHECK_FAILS(shoal_world_spawn_agent(world, worms, 0.0f, 0.0f, 0.0f, &id2),
                SHOAL_ERROR_UNSUPPORTED, world, "worm");
    CHECK_FAILS(shoal_world_spawn_agent(world, swarm, NAN, 0.0f, 0.0f, &id2),
                SHOAL_ERROR_INVALID_ARGUMENT, world, "finite");
    CHECK_FAILS(shoal_world_spawn_agent(world, 99, 0.0f, 0.0f, 0.0f, &id2),
                SHOAL_ERROR_OUT_OF_RANGE, world, "no group 99");

    /* Queries find it. */
    CHECK(shoal_world_nearest_agent(world, 0.0f, 5.0f, ~0u, INFINITY, &nearest) == SHOAL_OK);
    CHECK(nearest.group == swarm && nearest.id == id && nearest.distance == 0.0f);
    CHECK(shoal_world_agents_within(world, 0.5f, 5.0f, 0.6f, ~0u, NULL, 0, &count) == SHOAL_OK);
    CHECK(count >= 2);
    CHECK_FAILS(shoal_world_agents_within(world, 0.0f, 0.0f, 1e6f, ~0u, hits, 4, &count),
                SHOAL_ERROR_BUFFER_TOO_SMALL, world, "needed");
    CHECK(count > 4);
    CHECK(shoal_world_agents_within(world, 0.5f, 5.0f, 0.6f, ~0u, hits, 4, &count) == SHOAL_OK);
    for (i = 0; i < count && i < 4; ++i)
        CHECK(hits[i].distance <= 0.6f);
    CHECK_FAILS(shoal_world_agents_within(world, 0.0f, 0.0f, -1.0f, ~0u, hits, 4, &count),
                SHOAL_ERROR_INVALID_ARGUMENT, world, "radius");
    CHECK_FAILS(shoal_world_nearest_agent(world, 0.0f, 0.0f, 0u, INFINITY, &nearest),
                SHOAL_ERROR_NOT_FOUND, world, "no agent");
    CHECK(shoal_world_ray_cast(world, 0.0f, 5.0f, maxX + 100.0f, 5.0f, &ray) == SHOAL_OK);
    CHECK(ray.hit == 1 && ray.fraction > 0.0f && ray.fraction <= 1.0f &&
          ray.x <= 16.0f); /* the wall at x = 16 */

    /* Moved, then removed. */
    CHECK(shoal_world_teleport_agent(world, swarm, id, 2.0f, 6.0f, &heading) == SHOAL_OK);
    CHECK(shoal_world_agent_index(world, swarm, id, &index) == SHOAL_OK);
    CHECK(shoal_world_poses(world, swarm, NULL, 0, &n) == SHOAL_OK);
    {
        shoal_pose* poses = (shoal_pose*)calloc(n, sizeof *poses);
        CHECK(shoal_world_poses(world, swarm, poses, n, &n) == SHOAL_OK);
        pose = poses[index];
        CHECK(pose.x == 2.0f && pose.y == 6.0f && pose.heading == 1.0f && pose.id == id);
        free(poses);
    }
    CHECK_FAILS(shoal_world_teleport_agent(world, swarm, id, 0.0f, 0.0f, NULL), SHOAL_ERROR_REFUSED,
                world, "obstacle");
    CHECK(shoal_world_teleport_agent(world, swarm, id, 3.0f, 6.0f, NULL) == SHOAL_OK);
    CHECK(shoal_world_step(world, 5) == SHOAL_OK);
    CHECK(shoal_world_despawn_agent(world, swarm, id) == SHOAL_OK);
    CHECK_FAILS(shoal_world_despawn_agent(world, swarm, id), SHOAL_ERROR_NOT_FOUND, world,
                "no agent with id");
    CHECK_FAILS(shoal_world_agent_index(world, swarm, id, &index), SHOAL_ERROR_NOT_FOUND, world,
                "no agent with id");
    CHECK_FAILS(shoal_world_teleport_agent(world, swarm, id, 2.0f, 6.0f, NULL),
                SHOAL_ERROR_NOT_FOUND, world, "no agent with id");
    CHECK_FAILS(shoal_world_despawn_agent(world, school, 0), SHOAL_ERROR_REFUSED, world, "player");
    CHECK(shoal_world_agent_count(world, swarm, &n) == SHOAL_OK && n == before + 1);
    CHECK(shoal_world_step(world, 5) == SHOAL_OK);
    shoal_world_destroy(world);
}

/* Events: off by default; on, each lies in the last step and names a real agent. */
static void testEvents(const char* scene)
{
    shoal_world* world = NULL;
    shoal_event events[256];
    size_t count = 0;
    size_t total = 0;
    size_t i = 0;
    int s = 0;
    int groups = 0;
    uint64_t stepCount = 0;
    shoal_event one;

    CHECK(shoal_world_create_from_file(scene, &world) == SHOAL_OK);
    CHECK(shoal_world_group_count(world, &groups) == SHOAL_OK);
    CHECK(shoal_world_step(world, 30) == SHOAL_OK);
    CHECK(shoal_world_events(world, NULL, 0, &count) == SHOAL_OK && count == 0);
    CHECK(shoal_world_set_events_enabled(world, 1) == SHOAL_OK);
    for (s = 0; s < 600; ++s) {
        CHECK(shoal_world_step(world, 1) == SHOAL_OK);
        CHECK(shoal_world_step_count(world, &stepCount) == SHOAL_OK);
        CHECK(shoal_world_events(world, NULL, 0, &count) == SHOAL_OK);
        if (count > 1)
            CHECK_FAILS(shoal_world_events(world, &one, 1, &count), SHOAL_ERROR_BUFFER_TOO_SMALL,
                        world, "needed");
        if (count > 256)
            continue;
        CHECK(shoal_world_events(world, events, 256, &count) == SHOAL_OK);
        for (i = 0; i < count; ++i) {
            int index = -1;
            CHECK(events[i].step == stepCount);
            CHECK(events[i].group >= 0 && events[i].group < groups);
            CHECK(events[i].kind >= SHOAL_EVENT_FISH_JOINED &&
                  events[i].kind <= SHOAL_EVENT_WALL_HIT);
            CHECK(events[i].kind != SHOAL_EVENT_COIN_EATEN || events[i].pickup >= 0);
            CHECK(shoal_world_agent_index(world, events[i].group, events[i].id, &index) ==
                  SHOAL_OK);
        }
        total += count;
    }
    CHECK(total > 0);
    shoal_world_destroy(world);
}

int main(int argc, char** argv)
{
    int steps = 0;
    if (argc != 5) {
        fprintf(stderr, "usage: test_capi SCENE STEPS EXPECTED_HASH WORK_DIR\n");
        return 2;
    }
    steps = atoi(argv[2]);
    testHashes(argv[1], steps, argv[3]);
    testErrors(argv[4]);
    testReading(argv[1]);
    testInput(argv[1]);
    testAdvance(argv[1], steps, argv[3]);
    testSnapshot(argv[1], steps, argv[3]);
    testAgents(argv[1]);
    testEvents(argv[1]);
    printf("test_capi: %d checks, %d failed\n", g_checks, g_failures);
    return g_failures == 0 ? 0 : 1;
}
