#pragma once
/// The interface each behaviour family implements, and what a step hands it.

#include "geometry/staticgeometry.h"
#include "kernels/uniformgrid.h"
#include "math/random.h"
#include "parallel/workerpool.h"
#include <shoal/inspection.h>
#include <shoal/paramspec.h>
#include <shoal/scenedesc.h>
#include <shoal/scenelimits.h>
#include <shoal/sketch.h>
#include <shoal/vec2.h>
#include <shoal/worldstate.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace shoal {

class Behaviour;
class BodyPass;
class FlowField;

class Group;
class SpawnOccupancy;
class StateReader;
class StateWriter;

/// What othersNear() answers from at once, without the body pass: whether the body index is
/// built (else the world has one group, and the lone player is the only other body) and
/// where that player is.
struct BodyGlance
{
    bool indexed = false;
    bool lonePlayer = false;
    Vec2 playerAt;
    float playerRadius = 0.0f;
    /// The index's coarse map (when indexed): per block (row-major, `blockSize` wide), the
    /// one group whose bodies are all those in it and in the eight blocks round it (the lone
    /// player counts as a group past the last), kNoBody when there are none, kMixed when
    /// they are of several groups. Two bytes a block: the plans look a block up for nearly
    /// every body, and the map of a big level does not stay in cache.
    const std::uint16_t* around = nullptr;
    static constexpr std::uint16_t kNoBody = 0xFFFF;
    static constexpr std::uint16_t kMixed = 0xFFFE;
    static_assert(kMaxGroups < kMixed, "a group's index is never a tag");
    Vec2 blockOrigin;
    float blockSize = 0.0f;
    float invBlockSize = 0.0f; ///< 1 / blockSize, worked out once for every look-up
    int blockCols = 0;
    int blockRows = 0;
    float indexRadius = 0.0f; ///< the largest radius of a body in the index

    /// The square of how far every other group's body lies when onlyOwnAround says none is
    /// in the blocks round p's own: a block, less a hair for where rounding puts a body on a
    /// block's edge (othersNear's quick answer).
    float beyondOwnBlocks2() const
    {
        const float beyond = 0.99f * blockSize;
        return beyond * beyond;
    }

    /// Whether bodies whose groups run from `low` to `high` are none, or only `group`'s.
    static bool onlyOwn(std::uint16_t low, std::uint16_t high, int group)
    {
        return high < low || (low == group && high == group);
    }
    /// Whether the map says no body of a group but `group` lies within `reach` of p (at most
    /// blockSize: a reach that spans no more than the blocks round p's own). Out of the map,
    /// p takes the nearest block, whose neighbours still hold all the map has within reach.
    bool onlyOwnAround(int group, Vec2 p) const
    {
        int bx, by;
        blockOf(p, bx, by);
        const std::size_t block = static_cast<std::size_t>(by) * blockCols + bx;
        const std::uint16_t tag = around[block];
        return tag == kNoBody || tag == group;
    }
    /// The block of the map p lies in; out of the map, the nearest.
    void blockOf(Vec2 p, int& bx, int& by) const
    {
        const float fx = (p.x - blockOrigin.x) * invBlockSize;
        const float fy = (p.y - blockOrigin.y) * invBlockSize;
        // Compared as floats first: a cast of a value out of int's range is undefined (and a
        // NaN takes block 0, which is as good as any).
        bx = fx > 0.0f ? (fx < static_cast<float>(blockCols) ? static_cast<int>(fx) : blockCols - 1)
                       : 0;
        by = fy > 0.0f ? (fy < static_cast<float>(blockRows) ? static_cast<int>(fy) : blockRows - 1)
                       : 0;
    }
    /// Asks for the lines onlyOwnAround() will read for bodies in the box lo..hi (when
    /// indexed).
    void prefetchAroundBox(Vec2 lo, Vec2 hi) const
    {
        prefetchBox(around, blockCols, blockRows, (lo.x - blockOrigin.x) * invBlockSize,
                    (lo.y - blockOrigin.y) * invBlockSize, (hi.x - blockOrigin.x) * invBlockSize,
                    (hi.y - blockOrigin.y) * invBlockSize);
    }
};

/// Agents planned in one part, at most (a part is a block of the step's work): enough to
/// outweigh handing the part to a thread, few enough that the parts of a large group keep
/// every thread busy to the end.
constexpr std::size_t kPlanPartAgents = 2048;

