#include "document/agentcount.h"

#include <shoal/sketch.h>

namespace shoal::ui {

namespace {

int authoredCount(const SceneDesc& scene, int group)
{
    const GroupDesc& desc = scene.groups[static_cast<std::size_t>(group)];
    const bool led = scene.player.enabled && scene.player.group == desc.name;
    return (desc.spawn ? desc.spawn->count : 0) + static_cast<int>(desc.agents.size()) +
           (led ? 1 : 0);
}

int runningCount(const GroupState& group)
{
    const std::uint8_t member = familyView(group.kind).dimUnlessFlag;
    if (member == 0)
        return static_cast<int>(group.agents.size());
    int count = 0;
    for (std::uint8_t flags : group.agents.flags)
        count += (flags & member) != 0 ? 1 : 0;
    return count;
}

} // namespace

int groupAgentCount(const SceneDesc& scene, int group, const GroupState* running)
{
    if (group < 0 || group >= static_cast<int>(scene.groups.size()))
        return 0;
    return running ? runningCount(*running) : authoredCount(scene, group);
}

} // namespace shoal::ui
