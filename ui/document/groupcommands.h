#pragma once
/// Group edits that the generic commands of commands.h do not cover: adding a group the user
/// creates (the player may take it), choosing the group the player leads, renaming a group
/// together with the references to it, and removing groups with or without a spawn area.

#include "document/commands.h"

#include <QList>

#include <string>
#include <vector>

namespace shoal::ui {

/// Adds `group` (created by the user: the group list's Add menu, a painted spawn area) at
/// `index` (-1 = append) in one step; a fish school also becomes the player's group when the
/// player is enabled and leads none (playerTakesNewGroup()), so undo unlinks it too. `text`
/// names the step in the history (empty: "Add Group").
QUndoCommand* makeAddGroupCommand(Document* document, int index, const GroupDesc& group,
                                  const QString& text = QString());

/// The player leads the group called `name` (a fish school or a leader-following group;
/// empty = none) from now on, as one step. Null when it leads that group already.
QUndoCommand* makeLeadGroupCommand(Document* document, const std::string& name);

/// Renames `group` and every reference to it (swarms chasing it, the player leading it, the
/// checks' metrics) in one step. Null when the name is unchanged.
QUndoCommand* makeRenameGroupCommand(Document* document, int group, const std::string& name);

/// Removes `groups` (any order) in one step, clearing the references to them first (a swarm's
/// chase, the group the player leads) so the scene stays valid, and the checks that watch
/// them (a check of a group that is gone could never be decided). Null when `groups` is
/// empty.
QUndoCommand* makeRemoveGroupsCommand(Document* document, const QList<int>& groups);

/// Gives each group of `groups` the collision of the same index in `collisions`, as one step
/// named `text`. Null when no group's collision changes.
QUndoCommand* makeSetCollisionCommand(Document* document, const QList<int>& groups,
                                      const std::vector<CollisionDesc>& collisions,
                                      const QString& text);

/// Gives each group of `groups` the parameter values of the same index in `values` (all of
/// them at once: a preset, a reset to the defaults), as one step named `text`. Null when no
/// group's values change.
QUndoCommand* makeSetGroupParamsCommand(Document* document, const QList<int>& groups,
                                        const std::vector<ParamValues>& values,
                                        const QString& text);

/// A new group of `kind` with default parameters, a unique name and a spawn area at the
/// centre of the level sized for the family's usual count.
GroupDesc makeCentredGroup(const SceneDesc& scene, BehaviourKind kind);

} // namespace shoal::ui