/// Everything a behaviour may read during the plan phase (and the pickups it may take).
struct StepContext
{
    float dt = 1.0f / 60.0f;
    std::uint64_t step = 0; ///< index of the step being computed
    std::uint64_t seed = 1;
    const StaticGeometry* geometry = nullptr;
    const PlayerState* player = nullptr;
    PointerInput pointer;
    const std::vector<std::unique_ptr<Group>>* groups = nullptr;
    std::vector<PickupState>* pickups = nullptr;
    NeighbourSearch search = NeighbourSearch::Grid;
    /// Lanes the neighbour scans run on with the grid: 4, or 8 where the runtime was built
    /// with its wide kernels and the machine has AVX2 (World::setLaneWidth). Either gives
    /// the same bits.
    int laneWidth = 4;
    /// Every body of every group where the step starts, when a group may meet bodies other
    /// than its own (null in a world of one group and no lone player): families steer round
    /// them with BodyPass::othersNear().
    const BodyPass* bodies = nullptr;
    /// The body pass as it stood when the context was made (with `bodies`).
    BodyGlance bodyGlance;
    /// The inspected agent's rules go here as its family plans it (null: nobody is
    /// inspected, and nothing is recorded).
    Inspection* inspection = nullptr;
    /// The threads that may plan parts at once (Behaviour::planPart's worker is below it).
    int workers = 1;
    /// Agents planned in one part, at most (kPlanPartAgents; the tests cut finer, to show
    /// that the cut changes nothing).
    std::size_t partAgents = kPlanPartAgents;
    /// The step's threads while a group prepares its plan (null: this thread alone), for
    /// forEachRange().
    WorkerPool* pool = nullptr;

    /// Runs f(begin, end) for the parts [begin, end) of [0, count) (of partAgents), on the
    /// step's threads when preparePlan() has them: for a family's gathers before its parts,
    /// each range writing only its own slots.
    template <class F> void forEachRange(std::size_t count, F&& f) const
    {
        const std::size_t parts = planParts(count);
        auto part = [&](std::size_t p, int) {
            const auto range = planPartRange(count, p);
            f(range.first, range.second);
        };
        if (pool)
            pool->run(parts, part);
        else
            for (std::size_t p = 0; p < parts; ++p)
                part(p, 0);
    }

    /// How many parts of partAgents `agents` fall into (at least 1).
    std::size_t planParts(std::size_t agents) const
    {
        return agents > partAgents ? (agents + partAgents - 1) / partAgents : 1;
    }
    /// The agents (as visited, in cell order) of part `part` of `agents`: [first, second).
    std::pair<std::size_t, std::size_t> planPartRange(std::size_t agents, std::size_t part) const
    {
        const std::size_t begin = part * partAgents;
        const std::size_t end = begin + partAgents;
        return {begin < agents ? begin : agents, end < agents ? end : agents};
    }
};

/// One group as the world runs it: what a viewer sees (GroupState) plus what only the
/// runtime touches: the neighbour index and the family that plans the group.
/// What a group's spawn placed against what its scene asks (World::warnings() reads it).
struct SpawnReport
{
    std::size_t listedAsked = 0, listedPlaced = 0; ///< the scene's listed agents
    /// Of each listed agent placed, in order, its index in GroupDesc::agents: a listed agent
    /// left out (crowded) shifts the rest, and what is listed with it (its goal) must follow.
    std::vector<std::uint32_t> listedFrom;
    std::size_t areaAsked = 0, areaPlaced = 0; ///< the spawn area's count
    std::size_t areaCapacity = 0; ///< what the area holds (spawnCapacity), 0 without one
    bool areaFull = false;        ///< no clear place was left for the next body
    /// A group placed before this one whose bodies were in the way of this area's (the last
    /// seen), or -1: other groups' bodies fill the area, not its own.
    int crowdedBy = -1;
    /// The same for the listed agents: a group whose bodies piled where one was listed.
    int listedCrowdedBy = -1;
};

