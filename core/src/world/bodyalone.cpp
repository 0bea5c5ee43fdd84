// BodyPass::markLonely: the bodies that no other body can come near enough to touch this
// step, which the contact search then skips. Most followers of many small groups are such:
// apart from their fellows, and far from the other groups.

#include "world/bodypass.h"

#include "kernels/lanes.h"

#include <atomic>
#include <cmath>

namespace shoal {

bool BodyPass::markLonely(float maxRadius)
{
    // Two bodies meet only if their plans are nearer than the larger pair reach, so where
    // the step began nearer than that and both moves (a little more for rounding). A body
    // is alone when its group's plan learnt that every other body began further away than
    // that (Group::startNearest2): its own move, and the largest of all the others' (m_maxMove,
    // whatever grid the search uses). Its own, not twice the largest: most bodies of a crowd
    // move a fraction of the fastest one.
    if (!m_stepping || !m_groups)
        return false;
    const float base = (2.0f + kContactMargin) * maxRadius + m_maxMove;
    // Groups whose plan told nothing leave their bodies not alone. Each group is marked on
    // its own, on the step's threads.
    std::atomic<bool> any{false};
    m_lonely.assign(m_x.size(), 0);
    const std::vector<std::unique_ptr<Group>>& groups = *m_groups;
    // (The groups ahead asked for: thousands of small groups, each in allocations of its
    // own.)
    // In gatherBodies' spans (a large group's too, on every thread).
    forEachRangeOnThreads(
        groups, m_pool, m_spans, m_spanBlocks,
        [&](std::size_t t, int) {
            const BodySpan& span = m_spans[t];
            const Group& group = *groups[span.group];
            if (!group.startNearestKnown || group.startNearest2.size() != group.agents.size())
                return;
            if (!any.load(std::memory_order_relaxed))
                any.store(true, std::memory_order_relaxed);
            const std::size_t count = span.end - span.begin;
            const float* nearest2 = group.startNearest2.data() + span.begin;
            const AgentArrays& a = group.agents;
            const float *px = a.px.data() + span.begin, *py = a.py.data() + span.begin;
            // Where the pass has the bodies now: their plans.
            const std::size_t first = m_groupStart[span.group] + span.begin;
            const float* nx = m_x.data() + first;
            const float* ny = m_y.data() + first;
            std::uint8_t* lonely = m_lonely.data() + first;
            std::size_t i = 0;
            const Float4 vBase(base), vSlack(1.001f), vEps(1e-3f);
            for (; i + Float4::kWidth <= count; i += Float4::kWidth) {
                const Float4 dx = Float4::load(nx + i) - Float4::load(px + i);
                const Float4 dy = Float4::load(ny + i) - Float4::load(py + i);
                const Float4 reach = (vBase + sqrt(dx * dx + dy * dy)) * vSlack + vEps;
                const int bits = laneBits(Float4::load(nearest2 + i) >= reach * reach);
                for (int l = 0; l < Float4::kWidth; ++l)
                    lonely[i + static_cast<std::size_t>(l)] =
                        static_cast<std::uint8_t>(bits >> l & 1);
            }
            for (; i < count; ++i) {
                const float dx = nx[i] - px[i], dy = ny[i] - py[i];
                const float reach = (base + std::sqrt(dx * dx + dy * dy)) * 1.001f + 1e-3f;
                lonely[i] = nearest2[i] >= reach * reach ? 1 : 0;
            }
        },
        [](const Group& group) { prefetchElements(group.startNearest2, Group::kSmallGroupBytes); });
    return any.load(std::memory_order_relaxed);
}

} // namespace shoal
