#include <shoal/world.h>

#include <shoal/displaytext.h>

#include "geometry/flowfield.h"
#include "geometry/staticgeometry.h"
#include "kernels/flagged.h"
#include "kernels/lanes.h"
#include "math/fastmath.h"
#include "math/statehash.h"
#include "parallel/workerpool.h"
#include "world/behaviour.h"
#include "world/bodypass.h"
#include "world/groupmeter.h"
#include "world/sketchgrid.h"
#include "world/spawnoccupancy.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <unordered_map>

namespace shoal {

namespace {

/// Group::indexOfId's mark for an id no agent has.
constexpr std::uint32_t kNoAgent = 0xFFFFFFFFu;

/// Inserts one agent at index 0 (the player joins the group it leads as its agent 0).
void insertFront(AgentArrays& a)
{
    const std::size_t n = a.size();
    a.resize(n + 1);
    for (auto* v :
         {&a.px, &a.py, &a.vx, &a.vy, &a.heading, &a.speed, &a.stuckTime, &a.goalDistance})
        std::rotate(v->rbegin(), v->rbegin() + 1, v->rend());
    std::rotate(a.flags.rbegin(), a.flags.rbegin() + 1, a.flags.rend());
}

struct PlayerParams
{
    float moveSpeed = 3.4f;
    float rayLength = 0.8f;
    float radius = 0.35f;
    float arriveDistance = 0.2f;
};

PlayerParams playerParamsFrom(const ParamValues& values)
{
    // The table's order is fixed: look the keys up once, not every step.
    static const std::array<std::size_t, 4> kIndex = [] {
        const auto& specs = playerParamSpecs();
        std::array<std::size_t, 4> index{};
        const char* keys[4] = {"moveSpeed", "rayLength", "radius", "arriveDistance"};
        for (std::size_t k = 0; k < 4; ++k)
            index[k] = static_cast<std::size_t>(paramIndex(specs, keys[k]));
        return index;
    }();
    auto get = [&](std::size_t k) { return static_cast<float>(values[kIndex[k]]); };
    return {get(0), get(1), get(2), get(3)};
}

/// The solid-body rule for one planned agent (StaticGeometry::keepClear), its velocity
/// following the kept place. Returns whether it moved the agent.
bool keepAgentClear(const StaticGeometry& geometry, AgentArrays& a, std::size_t i, Vec2 from,
                    float radius, float clearFrom, float inverseDt)
{
    bool adjusted = false;
    const Vec2 kept = geometry.keepClear(from, {a.nx[i], a.ny[i]}, radius, &adjusted, clearFrom);
    if (adjusted) {
        a.nx[i] = kept.x;
        a.ny[i] = kept.y;
        a.nvx[i] = (kept.x - from.x) * inverseDt;
        a.nvy[i] = (kept.y - from.y) * inverseDt;
        a.flags[i] |= kAgentBlocked;
    }
    return adjusted;
}

/// How long agent i has been stuck (slower than kStuckSpeed away from its goal), with its
/// step of `dt` just planned, and its stuck flag from that.
void noteStuck(AgentArrays& a, std::size_t i, float dt)
{
    const float speed2 = a.nvx[i] * a.nvx[i] + a.nvy[i] * a.nvy[i];
    if (speed2 < kStuckSpeed * kStuckSpeed && !(a.flags[i] & kAgentAtGoal))
        a.stuckTime[i] += dt;
    else
        a.stuckTime[i] = 0.0f;
    if (a.stuckTime[i] >= kStuckSeconds)
        a.flags[i] |= kAgentStuck;
    else
        a.flags[i] &= static_cast<std::uint8_t>(~kAgentStuck);
}

/// keepGroupClear's test, four agents at a time from agent `i` on (which it leaves at the
/// first agent not done): clearAgain is 0 where nothing lies within the radius of anywhere
/// on the move (the clearance `known` where it began, less the radius and a millimetre, is
/// more than the move), 1 elsewhere. The same operations as the test one agent at a time,
/// so the same answers.
void markMayReach(const float* known, const float* px, const float* py, const float* nx,
                  const float* ny, float radius, std::size_t n, std::uint8_t* clearAgain,
                  std::size_t& i)
{
    using V = Float4;
    // The bytes of clearAgain for each mask of lanes that stay clear.
    static constexpr std::uint8_t kBytes[16][4] = {
        {1, 1, 1, 1}, {0, 1, 1, 1}, {1, 0, 1, 1}, {0, 0, 1, 1}, {1, 1, 0, 1}, {0, 1, 0, 1},
        {1, 0, 0, 1}, {0, 0, 0, 1}, {1, 1, 1, 0}, {0, 1, 1, 0}, {1, 0, 1, 0}, {0, 0, 1, 0},
        {1, 1, 0, 0}, {0, 1, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 0}};
    static_assert(V::kWidth == 4, "one byte per lane of four");
    const V vRadius(radius), vMilli(1e-3f), zero(0.0f);
    for (; i + V::kWidth <= n; i += V::kWidth) {
        const V room = V::load(known + i) - vRadius - vMilli;
        const V dx = V::load(nx + i) - V::load(px + i);
        const V dy = V::load(ny + i) - V::load(py + i);
        const int clear = laneBits((room > zero) & (dx * dx + dy * dy < room * room));
        std::memcpy(clearAgain + i, kBytes[clear], V::kWidth);
    }
}

/// What a group's spawn could not place (its SpawnReport): listed agents piled on others,
/// or a spawn area that placed fewer than its count. Nothing when everything was placed.
std::vector<WorldWarning> spawnShortfall(const Group& group, const SceneDesc& scene,
                                         std::size_t index)
{
    const GroupDesc& desc = scene.groups[index];
    std::vector<WorldWarning> warnings;
    const SpawnReport& report = group.spawnReport;
    const float radius = group.behaviour->bodyRadius();
    const std::string who = "groups[" + std::to_string(index) + "] " + quotedName(desc.name) + ": ";
    if (report.listedPlaced < report.listedAsked) {
        const std::string piled =
            report.listedCrowdedBy >= 0
                ? "the rest were listed on piles of " + std::to_string(kListedPerSquare) +
                      " or more bodies of groups placed before it (" +
                      quotedName(
                          scene.groups[static_cast<std::size_t>(report.listedCrowdedBy)].name) +
                      " among them) or more than " + std::to_string(kListedPerSquare) +
                      " of its own within a square of " + formatFloat(2.0f * radius) + " m"
                : "more than " + std::to_string(kListedPerSquare) + " lie within a square of " +
                      formatFloat(2.0f * radius) + " m";
        warnings.push_back(
            {static_cast<int>(index),
             who + "placed " + std::to_string(report.listedPlaced) + " of its " +
                 std::to_string(report.listedAsked) + " listed agents: " + piled + ", and " +
                 (report.listedCrowdedBy >= 0 ? "were" : "the rest of them were") + " left out"});
    }
    if (desc.spawn && report.areaPlaced < report.areaAsked) {
        const Rect& area = desc.spawn->area;
        std::string why;
        if (report.crowdedBy >= 0 && report.areaFull)
            why = "bodies start apart, and the bodies of groups placed before it (" +
                  quotedName(scene.groups[static_cast<std::size_t>(report.crowdedBy)].name) +
                  " among them) left no clear place for a body of radius " + formatFloat(radius) +
                  " m; move it, or ask those groups or this one for fewer";
        else if (report.areaPlaced == 0)
            why = "no place in it is clear of walls, obstacles and the level's edge for a body "
                  "of radius " +
                  formatFloat(radius) + " m";
        else if (report.areaFull)
            why = "bodies of radius " + formatFloat(radius) +
                  " m start apart, clear of walls and obstacles, and no clear place was left "
                  "for more (at most " +
                  std::to_string(report.areaCapacity) +
                  " fit side by side in the whole area; placed at random, about half as "
                  "many); make it larger or ask for fewer";
        else if (report.areaPlaced >= report.areaCapacity)
            why = "it holds at most " + std::to_string(report.areaCapacity) + " bodies of radius " +
                  formatFloat(radius) +
                  " m, as many as fit side by side (a denser crowd costs every step the square "
                  "of its density); make it larger or ask for fewer";
        else
            why = "most of it is covered by walls or obstacles";
        warnings.push_back({static_cast<int>(index),
                            who + "its spawn area [" + formatNumber(area.min.x) + ", " +
                                formatNumber(area.min.y) + "] to [" + formatNumber(area.max.x) +
                                ", " + formatNumber(area.max.y) + "] placed " +
                                std::to_string(report.areaPlaced) + " of " +
                                std::to_string(report.areaAsked) + " agents: " + why});
    }
    return warnings;
}

/// m: a centre nearer a surface than this lies on it.
constexpr float kOnSurface = 0.01f;

/// The fish pickups a player-led school adopts as free fish where they lie. A free fish
/// meanders up to half the school's pick radius from its place and holds that place against
/// other bodies, so two free fish whose meanders can meet would hold each other overlapping
/// for good: a fish pickup nearer than pickRadius + 2 radius to one adopted before it (in
/// pickup order) is left out (taken, so nobody picks it up) and the world warns. Adopts
/// through the family.
void adoptApartPickups(Group& group, std::vector<PickupState>& pickups, Random& random,
                       const StaticGeometry& geometry, std::vector<WorldWarning>& warnings)
{
    const int pick = paramIndex(paramSpecs(group.kind), "pickRadius");
    const double pickRadius = pick >= 0 ? group.values[static_cast<std::size_t>(pick)] : 0.0;
    const double radius = group.behaviour->bodyRadius();
    const double apart = std::max(pickRadius + 2.0 * radius, 1e-3);
    // Cells `apart` wide: a fish nearer than that to another lies in one of the 3 x 3 around.
    std::unordered_map<std::uint64_t, std::vector<Vec2>> cells;
    const auto cellOf = [&](double x, double y) {
        return std::pair<std::int64_t, std::int64_t>{
            static_cast<std::int64_t>(std::floor(x / apart)),
            static_cast<std::int64_t>(std::floor(y / apart))};
    };
    const auto key = [](std::int64_t cx, std::int64_t cy) {
        return (static_cast<std::uint64_t>(cx) << 32) ^
               (static_cast<std::uint64_t>(cy) & 0xFFFFFFFFu);
    };
    std::vector<PickupState> adopted;
    std::vector<std::size_t> from;
    std::size_t fish = 0, leftOut = 0, firstLeftOut = 0, inGeometry = 0, firstInGeometry = 0;
    for (std::size_t k = 0; k < pickups.size(); ++k) {
        if (pickups[k].kind != PickupKind::Fish)
            continue;
        ++fish;
        const Vec2 p = pickups[k].position;
        // Nor one whose centre lies in an obstacle or on a surface: a body overlapping a wall is
        // pushed out to the side its centre is on as the world settles, but one centred on the
        // surface has no side, and its place is its home.
        if (geometry.isInsideSolid(p) || geometry.surfaceDistance(p, kOnSurface) < kOnSurface) {
            if (inGeometry++ == 0)
                firstInGeometry = k;
            pickups[k].taken = true;
            continue;
        }
        const auto [cx, cy] = cellOf(p.x, p.y);
        bool near = false;
        for (std::int64_t y = cy - 1; y <= cy + 1 && !near; ++y)
            for (std::int64_t x = cx - 1; x <= cx + 1 && !near; ++x) {
                const auto it = cells.find(key(x, y));
                if (it == cells.end())
                    continue;
                for (const Vec2 q : it->second)
                    if (std::hypot(double(p.x) - q.x, double(p.y) - q.y) < apart) {
                        near = true;
                        break;
                    }
            }
        if (near) {
            if (leftOut++ == 0)
                firstLeftOut = k;
            pickups[k].taken = true;
            continue;
        }
        cells[key(cx, cy)].push_back(p);
        adopted.push_back(pickups[k]);
        from.push_back(k);
    }
    group.behaviour->adoptPickups(group, adopted, random);
    for (std::size_t j = 0; j < adopted.size(); ++j)
        pickups[from[j]].taken = adopted[j].taken;
    // "N of the M free fish were left out, the first pickups[k] at [x, y]: why".
    const auto leftOutWarning = [&](std::size_t count, std::size_t firstIndex,
                                    const std::string& why) {
        const Vec2 first = pickups[firstIndex].position;
        warnings.push_back(
            {group.index, "pickups: " + std::to_string(count) + " of the " + std::to_string(fish) +
                              " free fish were left out, the first pickups[" +
                              std::to_string(firstIndex) + "] at [" + formatFloat(first.x) + ", " +
                              formatFloat(first.y) + "]: " + why});
    };
    if (inGeometry > 0)
        leftOutWarning(inGeometry, firstInGeometry,
                       "a free fish of " + quotedName(group.name) +
                           " has its centre off every wall and outside every obstacle (a body "
                           "centred on a surface could never be pushed off it)");
    if (leftOut > 0)
        leftOutWarning(leftOut, firstLeftOut,
                       "free fish lie at least pickRadius + 2 radius = " +
                           formatFloat(static_cast<float>(apart)) + " m apart (a free fish of " +
                           quotedName(group.name) +
                           " meanders up to half its pick radius from its place and holds it; "
                           "two nearer could meet and never part)");
}

Error noGroup(int index)
{
    return Error{"no group with index " + std::to_string(index)};
}

/// `who` ("group 'school' (fishSchool)", "the player") has no parameter `key`: the message
/// lists the keys it has.
Error unknownParam(const std::string& who, const std::vector<ParamSpec>& specs,
                   const std::string& key)
{
    std::string known;
    for (const ParamSpec& spec : specs)
        known += (known.empty() ? "" : ", ") + spec.key;
    return Error{who + " has no parameter " + quotedName(key) + "; known: " + known};
}

} // namespace

Expected<std::unique_ptr<World>> World::create(const SceneDesc& scene)
{
    if (auto error = validateScene(scene))
        return *error;
    return createValidated(scene);
}

std::unique_ptr<World> World::create(const CheckedScene& scene)
{
    return createValidated(scene.scene());
}

std::unique_ptr<World> World::createValidated(const SceneDesc& scene)
{
    std::unique_ptr<World> world(new World());
    world->m_meter = std::make_unique<GroupMeter>();
    world->m_bodies = std::make_unique<BodyPass>();
    world->m_geometry = std::make_unique<StaticGeometry>(scene);
    world->m_dt = static_cast<float>(scene.simulation.dt);
    world->m_seed = scene.simulation.seed;
    world->m_playerValues = scene.player.params;

    for (const PickupDesc& pickup : scene.pickups)
        world->m_pickups.push_back(
            {pickup.kind,
             {static_cast<float>(pickup.position.x), static_cast<float>(pickup.position.y)},
             false});

    PlayerState& player = world->m_player;
    player.enabled = scene.player.enabled;
    player.position = {static_cast<float>(scene.player.position.x),
                       static_cast<float>(scene.player.position.y)};
    player.heading = degToRad(static_cast<float>(scene.player.heading));
    player.group = scene.player.enabled && !scene.player.group.empty()
                       ? scene.groupIndex(scene.player.group)
                       : -1;

    // Every group's bodies start clear of those placed before them (spawnoccupancy.h).
    SpawnOccupancy placed;
    for (std::size_t i = 0; i < scene.groups.size(); ++i) {
        const GroupDesc& desc = scene.groups[i];
        auto group = std::make_unique<Group>();
        group->name = desc.name;
        group->kind = desc.kind;
        group->index = static_cast<int>(i);
        group->values = desc.params;
        group->behaviour = makeBehaviour(desc.kind);
        group->behaviour->setParams(desc.params);
        group->collision = desc.collision;
        // A scene's target is the squad's: other families take one only from setGoal().
        if (desc.target && desc.kind == BehaviourKind::TankSquad) {
            group->target = {static_cast<float>(desc.target->x),
                             static_cast<float>(desc.target->y)};
            group->hasTarget = true;
        }
        group->chaseGroup = desc.chase.empty() ? -1 : scene.groupIndex(desc.chase);
        // Each group draws from its own stream, so adding a group never moves another's agents.
        Random random(mix64(scene.simulation.seed ^ mix64(i + 1)));
        // No family spawns more than its area holds side by side (spawnCapacity): the default
        // spawn stops there itself; a family whose bodies may overlap (worms crawl over each
        // other) would otherwise lay any number in a small area, and every step of a crowd
        // costs the square of its density.
        const std::size_t capacity =
            desc.spawn ? spawnCapacity(desc.spawn->area, group->behaviour->bodyRadius()) : 0;
        if (desc.spawn && static_cast<std::size_t>(desc.spawn->count) > capacity) {
            GroupDesc capped = desc;
            capped.spawn->count = static_cast<int>(capacity);
            group->behaviour->spawn(*group, capped, random, *world->m_geometry, placed);
            group->spawnReport.areaAsked = static_cast<std::size_t>(desc.spawn->count);
            group->spawnReport.areaCapacity = capacity;
        } else {
            group->behaviour->spawn(*group, desc, random, *world->m_geometry, placed);
        }
        for (WorldWarning& warning : spawnShortfall(*group, scene, i))
            world->m_warnings.push_back(std::move(warning));

        if (player.group == static_cast<int>(i)) {
            insertFront(group->agents);
            group->playerLed = true;
            group->agents.px[0] = player.position.x;
            group->agents.py[0] = player.position.y;
            group->agents.heading[0] = player.heading;
            group->agents.flags[0] = kAgentInSchool;
            adoptApartPickups(*group, world->m_pickups, random, *world->m_geometry,
                              world->m_warnings);
        }
        group->nextId = static_cast<std::uint32_t>(group->agents.size());
        world->m_groups.push_back(std::move(group));
    }
    world->noteSceneIdentity(scene);
    world->noteLevelIdentity(scene);
    world->updateBodyRules();
    world->settleBodies();
    world->rebuildIndexes();
    world->computeAllMetrics();
    return world;
}

const GroupState& World::group(int index) const
{
    return *m_groups[static_cast<std::size_t>(index)];
}

Vec2 World::boundsMin() const
{
    return m_geometry->boundsMin();
}

Vec2 World::boundsMax() const
{
    return m_geometry->boundsMax();
}

float World::bodyRadius(int group) const
{
    return m_groups[static_cast<std::size_t>(group)]->behaviour->bodyRadius();
}

World::~World() = default;

int World::groupIndex(const std::string& name) const
{
    for (const auto& group : m_groups)
        if (group->name == name)
            return group->index;
    return -1;
}

std::size_t World::agentCount() const
{
    std::size_t n = 0;
    for (const auto& group : m_groups)
        n += group->agents.size();
    return n;
}

void World::setPointer(Vec2 position, bool pressed)
{
    m_pointer.position = position;
    m_pointer.pressed = pressed;
}

bool World::setTarget(int groupIndex, Vec2 position)
{
    if (groupIndex < 0 || groupIndex >= groupCount() ||
        m_groups[groupIndex]->kind != BehaviourKind::TankSquad)
        return false;
    return setGoal(groupIndex, position);
}

bool World::setGoal(int groupIndex, std::optional<Vec2> position)
{
    if (groupIndex < 0 || groupIndex >= groupCount() ||
        m_groups[groupIndex]->kind == BehaviourKind::FishSchool)
        return false;
    Group& group = *m_groups[groupIndex];
    if (position)
        group.target = *position;
    group.hasTarget = position.has_value();
    ++group.targetVersion;
    return true;
}

std::optional<Error> World::setParam(int groupIndex, int index, double value)
{
    if (groupIndex < 0 || groupIndex >= groupCount())
        return noGroup(groupIndex);
    Group& group = *m_groups[groupIndex];
    if (auto error = checkParamEdit(group.kind, group.values, index, value))
        return Error{"group " + quotedName(group.name) + ": " + error->message};
    group.values[static_cast<std::size_t>(index)] = value;
    group.behaviour->setParams(group.values);
    m_indexesDirty = true;
    return std::nullopt;
}

void World::setInspected(int group, std::uint32_t id)
{
    m_inspection = Inspection{};
    m_inspection.group = group >= 0 && group < groupCount() ? group : -1;
    m_inspection.id = id;
}

float World::bodyWallOverlap(Vec2 p, float radius) const
{
    return m_geometry->bodyOverlap(p, radius);
}

std::optional<Error> World::setParams(int groupIndex, const ParamValues& values)
{
    if (groupIndex < 0 || groupIndex >= groupCount())
        return noGroup(groupIndex);
    Group& group = *m_groups[groupIndex];
    const std::string who = "group " + quotedName(group.name);
    const auto& specs = paramSpecs(group.kind);
    if (values.size() != specs.size())
        return Error{who + ": " + std::to_string(values.size()) + " parameter values given; " +
                     std::string(behaviourKey(group.kind)) + " has " +
                     std::to_string(specs.size())};
    for (std::size_t i = 0; i < specs.size(); ++i)
        if (auto error = checkParamValue(specs[i], values[i], who))
            return error;
    if (auto error = checkParamRelations(group.kind, values))
        return Error{who + ": " + error->message};
    group.values = values;
    group.behaviour->setParams(group.values);
    m_indexesDirty = true;
    return std::nullopt;
}

std::optional<Error> World::setCollision(int groupIndex, const CollisionDesc& collision)
{
    if (groupIndex < 0 || groupIndex >= groupCount())
        return noGroup(groupIndex);
    Group& group = *m_groups[groupIndex];
    if (collision.priority < 0 || collision.priority > kMaxCollisionPriority)
        return Error{"group " + quotedName(group.name) + ": collision priority " +
                     std::to_string(collision.priority) + " is out of range; allowed 0 to " +
                     std::to_string(kMaxCollisionPriority)};
    // The body pass reads every group's rule afresh at each step (updateBodyRules).
    group.collision = collision;
    return std::nullopt;
}

const CollisionDesc& World::collision(int groupIndex) const
{
    return m_groups.at(static_cast<std::size_t>(groupIndex))->collision;
}

std::optional<Error> World::setParam(int groupIndex, const std::string& key, double value)
{
    if (groupIndex < 0 || groupIndex >= groupCount())
        return noGroup(groupIndex);
    const Group& group = *m_groups[groupIndex];
    const auto& specs = paramSpecs(group.kind);
    const int index = paramIndex(specs, key);
    if (index < 0) {
        const std::string who =
            "group " + quotedName(group.name) + " (" + std::string(behaviourKey(group.kind)) + ")";
        return unknownParam(who, specs, key);
    }
    return setParam(groupIndex, index, value);
}

std::optional<Error> World::replaceGeometry(const SceneDesc& scene)
{
    if (auto error = validateScene(scene))
        return error;
    replaceGeometryValidated(scene);
    return std::nullopt;
}

void World::replaceGeometry(const CheckedScene& scene)
{
    replaceGeometryValidated(scene.scene());
}

void World::replaceGeometryValidated(const SceneDesc& scene)
{
    m_geometry = std::make_unique<StaticGeometry>(scene);
    noteLevelIdentity(scene);
}

std::optional<Error> World::setPlayerParam(int index, double value)
{
    if (auto error = checkPlayerParamEdit(index, value))
        return error;
    m_playerValues[static_cast<std::size_t>(index)] = value;
    return std::nullopt;
}

std::optional<Error> World::setPlayerParam(const std::string& key, double value)
{
    const int index = paramIndex(playerParamSpecs(), key);
    if (index < 0)
        return unknownParam("the player", playerParamSpecs(), key);
    return setPlayerParam(index, value);
}

double World::param(int groupIndex, const std::string& key) const
{
    const Group& group = *m_groups[groupIndex];
    const int index = paramIndex(paramSpecs(group.kind), key);
    return index < 0 ? 0.0 : group.values[static_cast<std::size_t>(index)];
}

double World::playerParam(const std::string& key) const
{
    const int index = paramIndex(playerParamSpecs(), key);
    return index < 0 ? 0.0 : m_playerValues[static_cast<std::size_t>(index)];
}

void World::rebuildIndexes(const std::uint8_t* committedMoved, bool mayReorder)
{
    // Every few steps, groups whose behaviour allows it are stored in cell order: a cell's
    // agents, and the cells next to it, then sit together in memory, so the neighbour loops
    // and the agents' own state stay in cache at 100,000 agents. Agent 0 stays agent 0 (the
    // player, a leader); AgentArrays::id keeps each agent's identity.
    constexpr std::uint64_t kReorderInterval = 16;
    const bool reorder = mayReorder && m_step % kReorderInterval == 0;
    const auto reorders = [reorder](const Group& group) {
        return reorder && group.agents.size() > 2 && group.behaviour->allowsReordering();
    };
    // The body pass's bodies are in the old order once any group is reordered.
    for (const auto& group : m_groups)
        if (reorders(*group))
            committedMoved = nullptr;
    m_reorderScratch.resize(static_cast<std::size_t>(threads()));
    // A big group's grid is built on every thread (in pieces of its agents); the other
    // groups are a job each.
    WorkerPool* pool = m_pool.get();
    const auto big = [pool](const Group& group) {
        return pool && group.agents.size() >= UniformGrid::kPieceMinPoints;
    };
    auto rebuild = [&](Group& group, int worker, WorkerPool* piecesPool) {
        AgentArrays& a = group.agents;
        const auto buildGrid = [&] {
            if (!piecesPool) {
                group.grid.build(a.px.data(), a.py.data(), a.size(), group.behaviour->gridCells());
                return;
            }
            group.grid.buildInPieces(
                a.px.data(), a.py.data(), a.size(), group.behaviour->gridCells(),
                static_cast<std::size_t>(piecesPool->threads()),
                [&](std::size_t pieces, auto&& job) {
                    piecesPool->run(pieces, [&](std::size_t t, int) { job(t); });
                });
        };
        if (reorders(group)) {
            buildGrid();
            const std::size_t n = a.size();
            ReorderScratch& scratch = m_reorderScratch[static_cast<std::size_t>(worker)];
            std::vector<std::uint32_t>& order = scratch.order;
            order.resize(n);
            order[0] = 0;
            std::size_t next = 1;
            for (std::size_t k = 0; k < n; ++k) {
                const std::uint32_t i = group.grid.sortedIndex(static_cast<std::uint32_t>(k));
                if (i != 0)
                    order[next++] = i;
            }
            a.permute(order, scratch.values, scratch.ids, scratch.flags);
            group.behaviour->permuteAgents(order);
            std::vector<std::uint32_t>& where = group.indexOfId;
            // Ids run below nextId (agents spawned at run time take new ones).
            where.assign(std::max<std::size_t>(n, group.nextId), kNoAgent);
            for (std::size_t i = 0; i < n; ++i)
                if (a.id[i] < where.size())
                    where[a.id[i]] = static_cast<std::uint32_t>(i);
        }
        // A lone group's grid also serves the body pass (its contacts are found in it).
        if (group.behaviour->searchesGrid(group) || m_groups.size() == 1) {
            buildGrid();
            group.placesMin = group.grid.origin();
            group.placesMax = group.grid.upper();
        } else {
            group.grid.build(a.px.data(), a.py.data(), 0, group.behaviour->gridCells());
            if (a.size() > 0)
                UniformGrid::bounds(a.px.data(), a.py.data(), a.size(), group.placesMin.x,
                                    group.placesMax.x, group.placesMin.y, group.placesMax.y);
        }
        group.bruteForce.build(a.px.data(), a.py.data(), a.size(), 0.0f);
    };
    for (const auto& group : m_groups)
        if (big(*group))
            rebuild(*group, 0, pool);
    forEachGroupShared(
        [&](std::size_t g, int worker) {
            Group& group = *m_groups[g];
            if (!big(group))
                rebuild(group, worker, nullptr);
        },
        [](const Group& group) { group.prefetchGridBuild(); });
    // One index of every body for the families to steer round other groups' bodies (and
    // for the metrics); a world of one group without a lone player needs it only to measure.
    m_bodies->notePlayer(playerIsLoneBody(), m_player.position, playerRadius());
    if (m_groups.size() > 1 || m_metricsEnabled)
        indexBodies(committedMoved);
    m_indexesDirty = false;
}

World::FrameAdvance World::advance(double frameSeconds, int maxSteps)
{
    if (!m_keepPrevious)
        setKeepPrevious(true);
    if (!(frameSeconds > 0.0) || !std::isfinite(frameSeconds))
        frameSeconds = 0.0;
    FrameAdvance out;
    m_events.clear();
    m_advancing = true;
    const double dt = static_cast<double>(m_dt);
    // A frame of exactly 1/60 s steps once with dt = 1/60 in float (a hair longer).
    constexpr double kSlack = 1e-7;
    m_frameTime += frameSeconds;
    while (m_frameTime + kSlack >= dt && out.steps < std::max(maxSteps, 0)) {
        step();
        m_frameTime -= dt;
        ++out.steps;
    }
    m_advancing = false;
    if (m_frameTime + kSlack >= dt) {
        // Behind by more than maxSteps: keep only the part of a step (whole steps counted
        // as the loop counts them).
        const double whole = std::floor((m_frameTime + kSlack) / dt) * dt;
        out.droppedSeconds = std::min(whole, m_frameTime);
        m_frameTime -= out.droppedSeconds;
    }
    out.alpha = static_cast<float>(std::clamp(m_frameTime / dt, 0.0, 1.0 - 1e-6));
    return out;
}

void World::setKeepPrevious(bool keep)
{
    if (keep && !m_keepPrevious) {
        for (auto& group : m_groups)
            group->agents.keepPrevious();
        m_playerPrevious = m_player.position;
    } else if (!keep) {
        for (auto& group : m_groups) {
            AgentArrays& a = group->agents;
            for (auto* v : {&a.prevX, &a.prevY, &a.prevHeading}) {
                v->clear();
                v->shrink_to_fit();
            }
        }
    }
    m_keepPrevious = keep;
}

Vec2 World::interpolatedPosition(int group, std::size_t i, float alpha) const
{
    const AgentArrays& a = m_groups.at(static_cast<std::size_t>(group))->agents;
    const Vec2 now{a.px.at(i), a.py.at(i)};
    if (a.prevX.size() != a.size())
        return now;
    const Vec2 was{a.prevX[i], a.prevY[i]};
    return was + (now - was) * std::clamp(alpha, 0.0f, 1.0f);
}

float World::interpolatedHeading(int group, std::size_t i, float alpha) const
{
    const AgentArrays& a = m_groups.at(static_cast<std::size_t>(group))->agents;
    const float now = a.heading.at(i);
    if (a.prevHeading.size() != a.size())
        return wrapAngle(now);
    const float was = a.prevHeading[i];
    return wrapAngle(was + wrapAngle(now - was) * std::clamp(alpha, 0.0f, 1.0f));
}

Vec2 World::interpolatedPlayerPosition(float alpha) const
{
    if (!m_keepPrevious)
        return m_player.position;
    return m_playerPrevious +
           (m_player.position - m_playerPrevious) * std::clamp(alpha, 0.0f, 1.0f);
}

int World::agentIndex(int group, std::uint32_t id) const
{
    if (group < 0 || group >= groupCount())
        return -1;
    const Group& g = *m_groups[static_cast<std::size_t>(group)];
    const std::size_t n = g.agents.size();
    if (g.indexOfId.empty()) // as built: the index is the id
        return id < n && g.agents.id[id] == id ? static_cast<int>(id) : -1;
    if (id >= g.indexOfId.size() || g.indexOfId[id] == kNoAgent)
        return -1;
    return static_cast<int>(g.indexOfId[id]);
}

void World::planPlayer()
{
    m_playerNext = m_player;
    if (!m_player.enabled)
        return;
    const PlayerParams params = playerParamsFrom(m_playerValues);
    const Vec2 toPointer = m_pointer.position - m_player.position;
    const float distanceToPointer = toPointer.length();
    m_playerNext.velocity = {};
    m_playerNext.speed = 0.0f;
    if (!m_pointer.pressed || distanceToPointer <= params.arriveDistance)
        return;
    const Vec2 dir = toPointer / distanceToPointer;
    const float stepLength =
        std::min(params.moveSpeed * m_dt, distanceToPointer - params.arriveDistance);
    // The seed's canMove(): a ray of rayLength ahead; the player stops short of the wall.
    const Vec2 ahead =
        m_geometry->constrainMove(m_player.position, m_player.position + dir * stepLength,
                                  params.rayLength, WallResponse::Stop);
    // The player is a body like any other: never nearer a surface than its radius.
    const Vec2 next = m_geometry->keepClear(m_player.position, ahead, params.radius);
    m_playerNext.heading = angleOf(dir);
    m_playerNext.position = next;
    m_playerNext.velocity = (next - m_player.position) / m_dt;
    m_playerNext.speed = m_playerNext.velocity.length();
}

StepContext World::context() const
{
    StepContext ctx;
    ctx.dt = m_dt;
    ctx.step = m_step;
    ctx.seed = m_seed;
    ctx.geometry = m_geometry.get();
    ctx.player = &m_player;
    ctx.pointer = m_pointer;
    ctx.groups = &m_groups;
    ctx.search = m_search;
    ctx.laneWidth = m_laneWidth;
    ctx.partAgents = m_partAgents;
    ctx.bodies = bodiesMeetOthers() ? m_bodies.get() : nullptr;
    if (ctx.bodies)
        ctx.bodyGlance = m_bodies->glance();
    return ctx;
}

void World::step()
{
    if (m_indexesDirty)
        rebuildIndexes();
    if (m_keepPrevious) {
        for (auto& group : m_groups)
            group->agents.keepPrevious();
        m_playerPrevious = m_player.position;
    }

    if (!m_advancing)
        m_events.clear();
    if (m_eventsEnabled)
        noteBeforeStep();
    StepContext ctx = context();
    ctx.pickups = &m_pickups;
    if (m_inspection.group >= 0) {
        m_inspection.recorded = false;
        ctx.inspection = &m_inspection;
    }

    // Phase 1: everyone plans from the current state.
    planPlayer();
    planGroups(ctx);
    // The player's plan is agent 0's of the group it leads.
    for (const std::size_t g : m_playerLedGroups) {
        Group* group = m_groups[g].get();
        AgentArrays& a = group->agents;
        if (a.size() > 0) {
            a.nx[0] = m_playerNext.position.x;
            a.ny[0] = m_playerNext.position.y;
            a.nvx[0] = m_playerNext.velocity.x;
            a.nvy[0] = m_playerNext.velocity.y;
            a.nheading[0] = m_playerNext.heading;
            a.nspeed[0] = m_playerNext.speed;
            a.flags[0] |= kAgentInSchool | kAgentAtGoal;
        }
    }

    // Phase 2: bodies are solid. Every body is kept clear of the walls (so the body pass
    // sees where the bodies will be), overlapping bodies of every group are pushed apart,
    // and every body moved since its plan is kept clear of the walls again as it commits:
    // walls win. (The rule is a function of the start and the plan alone: a body neither
    // moved would be left where it is, so it is not asked twice.)
    updateBodyRules();
    m_bodyOffset.resize(m_groups.size() + 1);
    m_bodyOffset[0] = 0;
    for (std::size_t g = 0; g < m_groups.size(); ++g)
        m_bodyOffset[g + 1] = m_bodyOffset[g] + m_groups[g]->agents.size();
    m_clearAgain.resize(m_bodyOffset.back());
    m_clearFrom.resize(m_clearAgain.size());
    cutRanges();
    forEachRangeShared(
        [&](std::size_t t, int) {
            const GroupRange& range = m_ranges[t];
            const BodyGroupRule& rule = m_bodies->rules[range.group];
            const std::size_t offset = m_bodyOffset[range.group];
            std::uint8_t* clearAgain = m_clearAgain.data() + offset;
            if (!rule.fixed)
                keepGroupClear(*m_groups[range.group], rule.radius, clearAgain,
                               m_clearFrom.data() + offset, range.begin, range.end);
            else
                std::fill(clearAgain + range.begin, clearAgain + range.end, std::uint8_t{0});
        },
        [](const Group& group) { group.prefetchMoves(); });
    // A lone group's own grid is a grid of where the step began: contacts are found in it.
    const UniformGrid* startGrid =
        m_groups.size() == 1 && m_groups[0]->grid.size() == m_groups[0]->agents.size()
            ? &m_groups[0]->grid
            : nullptr;
    m_bodies->run(m_groups, m_bodies->rules, playerIsLoneBody(), m_playerNext.position,
                  playerRadius(), *m_geometry, m_dt, BodyPass::kRounds, startGrid,
                  BodyPass::Hold::AllFixed, m_clearAgain.data());
    takePlayerFromBodies(m_playerNext, m_player.position);

    // Phase 3: commit all at once: every range of agents on its own, then each group's
    // crossings told and its arrays swapped.
    m_commitParts.resize(m_ranges.size());
    forEachRangeShared(
        [&](std::size_t t, int) {
            const GroupRange& range = m_ranges[t];
            const BodyGroupRule& rule = m_bodies->rules[range.group];
            const std::size_t offset = m_bodyOffset[range.group];
            // The start clearances the plan looked up, else those keepGroupClear looked up.
            Group& group = *m_groups[range.group];
            const float* clearFrom =
                rule.fixed ? nullptr
                : group.startClearanceKnown && group.startClearance.size() == group.agents.size()
                    ? group.startClearance.data()
                    : m_clearFrom.data() + offset;
            const float radius = rule.fixed ? 0.0f : rule.radius;
            const std::uint8_t* clearAgain = m_clearAgain.data() + offset;
            m_commitParts[t] =
                clearFrom
                    ? commitRange(group, radius, clearAgain, clearFrom, range.begin, range.end)
                    : commitRangeInOrder(group, radius, clearAgain, range.begin, range.end);
        },
        [](const Group& group) { group.prefetchAgents(); });
    // A group's ranges in order: the crossings summed, the first the least key (every group
    // has a range, an empty one too: cutRanges). Then each group finishes on its own, on the
    // threads.
    m_groupCommits.resize(m_groups.size());
    for (std::size_t t = 0; t < m_ranges.size();) {
        const std::size_t g = m_ranges[t].group;
        CommitPart whole = m_commitParts[t];
        for (++t; t < m_ranges.size() && m_ranges[t].group == g; ++t) {
            const CommitPart& part = m_commitParts[t];
            whole.crossings += part.crossings;
            if (part.crossings > 0 && part.firstKey < whole.firstKey) {
                whole.firstKey = part.firstKey;
                whole.first = part.first;
            }
        }
        m_groupCommits[g] = whole;
    }
    forEachGroupShared([&](std::size_t g, int) { finishCommit(*m_groups[g], m_groupCommits[g]); },
                       [](const Group&) {});
    m_player = m_playerNext;
    ++m_step;
    if (m_eventsEnabled)
        gatherEvents();

    rebuildIndexes(m_clearAgain.data());
    if (m_metricsEnabled && m_step % static_cast<std::uint64_t>(m_metricsEvery) == 0)
        computeAllMetrics();
}

void World::computeRoutes(StepContext& ctx)
{
    m_aimedFields.clear();
    for (const std::unique_ptr<Group>& group : m_groups)
        group->behaviour->aimRoutes(*group, ctx, m_aimedFields);
    // Searches in slices (a big level's new goals, FlowField::sliced) queue, oldest first, in
    // the order this step lists them; the others are computed whole.
    m_wholeFields.clear();
    m_slicedFields.clear();
    std::uint64_t order = (m_step + 1) << 24;
    for (FlowField* field : m_aimedFields) {
        field->dequeued();
        if (!field->slicing()) {
            m_wholeFields.push_back(field);
            continue;
        }
        if (field->queueOrder() == 0)
            field->setQueueOrder(order++);
        m_slicedFields.push_back(field);
    }
    // The searches under way first (at most one a lane, see below), then the waiting ones,
    // each oldest first.
    std::sort(m_slicedFields.begin(), m_slicedFields.end(),
              [](const FlowField* a, const FlowField* b) {
                  if (a->searching() != b->searching())
                      return a->searching();
                  return a->queueOrder() < b->queueOrder();
              });
    // Lane l takes the queue's searches l, l + lanes, ... in turn, with kSliceCells cells to
    // settle: a search that stops at the slice's end leads a lane again in the next step, and
    // the ones behind it wait. So at most kSliceLanes searches are under way (each holds a
    // scratch of 21 bytes a cell), and a step settles at most that many slices, whatever
    // comes in.
    const std::size_t lanes = std::min(FlowField::kSliceLanes, m_slicedFields.size());
    auto runLane = [&](std::size_t lane) {
        std::uint64_t left = FlowField::kSliceCells;
        for (std::size_t k = lane; k < m_slicedFields.size() && left > 0;
             k += FlowField::kSliceLanes) {
            FlowField& field = *m_slicedFields[k];
            left -= field.computeSlice(left);
            if (field.searching())
                break; // stopped at the slice's end: the ones behind it wait
        }
    };
    // Each field is a function of its occupancy, its goal's cell and what it was asked to
    // reach alone, and a slice ends at a cell count: any thread, any order gives the same
    // fields.
    const std::size_t tasks = m_wholeFields.size() + lanes;
    auto task = [&](std::size_t t) {
        if (t < m_wholeFields.size())
            m_wholeFields[t]->computeAimed();
        else
            runLane(t - m_wholeFields.size());
    };
    if (m_pool && tasks > 1) {
        m_pool->run(tasks, [&](std::size_t t, int) { task(t); });
    } else {
        for (std::size_t t = 0; t < tasks; ++t)
            task(t);
    }
    m_searchesUnderWay = m_searchesWaiting = 0;
    for (const FlowField* field : m_slicedFields) {
        if (field->searching())
            ++m_searchesUnderWay;
        else if (field->slicing())
            ++m_searchesWaiting;
    }
}

void World::planGroups(StepContext& ctx)
{
    m_playerLedGroups.clear();
    const std::size_t groupCount = m_groups.size();
    computeRoutes(ctx);
    if (!m_pool) {
        // Thousands of small groups: the next ones' objects and arrays are asked for while
        // this one plans. The groups the player leads are noted on the way, so the loop
        // below does not read every group's object again.
        for (std::size_t g = 0; g < groupCount; ++g) {
            // Three groups ahead its object, two ahead its arrays, one ahead the level's
            // lines at its agents (each stage reads what the one before asked for).
            if (g + 3 < groupCount)
                m_groups[g + 3]->prefetchObject();
            if (g + 2 < groupCount)
                m_groups[g + 2]->prefetchAgents();
            if (g + 1 < groupCount)
                m_groups[g + 1]->prefetchPlaces(ctx);
            Group& group = *m_groups[g];
            group.startClearanceKnown = false;
            group.startNearestKnown = false;
            group.behaviour->plan(group, ctx);
            if (group.playerLed)
                m_playerLedGroups.push_back(g);
        }
        return;
    }

    // On the step's threads: every group prepares in order on this one, the parts of all go
    // to the threads in blocks of about kPlanPartAgents agents (a large group's parts each a
    // block, runs of small groups together), then every group finishes in order.
    ctx.workers = m_pool->threads();
    ctx.pool = m_pool.get();
    m_planTasks.clear();
    m_planBlocks.clear();
    std::size_t blockAgents = 0;
    for (std::size_t g = 0; g < groupCount; ++g) {
        Group& group = *m_groups[g];
        group.startClearanceKnown = false;
        group.startNearestKnown = false;
        if (group.playerLed)
            m_playerLedGroups.push_back(g);
        const std::size_t parts = group.behaviour->preparePlan(group, ctx);
        const std::size_t agents = group.agents.size();
        for (std::size_t part = 0; part < parts; ++part) {
            const std::size_t partAgents = parts > 1 ? m_partAgents : agents;
            if (m_planBlocks.empty() || blockAgents + partAgents > m_partAgents) {
                m_planBlocks.push_back(m_planTasks.size());
                blockAgents = 0;
            }
            blockAgents += partAgents;
            m_planTasks.emplace_back(static_cast<std::uint32_t>(g),
                                     static_cast<std::uint32_t>(part));
        }
    }
    const std::size_t blocks = m_planBlocks.size();
    m_planBlocks.push_back(m_planTasks.size());
    ctx.pool = nullptr; // the parts run on it: none of them may ask it for more
    m_pool->run(blocks, [&](std::size_t block, int worker) {
        const std::size_t first = m_planBlocks[block], last = m_planBlocks[block + 1];
        for (std::size_t t = first; t < last; ++t) {
            // A run of small groups: the next ones' objects, arrays and places asked for
            // ahead, as the loop on one thread does.
            if (t + 3 < last)
                m_groups[m_planTasks[t + 3].first]->prefetchObject();
            if (t + 2 < last)
                m_groups[m_planTasks[t + 2].first]->prefetchAgents();
            if (t + 1 < last)
                m_groups[m_planTasks[t + 1].first]->prefetchPlaces(ctx);
            Group& group = *m_groups[m_planTasks[t].first];
            group.behaviour->planPart(group, ctx, m_planTasks[t].second, worker);
        }
    });
    // The groups finish in order on this thread; a large one may cut its own finish into
    // ranges on the threads again (StepContext::forEachRange).
    ctx.pool = m_pool.get();
    for (std::size_t t = 0; t < m_planTasks.size(); ++t) {
        // Once per group: after its last part.
        if (t + 1 < m_planTasks.size() && m_planTasks[t + 1].first == m_planTasks[t].first)
            continue;
        Group& group = *m_groups[m_planTasks[t].first];
        group.behaviour->finishPlan(group, ctx);
    }
    ctx.workers = 1;
}

template <class Job, class Arrays> void World::forEachGroupShared(Job&& job, Arrays&& arrays)
{
    forEachGroupOnThreads(m_groups, m_pool.get(), m_partAgents, m_groupBlocks, job, arrays);
}

static_assert(kPlanPartAgents == 2048, "world.h's m_partAgents starts at kPlanPartAgents");

void World::cutRanges()
{
    // Each group's commit is finished from its ranges: every group has one.
    cutGroupRanges(m_groups, m_partAgents, m_ranges, m_rangeBlocks);
}

template <class Job, class Arrays> void World::forEachRangeShared(Job&& job, Arrays&& arrays)
{
    forEachRangeOnThreads(m_groups, m_pool.get(), m_ranges, m_rangeBlocks, job, arrays);
}

bool World::setThreads(int threads)
{
    if (threads < 0 || threads > kMaxThreads)
        return false;
    if (threads == 0)
        threads = std::min(WorkerPool::hardwareThreads(), kMaxThreads);
    if (threads != this->threads()) {
        m_pool = threads > 1 ? std::make_unique<WorkerPool>(threads) : nullptr;
        m_bodies->setPool(m_pool.get(), m_partAgents);
    }
    return true;
}

int World::threads() const
{
    return m_pool ? m_pool->threads() : 1;
}

const char* World::laneKernels()
{
#if SHOAL_SSE2_LANES
    return "sse2x4";
#else
    return "portable4";
#endif
}

int World::widestLanes()
{
#if SHOAL_WIDE_LANES
    static const int widest = __builtin_cpu_supports("avx2") ? 8 : 4;
    return widest;
#else
    return 4;
#endif
}

bool World::setLaneWidth(int width)
{
    if (width == 0)
        width = widestLanes();
    if (width != 4 && !(width == 8 && widestLanes() == 8))
        return false;
    m_laneWidth = width;
    return true;
}

void World::step(int count)
{
    for (int i = 0; i < count; ++i)
        step();
}

float World::playerRadius() const
{
    return playerParamsFrom(m_playerValues).radius;
}

void World::takePlayerFromBodies(PlayerState& player, Vec2 from)
{
    // The player gives way to a body that cannot move (BodyPass::run): it ends where the
    // pass left it, its body in the pass (a lone player) or agent 0 of the group it leads.
    if (!player.enabled)
        return;
    Vec2 at = player.position;
    if (playerIsLoneBody()) {
        if (const std::optional<Vec2> pushed = m_bodies->lonePlayerAt())
            at = *pushed;
    } else if (player.group >= 0) {
        const AgentArrays& a = m_groups[static_cast<std::size_t>(player.group)]->agents;
        if (a.size() > 0)
            at = {a.nx[0], a.ny[0]};
    }
    if (at == player.position)
        return;
    player.position = at;
    player.velocity = (at - from) / m_dt;
    player.speed = player.velocity.length();
}

void World::settleBodies()
{
    // Where the agents start: every body kept clear of the walls (a body placed against one),
    // then the spawned places as plans to stay put, which the body pass parts where they
    // overlap (free fish too: their spot is where they settle), a few times over, as each
    // pass finds the contacts its pushes made. The player is where the passes leave it.
    m_bodies->notePlayer(playerIsLoneBody(), m_player.position, playerRadius());
    for (std::size_t g = 0; g < m_groups.size(); ++g) {
        AgentArrays& a = m_groups[g]->agents;
        const BodyGroupRule& rule = m_bodies->rules[g];
        if (rule.fixed)
            continue;
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (m_groups[g]->playerLed && i == 0)
                continue;
            const Vec2 kept =
                m_geometry->keepClear({a.px[i], a.py[i]}, {a.px[i], a.py[i]}, rule.radius);
            a.px[i] = kept.x;
            a.py[i] = kept.y;
        }
    }
    std::size_t spent = 0;
    for (int pass = 0; pass < BodyPass::kSettlePasses && spent < BodyPass::kSettleBudget; ++pass) {
        for (auto& group : m_groups) {
            AgentArrays& a = group->agents;
            a.nx = a.px;
            a.ny = a.py;
            a.nvx.assign(a.size(), 0.0f);
            a.nvy.assign(a.size(), 0.0f);
        }
        const std::size_t moved = m_bodies->run(
            m_groups, m_bodies->rules, playerIsLoneBody(), m_player.position, playerRadius(),
            *m_geometry, m_dt, BodyPass::kSettleRounds, nullptr, BodyPass::Hold::OnlyFixedGroups);
        spent += m_bodies->contactCount() * static_cast<std::size_t>(BodyPass::kSettleRounds);
        for (auto& group : m_groups) {
            AgentArrays& a = group->agents;
            a.px = a.nx;
            a.py = a.ny;
        }
        takePlayerFromBodies(m_player, m_player.position);
        m_player.velocity = {};
        m_player.speed = 0.0f;
        m_bodies->notePlayer(playerIsLoneBody(), m_player.position, playerRadius());
        if (moved == 0)
            break;
    }
    m_bodies->releaseRoundState();
}

