#pragma once
/// The level scaled up for `shoal --stress N` and the render bench: N more agents, shared
/// evenly over the behaviour families the level already uses, in a larger arena.

#include <shoal/scenedesc.h>

namespace shoal::ui {

/// Groups of leader following and squads of tanks added by withStressAgents: the size a
/// game runs (one leader with thousands of followers all arriving at one point is not).
constexpr int kStressFollowGroupSize = 20;
constexpr int kStressSquadSize = 25;

/// A copy of `base` with `agents` extra agents (none when agents <= 0). Each family in the
/// level gets an equal share (a level with no groups gets fish), as new groups that copy the
/// parameters and colours of the family's first group. The bounds grow around the level's
/// centre, keeping their aspect ratio, so the extra agents have about the room per agent a
/// game gives them (density, not only N, sets the cost of a step); they fill horizontal
/// bands, one per family, over the whole arena. Fish, swarm and worms come as one group
/// each; leader following as groups of kStressFollowGroupSize and tanks as squads of
/// kStressSquadSize on tiles, each squad driving to its tile's centre (bigger squads when
/// that many squads' routes would not fit in half of kMaxRouteFieldBytes). The result passes
/// validateScene(), and World::create(result).agentCount() is the base's plus `agents`.
SceneDesc withStressAgents(const SceneDesc& base, int agents);

} // namespace shoal::ui
