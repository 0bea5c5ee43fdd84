/* The C API of Shoal's runtime: a game written in C, or any language with a C foreign
 * function interface, loads a level saved by the editor and runs the same movement, bit for
 * bit (docs/embedding.md, "The C API"). Pure C99; no C++ type or exception crosses it.
 *
 * Conventions, for every function below:
 * - A world is an opaque handle (shoal_world*), made by shoal_world_create_from_file() or
 *   shoal_world_create_from_memory() and freed by shoal_world_destroy().
 * - Every function that can fail returns a shoal_status: SHOAL_OK, or a code saying what went
 *   wrong; its out-parameters are written only on SHOAL_OK, but for the buffer rule below
 *   and where its line says otherwise.
 *   A null handle or pointer, or a group or agent index out of range, is a code, never a
 *   crash; every C++ exception is caught inside.
 * - What went wrong, in words a user can act on (the file, the field, the allowed range), is
 *   kept twice: shoal_last_error() on the calling thread (the only place for a failed
 *   creation) and shoal_world_last_error() on the world. Both stay until the next failure
 *   that replaces them; a call that succeeds leaves them alone.
 * - Units: metres, seconds, radians (counter-clockwise from +x).
 * - Groups are numbered 0 to group count - 1 in scene order. An agent's index in its group
 *   is valid between two steps only (the world reorders some groups every 16th step, and a
 *   despawn moves those after it); its id never changes for the world's life.
 * - Buffers are the caller's. A function that fills one takes its capacity (in elements or
 *   bytes, as it says) and writes the number needed to *count (or *size): with a null buffer
 *   it only reports that number (SHOAL_OK); with a buffer too small it writes nothing and
 *   returns SHOAL_ERROR_BUFFER_TOO_SMALL.
 * - A world is not thread-safe: one thread at a time per world. Separate worlds may run on
 *   separate threads. */
#ifndef SHOAL_SHOAL_C_H
#define SHOAL_SHOAL_C_H

#include <shoal/export.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What a call did: SHOAL_OK, or why it did nothing. */
typedef enum shoal_status
{
    SHOAL_OK = 0,
    SHOAL_ERROR_INVALID_ARGUMENT = 1, /**< a null handle or pointer, a negative count, NaN */
    SHOAL_ERROR_IO = 2,               /**< the file cannot be read (missing, a folder, too big) */
    SHOAL_ERROR_PARSE = 3,            /**< the text is not a scene: JSON, a field, a rule */
    SHOAL_ERROR_OUT_OF_RANGE = 4,     /**< no group or agent with that index */
    SHOAL_ERROR_NOT_FOUND = 5,        /**< no group with that name, no agent with that id */
    SHOAL_ERROR_UNKNOWN_KEY = 6,      /**< no parameter with that key (the message lists them) */
    SHOAL_ERROR_REFUSED = 7,          /**< against a rule: range, place, snapshot's scene */
    SHOAL_ERROR_UNSUPPORTED = 8,      /**< not for this family (a worm's spawn, a fish's goal) */
    SHOAL_ERROR_BUFFER_TOO_SMALL = 9, /**< nothing written; *count or *size says what it needs */
    SHOAL_ERROR_OUT_OF_MEMORY = 10,   /**< an allocation failed; the world is as it was */
    SHOAL_ERROR_INTERNAL = 11         /**< a bug in Shoal: the message says where */
} shoal_status;

/** The behaviour families, as a scene file names them ("fishSchool", ...). */
typedef enum shoal_kind
{
    SHOAL_KIND_FISH_SCHOOL = 0,
    SHOAL_KIND_TANK_SQUAD = 1,
    SHOAL_KIND_SWARM = 2,
    SHOAL_KIND_LEADER_FOLLOW = 3,
    SHOAL_KIND_WORM = 4
} shoal_kind;

/** What happened to an agent in a step (shoal_world_events). */
typedef enum shoal_event_kind
{
    SHOAL_EVENT_FISH_JOINED = 0,   /**< a free fish joined the player's school */
    SHOAL_EVENT_COIN_EATEN = 1,    /**< a worm's head ate a coin (pickup: which) */
    SHOAL_EVENT_GOAL_REACHED = 2,  /**< a tank parked at the squad's target */
    SHOAL_EVENT_AGENT_BLOCKED = 3, /**< an agent stopped away from its goal for 2 s */
    SHOAL_EVENT_WALL_HIT = 4       /**< an agent met a wall or obstacle */
} shoal_event_kind;