void World::updateBodyRules()
{
    std::vector<BodyGroupRule>& rules = m_bodies->rules;
    rules.resize(m_groups.size());
    const std::size_t count = m_groups.size();
    for (std::size_t g = 0; g < count; ++g) {
        // A loop too short to hide a miss a group ahead: the groups' objects sixteen ahead,
        // their behaviours eight ahead.
        if (g + 16 < count)
            m_groups[g + 16]->prefetchBehaviourPointer();
        if (g + 8 < count)
            prefetchLine(m_groups[g + 8]->behaviour.get());
        const Group& group = *m_groups[g];
        rules[g].radius = group.behaviour->bodyRadius();
        rules[g].collision = group.collision;
        rules[g].fixed = group.behaviour->keepsOwnBodies();
    }
}

void World::keepGroupClear(Group& group, float radius, std::uint8_t* clearAgain, float* clearFrom,
                           std::size_t begin, std::size_t end)
{
    AgentArrays& a = group.agents;
    const float inverseDt = 1.0f / m_dt;
    const std::size_t n = a.size();
    // Nothing within the radius of anywhere on the move (the clearance is a lower bound; a
    // millimetre covers rounding): keepClear would leave it untouched, so it is not asked.
    // That is most bodies of most levels.
    const auto mayReach = [radius](float clear, float dx, float dy) {
        const float room = clear - radius - 1e-3f;
        return !(room > 0.0f && dx * dx + dy * dy < room * room);
    };
    const float* px = a.px.data();
    const float* py = a.py.data();
    const float* nx = a.nx.data();
    const float* ny = a.ny.data();
    if (group.startClearanceKnown && group.startClearance.size() == n) {
        // The clearances the family looked up as it planned: the test in one pass the
        // compiler runs in lanes, then the few bodies near geometry (each is on its own, so
        // the order changes nothing).
        const float* known = group.startClearance.data();
        std::size_t i = 0;
        const std::size_t count = end - begin;
        markMayReach(known + begin, px + begin, py + begin, nx + begin, ny + begin, radius, count,
                     clearAgain + begin, i);
        for (i += begin; i < end; ++i)
            clearAgain[i] = mayReach(known[i], nx[i] - px[i], ny[i] - py[i]) ? 1 : 0;
        // (The commit reads the plan's clearances where they are: no copy into clearFrom.)
        // Eight at a time past the many that cannot reach a wall.
        forEachFlagged(clearAgain + begin, count, [&](std::size_t j) {
            const std::size_t k = begin + j;
            clearAgain[k] =
                !(group.playerLed && k == 0) &&
                keepAgentClear(*m_geometry, a, k, {px[k], py[k]}, radius, known[k], inverseDt);
        });
        return;
    }
    const bool ordered = group.grid.size() == n;
    for (std::size_t k = begin; k < end; ++k) {
        const std::size_t i = ordered ? group.grid.sortedIndex(static_cast<std::uint32_t>(k)) : k;
        const Vec2 from{px[i], py[i]};
        const float clear = m_geometry->clearance(from);
        clearFrom[i] = clear;
        if (!mayReach(clear, nx[i] - from.x, ny[i] - from.y)) {
            clearAgain[i] = 0;
            continue;
        }
        clearAgain[i] = !(group.playerLed && i == 0) &&
                        keepAgentClear(*m_geometry, a, i, from, radius, clear, inverseDt);
    }
}