class Group : public GroupState
{
public:
    SpawnReport spawnReport; ///< set by Behaviour::spawn
    /// Where each agent is, by id (World::agentIndex): empty while every agent's index is
    /// its id, as built; filled when the world stores the group in cell order.
    std::vector<std::uint32_t> indexOfId;
    /// The id the next agent spawned at run time takes (World::spawnAgent): ids are never
    /// used twice in a world's life.
    std::uint32_t nextId = 0;
    /// Each agent's flags where the step began, while events are on (World::events()).
    std::vector<std::uint8_t> flagsBefore;
    /// The box of the agents' places where the step began (the index pass's bounds): what
    /// prefetchPlaces() asks the level's maps for.
    Vec2 placesMin, placesMax;
    /// Rebuilt each step before planning, for the groups whose plan searches through it
    /// (Behaviour::searchesGrid); empty (size() 0) for the others.
    UniformGrid grid;
    CollisionDesc collision;         ///< how its bodies meet other bodies
    BruteForceNeighbours bruteForce; ///< the reference search (bench, tests)
    std::unique_ptr<Behaviour> behaviour;
    // The two flags sit here, with `behaviour` and the two arrays they tell of, on one
    // cache line: the step's loops over thousands of small groups read them together.
    bool startClearanceKnown = false; ///< see startClearance
    bool startNearestKnown = false;   ///< see startNearest2
    /// Each agent's StaticGeometry::clearance() where the step began, as the family's plan
    /// looked it up for its feelers: the world's solid-body rule reads it instead of looking
    /// again (the look-up is a cache miss per agent on a large level). Valid only while
    /// startClearanceKnown, which a plan sets once it has filled every agent's and the world
    /// clears every step before planning.
    std::vector<float> startClearance;
    /// Each agent's squared distance, where the step began, that every other body lies
    /// beyond, as far as the family's plan learnt (the nearest fellow it saw, or the radius
    /// it looked round; the index's blocks for other groups' bodies, see othersNear; 0 when
    /// it learnt nothing): the body pass skips agents no body can come near enough to
    /// touch. Valid only while startNearestKnown, which a plan sets once it has filled
    /// every agent's and the world clears every step before planning.
    std::vector<float> startNearest2;

    /// Groups at most this many bytes per array are asked for ahead (kSmallGroupBytes / 4
    /// agents): a larger group's arrays are streams the processor follows by itself.
    static constexpr std::size_t kSmallGroupBytes = 512;
    /// Asks for the lines of this object (the arrays' sizes and places, the grid's shape,
    /// the behaviour's pointer) and of the behaviour's first line (its table of functions
    /// and first parameters): a pass over thousands of small groups (5,000 groups of 20
    /// followers at 100,000 agents) otherwise waits on each group's object in turn, as
    /// each lives in its own allocation. Call two groups ahead of the one worked on.
    void prefetchObject() const
    {
        // The lines the passes read: the arrays' places and sizes, the grid's shape, and
        // the collision settings, behaviour, flags and plan arrays at the end (not the
        // name, the spawn report or the metrics between them).
        const char* self = reinterpret_cast<const char*>(this);
        const char* arrays = reinterpret_cast<const char*>(&agents);
        prefetchSpan(arrays, sizeof(AgentArrays), sizeof(AgentArrays));
        const char* tail = reinterpret_cast<const char*>(&grid);
        prefetchSpan(tail, sizeof(Group) - static_cast<std::size_t>(tail - self), sizeof(Group));
    }
    /// Asks for the lines of this object that hold the behaviour's pointer and the
    /// collision settings (a short loop over every group's rules).
    void prefetchBehaviourPointer() const
    {
        prefetchLine(&behaviour);
        prefetchLine(&collision);
    }
    /// Asks for the small group's per-agent arrays a step's passes read and write (the
    /// state, the next state, the plan's start clearances and nearest distances) and its
    /// grid. Call one group ahead, after prefetchObject() two ahead.
    void prefetchAgents() const
    {
        const AgentArrays& a = agents;
        if (a.size() * sizeof(float) > kSmallGroupBytes)
            return;
        if (behaviour)
            prefetchLine(behaviour.get());
        for (const std::vector<float>* v :
             {&a.px, &a.py, &a.vx, &a.vy, &a.heading, &a.speed, &a.stuckTime, &a.goalDistance,
              &a.nx, &a.ny, &a.nvx, &a.nvy, &a.nheading, &a.nspeed, &startClearance,
              &startNearest2})
            prefetchElements(*v, kSmallGroupBytes);
        prefetchElements(a.flags, kSmallGroupBytes);
        grid.prefetchSearch(kSmallGroupBytes);
    }

    /// Asks for the lines of the level's grids a plan reads at the agents of the small
    /// group (the clearance grid, the body index's block map), over the box of their places
    /// the group's grid was built with: the agents of a small group lie together, but each
    /// group is somewhere else on a level of megabytes. Call one group ahead.
    void prefetchPlaces(const StepContext& ctx) const;

