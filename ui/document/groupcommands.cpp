#include "document/groupcommands.h"

#include <shoal/sketch.h>

#include "document/checkcommands.h"
#include "document/sceneedits.h"

#include <algorithm>
#include <cmath>

namespace shoal::ui {

QUndoCommand* makeAddGroupCommand(Document* document, int index, const GroupDesc& group,
                                  const QString& text)
{
    const SceneDesc& scene = document->scene();
    const QString name = text.isEmpty() ? addText(GroupList::name(group)) : text;
    if (!playerTakesNewGroup(scene, group)) {
        auto* add = new AddGroupCommand(document, index, group);
        add->setText(name);
        return add;
    }
    // The group first, then the link: every scene on the way is valid, undo unlinks first.
    auto* command = new QUndoCommand(name);
    new AddGroupCommand(document, index, group, command);
    PlayerDesc player = scene.player;
    player.group = group.name;
    new SetPlayerCommand(document, 0, player, true, command);
    return command;
}

QUndoCommand* makeLeadGroupCommand(Document* document, const std::string& name)
{
    PlayerDesc player = document->scene().player;
    if (player.group == name)
        return nullptr;
    player.group = name;
    auto* command = new SetPlayerCommand(document, 0, player, true);
    command->setText(name.empty()
                         ? undoText(QT_TRANSLATE_NOOP("UndoCommands", "Player Leads No Group"))
                         : QCoreApplication::translate("UndoCommands", "Player Leads %1")
                               .arg(QString::fromStdString(name)));
    return command;
}

QUndoCommand* makeSetCollisionCommand(Document* document, const QList<int>& groups,
                                      const std::vector<CollisionDesc>& collisions,
                                      const QString& text)
{
    const SceneDesc& scene = document->scene();
    std::vector<GroupDesc> changed;
    QList<int> indices;
    for (qsizetype i = 0; i < groups.size() && std::size_t(i) < collisions.size(); ++i) {
        const GroupDesc& group = scene.groups[static_cast<std::size_t>(groups[i])];
        if (group.collision == collisions[std::size_t(i)])
            continue;
        changed.push_back(group);
        changed.back().collision = collisions[std::size_t(i)];
        indices.append(groups[i]);
    }
    if (changed.empty())
        return nullptr;
    if (changed.size() == 1) {
        auto* command = new SetGroupCommand(document, indices.first(), changed.front(), true);
        command->setText(text);
        return command;
    }
    auto* command = new QUndoCommand(text);
    for (qsizetype i = 0; i < indices.size(); ++i)
        new SetGroupCommand(document, indices[i], changed[std::size_t(i)], true, command);
    return command;
}

namespace {

/// Every parameter of some groups at once; undo gives each its old values back.
class SetGroupParamsCommand : public QUndoCommand
{
public:
    SetGroupParamsCommand(Document* document, QList<int> groups, std::vector<ParamValues> values,
                          const QString& text)
        : QUndoCommand(text), m_document(document), m_groups(std::move(groups)),
          m_new(std::move(values))
    {
        for (int g : m_groups)
            m_old.push_back(document->scene().groups[static_cast<std::size_t>(g)].params);
    }
    void redo() override { apply(m_new); }
    void undo() override { apply(m_old); }

private:
    void apply(const std::vector<ParamValues>& values)
    {
        for (qsizetype i = 0; i < m_groups.size(); ++i)
            m_document->setGroupParams(m_groups[i], values[std::size_t(i)]);
    }