World::CommitPart World::commitRange(Group& group, float radius, const std::uint8_t* clearAgain,
                                     const float* clearFrom, std::size_t begin, std::size_t end)
{
    AgentArrays& a = group.agents;
    const std::size_t n = a.size();
    const float inverseDt = 1.0f / m_dt;
    // Solid against the walls: the body never ends nearer a surface than its radius, and
    // never gets there through one. Asked again only of bodies moved since their plan was
    // kept clear (by that, or by the body pass): it would leave the others where they are.
    // (The player keeps clear in planPlayer; bodies that follow their family's own paths,
    // radius 0 here, in their family.) Each body on its own, so in any order: eight at a
    // time past the many that were not moved.
    // A body the pass pushed no further than its clearance allows needs no look-up either.
    if (radius > 0.0f)
        forEachFlagged(clearAgain + begin, end - begin, [&](std::size_t j) {
            const std::size_t i = begin + j;
            const Vec2 from{a.px[i], a.py[i]};
            if (!StaticGeometry::moveIsClear(clearFrom[i], radius, from, {a.nx[i], a.ny[i]}))
                keepAgentClear(*m_geometry, a, i, from, radius, clearFrom[i], inverseDt);
        });
    // The exact, Box2D-independent check, of motions that could reach geometry only. The
    // metrics name the first crossing body in cell order (where the grid still holds this
    // step's start positions), as a walk in that order would: the least (cell, index).
    const bool ordered = group.grid.size() == n;
    CommitPart part;
    const float* px = a.px.data();
    const float* py = a.py.data();
    const float* nx = a.nx.data();
    const float* ny = a.ny.data();
    std::size_t i = begin;
    auto cross = [&](std::size_t j) {
        const Vec2 from{px[j], py[j]}, to{nx[j], ny[j]};
        const float moved2 = distanceSquared(from, to);
        if (!(moved2 > 0.0f && moved2 >= clearFrom[j] * clearFrom[j] &&
              m_geometry->segmentCrosses(from, to)))
            return;
        ++part.crossings;
        const std::uint64_t cell = ordered ? group.grid.cellOf(static_cast<std::uint32_t>(j)) : 0;
        const std::uint64_t key = (cell << 32) | j;
        if (key < part.firstKey) {
            part.firstKey = key;
            part.first = j;
        }
    };
    {
        // Four at a time to the few that moved as far as their clearance (the same
        // operations as distanceSquared: (from - to) squared and summed).
        using V = Float4;
        const V zero(0.0f);
        for (; i + V::kWidth <= end; i += V::kWidth) {
            const V dx = V::load(px + i) - V::load(nx + i);
            const V dy = V::load(py + i) - V::load(ny + i);
            const V moved2 = dx * dx + dy * dy;
            const V clear = V::load(clearFrom + i);
            const int far = laneBits((moved2 > zero) & (moved2 >= clear * clear));
            if (SHOAL_UNLIKELY(far != 0))
                for (int l = 0; l < V::kWidth; ++l)
                    if ((far >> l) & 1)
                        cross(i + static_cast<std::size_t>(l));
        }
    }
    for (; i < end; ++i)
        cross(i);
    // The stuck times (noteStuck), the arrays in locals: the flags' byte stores could alias
    // the vectors' members, which would be loaded anew for every agent.
    {
        const float* vx = a.nvx.data();
        const float* vy = a.nvy.data();
        float* stuck = a.stuckTime.data();
        std::uint8_t* flags = a.flags.data();
        const float dt = m_dt;
        for (std::size_t j = begin; j < end; ++j) {
            const float speed2 = vx[j] * vx[j] + vy[j] * vy[j];
            const float t = speed2 < kStuckSpeed * kStuckSpeed && !(flags[j] & kAgentAtGoal)
                                ? stuck[j] + dt
                                : 0.0f;
            stuck[j] = t;
            flags[j] = t >= kStuckSeconds ? static_cast<std::uint8_t>(flags[j] | kAgentStuck)
                                          : static_cast<std::uint8_t>(flags[j] & ~kAgentStuck);
        }
    }
    return part;
}

