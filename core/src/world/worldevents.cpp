// World::events(): what happened to agents in a step, found by comparing each agent's flags
// and the pickups where the step began with where it ended (the families already say what
// an agent is doing in its flags), and from the pickups a family took.

#include <shoal/world.h>

#include "world/behaviour.h"

#include <algorithm>

namespace shoal {

namespace {

/// The flag whose setting in a step is each event, in the order events of one agent come.
struct FlagEvent
{
    std::uint8_t flag;
    WorldEventKind kind;
};
constexpr FlagEvent kFlagEvents[] = {
    {kAgentInSchool, WorldEventKind::FishJoined},
    {kAgentArrived, WorldEventKind::GoalReached},
    {kAgentStuck, WorldEventKind::AgentBlocked},
    {kAgentBlocked, WorldEventKind::WallHit},
};
constexpr std::uint8_t kEventFlags = kAgentInSchool | kAgentArrived | kAgentStuck | kAgentBlocked;

} // namespace

void World::setEventsEnabled(bool enabled)
{
    m_eventsEnabled = enabled;
    if (!enabled) {
        m_events.clear();
        for (auto& group : m_groups) {
            group->flagsBefore.clear();
            group->flagsBefore.shrink_to_fit();
        }
    }
}

void World::noteBeforeStep()
{
    // Copies into buffers kept from step to step: no allocation once they have grown.
    for (auto& group : m_groups)
        group->flagsBefore.assign(group->agents.flags.begin(), group->agents.flags.end());
    m_takenBefore.resize(m_pickups.size());
    for (std::size_t k = 0; k < m_pickups.size(); ++k)
        m_takenBefore[k] = m_pickups[k].taken ? 1 : 0;
}

void World::gatherEvents()
{
    // (No agent joins, leaves or moves to another index between the step's start and here.)
    for (const auto& group : m_groups) {
        const AgentArrays& a = group->agents;
        const std::vector<std::uint8_t>& before = group->flagsBefore;
        const std::vector<std::uint32_t>* taken = group->behaviour->pickupsTaken();
        std::size_t nextTaken = 0;
        const std::size_t n = std::min(a.size(), before.size());
        for (std::size_t i = 0; i < n; ++i) {
            const auto raised = static_cast<std::uint8_t>(a.flags[i] & ~before[i] & kEventFlags);
            const bool ate = taken && nextTaken < taken->size() && (*taken)[nextTaken] == i;
            if (raised == 0 && !ate)
                continue;
            if (group->playerLed && i == 0 && !ate)
                continue; // the player is in its school and at its goal by definition
            for (const FlagEvent& e : kFlagEvents)
                if (raised & e.flag)
                    m_events.push_back(
                        {e.kind, group->index, a.id[i], -1, {a.px[i], a.py[i]}, m_step});
            // The coins this agent ate, in the order it ate them (the list is in agent order).
            for (; taken && nextTaken + 1 < taken->size() && (*taken)[nextTaken] == i;
                 nextTaken += 2) {
                const auto k = static_cast<std::size_t>((*taken)[nextTaken + 1]);
                if (k < m_pickups.size() && k < m_takenBefore.size() && !m_takenBefore[k])
                    m_events.push_back({WorldEventKind::CoinEaten, group->index, a.id[i],
                                        static_cast<int>(k), m_pickups[k].position, m_step});
            }
        }
    }
}

} // namespace shoal
