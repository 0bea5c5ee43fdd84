#pragma once
/// The running simulation built from a SceneDesc: agents per group (structure of arrays),
/// static geometry, the player and the pickups, advanced in fixed steps.

#include <shoal/expected.h>
#include <shoal/export.h>
#include <shoal/inspection.h>
#include <shoal/metrics.h>
#include <shoal/scenedesc.h>
#include <shoal/sketch.h>
#include <shoal/worldframe.h>
#include <shoal/worldstate.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace shoal {

class Group;
class StaticGeometry;
struct StepContext;
class GroupMeter;
class BodyPass;
class WorkerPool;
class FlowField;
class UniformGrid;
struct WorldAccess;

/// Something the world noticed while it was built that its user should hear of: the build
/// went on without it (a spawn area that could place fewer agents than it asks for).
struct SHOAL_API WorldWarning
{
    int group = -1;      ///< the group it concerns (-1: the level)
    std::string message; ///< "groups[1] 'swarm': its spawn area ... placed 0 of 20 agents: ..."
};

/// One agent a query found (World::agentsWithin, nearestAgent).
struct SHOAL_API AgentHit
{
    int group = -1;        ///< the group's index
    std::uint32_t id = 0;  ///< AgentArrays::id: stable
    std::size_t index = 0; ///< where it is in the group's arrays now (until the next step)
    float distance = 0.0f; ///< from the query's point to the agent's centre, m
};

/// What a ray cast against the level hit (World::rayCast).
struct SHOAL_API LevelHit
{
    bool hit = false;      ///< false: the segment reaches its end clear of the level
    Vec2 point;            ///< where it first meets a wall, obstacle or the bounds, m
    Vec2 normal;           ///< unit, the surface's normal toward the ray's start
    float fraction = 1.0f; ///< how far along from -> to the hit lies, 0 to 1
};

/// What happened to an agent in a step (World::events()).
enum class WorldEventKind : std::uint8_t
{
    FishJoined,   ///< a free fish joined the player's school (AgentFlag kAgentInSchool set)
    CoinEaten,    ///< a worm's head ate a coin (pickup: which; the worm grows)
    GoalReached,  ///< a tank parked at the squad's target (kAgentArrived set)
    AgentBlocked, ///< an agent came to a stop away from its goal for 2 s (kAgentStuck set)
    WallHit,      ///< an agent met a wall or obstacle: geometry shortened its move, after a
                  ///< step that it did not (kAgentBlocked set)
};

/// One thing that happened in a step, to one agent.
struct SHOAL_API WorldEvent
{
    WorldEventKind kind = WorldEventKind::WallHit;
    int group = -1;         ///< the agent's group
    std::uint32_t id = 0;   ///< the agent (AgentArrays::id)
    int pickup = -1;        ///< CoinEaten: the coin's index in World::pickups(); else -1
    Vec2 position;          ///< where the agent is after the step, m (CoinEaten: the coin's)
    std::uint64_t step = 0; ///< stepCount() after the step it happened in
};

/// The running simulation. Build it from a scene, feed it input as data, step it; read the
/// groups, the player and the pickups between steps. Everything it needs to plan (families,
/// neighbour grids, SIMD kernels, Box2D) is private to the library.
class SHOAL_API World
{
public:
    /// Validates the scene and builds a world from it. Same scene -> same world, bit for bit.
    /// (A scene validated already, as a loaded file is, is built through WorldAccess without
    /// a second check.)
    static Expected<std::unique_ptr<World>> create(const SceneDesc& scene);
    /// Builds a world from a scene checked already (a loader's result, checkScene()): it is
    /// not validated again.
    static std::unique_ptr<World> create(const CheckedScene& scene);
    ~World();

    /// What the build could not do as the scene asks (validate --strict refuses these).
    const std::vector<WorldWarning>& warnings() const { return m_warnings; }

    /// Advances one fixed step: every behaviour plans from the current state, then all
    /// agents commit at once; then metrics.
    void step();
    void step(int count);