/** A running world (opaque). */
typedef struct shoal_world shoal_world;

/** One agent's pose, with its id: what a game draws. */
typedef struct shoal_pose
{
    float x, y;    /**< position, m */
    float heading; /**< radians, counter-clockwise from +x */
    uint32_t id;   /**< stable for the world's life */
} shoal_pose;

/** The player (the pointer-steered agent), as the world runs it. */
typedef struct shoal_player
{
    int enabled;   /**< 0 when the scene has no player (then group is -1, the rest 0) */
    int group;     /**< the group it leads (it is that group's agent 0), or -1 */
    float x, y;    /**< position, m */
    float vx, vy;  /**< velocity, m/s */
    float heading; /**< radians */
    float speed;   /**< forward speed, m/s */
} shoal_player;

/** One thing that happened in a step, to one agent. */
typedef struct shoal_event
{
    shoal_event_kind kind;
    int group;     /**< the agent's group */
    uint32_t id;   /**< the agent's id */
    int pickup;    /**< SHOAL_EVENT_COIN_EATEN: the coin's index in the scene's pickups; else -1 */
    float x, y;    /**< where the agent is after the step, m (a coin: where the coin was) */
    uint64_t step; /**< the step count after the step it happened in */
} shoal_event;

/** An agent a query found. */
typedef struct shoal_agent_hit
{
    int group;      /**< its group */
    uint32_t id;    /**< its id */
    size_t index;   /**< its index in the group now (until the next step) */
    float distance; /**< from the query's point to the agent's centre, m */
} shoal_agent_hit;

/** What a ray cast against the level met. */
typedef struct shoal_ray_hit
{
    int hit;                  /**< 0: the segment reaches its end clear of the level */
    float x, y;               /**< where it first meets a wall, obstacle or the bounds, m */
    float normal_x, normal_y; /**< the surface's unit normal, toward the ray's start */
    float fraction;           /**< how far along the segment the hit lies, 0 to 1 */
} shoal_ray_hit;

/* --- Library ------------------------------------------------------------------------------ */

/// The linked library's version, "major.minor.patch" (static storage, never null).
SHOAL_API const char* shoal_version_string(void);
/// The linked library's version as major * 10000 + minor * 100 + patch.
SHOAL_API int shoal_version_number(void);
/// A code's name, "SHOAL_ERROR_IO" (static storage; "SHOAL_ERROR_UNKNOWN" for no code).
SHOAL_API const char* shoal_status_name(shoal_status status);
/// This thread's last failure message ("" before any); valid until its next failure.
SHOAL_API const char* shoal_last_error(void);
/// The family's scene-file key, "fishSchool" (static storage; "" for no kind).
SHOAL_API const char* shoal_kind_name(shoal_kind kind);

/* --- Creating and destroying -------------------------------------------------------------- */

/// Loads the scene file at `path` into a new *world (caller frees); IO or PARSE, *world null.
SHOAL_API shoal_status shoal_world_create_from_file(const char* path, shoal_world** world);
/// The same from `length` bytes of scene JSON (copied); `name` (null: "<memory>") starts errors.
SHOAL_API shoal_status shoal_world_create_from_memory(const char* json, size_t length,
                                                      const char* name, shoal_world** world);
/// Frees the world and all it handed out (names, messages); null does nothing.
SHOAL_API void shoal_world_destroy(shoal_world* world);
/// The world's last failure message ("" before any, or for null); valid until its next one.
SHOAL_API const char* shoal_world_last_error(const shoal_world* world);
/// How many warnings the build gave (a spawn area that placed fewer agents than it asks).
SHOAL_API shoal_status shoal_world_warning_count(const shoal_world* world, int* count);
/// Warning `index`'s message (owned by the world, valid for its life); OUT_OF_RANGE past them.
SHOAL_API shoal_status shoal_world_warning(const shoal_world* world, int index,
                                           const char** message);

/* --- Time --------------------------------------------------------------------------------- */

/// Advances `count` fixed steps of dt; INVALID_ARGUMENT for a negative count.
SHOAL_API shoal_status shoal_world_step(shoal_world* world, int count);
/// Steps a frame of `frame_seconds` (<= max_steps whole steps; alpha in [0, 1)); outs may be null.
SHOAL_API shoal_status shoal_world_advance(shoal_world* world, double frame_seconds, int max_steps,
                                           int* steps, float* alpha);
