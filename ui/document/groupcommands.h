#pragma once
/// Group edits made from the group list and the property panel that the generic commands of
/// undocommands.h do not cover: one parameter set on several groups at once (merging per
/// drag), renaming a group together with the references to it, and removing groups with or
/// without a spawn area.

#include "document/commands.h"

#include <QList>

#include <string>
#include <vector>

namespace shoal::ui {

/// Sets one parameter on several groups of one family as one undo step. Merges like
/// SetGroupParamCommand: uncommitted, it absorbs the next edit of the same parameter on the
/// same groups (a slider drag); the commit closes it; back at every original value it is
/// obsolete.
class SetGroupsParamCommand : public QUndoCommand
{
public:
    SetGroupsParamCommand(Document* document, const QList<int>& groups, int paramIndex,
                          double value, bool commit, QUndoCommand* parent = nullptr);
    int id() const override { return kSetGroupsParamId; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    void updateObsolete();

    Document* m_document;
    QList<int> m_groups;
    int m_paramIndex;
    bool m_committed;
    std::vector<SetGroupParamCommand*> m_children; ///< owned by QUndoCommand (children)
};

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