    /// What advance() did with a frame.
    struct FrameAdvance
    {
        int steps = 0;      ///< fixed steps taken
        float alpha = 0.0f; ///< how far into the next step the frame ends, in [0, 1)
        /// Time the frame brought beyond maxSteps steps, dropped (s): after a hitch the
        /// world catches up no more than maxSteps steps, instead of running ever further
        /// behind.
        double droppedSeconds = 0.0;
    };
    /// The fixed-step loop for a game whose frames vary: adds `frameSeconds` to the time
    /// earlier calls left over and takes as many whole steps of dt() as it holds, at most
    /// `maxSteps`. The movement is that of step(): frames adding up to N steps' time give
    /// step(N)'s hash. Turns setKeepPrevious on, so a game draws each agent at
    /// interpolatedPosition(group, i, alpha). A negative or non-finite frame counts as 0.
    FrameAdvance advance(double frameSeconds, int maxSteps = 8);
    /// Keep each agent's pose from before the last step in AgentArrays::prevX, prevY and
    /// prevHeading (and the player's), for interpolation; off by default (the copy costs a
    /// little at every step). Turning it on notes the current poses as the previous ones.
    void setKeepPrevious(bool keep);
    bool keepsPrevious() const { return m_keepPrevious; }
    /// Agent i of `group` drawn `alpha` (0 to 1) of the way from its pose before the last
    /// step to its pose now (the current pose while previous poses are not kept).
    Vec2 interpolatedPosition(int group, std::size_t i, float alpha) const;
    /// Its heading the same way, along the shorter turn, radians in (-pi, pi].
    float interpolatedHeading(int group, std::size_t i, float alpha) const;
    /// The player's position the same way.
    Vec2 interpolatedPlayerPosition(float alpha) const;

    // Input as data: the editor, the CLI and a replayed script all call these.
    /// Pointer position (m) and button state; drives the player and steers worms.
    void setPointer(Vec2 position, bool pressed);
    /// Moves a tank squad's target. Returns false when `group` is not a squad (recorded
    /// input replays as it was recorded: setGoal() is the call for every family).
    bool setTarget(int group, Vec2 position);
    /// Sends a group to `position` (m), for every goal-seeking family: a tank squad parks
    /// round it (as setTarget); a swarm seeks it instead of the player or the group it
    /// chases (round walls on its flow field); a leader-follow group's leader (unless the
    /// player leads it) arrives there instead of wandering, its followers behind; every worm
    /// heads there as for a released pointer, until its head arrives (a held pointer still
    /// leads worms). Nothing (std::nullopt) takes the goal away: a squad stops where it is,
    /// a swarm chases again, a leader wanders again, worms under way finish their trip.
    /// Takes effect on the next step (a squad's and a swarm's goal() then reads it back).
    /// False for an unknown group or a fish school (it follows the player).
    bool setGoal(int group, std::optional<Vec2> position);
    /// Sends agent `id` of a tank squad to a goal of its own, `position` (m), or back to
    /// the squad's (std::nullopt): it drives there straight, its feelers keeping it off walls
    /// (no flow field) and keeping apart from its squad mates as on the way to a spot, and
    /// parks inside arriveDistance of it; the rest of the squad goes on as before. Refused
    /// for other families, unknown groups and ids.
    std::optional<Error> setAgentGoal(int group, std::uint32_t id, std::optional<Vec2> position);

    /// Replaces the static geometry (bounds, walls, obstacles) with the scene's, keeping every
    /// agent where it is: the editor paints walls into a running world. Refused (nothing
    /// changes) when the scene is not valid.
    std::optional<Error> replaceGeometry(const SceneDesc& scene);
    /// Same for a scene checked already: never refused.
    void replaceGeometry(const CheckedScene& scene);