    /// What prefetchAgents() asks for that the wall rule reads (the positions, the plans,
    /// the start clearances), for the passes that read no more.
    void prefetchMoves() const
    {
        const AgentArrays& a = agents;
        if (a.size() * sizeof(float) > kSmallGroupBytes)
            return;
        for (const std::vector<float>* v : {&a.px, &a.py, &a.nx, &a.ny, &startClearance})
            prefetchElements(*v, kSmallGroupBytes);
    }
    /// The positions and the grid, which the grid's build reads and writes.
    void prefetchGridBuild() const
    {
        const AgentArrays& a = agents;
        if (a.size() * sizeof(float) > kSmallGroupBytes)
            return;
        prefetchElements(a.px, kSmallGroupBytes);
        prefetchElements(a.py, kSmallGroupBytes);
        grid.prefetchSearch(kSmallGroupBytes);
    }

    /// Runs f(neighbour index, dx, dy, d2) for every agent of this group within `radius`
    /// of p, using the search the context asks for (dx, dy = p - neighbour).
    template <class F>
    void forEachNeighbour(const StepContext& ctx, Vec2 p, float radius, F&& f) const
    {
        if (ctx.search == NeighbourSearch::Grid)
            grid.forEachWithin(p, radius, f);
        else
            bruteForce.forEachWithin(p, radius, f);
    }
};

/// Runs f(g) for every group g in order, asking for group g + 2's object and group g + 1's
/// arrays first (Group::prefetchObject, Group::prefetchAgents): the step's passes over
/// thousands of small groups. Asks for nothing in a world of one group.
/// `arrays` asks for what the pass reads of a group's arrays (prefetchAgents, by default).
template <class F, class Arrays>
void forEachGroupPrefetched(const std::vector<std::unique_ptr<Group>>& groups, F&& f,
                            Arrays&& arrays)
{
    const std::size_t count = groups.size();
    for (std::size_t g = 0; g < count; ++g) {
        if (g + 2 < count)
            groups[g + 2]->prefetchObject();
        if (g + 1 < count)
            arrays(*groups[g + 1]);
        f(g);
    }
}
template <class F>
void forEachGroupPrefetched(const std::vector<std::unique_ptr<Group>>& groups, F&& f)
{
    forEachGroupPrefetched(groups, f, [](const Group& group) { group.prefetchAgents(); });
}

/// Runs job(g, worker) for every group g on the threads of `pool` (this one alone when null,
/// as forEachGroupPrefetched does): the groups in blocks of about `blockAgents` agents, cut
/// from the groups alone, each block's groups in order with the next ones asked for ahead
/// (`arrays`, as there). `blocks` is the caller's scratch. A job writes only what is its
/// group's own; whatever is combined afterwards is combined in group order.
template <class Job, class Arrays>
void forEachGroupOnThreads(const std::vector<std::unique_ptr<Group>>& groups, WorkerPool* pool,
                           std::size_t blockAgents, std::vector<std::size_t>& blocks, Job&& job,
                           Arrays&& arrays)
{
    if (!pool) {
        forEachGroupPrefetched(
            groups, [&](std::size_t g) { job(g, 0); }, arrays);
        return;
    }
    const std::size_t count = groups.size();
    blocks.clear();
    std::size_t agents = 0;
    for (std::size_t g = 0; g < count; ++g) {
        const std::size_t size = groups[g]->agents.size();
        if (blocks.empty() || agents + size > blockAgents) {
            blocks.push_back(g);
            agents = 0;
        }
        agents += size;
    }
    const std::size_t blockCount = blocks.size();
    blocks.push_back(count);
    pool->run(blockCount, [&](std::size_t block, int worker) {
        const std::size_t first = blocks[block], last = blocks[block + 1];
        for (std::size_t g = first; g < last; ++g) {
            if (g + 2 < last)
                groups[g + 2]->prefetchObject();
            if (g + 1 < last)
                arrays(*groups[g + 1]);
            job(g, worker);
        }
    });
}

/// Cuts every group into ranges of at most `partAgents` agents (`ranges`, each with its
/// `group`, `begin` and `end`; every group, an empty one too, at least one) and the ranges
/// into blocks of about `partAgents` agents (`blocks`: each block's first range, the count
/// last), runs of small groups together: cut from the groups alone, never from threads.
template <class Range>
void cutGroupRanges(const std::vector<std::unique_ptr<Group>>& groups, std::size_t partAgents,
                    std::vector<Range>& ranges, std::vector<std::size_t>& blocks)
{
    ranges.clear();
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const std::size_t n = groups[g]->agents.size();
        std::size_t begin = 0;
        do {
            const std::size_t end = std::min(n, begin + partAgents);
            ranges.push_back({static_cast<std::uint32_t>(g), static_cast<std::uint32_t>(begin),
                              static_cast<std::uint32_t>(end)});
            begin = end;
        } while (begin < n);
    }
    blocks.clear();
    std::size_t blockAgents = 0;
    for (std::size_t t = 0; t < ranges.size(); ++t) {
        const std::size_t agents = ranges[t].end - ranges[t].begin;
        if (blocks.empty() || blockAgents + agents > partAgents) {
            blocks.push_back(t);
            blockAgents = 0;
        }
        blockAgents += agents;
    }
    blocks.push_back(ranges.size());
}

