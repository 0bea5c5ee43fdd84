#pragma once
/// Which agent layers paint which small groups together. A stress level has a thousand squads
/// of 25 and convoys of 20; a layer each cost more than their pixels (every paint() sets up
/// its transform, styles and draw calls). Groups of one family with the same colours and body
/// radius, each under kBatchAgents agents, none led by the player and none with bodies longer
/// than a disc, whose layers are shown, are painted by the first one's layer; the others'
/// layers are absorbed (they draw nothing). What is drawn is the same, pixel for pixel, up to
/// the order in which overlapping agents of two groups are drawn.

#include <QList>

namespace shoal {
struct WorldFrame;
}

namespace shoal::ui {

class AgentLayerItem;

/// Groups of this many agents or more keep a layer of their own (their dots go through a
/// canvas of their own).
constexpr int kBatchAgents = 1000;

/// Sets every layer's batch (AgentLayerItem::setBatch, setAbsorbed) for `frame`; with no
/// frame, none is batched. Layers of other than a group (the world layer) are left alone.
void batchSmallGroups(const QList<AgentLayerItem*>& layers, const WorldFrame* frame);

} // namespace shoal::ui