    /// Changes parameter `index` (paramSpecs(kind) order) of a group on the running world; it
    /// takes effect on the next step. Checked by checkParamEdit(): refuses (and changes
    /// nothing) an unknown index, a value out of its range or one that breaks a rule between
    /// parameters.
    std::optional<Error> setParam(int group, int index, double value);
    /// The same by key (the CLI's --set, games): the key is resolved once, then as above.
    std::optional<Error> setParam(int group, const std::string& key, double value);
    /// Every parameter of `group` at once (paramSpecs order), as a preset or a reset to the
    /// defaults sets them: each value checked, then the family's rules on the new set
    /// together, so no rule is checked against a half-applied set. Refused: nothing changes.
    std::optional<Error> setParams(int group, const ParamValues& values);
    /// The same for the player's table (playerParamSpecs() order), by index or by key.
    std::optional<Error> setPlayerParam(int index, double value);
    std::optional<Error> setPlayerParam(const std::string& key, double value);
    double param(int group, const std::string& key) const;
    /// The player's parameter `key` as the world runs it (0 for a key it does not have).
    double playerParam(const std::string& key) const;
    /// Changes how a group's bodies meet other bodies (its layers, mask and priority) on the
    /// running world; it takes effect on the next step, and every agent stays where it is.
    /// Refuses (and changes nothing) an unknown group or a priority outside 0 to
    /// kMaxCollisionPriority.
    std::optional<Error> setCollision(int group, const CollisionDesc& collision);
    /// The group's collision rule as the world runs it.
    const CollisionDesc& collision(int group) const;

    /// 64-bit hash of every agent's state, the player, pickups and the step count.
    std::uint64_t stateHash() const;

    // Agents added, removed and moved at run time. Each call is deterministic (the same
    // calls at the same steps give the same hashes), touches no other agent's state, and
    // takes effect in the next step; indices may change, ids never do.

    /// Adds an agent to `group` at `position` (m) facing `heading` (radians), at rest (a
    /// fish joins the school as a member). Returns its id: a new one, never used before in
    /// this world's life. Refused (nothing changes): an unknown group, a worm group (a worm's
    /// body is the path its head took), or a place that is not placeIsClear() (the game
    /// picks a clear one). Bodies of agents may overlap it: the next step's body pass parts
    /// them.
    Expected<std::uint32_t> spawnAgent(int group, Vec2 position, float heading);
    /// Whether a body of `group` fits at `position` (m): inside the bounds, its centre in no
    /// obstacle and the body touching no wall or obstacle (agents are not looked at).
    bool placeIsClear(int group, Vec2 position) const;
    /// Removes agent `id` of `group` (the agents after it move down one index). Refused: an
    /// unknown group or id, a worm group, or the player (agent 0 of the group it leads).
    /// Removing a leader-follow group's agent 0 makes the next agent the leader.
    std::optional<Error> despawnAgent(int group, std::uint32_t id);
    /// Moves agent `id` of `group` to `position` (m), at rest, facing `heading` (radians)
    /// or as it faced; it starts afresh from there (a parked tank drives to its spot again,
    /// a free fish waits at its new place), and is drawn there without a streak. Refused
    /// like spawnAgent's place, and for worms and the player.
    std::optional<Error> teleportAgent(int group, std::uint32_t id, Vec2 position,
                                       std::optional<float> heading = std::nullopt);

    // Queries between steps: they read the state as the last step (or call) left it.

    /// Every agent whose centre lies within `radius` m of `centre`, of the groups whose
    /// collision layers meet `layerMask` (CollisionDesc::layers & layerMask; ~0u: every
    /// group), appended to `out` in group order, then index order; how many were added. The
    /// player counts as agent 0 of the group it leads. Uses the groups' neighbour grids.
    std::size_t agentsWithin(Vec2 centre, float radius, std::uint32_t layerMask,
                             std::vector<AgentHit>& out) const;
    /// The agent nearest `point` among those groups, no further than `maxDistance` m
    /// (infinity: anywhere); nothing when there is none. A tie goes to the lower group, then
    /// the lower id.
    std::optional<AgentHit> nearestAgent(Vec2 point, std::uint32_t layerMask = ~0u,
                                         float maxDistance = INFINITY) const;
    /// The segment from `from` to `to` (m) against the level's walls, obstacles and bounds
    /// (not agents): the first surface it meets.
    LevelHit rayCast(Vec2 from, Vec2 to) const;

    // Events: what happened in the last step (or the steps of the last advance()).

    /// Turns event reporting on (off by default: a world nobody asks costs nothing more).
    void setEventsEnabled(bool enabled);
    bool eventsEnabled() const { return m_eventsEnabled; }
    /// The events of the last step(), or of all the steps the last advance() took, in the
    /// order they happened: by step, then group, then agent index, then kind. Cleared when
    /// the next step() or advance() begins. Empty while events are off.
    const std::vector<WorldEvent>& events() const { return m_events; }