/// Runs job(t, worker) for every range t that cutGroupRanges cut, on the threads of `pool`
/// (this one alone when null), each block's ranges in order with the next ones' groups asked
/// for ahead (`arrays`, as forEachGroupPrefetched). A job writes only what is its range's
/// own; whatever is combined afterwards is combined in range order.
template <class Range, class Job, class Arrays>
void forEachRangeOnThreads(const std::vector<std::unique_ptr<Group>>& groups, WorkerPool* pool,
                           const std::vector<Range>& ranges, const std::vector<std::size_t>& blocks,
                           Job&& job, Arrays&& arrays)
{
    const std::size_t blockCount = blocks.size() - 1;
    auto block = [&](std::size_t b, int worker) {
        const std::size_t first = blocks[b], last = blocks[b + 1];
        for (std::size_t t = first; t < last; ++t) {
            // A run of small groups: the next ones' objects and arrays asked for ahead.
            if (t + 2 < last)
                groups[ranges[t + 2].group]->prefetchObject();
            if (t + 1 < last)
                arrays(*groups[ranges[t + 1].group]);
            job(t, worker);
        }
    };
    if (pool)
        pool->run(blockCount, block);
    else
        for (std::size_t b = 0; b < blockCount; ++b)
            block(b, 0);
}

inline void Group::prefetchPlaces(const StepContext& ctx) const
{
    // Over the box of the agents' places, as the index pass found it: a few rows of each
    // map, without a pass over the agents.
    if (agents.size() * sizeof(float) > kSmallGroupBytes || agents.size() == 0)
        return;
    const Vec2 lo = placesMin, hi = placesMax;
    if (ctx.geometry)
        ctx.geometry->prefetchClearanceBox(lo, hi);
    if (ctx.bodies && ctx.bodyGlance.indexed)
        ctx.bodyGlance.prefetchAroundBox(lo, hi);
}

/// The group's grid or its brute-force reference, chosen at compile time by a family's
/// templated plan (so the inner loops are inlined for both).
template <class Search> const Search& neighbourSearch(const Group& group)
{
    if constexpr (std::is_same_v<Search, UniformGrid>)
        return group.grid;
    else
        return group.bruteForce;
}

/// A search type as a value, for withNeighbourSearch.
template <class Search> struct SearchTag
{
    using type = Search;
};

/// Calls f(SearchTag<UniformGrid>) or f(SearchTag<BruteForceNeighbours>), as the context
/// asks: a family's plan is one template instantiated for both, so its inner loops are
/// inlined for each (`[&](auto tag) { planWith<typename decltype(tag)::type>(...); }`).
template <class F> void withNeighbourSearch(const StepContext& ctx, F&& f)
{
    if (ctx.search == NeighbourSearch::Grid)
        f(SearchTag<UniformGrid>{});
    else
        f(SearchTag<BruteForceNeighbours>{});
}

/// A behaviour family. One instance per group; it keeps the group's typed parameters and any
/// per-agent state of its own (worm bodies, wander targets).
class Behaviour
{
public:
    virtual ~Behaviour() = default;

    /// Takes new parameter values (already validated, paramSpecs order). Called at build
    /// and whenever a parameter changes on a running world: it takes effect next step.
    virtual void setParams(const ParamValues& values) = 0;

    /// Places the group's agents at build: explicit agents first, then `spawn.count` seeded
    /// positions inside the spawn area that are clear of obstacles and of the bodies in
    /// `placed` (every group's so far), into which it adds its own. Families with extra
    /// state (worm bodies) set it up here. The default places points with random headings.
    virtual void spawn(Group& group, const GroupDesc& desc, Random& random,
                       const StaticGeometry& geometry, SpawnOccupancy& placed);
    /// How the default spawn poses a family's agents so the level reads at a glance.
    struct SpawnPose
    {
        /// Room kept beyond touching between a spawned body and those placed before it, m,
        /// while the area has room for it (128 tries with it before the usual 256 without).
        float gap = 0.0f;
        /// Spawned agents face the group's target, or (none) the way the first one faces.
        bool aligned = false;
    };
    virtual SpawnPose spawnPose() const { return {}; }

