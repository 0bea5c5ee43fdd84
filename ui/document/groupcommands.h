#pragma once
/// Group edits made from the group list that the generic commands of commands.h do not
/// cover: renaming a group together with the references to it, and removing groups with or
/// without a spawn area.

#include "document/commands.h"

#include <QList>

#include <string>

namespace shoal::ui {

/// Renames `group` and every reference to it (swarms chasing it, the player leading it) in
/// one step. Null when the name is unchanged.
QUndoCommand* makeRenameGroupCommand(Document* document, int group, const std::string& name);

/// Removes `groups` (any order) in one step, clearing the references to them first (a swarm's
/// chase, the group the player leads) so the scene stays valid. Null when `groups` is empty.
QUndoCommand* makeRemoveGroupsCommand(Document* document, const QList<int>& groups);

/// A new group of `kind` with default parameters, a unique name and a spawn area at the
/// centre of the level sized for the family's usual count.
GroupDesc makeCentredGroup(const SceneDesc& scene, BehaviourKind kind);

} // namespace shoal::ui
