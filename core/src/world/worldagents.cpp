// World::spawnAgent(), despawnAgent() and teleportAgent(): a game adds, removes and moves
// agents between steps, without rebuilding the world. Each touches only the agent it names
// (and the group's index of ids): every other agent keeps its place and state.

#include <shoal/world.h>

#include <shoal/displaytext.h>

#include "geometry/staticgeometry.h"
#include "world/behaviour.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace shoal {

namespace {

constexpr std::uint32_t kNoAgent = 0xFFFFFFFFu;

/// Flags a placed agent starts with: none of what it was doing, but still in the school.
constexpr std::uint8_t kKeptWhenPlaced = kAgentInSchool;

template <class T> void eraseAt(std::vector<T>& v, std::size_t i)
{
    if (i < v.size())
        v.erase(v.begin() + static_cast<std::ptrdiff_t>(i));
}

std::string groupName(const GroupState& group)
{
    return "group " + quotedName(group.name);
}

} // namespace

std::optional<Error> World::checkPlace(int groupIndex, Vec2 p) const
{
    const Group& group = *m_groups[static_cast<std::size_t>(groupIndex)];
    const float radius = group.behaviour->bodyRadius();
    const Vec2 lo = m_geometry->boundsMin(), hi = m_geometry->boundsMax();
    if (!(p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y))
        return Error{groupName(group) + ": [" + formatFloat(p.x) + ", " + formatFloat(p.y) +
                     "] is outside the level's bounds [" + formatFloat(lo.x) + ", " +
                     formatFloat(lo.y) + "] to [" + formatFloat(hi.x) + ", " + formatFloat(hi.y) +
                     "]"};
    if (m_geometry->isInsideSolid(p))
        return Error{groupName(group) + ": [" + formatFloat(p.x) + ", " + formatFloat(p.y) +
                     "] lies inside an obstacle; pick a place where placeIsClear() holds"};
    const float overlap = m_geometry->bodyOverlap(p, radius);
    if (overlap > 0.0f)
        return Error{groupName(group) + ": a body of radius " + formatFloat(radius) + " m at [" +
                     formatFloat(p.x) + ", " + formatFloat(p.y) +
                     "] overlaps a wall or obstacle by " + formatFloat(overlap) +
                     " m; pick a place where placeIsClear() holds"};
    return std::nullopt;
}

bool World::placeIsClear(int group, Vec2 position) const
{
    return group >= 0 && group < groupCount() && !checkPlace(group, position);
}

void World::agentsChanged(Group& group)
{
    const AgentArrays& a = group.agents;
    group.indexOfId.assign(std::max<std::size_t>(a.size(), group.nextId), kNoAgent);
    for (std::size_t i = 0; i < a.size(); ++i)
        group.indexOfId[a.id[i]] = static_cast<std::uint32_t>(i);
    // The grids and the body index hold the agents as they are now (no reshuffle: that
    // waits for its step), so queries between steps see the change.
    rebuildIndexes(nullptr, false);
}

Expected<std::uint32_t> World::spawnAgent(int groupIndex, Vec2 position, float heading)
{
    if (groupIndex < 0 || groupIndex >= groupCount())
        return Error{"no group with index " + std::to_string(groupIndex)};
    Group& group = *m_groups[static_cast<std::size_t>(groupIndex)];
    if (!group.behaviour->allowsSpawning())
        return Error{groupName(group) + " (" + std::string(behaviourKey(group.kind)) +
                     "): its agents cannot be added at run time (a worm's body is the path "
                     "its head took)"};
    if (!std::isfinite(heading))
        return Error{groupName(group) + ": the heading is not a finite number"};
    if (auto error = checkPlace(groupIndex, position))
        return *error;
    AgentArrays& a = group.agents;
    const bool keepsPrevious = a.prevX.size() == a.size();
    const std::size_t i = a.size();
    a.resize(i + 1);
    const std::uint32_t id = group.nextId++;
    a.id[i] = id;
    a.px[i] = a.nx[i] = position.x;
    a.py[i] = a.ny[i] = position.y;
    a.heading[i] = a.nheading[i] = wrapAngle(heading);
    a.flags[i] = group.kind == BehaviourKind::FishSchool ? kAgentInSchool : 0;
    if (keepsPrevious) {
        a.prevX.push_back(position.x);
        a.prevY.push_back(position.y);
        a.prevHeading.push_back(a.heading[i]);
    }
    group.behaviour->agentAdded(group);
    agentsChanged(group);
    return id;
}