    // Snapshots (replays, rollback, the editor's timeline).

    /// The version of the bytes snapshot() writes; restore() reads it and the older ones
    /// down to kOldestSnapshotVersion, and no newer. 2 added how far each route's flow field
    /// had searched (a version 1 snapshot restores its routes over the whole level, as the
    /// runtime that wrote it kept them); 3 the route searches running in slices and the
    /// squads' spots laid out before their route landed.
    static constexpr std::uint32_t kSnapshotVersion = 3;
    static constexpr std::uint32_t kOldestSnapshotVersion = 1;
    /// The running state as bytes: every agent (ids, flags, worm bodies), the player, the
    /// pickups, the pointer, parameters, targets, the families' own state and what advance()
    /// had left over. restore() of them, into this world or into another built from the same
    /// scene, continues with the same stateHash() at every later step given the same input.
    /// In the machine's byte order (the header says which); a few tens of bytes per agent.
    std::vector<std::uint8_t> snapshot() const;
    /// Puts back the state that snapshot() wrote (of this world, or of one built from the
    /// same scene). Refused, with nothing changed, when the bytes are not a snapshot, are cut
    /// short or damaged (a checksum covers them), are of a newer format or another byte
    /// order, or belong to another scene (its groups, kinds, pickups, player, seed, dt or
    /// level); the Error says which. Metrics, the inspected agent and the neighbour search
    /// are the viewer's, not part of a snapshot: they stay as they are.
    std::optional<Error> restore(const std::uint8_t* data, std::size_t size);
    std::optional<Error> restore(const std::vector<std::uint8_t>& bytes)
    {
        return restore(bytes.data(), bytes.size());
    }

    int groupCount() const { return static_cast<int>(m_groups.size()); }
    const GroupState& group(int index) const;
    /// Where agent `id` (AgentArrays::id) of `group` is in the group's arrays now, or -1 when
    /// there is no such group or agent; constant time. An agent keeps its id for the world's
    /// life, but not its index: every 16th step the world stores the school, squad and swarm
    /// groups in cell order (agent 0, the player or a leader, stays first), so an index read
    /// before a step may name another agent after it. Match agents between steps by id, or
    /// look them up here; between two steps every index stays put.
    int agentIndex(int group, std::uint32_t id) const;
    int groupIndex(const std::string& name) const;
    const PlayerState& player() const { return m_player; }
    const PointerInput& pointer() const { return m_pointer; }
    const std::vector<PickupState>& pickups() const { return m_pickups; }
    /// The level's box (the scene's bounds), m.
    Vec2 boundsMin() const;
    Vec2 boundsMax() const;
    /// Body radius of a group's agents, m.
    float bodyRadius(int group) const;
    /// How deep a disc of `radius` at `p` lies in a wall or obstacle, m (0: clear of them).
    float bodyWallOverlap(Vec2 p, float radius) const;
    std::size_t agentCount() const;

    std::uint64_t stepCount() const { return m_step; }
    double time() const { return static_cast<double>(m_step) * m_dt; }
    float dt() const { return m_dt; }
    std::uint64_t seed() const { return m_seed; }

    /// Metrics of the last step (computed when enabled; the bench turns them off).
    void setMetricsEnabled(bool enabled) { m_metricsEnabled = enabled; }
    bool metricsEnabled() const { return m_metricsEnabled; }
    /// Measure only every `steps`-th step (1, the default: every step). A viewer plotting
    /// ten samples a second need not pay for sixty; what lasts over steps (how long a body
    /// has overlapped) counts the time since the last measure. Wall crossings and stuck
    /// times are counted at every step regardless. Measuring never changes the movement.
    void setMetricsEvery(int steps) { m_metricsEvery = steps > 1 ? steps : 1; }
    int metricsEvery() const { return m_metricsEvery; }
    /// The step the group metrics were last measured at.
    std::uint64_t metricsStep() const { return m_metricsStep; }

    /// Reports what agent `id` (AgentArrays::id) of `group` wants, rule by rule, at every
    /// step from now on (<shoal/inspection.h>); a group of -1 stops. Costs nothing otherwise.
    void setInspected(int group, std::uint32_t id);
    /// The inspected agent's rules as its family weighed them in the last step.
    const Inspection& inspection() const { return m_inspection; }