void World::finishCommit(Group& group, const CommitPart& part)
{
    AgentArrays& a = group.agents;
    group.metrics.crossingAgent = -1;
    if (part.crossings > 0) {
        group.metrics.crossingAgent = static_cast<int>(a.id[part.first]);
        group.metrics.crossingFrom = {a.px[part.first], a.py[part.first]};
        group.metrics.crossingTo = {a.nx[part.first], a.ny[part.first]};
    }
    a.commit();
    group.metrics.wallCrossings = part.crossings;
    group.metrics.totalWallCrossings += part.crossings;
}

World::CommitPart World::commitRangeInOrder(Group& group, float radius,
                                            const std::uint8_t* clearAgain, std::size_t begin,
                                            std::size_t end)
{
    AgentArrays& a = group.agents;
    const std::size_t n = a.size();
    const float inverseDt = 1.0f / m_dt;
    CommitPart part;
    // Visit agents in cell order (the grid still holds this step's start positions) so the
    // clearance lookups walk the level coherently instead of jumping around in memory. The
    // first crossing is the first in that order.
    const bool ordered = group.grid.size() == n;
    for (std::size_t k = begin; k < end; ++k) {
        const std::size_t i = ordered ? group.grid.sortedIndex(static_cast<std::uint32_t>(k)) : k;
        const Vec2 from{a.px[i], a.py[i]};
        // One look-up serves the solid-body rule and the crossing test.
        const float clearFromHere = m_geometry->clearance(from);
        if (radius > 0.0f && clearAgain[i])
            keepAgentClear(*m_geometry, a, i, from, radius, clearFromHere, inverseDt);
        // The exact, Box2D-independent check: only motions that could reach geometry.
        const Vec2 to{a.nx[i], a.ny[i]};
        const float moved2 = distanceSquared(from, to);
        if (moved2 > 0.0f && moved2 >= clearFromHere * clearFromHere &&
            m_geometry->segmentCrosses(from, to)) {
            if (part.crossings++ == 0) {
                part.firstKey = k;
                part.first = i;
            }
        }
        noteStuck(a, i, m_dt);
    }
    return part;
}

