#include "simulation/layerbatches.h"

#include "simulation/agentlayeritem.h"

#include <shoal/worldframe.h>

#include <QColor>

#include <map>
#include <tuple>
#include <vector>

namespace shoal::ui {

void batchSmallGroups(const QList<AgentLayerItem*>& layers, const WorldFrame* frame)
{
    // (family, colour, accent, radius) -> the layer that paints that batch, and its members.
    using Key = std::tuple<int, QRgb, QRgb, float>;
    std::map<Key, AgentLayerItem*> leaders;
    std::map<AgentLayerItem*, std::vector<int>> members;
    for (AgentLayerItem* layer : layers) {
        const int g = layer->groupIndex();
        if (g < 0)
            continue;
        bool batchable = frame && g < frame->groupCount() && layer->isVisible();
        if (batchable) {
            const FrameGroup& group = frame->groups[static_cast<std::size_t>(g)];
            batchable = !group.playerLed && !group.hasBodies &&
                        group.agents.size() < static_cast<std::size_t>(kBatchAgents);
        }
        if (!batchable) {
            layer->setAbsorbed(false);
            layer->setBatch({});
            continue;
        }
        const FrameGroup& group = frame->groups[static_cast<std::size_t>(g)];
        const Key key{static_cast<int>(group.kind), layer->color().rgba(), layer->accent().rgba(),
                      group.bodyRadius};
        const auto [it, first] = leaders.emplace(key, layer);
        layer->setAbsorbed(!first);
        if (first)
            members[layer];
        else
            members[it->second].push_back(g);
    }
    for (auto& [layer, groups] : members)
        layer->setBatch(std::move(groups));
}

} // namespace shoal::ui