    Document* m_document;
    QList<int> m_groups;
    std::vector<ParamValues> m_new;
    std::vector<ParamValues> m_old;
};

} // namespace

QUndoCommand* makeSetGroupParamsCommand(Document* document, const QList<int>& groups,
                                        const std::vector<ParamValues>& values, const QString& text)
{
    QList<int> changed;
    std::vector<ParamValues> changedValues;
    for (qsizetype i = 0; i < groups.size() && std::size_t(i) < values.size(); ++i) {
        if (document->scene().groups[static_cast<std::size_t>(groups[i])].params ==
            values[std::size_t(i)])
            continue;
        changed.append(groups[i]);
        changedValues.push_back(values[std::size_t(i)]);
    }
    if (changed.isEmpty())
        return nullptr;
    return new SetGroupParamsCommand(document, changed, std::move(changedValues), text);
}

QUndoCommand* makeRenameGroupCommand(Document* document, int group, const std::string& name)
{
    const SceneDesc& scene = document->scene();
    const GroupDesc& renamed = scene.groups[static_cast<std::size_t>(group)];
    if (renamed.name == name)
        return nullptr;
    const std::string oldName = renamed.name;
    auto* command =
        new QUndoCommand(QCoreApplication::translate("UndoCommands", "Rename Group %1 to %2")
                             .arg(QString::fromStdString(oldName), QString::fromStdString(name)));
    GroupDesc desc = renamed;
    desc.name = name;
    new SetGroupCommand(document, group, desc, true, command);
    for (std::size_t i = 0; i < scene.groups.size(); ++i) {
        if (scene.groups[i].chase != oldName || static_cast<int>(i) == group)
            continue;
        GroupDesc chaser = scene.groups[i];
        chaser.chase = name;
        new SetGroupCommand(document, static_cast<int>(i), chaser, true, command);
    }
    if (scene.player.group == oldName) {
        PlayerDesc player = scene.player;
        player.group = name;
        new SetPlayerCommand(document, 0, player, true, command);
    }
    // The checks name groups as "GROUP.KEY": they follow the rename in the same step.
    std::vector<CheckDesc> checks = checksWithGroupRenamed(scene.checks, oldName, name);
    if (checks != scene.checks)
        new SetChecksCommand(document, -1, std::move(checks), true, command);
    return command;
}

QUndoCommand* makeRemoveGroupsCommand(Document* document, const QList<int>& groups)
{
    const SceneDesc& scene = document->scene();
    QList<int> removed;
    for (int group : groups)
        if (group >= 0 && group < static_cast<int>(scene.groups.size()) && !removed.contains(group))
            removed.append(group);
    if (removed.isEmpty())
        return nullptr;
    std::sort(removed.begin(), removed.end());

    auto* command = new QUndoCommand(
        removed.size() == 1 ? QCoreApplication::translate("UndoCommands", "Remove Group %1")
                                  .arg(QString::fromStdString(
                                      scene.groups[static_cast<std::size_t>(removed.first())].name))
                            : QCoreApplication::translate("UndoCommands", "Remove %n Groups",
                                                          nullptr, int(removed.size())));
    // References first, while every index is valid; then removals from the highest index
    // down. Undo runs the children in reverse: groups come back before their references.
    for (std::size_t i = 0; i < scene.groups.size(); ++i) {
        const GroupDesc& group = scene.groups[i];
        if (removed.contains(static_cast<int>(i)) || group.chase.empty())
            continue;
        if (removed.contains(scene.groupIndex(group.chase))) {
            GroupDesc changed = group;
            changed.chase.clear();
            new SetGroupCommand(document, static_cast<int>(i), changed, true, command);
        }
    }
    if (!scene.player.group.empty() && removed.contains(scene.groupIndex(scene.player.group))) {
        PlayerDesc player = scene.player;
        player.group.clear();
        new SetPlayerCommand(document, 0, player, true, command);
    }
    std::vector<std::string> names;
    for (int group : removed)
        names.push_back(scene.groups[static_cast<std::size_t>(group)].name);
    std::vector<CheckDesc> checks = checksWithoutGroups(scene.checks, names);
    if (checks != scene.checks)
        new SetChecksCommand(document, -1, std::move(checks), true, command);
    for (auto it = removed.crbegin(); it != removed.crend(); ++it)
        new RemoveGroupCommand(document, *it, command);
    return command;
}

GroupDesc makeCentredGroup(const SceneDesc& scene, BehaviourKind kind)
{
    GroupDesc group =
        makeDefaultGroup(kind, uniqueGroupName(scene, std::string(behaviourKey(kind))));
    const Rect& bounds = scene.bounds;
    const Point2 centre{0.5 * (bounds.min.x + bounds.max.x), 0.5 * (bounds.min.y + bounds.max.y)};
    // About 2.5 m^2 per agent, at most a fifth of the level across.
    const int count = familyView(kind).usualCount;
    const double side = std::sqrt(2.5 * count);
    const double halfWidth = 0.5 * std::min(side, 0.2 * (bounds.max.x - bounds.min.x));
    const double halfHeight = 0.5 * std::min(side, 0.2 * (bounds.max.y - bounds.min.y));
    group.spawn = SpawnAreaDesc{{{centre.x - halfWidth, centre.y - halfHeight},
                                 {centre.x + halfWidth, centre.y + halfHeight}},
                                count};
    return group;
}

} // namespace shoal::ui
