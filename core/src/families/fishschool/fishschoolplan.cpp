// The fish school's plan, in the seed's phases: free fish meander and wait to be picked up;
// each school member scans its neighbours, decides its band state (make room, close up or
// rest in the band) and is queued; queued members steer as many at a time as the scan is
// wide (band rule, alignment, following the player, the drive, the move). Every phase is an
// inlined template (fishschoolkernel.h), so the grid (four lanes, or eight:
// fishschoolplanwide.cpp) and the brute-force reference (one) share the arithmetic.

#include "families/fishschool/fishschoolkernel.h"

#include <atomic>

namespace shoal {

std::size_t FishSchoolBehaviour::preparePlan(Group& group, const StepContext& ctx)
{
    withNeighbourSearch(ctx, [&](auto search) {
        gatherInCellOrder(neighbourSearch<typename decltype(search)::type>(group), group.agents,
                          ctx);
    });
    const AgentArrays& a = group.agents;
    const std::size_t n = a.size();
    prepareState(n, ctx.workers);
    // The clearances looked up here are handed to the world's wall rule (every agent's, the
    // player's too).
    group.startClearance.resize(n);
    if (group.playerLed && n > 0)
        group.startClearance[0] = ctx.geometry->clearance({a.px[0], a.py[0]});
    // How far the other bodies are, for the body pass: each member's scan tells (the player,
    // planned elsewhere, learns nothing here).
    group.startNearest2.resize(n);
    if (group.playerLed && n > 0)
        group.startNearest2[0] = 0.0f;
    return ctx.planParts(n);
}

void FishSchoolBehaviour::planPart(Group& group, const StepContext& ctx, std::size_t part,
                                   int worker)
{
#if SHOAL_WIDE_LANES
    if (ctx.laneWidth == 8 && ctx.search == NeighbourSearch::Grid) {
        planPartWide(group, ctx, part, worker);
        return;
    }
#endif
    withNeighbourSearch(ctx, [&](auto search) {
        using Search = typename decltype(search)::type;
        planPartWith(group, ctx, part, worker, neighbourSearch<Search>(group));
    });
}

void FishSchoolBehaviour::finishPlan(Group& group, const StepContext& ctx)
{
    (void)ctx;
    for (const std::vector<std::uint32_t>& joined : m_joined)
        for (std::uint32_t i : joined)
            group.agents.flags[i] |= kAgentInSchool;
    group.startClearanceKnown = true;
    group.startNearestKnown = true;
}

void FishSchoolBehaviour::prepareState(std::size_t n, int workers)
{
    m_joined.resize(static_cast<std::size_t>(workers > 1 ? workers : 1));
    for (std::vector<std::uint32_t>& joined : m_joined)
        joined.clear();
    if (m_homeX.size() != n) {
        m_homeX.assign(n, std::numeric_limits<float>::quiet_NaN());
        m_homeY.assign(n, std::numeric_limits<float>::quiet_NaN());
    }
}

template <class Search>
void FishSchoolBehaviour::gatherInCellOrder(const Search& search, const AgentArrays& a,
                                            const StepContext& ctx)
{
    // Neighbour attributes in cell order (one pass), so the inner loop reads contiguous
    // memory; agents are visited in cell order too, so the clearance grid and the cells stay
    // in cache. The padding past n only feeds lanes that are masked off.
    const std::size_t n = a.size();
    for (auto* v : {&m_sortedVx, &m_sortedVy, &m_memberX, &m_memberY})
        v->resize(n + kLanePadding, 0.0f);
    std::atomic<bool> someFree{false};
    ctx.forEachRange(n, [&](std::size_t begin, std::size_t end) {
        bool free = false;
        for (std::size_t k = begin; k < end; ++k) {
            const std::size_t i = search.sortedIndex(static_cast<std::uint32_t>(k));
            const bool member = (a.flags[i] & kAgentInSchool) != 0;
            free |= !member;
            m_memberX[k] = member ? a.px[i] : std::numeric_limits<float>::quiet_NaN();
            m_memberY[k] = member ? a.py[i] : std::numeric_limits<float>::quiet_NaN();
            m_sortedVx[k] = a.vx[i];
            m_sortedVy[k] = a.vy[i];
        }
        if (free)
            someFree.store(true, std::memory_order_relaxed);
    });
    m_freeFish.clear();
    m_freeFishKnown = true;
    if (someFree.load(std::memory_order_relaxed)) {
        for (std::size_t i = 0; i < n && m_freeFishKnown; ++i) {
            if (a.flags[i] & kAgentInSchool)
                continue;
            m_freeFishKnown = m_freeFish.size() < kFreeFishSeen;
            m_freeFish.push_back({a.px[i], a.py[i]});
        }
    }
}

} // namespace shoal