    /// Plan phase: reads the current state of every group, writes this group's next state
    /// (agents.nx, ny, nvx, nvy, nheading, nspeed; agents.flags; agents.goalDistance). Motion
    /// must go through geometry.constrainMove. Agent 0 of a player-led group is the player:
    /// leave it alone. The three calls below, in a row.
    void plan(Group& group, const StepContext& ctx)
    {
        const std::size_t parts = preparePlan(group, ctx);
        for (std::size_t part = 0; part < parts; ++part)
            planPart(group, ctx, part, 0);
        finishPlan(group, ctx);
    }

    // A plan over the step's threads (World::setThreads). The world calls preparePlan() of
    // every group in group order on one thread, then planPart() for every part of every
    // group spread over its threads (in any order, several at once), then finishPlan() of
    // every group in group order on one thread. The parts' results must not depend on how
    // the agents are cut into parts or on which thread runs which: the hash of a step is the
    // same for any number of threads.

    /// Before any group prepares its plan, in group order: the group's routes round the
    /// walls take this step's goals (FlowRoute::update with `aimed`), and the fields that
    /// need computing are added to `aimed`; the world computes them all on its threads, so
    /// preparePlan() finds them ready. A squad per field: a hundred squads given new targets
    /// at once compute on every core.
    virtual void aimRoutes(Group& group, const StepContext& ctx, std::vector<FlowField*>& aimed)
    {
        (void)group;
        (void)ctx;
        (void)aimed;
    }
    /// What the group's agents share (the route to the goal, neighbour data gathered in cell
    /// order, scratch sized for ctx.workers), and how many parts the agents' plans fall into
    /// (StepContext::planParts() cuts them by agent count alone, never by thread count).
    virtual std::size_t preparePlan(Group& group, const StepContext& ctx) = 0;
    /// Plans the agents of part `part` (of those preparePlan() said): writes only their next
    /// state and the scratch of `worker` (below ctx.workers), reads the current state.
    virtual void planPart(Group& group, const StepContext& ctx, std::size_t part, int worker) = 0;
    /// What the parts left to do together (flags applied after every agent planned).
    virtual void finishPlan(Group& group, const StepContext& ctx)
    {
        (void)group;
        (void)ctx;
    }