std::optional<Error> World::despawnAgent(int groupIndex, std::uint32_t id)
{
    if (groupIndex < 0 || groupIndex >= groupCount())
        return Error{"no group with index " + std::to_string(groupIndex)};
    Group& group = *m_groups[static_cast<std::size_t>(groupIndex)];
    if (!group.behaviour->allowsSpawning())
        return Error{groupName(group) + " (" + std::string(behaviourKey(group.kind)) +
                     "): its agents cannot be removed at run time (a worm's body is the path "
                     "its head took)"};
    const int index = agentIndex(groupIndex, id);
    if (index < 0)
        return Error{groupName(group) + " has no agent with id " + std::to_string(id)};
    if (group.playerLed && index == 0)
        return Error{groupName(group) + ": agent " + std::to_string(id) +
                     " is the player, which cannot be removed"};
    const auto i = static_cast<std::size_t>(index);
    AgentArrays& a = group.agents;
    for (std::vector<float>* v :
         {&a.px, &a.py, &a.vx, &a.vy, &a.heading, &a.speed, &a.stuckTime, &a.goalDistance, &a.nx,
          &a.ny, &a.nvx, &a.nvy, &a.nheading, &a.nspeed, &a.prevX, &a.prevY, &a.prevHeading,
          &group.startClearance, &group.startNearest2})
        eraseAt(*v, i);
    eraseAt(a.flags, i);
    eraseAt(a.id, i);
    group.behaviour->agentRemoved(i);
    agentsChanged(group);
    return std::nullopt;
}

std::optional<Error> World::teleportAgent(int groupIndex, std::uint32_t id, Vec2 position,
                                          std::optional<float> heading)
{
    if (groupIndex < 0 || groupIndex >= groupCount())
        return Error{"no group with index " + std::to_string(groupIndex)};
    Group& group = *m_groups[static_cast<std::size_t>(groupIndex)];
    if (!group.behaviour->allowsSpawning())
        return Error{groupName(group) + " (" + std::string(behaviourKey(group.kind)) +
                     "): its agents cannot be moved by hand (a worm's body is the path its "
                     "head took)"};
    const int index = agentIndex(groupIndex, id);
    if (index < 0)
        return Error{groupName(group) + " has no agent with id " + std::to_string(id)};
    if (group.playerLed && index == 0)
        return Error{groupName(group) + ": agent " + std::to_string(id) +
                     " is the player, which the pointer moves"};
    if (heading && !std::isfinite(*heading))
        return Error{groupName(group) + ": the heading is not a finite number"};
    if (auto error = checkPlace(groupIndex, position))
        return error;
    const auto i = static_cast<std::size_t>(index);
    AgentArrays& a = group.agents;
    a.px[i] = a.nx[i] = position.x;
    a.py[i] = a.ny[i] = position.y;
    if (heading)
        a.heading[i] = a.nheading[i] = wrapAngle(*heading);
    a.vx[i] = a.vy[i] = a.speed[i] = a.nvx[i] = a.nvy[i] = a.nspeed[i] = 0.0f;
    a.stuckTime[i] = 0.0f;
    a.flags[i] &= kKeptWhenPlaced;
    if (a.prevX.size() == a.size()) {
        a.prevX[i] = position.x;
        a.prevY[i] = position.y;
        a.prevHeading[i] = a.heading[i];
    }
    group.behaviour->agentMoved(i);
    agentsChanged(group);
    return std::nullopt;
}

std::optional<Error> World::setAgentGoal(int groupIndex, std::uint32_t id,
                                         std::optional<Vec2> position)
{
    if (groupIndex < 0 || groupIndex >= groupCount())
        return Error{"no group with index " + std::to_string(groupIndex)};
    Group& group = *m_groups[static_cast<std::size_t>(groupIndex)];
    const int index = agentIndex(groupIndex, id);
    if (index < 0)
        return Error{groupName(group) + " has no agent with id " + std::to_string(id)};
    if (position && !(std::isfinite(position->x) && std::isfinite(position->y)))
        return Error{groupName(group) + ": the goal is not a finite point"};
    const auto i = static_cast<std::size_t>(index);
    if (!group.behaviour->setAgentGoal(group, i, position))
        return Error{groupName(group) + " (" + std::string(behaviourKey(group.kind)) +
                     "): its agents take no goals of their own (a tank squad's do)"};
    // It sets off for its new goal: parked no more.
    group.agents.flags[i] &= static_cast<std::uint8_t>(~(kAgentArrived | kAgentAtGoal));
    return std::nullopt;
}

} // namespace shoal