    /// Grid (default) or the brute-force reference, for the bench and tests.
    void setNeighbourSearch(NeighbourSearch search) { m_search = search; }

    /// Runs each step on `threads` threads, this one included (0: one per core this machine
    /// runs at once, at most kMaxThreads). The families' plans, the wall rule and the commit
    /// are cut into parts by agent count alone and the threads share them, so the results
    /// are bit for bit those of one thread. A runtime choice, not a scene's: 1 until asked (a
    /// game with cores to spare asks). Returns false, changing nothing, for a count outside
    /// [0, kMaxThreads]. Not to be called during a step.
    bool setThreads(int threads);
    /// The threads a step runs on.
    int threads() const;
    static constexpr int kMaxThreads = 64;
    /// The lane kernels this build's step runs on: "sse2x4" (SSE2, four floats at a time)
    /// or "portable4" (four-element arrays, the same bits on any machine).
    static const char* laneKernels();
    /// The widest lanes the neighbour scans can run on here: 8 where this build has its
    /// AVX2 kernels (x86-64, GCC) and the machine runs AVX2, else 4.
    static int widestLanes();
    /// Runs the neighbour scans `width` lanes at a time: 4, 8 (when widestLanes() is 8), or
    /// 0 for the widest. Every width gives the same state, bit for bit: a runtime choice
    /// like the threads (the widest until asked). Returns false, changing nothing, for a
    /// width this machine or build cannot run. Not to be called during a step.
    bool setLaneWidth(int width);
    /// The lanes the neighbour scans run on.
    int laneWidth() const { return m_laneWidth; }

    // What the families show a viewer (<shoal/sketch.h>): the editor draws these and never
    // needs to know a family.

    /// The family's own debug drawing of `group` for the view in `request` (appended to out).
    void sketch(int group, const SketchRequest& request, Sketch& out) const;
    /// The wall feelers of up to `budget` agents of `group` on screen, cast as the family
    /// casts them: rays, hit points and surface normals. Returns how many agents it drew.
    int sketchFeelers(int group, const SketchRequest& request, int budget, Sketch& out) const;
    /// Where the group heads, when it heads for one point (a squad's target, a swarm's prey).
    std::optional<Vec2> goal(int group) const;
    /// What an agent is doing, in a word or two ("making room", "parked", "free").
    const char* agentState(int group, std::size_t agent) const;
    /// The bodies of the group's agents when they are longer than a disc (worms), else null.
    const AgentBodies* bodies(int group) const;
    /// The group's neighbour grid as last built, and how many agents sit in a cell of it.
    GridSketch gridSketch(int group) const;
    std::uint32_t gridCellCount(int group, int cell) const;

    /// Copies what a viewer draws into `out` (<shoal/worldframe.h>), reusing its arrays:
    /// the copy can be drawn while this world steps on, on another thread. Worms' ribbon
    /// edges only with `outlines` (FrameBodies::assign).
    void copyFrame(WorldFrame& out, bool outlines = true) const;