    /// Largest neighbour query radius, m.
    virtual float queryRadius() const = 0;
    /// Cells of the group's grid. By default rows as tall as the query radius and columns a
    /// third of it: a query visits three or four row runs of about 7 r^2 in all (square cells
    /// of r / 2 give five runs of 6 r^2). Fewer runs mean fewer loop exits mispredicted and
    /// fewer part-filled lane groups, which measured faster for the school, the squad and
    /// the followers; the swarm, whose queries find only a few neighbours, picks its own.
    virtual GridCellShape gridCells() const
    {
        const float r = queryRadius();
        return {r, r * (1.0f / 3.0f)};
    }
    /// Agent body radius, m (penetration metric, wall clearance).
    virtual float bodyRadius() const = 0;
    /// Nearest-neighbour distance below which an agent is "inside keep distance", m.
    virtual float keepDistance() const = 0;
    /// Nearest-neighbour distance above which an agent is "outside the band", m (0 = none).
    virtual float bandOuterDistance() const { return 0.0f; }
    /// Agents that take part in neighbour metrics (fish: school members only).
    virtual bool isActive(const Group& group, std::size_t i) const
    {
        (void)group;
        (void)i;
        return true;
    }
    /// The agents are the heads of paths the family keeps itself (worms): the world's body
    /// pass never moves them (they still push others), and the family keeps them clear of
    /// walls through StaticGeometry::keepClear in its own plan.
    virtual bool keepsOwnBodies() const { return false; }
    /// Agents that hold their place (the school's free fish, tethered to their spot): the
    /// world's body pass never moves them, and the bodies meeting them give way. They are
    /// the agents whose flags have none of these bits (0: no agent holds its place), so the
    /// pass tests a flag per agent rather than asking the family.
    virtual std::uint8_t placeHeldWithout() const { return 0; }
    /// Whether the group's plan searches its neighbours through the group's grid. A family
    /// whose small groups test every member instead (followers in groups of at most 32)
    /// says no for them: the step then spares their grid's build (Group::grid stays empty,
    /// and the world's passes and queries look at the agents one by one).
    virtual bool searchesGrid(const Group& group) const
    {
        (void)group;
        return true;
    }
    /// Whether the world may keep this group's agents in cell order (agent 0 always stays
    /// agent 0). A behaviour that says yes and keeps per-agent state of its own moves that
    /// state in permuteAgents().
    virtual bool allowsReordering() const { return false; }
    /// The agents were reordered: agent order[k] is now agent k.
    virtual void permuteAgents(const std::vector<std::uint32_t>& order) { (void)order; }
    /// Extra bytes this behaviour holds for its agents (bench: bytes per agent).
    virtual std::size_t memoryBytes() const { return 0; }
    /// Extra state folded into World::stateHash (e.g. worm joints).
    virtual void hashState(std::uint64_t& h) const { (void)h; }
    /// Everything of its own that a later step reads (World::snapshot()): per-agent state,
    /// counters, what its route was built for. Scratch rebuilt every step is left out.
    virtual void saveState(StateWriter& out) const { (void)out; }
    /// Whether a game may add and remove agents of this family at run time
    /// (World::spawnAgent, despawnAgent); agentAdded() and agentRemoved() keep its own
    /// per-agent state in step with the arrays.
    virtual bool allowsSpawning() const { return true; }
    /// An agent was appended to the group's arrays (its pose and flags set): per-agent state
    /// of the family's own gets an entry for it.
    virtual void agentAdded(const Group& group) { (void)group; }
    /// Agent i left the group's arrays; the agents after it moved down one place.
    virtual void agentRemoved(std::size_t i) { (void)i; }
    /// The pickups the last plan took, as pairs (agent index, pickup index) one after the
    /// other, in the order taken (a worm eating coins); null when the family takes none.
    virtual const std::vector<std::uint32_t>* pickupsTaken() const { return nullptr; }
    /// Sends agent i to a goal of its own (nothing: back to the group's). False when the
    /// family has no such thing (only the squad has).
    virtual bool setAgentGoal(const Group& group, std::size_t i, std::optional<Vec2> goal)
    {
        (void)group;
        (void)i;
        (void)goal;
        return false;
    }
    /// Agent i was put somewhere else (World::teleportAgent): it starts afresh there.
    virtual void agentMoved(std::size_t i) { (void)i; }
    /// Takes back what saveState() wrote, after the group's arrays and parameters are
    /// restored; routes are rebuilt over `geometry`. False when the bytes do not fit.
    virtual bool loadState(StateReader& in, const StaticGeometry& geometry)
    {
        (void)in;
        (void)geometry;
        return true;
    }

    /// The player has just joined the group as its agent 0 (at build). A family may turn
    /// pickups into agents of its own here (the fish school's free fish), drawing from the
    /// group's spawn stream.
    virtual void adoptPickups(Group& group, std::vector<PickupState>& pickups, Random& random)
    {
        (void)group;
        (void)pickups;
        (void)random;
    }

    // What a family shows a viewer (see <shoal/sketch.h>): no editor code knows its class.

    /// The family's own debug drawing for the view in `request`, from the group's current
    /// state. `ctx` is the world as the next step would see it.
    virtual void sketch(const Group& group, const StepContext& ctx, const SketchRequest& request,
                        Sketch& out) const
    {
        (void)group;
        (void)ctx;
        (void)request;
        (void)out;
    }
    /// Where the group heads, when it heads for one point (the squad's target, the swarm's
    /// prey, the followers' behind point).
    virtual std::optional<Vec2> goal(const Group& group, const StepContext& ctx) const
    {
        (void)group;
        (void)ctx;
        return std::nullopt;
    }
    /// The wall feelers the family casts: their length (0 = none) and whether they point
    /// toward goal() rather than along the heading.
    struct FeelerUse
    {
        float length = 0.0f;
        bool towardGoal = false;
    };
    virtual FeelerUse feelers() const { return {}; }
    /// A short name for what agent i is doing ("making room", "parked", ...).
    virtual const char* agentState(const Group& group, std::size_t i) const;
    /// The bodies of agents longer than a disc (worms), or null.
    virtual const AgentBodies* bodies() const { return nullptr; }
};