/// Keeps (non-zero) each pose from before the step, for interpolation; advance() turns it on.
SHOAL_API shoal_status shoal_world_set_keep_previous(shoal_world* world, int keep);
/// Runs each step on `threads` threads, the caller's included (0: one per core; at most 64;
/// 1 until asked). The results are those of one thread, bit for bit. INVALID_ARGUMENT outside
/// [0, 64]. Not during a step (one thread at a time calls a world).
SHOAL_API shoal_status shoal_world_set_threads(shoal_world* world, int threads);
/// The threads each step runs on.
SHOAL_API shoal_status shoal_world_threads(const shoal_world* world, int* threads);
/// Runs the neighbour scans `width` lanes at a time: 4, 8 where the machine has AVX2 (and the
/// runtime was built for x86-64 with GCC), or 0 for the widest (the default). The results are
/// the same bit for bit at any width. INVALID_ARGUMENT for another width or one this machine
/// cannot run. Not during a step.
SHOAL_API shoal_status shoal_world_set_lane_width(shoal_world* world, int width);
/// The lanes the neighbour scans run on (4 or 8).
SHOAL_API shoal_status shoal_world_lane_width(const shoal_world* world, int* width);
/// Steps taken since the world was built.
SHOAL_API shoal_status shoal_world_step_count(const shoal_world* world, uint64_t* steps);
/// Simulated time, s: the step count times dt.
SHOAL_API shoal_status shoal_world_time(const shoal_world* world, double* seconds);
/// The fixed step, s (the scene's dt, 1/60 by default).
SHOAL_API shoal_status shoal_world_dt(const shoal_world* world, float* seconds);
/// The 64-bit state hash; `shoal-cli run` prints it as "hash: %016" PRIx64.
SHOAL_API shoal_status shoal_world_state_hash(const shoal_world* world, uint64_t* hash);

/* --- Reading the world -------------------------------------------------------------------- */

/// The level's box, m; any pointer may be null.
SHOAL_API shoal_status shoal_world_bounds(const shoal_world* world, float* min_x, float* min_y,
                                          float* max_x, float* max_y);
/// How many groups the world runs.
SHOAL_API shoal_status shoal_world_group_count(const shoal_world* world, int* count);
/// Group `group`'s name (owned by the world, valid for its life).
SHOAL_API shoal_status shoal_world_group_name(const shoal_world* world, int group,
                                              const char** name);
/// Group `group`'s behaviour family.
SHOAL_API shoal_status shoal_world_group_kind(const shoal_world* world, int group,
                                              shoal_kind* kind);
/// The index of the group called `name`; NOT_FOUND when none is.
SHOAL_API shoal_status shoal_world_group_index(const shoal_world* world, const char* name,
                                               int* group);
/// How many agents group `group` has now.
SHOAL_API shoal_status shoal_world_agent_count(const shoal_world* world, int group, size_t* count);
/// Agent `id`'s index in its group now (constant time); NOT_FOUND, *index = -1, when none.
SHOAL_API shoal_status shoal_world_agent_index(const shoal_world* world, int group, uint32_t id,
                                               int* index);
/// The group's poses in index order into `poses` (`capacity` elements); *count = agents.
SHOAL_API shoal_status shoal_world_poses(const shoal_world* world, int group, shoal_pose* poses,
                                         size_t capacity, size_t* count);
/// The same into separate arrays of `capacity` elements, any of them null (all null: a query).
SHOAL_API shoal_status shoal_world_pose_arrays(const shoal_world* world, int group, float* x,
                                               float* y, float* heading, uint32_t* id,
                                               size_t capacity, size_t* count);
/// The poses `alpha` (0 to 1) of the way from before the last step to now, as advance() says.
SHOAL_API shoal_status shoal_world_interpolated_poses(const shoal_world* world, int group,
                                                      float alpha, shoal_pose* poses,
                                                      size_t capacity, size_t* count);
/// The player now (enabled = 0 and group = -1 when the scene has none).
SHOAL_API shoal_status shoal_world_player(const shoal_world* world, shoal_player* player);
/// The player's position `alpha` of the way from before the last step to now, m.
SHOAL_API shoal_status shoal_world_interpolated_player(const shoal_world* world, float alpha,
                                                       float* x, float* y);

/* --- Input and tuning --------------------------------------------------------------------- */

