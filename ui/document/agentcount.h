#pragma once
/// How many agents the editor says a group has: the one count the group list, the group's
/// label in the view and the property panel's header all show.
///
/// The rule: count the agents the user sees as the group's own. That is the hand-placed and
/// the spawned agents, plus the player when it leads the group (it is the group's agent 0
/// and moves as one of them). Free fish waiting in the level are not counted until they have
/// joined the school. While the world runs, the count is the running group's: the agents it
/// draws at full strength (an agent without its family's FamilyView::dimUnlessFlag, a free
/// fish, is left out), so a school's count grows as the player picks up free fish. A world
/// that has just been built counts exactly what the authored rule says.

#include <shoal/scenedesc.h>
#include <shoal/worldstate.h>

namespace shoal::ui {

/// The agents of `group` (an index into scene.groups) by the rule above: from `running`, the
/// group in a world that has left its first step, or from the authored scene when it is
/// null. 0 for an index the scene does not have.
int groupAgentCount(const SceneDesc& scene, int group, const GroupState* running = nullptr);

} // namespace shoal::ui