/// What a body sees of the bodies of other groups (see othersNear()).
struct OtherBodies
{
    /// Sum of unit vectors away from the bodies within a radius of touching, each weighted
    /// by how near (1 when touching): a family adds it to its separation.
    Vec2 away;
    /// Surface-to-surface room to the nearest of them within 60 degrees ahead, at most the
    /// `look` asked for.
    float gapAhead = 0.0f;
    /// The same, to the nearest that cannot make way: the player, a body that holds its place
    /// or follows its own path, and one the last step's body pass left squeezed. Pressing on
    /// into such a body only crushes the crowd round it. `look` when there is none.
    float firmAhead = std::numeric_limits<float>::infinity();
    /// The square of a distance every body of another group lay beyond where the step began,
    /// as far as the look-up saw (the nearest within its reach, or the reach); 0 when it
    /// cannot tell.
    float othersBeyond2 = 0.0f;
};

/// One body near another, as bodiesNear() lists it.
struct NearBody
{
    Vec2 at;
    float radius = 0.0f;
    float gap = 0.0f; ///< surface to surface (negative: they overlap), m
};

/// Up to `capacity` bodies that agent `self` of `group`, its body at p (radius), meets with a
/// gap below `reach`, nearest first; how many. Those of other groups (and the lone player)
/// it meets either way round (either's mask has the other's layer; none where ctx.bodies is
/// null), and its own group's other agents when the group is solid to itself. othersNear()
/// sums what a body gives way to; this lists what a body that gives way to nobody (a worm's
/// head) must not run into.
int bodiesNear(const StepContext& ctx, const Group& group, std::size_t self, Vec2 p, float radius,
               float reach, NearBody* out, int capacity);

/// othersNear() past its quick answers: BodyPass::othersNear.
OtherBodies othersNearInPass(const StepContext& ctx, const Group& group, Vec2 p, float radius,
                             Vec2 forward, float look);

/// The bodies of other groups that agent `group`'s body at p (radius, heading `forward`)
/// gives way to: their mask and priority rules as the body pass applies them. Nothing in a
/// world where the group meets no other bodies (ctx.bodies is null). Inline: nearly every
/// body of a world of one group is far from the lone player, and learns so here.
/// `othersBeyond2`, when given, is set to the square of a distance every body of another
/// group (and the lone player) lay beyond where the step began, as far as the look-up learnt
/// (for Group::startNearest2); left alone when it learnt nothing.
inline OtherBodies othersNear(const StepContext& ctx, const Group& group, Vec2 p, float radius,
                              Vec2 forward, float look, float* othersBeyond2 = nullptr)
{
    if (!ctx.bodies) {
        // The group's bodies are the only ones.
        if (othersBeyond2)
            *othersBeyond2 = std::numeric_limits<float>::max();
        return {{}, look, look};
    }
    const BodyGlance& glance = ctx.bodyGlance;
    if (glance.indexed) {
        // Nearly every body of a world of many groups is among its own group only.
        const float reach = radius + glance.indexRadius + std::max(radius, look);
        if (reach <= glance.blockSize && glance.onlyOwnAround(group.index, p)) {
            // The others are outside the blocks round p's own: a block or more away.
            if (othersBeyond2)
                *othersBeyond2 = glance.beyondOwnBlocks2();
            return {{}, look, look};
        }
    } else {
        // A world of one group: the lone player, if any, is the only other body. As
        // BodyPass::othersNear tests it (on layer 1).
        const float toPlayer2 = glance.lonePlayer ? distanceSquared(p, glance.playerAt)
                                                  : std::numeric_limits<float>::max();
        if (othersBeyond2)
            *othersBeyond2 = toPlayer2;
        const float reach = 2.0f * radius + glance.playerRadius + look;
        if (!glance.lonePlayer || !(group.collision.mask & 1u) || !(toPlayer2 < reach * reach))
            return {{}, look, look};
    }
    const OtherBodies others = othersNearInPass(ctx, group, p, radius, forward, look);
    if (othersBeyond2 && others.othersBeyond2 > 0.0f)
        *othersBeyond2 = others.othersBeyond2;
    return others;
}

/// How many bodies a spawn area holds at most: as many as would lie in it side by side (an
/// area of pi r^2 each; no packing reaches it). Bodies spawn apart, so an area asked for more
/// places fewer, and the world warns.
constexpr double kSpawnCrowding = 1.0;
/// Random places a spawn area tries for one body before it counts as full.
constexpr int kSpawnPlaceAttempts = 256;
std::size_t spawnCapacity(const Rect& area, float radius);
/// Listed agents within one square of two body radii a side: as crowded, no more. Agents
/// listed on top of that many others are left out (and the world warns).
constexpr std::size_t kListedPerSquare = 6; // 4 x 4 r^2 / (pi r^2), rounded up

/// A new behaviour of `kind` with default parameters.
std::unique_ptr<Behaviour> makeBehaviour(BehaviourKind kind);

} // namespace shoal