void World::computeAllMetrics()
{
    for (auto& group : m_groups)
        m_meter->measure(*group);
    if (!m_bodies->indexed())
        indexBodies();
    // Lasting overlaps grow by the time since they were last looked at (one step, unless
    // the viewer measures every few).
    const std::uint64_t since = m_step > m_metricsStep ? m_step - m_metricsStep : 1;
    m_bodies->measure(m_groups, *m_geometry, m_dt * static_cast<float>(since));
    m_metricsStep = m_step;
}

bool World::bodiesMeetOthers() const
{
    return m_groups.size() > 1 || (playerIsLoneBody() && !m_groups.empty());
}

void World::indexBodies(const std::uint8_t* committedMoved)
{
    m_bodies->index(m_groups, playerIsLoneBody(), m_player.position, playerRadius(),
                    committedMoved);
}

std::uint64_t World::stateHash() const
{
    std::uint64_t h = kFnvOffset;
    hashBytes(h, &m_step, sizeof m_step);
    for (const auto& group : m_groups) {
        const AgentArrays& a = group->agents;
        hashVector(h, a.px);
        hashVector(h, a.py);
        hashVector(h, a.vx);
        hashVector(h, a.vy);
        hashVector(h, a.heading);
        hashVector(h, a.speed);
        hashVector(h, a.flags);
        group->behaviour->hashState(h);
    }
    hashBytes(h, &m_player.position, sizeof m_player.position);
    hashBytes(h, &m_player.heading, sizeof m_player.heading);
    for (const PickupState& pickup : m_pickups) {
        const unsigned char taken = pickup.taken ? 1 : 0;
        hashBytes(h, &taken, 1);
    }
    return h;
}

std::size_t World::memoryBytes() const
{
    std::size_t bytes = m_meter->memoryBytes() + m_bodies->memoryBytes();
    for (const ReorderScratch& scratch : m_reorderScratch)
        bytes += scratch.order.capacity() * sizeof(std::uint32_t) +
                 scratch.values.capacity() * sizeof(float) +
                 scratch.ids.capacity() * sizeof(std::uint32_t) + scratch.flags.capacity();
    for (const auto& group : m_groups)
        bytes += group->agents.memoryBytes() + group->grid.memoryBytes() +
                 group->behaviour->memoryBytes();
    return bytes;
}

} // namespace shoal
