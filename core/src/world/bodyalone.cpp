// BodyPass::markLonely: the bodies that no other body can come near enough to touch this
// step, which the contact search then skips. Most followers of many small groups are such:
// apart from their fellows, and far from the other groups.

#include "world/bodypass.h"

namespace shoal {

bool BodyPass::markLonely(float maxRadius)
{
    // Two bodies meet only if their plans are nearer than the larger pair reach, so where
    // the step began nearer than that and both moves (a little more for rounding). A body
    // is alone when its group's plan learnt that every other body began further away than
    // that (Group::startNearest2). The moves are all the bodies' (m_maxMove), whatever grid
    // the search uses.
    if (!m_stepping || !m_groups)
        return false;
    const float reach = ((2.0f + kContactMargin) * maxRadius + 2.0f * m_maxMove) * 1.001f + 1e-3f;
    const float reach2 = reach * reach;
    bool any = false;
    const std::vector<std::unique_ptr<Group>>& groups = *m_groups;
    // (The groups ahead asked for: thousands of small groups, each in allocations of its
    // own.)
    forEachGroupPrefetched(
        groups,
        [&](std::size_t g) {
            const Group& group = *groups[g];
            const std::size_t count = group.agents.size();
            if (!group.startNearestKnown || group.startNearest2.size() != count)
                return;
            if (!any)
                m_lonely.assign(m_x.size(), 0);
            any = true;
            const float* nearest2 = group.startNearest2.data();
            std::uint8_t* lonely = m_lonely.data() + m_groupStart[g];
            for (std::size_t i = 0; i < count; ++i)
                lonely[i] = nearest2[i] >= reach2 ? 1 : 0;
        },
        [](const Group& group) { prefetchElements(group.startNearest2, Group::kSmallGroupBytes); });
    return any;
}

} // namespace shoal