    /// Bytes held for agents (state, grids, behaviour state): the bench's bytes per agent.
    std::size_t memoryBytes() const;

private:
    friend struct WorldAccess; // the runtime's own tests and tools (src/world/worldaccess.h)
    World() = default;
    /// What a family may read: the world as the next step plans from it (no pickups).
    StepContext context() const;
    /// create() and replaceGeometry() after the check: `scene` has passed validateScene().
    static std::unique_ptr<World> createValidated(const SceneDesc& scene);
    void replaceGeometryValidated(const SceneDesc& scene);
    void planPlayer();
    /// The solid-body rules of every group as they stand (radii follow parameter edits).
    void updateBodyRules();
    /// At build: parts the bodies a spawn area placed overlapping, before the first step.
    void settleBodies();
    /// After the body pass: `player` takes the place the pass left it (it gives way to bodies
    /// that cannot move), its velocity the move from `from`.
    void takePlayerFromBodies(PlayerState& player, Vec2 from);
    /// The player as a body of its own: when it is on and leads no group.
    bool playerIsLoneBody() const { return m_player.enabled && m_player.group < 0; }
    float playerRadius() const;
    /// Whether some group may meet bodies other than its own (then families look for them).
    bool bodiesMeetOthers() const;
    /// `committedMoved`, when given: the step's body pass just ran and no agent has been
    /// reordered since; one flag per body (group order) for those the commit may have moved
    /// after it (BodyPass::index).
    void indexBodies(const std::uint8_t* committedMoved = nullptr);
    /// Every planned agent of the group kept clear of the walls (before the body pass);
    /// clearAgain[i] says whether the commit must keep agent i clear again (the rule moved
    /// it), clearFrom[i] is the clearance where it starts (left alone when the group's plan
    /// left its own: the commit reads those).
    /// Of the agents in [begin, end) (in cell order where the group's clearances are looked
    /// up here, by index where its plan left them).
    void keepGroupClear(Group& group, float radius, std::uint8_t* clearAgain, float* clearFrom,
                        std::size_t begin, std::size_t end);
    /// What committing a range of a group's agents found: its wall crossings and the first
    /// (the least key: cell and index, or place in cell order), for the group's metrics.
    struct CommitPart
    {
        int crossings = 0;
        std::uint64_t firstKey = ~std::uint64_t{0};
        std::size_t first = 0; ///< the agent
    };
    /// The step's plans of agents [begin, end) readied to become the state: agents with
    /// clearAgain[i] set are kept clear of the walls once more, crossings are looked for and
    /// stuck times kept. clearFrom holds the clearances where the agents start.
    CommitPart commitRange(Group& group, float radius, const std::uint8_t* clearAgain,
                           const float* clearFrom, std::size_t begin, std::size_t end);
    /// commitRange without the start clearances: agents [begin, end) in cell order, each
    /// looking its clearance up.
    CommitPart commitRangeInOrder(Group& group, float radius, const std::uint8_t* clearAgain,
                                  std::size_t begin, std::size_t end);
    /// The plans become the group's state; its metrics tell the crossings of `whole` (its
    /// ranges' together).
    void finishCommit(Group& group, const CommitPart& whole);
    /// Cuts every group into ranges of at most m_partAgents agents (m_ranges) and the ranges
    /// into blocks for the threads (m_rangeBlocks), by agent counts alone.
    void cutRanges();
    /// Runs job(t, worker) for every range t of m_ranges, on the step's threads when there
    /// are several, asking for each next range's arrays as `arrays` does.
    template <class Job, class Arrays> void forEachRangeShared(Job&& job, Arrays&& arrays);
    /// The groups' grids (every few steps their agents reordered, unless `mayReorder` is
    /// false) and the body index; `committedMoved` as indexBodies() takes it, at the end of a
    /// step.
    void rebuildIndexes(const std::uint8_t* committedMoved = nullptr, bool mayReorder = true);
    /// What snapshot() checks a snapshot against: the scene's groups, pickups, player, seed
    /// and dt (m_sceneIdentity) and its level (m_levelIdentity), hashed at build.
    void noteSceneIdentity(const SceneDesc& scene);
    void noteLevelIdentity(const SceneDesc& scene);
    /// Why an agent of `group` may not be placed at `position` (spawnAgent, teleportAgent).
    std::optional<Error> checkPlace(int group, Vec2 position) const;
    /// After agents joined, left or jumped: ids to indices, the grids and the body index.
    void agentsChanged(Group& group);
    /// Events: what the step's start looked like, and what changed by its end.
    void noteBeforeStep();
    void gatherEvents();
    void computeAllMetrics();
    /// Phase 1 of a step: every group's plan (on the step's threads when there are several).
    void planGroups(StepContext& ctx);
    /// Runs job(g, worker) for every group g, on the step's threads when there are several: the
    /// groups in blocks of about kPlanPartAgents agents (cut by size alone), each block's in
    /// order with their arrays asked for ahead as `arrays` does (forEachGroupPrefetched).
    template <class Job, class Arrays> void forEachGroupShared(Job&& job, Arrays&& arrays);