/// The pointer (m) and its button (non-zero: held), for the next step; finite numbers only.
SHOAL_API shoal_status shoal_world_set_pointer(shoal_world* world, float x, float y, int pressed);
/// Moves a tank squad's target to (x, y), m (as recorded input does); UNSUPPORTED for others.
SHOAL_API shoal_status shoal_world_set_target(shoal_world* world, int group, float x, float y);
/// Sends the group to (x, y), m, from the next step (every family but fish: UNSUPPORTED).
SHOAL_API shoal_status shoal_world_set_goal(shoal_world* world, int group, float x, float y);
/// Takes the group's goal away: a squad stops, a swarm chases, a leader wanders again.
SHOAL_API shoal_status shoal_world_clear_goal(shoal_world* world, int group);
/// Sends tank `id` of a squad to a goal of its own at (x, y), m; UNSUPPORTED for other families.
SHOAL_API shoal_status shoal_world_set_agent_goal(shoal_world* world, int group, uint32_t id,
                                                  float x, float y);
/// Sends tank `id` back to its squad's goal; NOT_FOUND for no such agent.
SHOAL_API shoal_status shoal_world_clear_agent_goal(shoal_world* world, int group, uint32_t id);
/// Sets the group's parameter `key` ("maxSpeed") for the next step; UNKNOWN_KEY or REFUSED.
SHOAL_API shoal_status shoal_world_set_param(shoal_world* world, int group, const char* key,
                                             double value);
/// The group's parameter `key` as the world runs it; UNKNOWN_KEY lists the keys it has.
SHOAL_API shoal_status shoal_world_param(const shoal_world* world, int group, const char* key,
                                         double* value);
/// Sets the player's parameter `key` ("moveSpeed"), as shoal_world_set_param() does.
SHOAL_API shoal_status shoal_world_set_player_param(shoal_world* world, const char* key,
                                                    double value);

/* --- Agents at run time ------------------------------------------------------------------ */

/// Adds an agent at rest at (x, y), m, facing `heading`, rad; *id = its new id. REFUSED: not clear.
SHOAL_API shoal_status shoal_world_spawn_agent(shoal_world* world, int group, float x, float y,
                                               float heading, uint32_t* id);
/// Whether (non-zero) a body of the group fits at (x, y), m: in the bounds, clear of the level.
SHOAL_API shoal_status shoal_world_place_is_clear(const shoal_world* world, int group, float x,
                                                  float y, int* clear);
/// Removes agent `id`; NOT_FOUND for no such agent, REFUSED for the player.
SHOAL_API shoal_status shoal_world_despawn_agent(shoal_world* world, int group, uint32_t id);
/// Moves agent `id` to (x, y), m, at rest, facing *heading (null: as it faced); as spawn's rules.
SHOAL_API shoal_status shoal_world_teleport_agent(shoal_world* world, int group, uint32_t id,
                                                  float x, float y, const float* heading);

/* --- Queries ------------------------------------------------------------------------------ */

/// Agents within `radius` m of (x, y), of groups whose layers meet `layer_mask` (~0u: all).
SHOAL_API shoal_status shoal_world_agents_within(const shoal_world* world, float x, float y,
                                                 float radius, uint32_t layer_mask,
                                                 shoal_agent_hit* hits, size_t capacity,
                                                 size_t* count);
/// The agent nearest (x, y) within `max_distance` m (INFINITY: anywhere); NOT_FOUND if none.
SHOAL_API shoal_status shoal_world_nearest_agent(const shoal_world* world, float x, float y,
                                                 uint32_t layer_mask, float max_distance,
                                                 shoal_agent_hit* hit);
/// The segment (from_x, from_y) to (to_x, to_y), m, against walls, obstacles and bounds.
SHOAL_API shoal_status shoal_world_ray_cast(const shoal_world* world, float from_x, float from_y,
                                            float to_x, float to_y, shoal_ray_hit* hit);

/* --- Events ------------------------------------------------------------------------------- */

/// Reports events (non-zero) from the next step on; off by default, and costs nothing then.
SHOAL_API shoal_status shoal_world_set_events_enabled(shoal_world* world, int enabled);
/// The last step's (or last advance's) events, in order, into `events`; *count = how many.
SHOAL_API shoal_status shoal_world_events(const shoal_world* world, shoal_event* events,
                                          size_t capacity, size_t* count);

/* --- Snapshots ---------------------------------------------------------------------------- */

/// The running state as bytes into `buffer` (`capacity` bytes); *size = bytes it needs.
SHOAL_API shoal_status shoal_world_snapshot(const shoal_world* world, void* buffer, size_t capacity,
                                            size_t* size);
/// Puts back a snapshot of a world of the same scene; REFUSED (nothing changes) if it is not.
SHOAL_API shoal_status shoal_world_restore(shoal_world* world, const void* data, size_t size);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SHOAL_SHOAL_C_H */