    std::vector<WorldWarning> m_warnings;
    std::unique_ptr<StaticGeometry> m_geometry;
    std::vector<std::unique_ptr<Group>> m_groups;
    std::vector<PickupState> m_pickups;
    PlayerState m_player;
    PlayerState m_playerNext;
    ParamValues m_playerValues;
    PointerInput m_pointer;
    float m_dt = 1.0f / 60.0f;
    std::uint64_t m_seed = 1;
    std::uint64_t m_step = 0;
    bool m_metricsEnabled = true;
    int m_metricsEvery = 1;
    std::uint64_t m_metricsStep = 0;
    Inspection m_inspection;
    NeighbourSearch m_search = NeighbourSearch::Grid;
    int m_laneWidth = widestLanes();
    bool m_indexesDirty = true;
    bool m_keepPrevious = false;
    Vec2 m_playerPrevious;
    double m_frameTime = 0.0;          ///< what advance() has not stepped yet, s
    std::uint64_t m_sceneIdentity = 0; ///< see noteSceneIdentity
    std::uint64_t m_levelIdentity = 0;
    bool m_eventsEnabled = false;
    bool m_advancing = false; ///< step() inside advance(): events gather over its steps
    std::vector<WorldEvent> m_events;
    std::vector<std::uint8_t> m_takenBefore; ///< per pickup, taken where the step began
    /// Reordering agents into cell order (every kReorderInterval steps): each thread's scratch.
    struct ReorderScratch
    {
        std::vector<std::uint32_t> order;
        std::vector<float> values;
        std::vector<std::uint32_t> ids;
        std::vector<std::uint8_t> flags;
    };
    std::vector<ReorderScratch> m_reorderScratch;
    /// The groups the player leads, noted as the step plans them.
    std::vector<std::size_t> m_playerLedGroups;
    /// Per body (every group's agents in order): the commit keeps it clear of the walls
    /// again, as the first rule or the body pass moved it since its plan.
    std::vector<std::uint8_t> m_clearAgain;
    std::vector<float> m_clearFrom;      ///< per body: the clearance where it starts the step
    std::unique_ptr<GroupMeter> m_meter; ///< measures the groups after each step
    std::unique_ptr<BodyPass> m_bodies;  ///< bodies solid across groups, and their metrics
    std::unique_ptr<WorkerPool> m_pool;  ///< the step's threads beside this one (null: none)
    /// Each group's first body among every group's (m_clearAgain's places), and the count last.
    std::vector<std::size_t> m_bodyOffset;
    /// The plan's parts as the step's threads take them: (group, part) in order, and the
    /// blocks they are cut into (each block's first task; the count last).
    std::vector<std::pair<std::uint32_t, std::uint32_t>> m_planTasks;
    std::vector<std::size_t> m_planBlocks;
    /// The route fields this step's groups aimed at new goals (Behaviour::aimRoutes), computed
    /// together before the plans.
    std::vector<FlowField*> m_aimedFields;
    /// computeRoutes' split of m_aimedFields: computed at once, and searched in slices.
    std::vector<FlowField*> m_wholeFields, m_slicedFields;
    /// After the last step's routes: searches in slices under way, and waiting for a lane.
    std::size_t m_searchesUnderWay = 0, m_searchesWaiting = 0;
    /// The grid gridSketch() shows for a group that keeps none (Behaviour::searchesGrid),
    /// built when the overlay asks.
    struct SketchGrid;
    mutable std::unique_ptr<SketchGrid> m_sketchGrid;
    const UniformGrid& sketchedGrid(int group) const;
    /// Aims every group's routes, in group order, and computes the fields aimed on the
    /// step's threads.
    void computeRoutes(StepContext& ctx);
    /// Blocks of groups for forEachGroupShared (each block's first group; the count last).
    std::vector<std::size_t> m_groupBlocks;
    /// A range of one group's agents, the wall rule's and the commit's unit of work.
    struct GroupRange
    {
        std::uint32_t group;
        std::size_t begin, end;
    };
    std::vector<GroupRange> m_ranges;       ///< see cutRanges
    std::vector<std::size_t> m_rangeBlocks; ///< each block's first range; the count last
    std::vector<CommitPart> m_commitParts;  ///< per range, this step's commit
    std::vector<CommitPart> m_groupCommits; ///< per group, its ranges' commit summed
    /// Agents in a part of the step's work (kPlanPartAgents; tests cut finer, WorldAccess).
    std::size_t m_partAgents = 2048;
};

} // namespace shoal
