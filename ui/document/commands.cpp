#include "document/commands.h"

#include "document/qtstrings.h"
#include "document/sceneedits.h"

#include <algorithm>

namespace shoal::ui {

// --- SetGroupParamCommand --------------------------------------------------------------------

SetGroupParamCommand::SetGroupParamCommand(Document* document, QList<int> groups, int paramIndex,
                                           double value, bool commit, QUndoCommand* parent)
    : MergeableCommand(commit, parent), m_document(document), m_groups(std::move(groups)),
      m_paramIndex(paramIndex), m_newValue(value)
{
    const SceneDesc& scene = document->scene();
    const auto p = static_cast<std::size_t>(paramIndex);
    for (int group : m_groups)
        m_oldValues.push_back(scene.groups[static_cast<std::size_t>(group)].params[p]);
    const GroupDesc* first =
        m_groups.isEmpty() ? nullptr : &scene.groups[static_cast<std::size_t>(m_groups.first())];
    QString label = QString::number(paramIndex);
    if (first && paramIndex >= 0 && p < paramSpecs(first->kind).size())
        label = qs(paramSpecs(first->kind)[p].label);
    setText(m_groups.size() == 1
                ? QCoreApplication::translate("UndoCommands", "Change %1 of %2")
                      .arg(label, qs(first->name))
                : QCoreApplication::translate("UndoCommands", "Change %1 of %n Groups", nullptr,
                                              int(m_groups.size()))
                      .arg(label));
    updateObsolete();
}

void SetGroupParamCommand::undo()
{
    for (int i = int(m_groups.size()) - 1; i >= 0; --i)
        m_document->setGroupParam(m_groups[i], m_paramIndex,
                                  m_oldValues[static_cast<std::size_t>(i)]);
}

void SetGroupParamCommand::redo()
{
    for (int group : m_groups)
        m_document->setGroupParam(group, m_paramIndex, m_newValue);
}

bool SetGroupParamCommand::absorb(const SetGroupParamCommand& next)
{
    if (next.m_document != m_document || next.m_groups != m_groups ||
        next.m_paramIndex != m_paramIndex)
        return false;
    m_newValue = next.m_newValue;
    return true;
}

bool SetGroupParamCommand::unchanged() const
{
    return std::all_of(m_oldValues.begin(), m_oldValues.end(),
                       [this](double old) { return old == m_newValue; });
}

// --- MoveItemsCommand ------------------------------------------------------------------------

namespace {

void offsetBy(Point2& p, Point2 offset)
{
    p.x += offset.x;
    p.y += offset.y;
}

/// The elements of `scene` that `refs` name, as they are.
MoveItemsCommand::Parts partsOf(const SceneDesc& scene, const ItemRefs& refs)
{
    MoveItemsCommand::Parts parts;
    for (const ItemRef& ref : refs) {
        const auto i = static_cast<std::size_t>(ref.index);
        switch (ref.kind) {
        case ItemKind::Wall:
            parts.walls.emplace(ref.index, scene.walls[i]);
            break;
        case ItemKind::Obstacle:
            parts.obstacles.emplace(ref.index, scene.obstacles[i]);
            break;
        case ItemKind::Pickup:
            parts.pickups.emplace(ref.index, scene.pickups[i]);
            break;
        case ItemKind::SpawnArea:
        case ItemKind::SquadTarget:
            parts.groups.emplace(ref.index, scene.groups[i]);
            break;
        case ItemKind::PlayerStart:
            parts.player = scene.player;
            break;
        }
    }
    return parts;
}

/// moveItems() on the parts: each referenced thing by `offset`.
void moveParts(MoveItemsCommand::Parts& parts, const ItemRefs& refs, Point2 offset)
{
    for (const ItemRef& ref : refs) {
        switch (ref.kind) {
        case ItemKind::Wall:
            for (Point2& p : parts.walls[ref.index].points)
                offsetBy(p, offset);
            break;
        case ItemKind::Obstacle: {
            ObstacleDesc& o = parts.obstacles[ref.index];
            if (o.shape == ObstacleShape::Circle)
                offsetBy(o.center, offset);
            else
                for (Point2& p : o.points)
                    offsetBy(p, offset);
            break;
        }
        case ItemKind::Pickup:
            offsetBy(parts.pickups[ref.index].position, offset);
            break;
        case ItemKind::SpawnArea: {
            Rect& area = parts.groups[ref.index].spawn->area;
            offsetBy(area.min, offset);
            offsetBy(area.max, offset);
            break;
        }
        case ItemKind::SquadTarget:
            offsetBy(*parts.groups[ref.index].target, offset);
            break;
        case ItemKind::PlayerStart:
            offsetBy(parts.player->position, offset);
            break;
        }
    }
}

} // namespace

MoveItemsCommand::MoveItemsCommand(Document* document, ItemRefs refs, Point2 offset, bool commit,
                                   QUndoCommand* parent)
    : MergeableCommand(commit, parent), m_document(document),
      m_refs(existingRefs(document->scene(), refs)), m_offset(offset)
{
    m_before = partsOf(document->scene(), m_refs);
    m_after = m_before;
    moveParts(m_after, m_refs, m_offset);
    setText(QCoreApplication::translate("UndoCommands", "Move %1")
                .arg(itemsName(document->scene(), m_refs)));
    updateObsolete();
}

void MoveItemsCommand::apply(const Parts& parts)
{
    for (const auto& [index, wall] : parts.walls)
        m_document->setWall(index, wall);
    for (const auto& [index, obstacle] : parts.obstacles)
        m_document->setObstacle(index, obstacle);
    for (const auto& [index, pickup] : parts.pickups)
        m_document->setPickup(index, pickup);
    for (const auto& [index, group] : parts.groups)
        m_document->setGroup(index, group);
    if (parts.player)
        m_document->setPlayer(*parts.player);
}

void MoveItemsCommand::undo()
{
    apply(m_before);
}

void MoveItemsCommand::redo()
{
    apply(m_after);
}

bool MoveItemsCommand::absorb(const MoveItemsCommand& next)
{
    // Only nudges chain; a drag is always its own step.
    if (next.isCommitted() || next.m_document != m_document || next.m_refs != m_refs)
        return false;
    m_offset.x += next.m_offset.x;
    m_offset.y += next.m_offset.y;
    m_after = next.m_after;
    return true;
}

// --- ReplaceSceneCommand ---------------------------------------------------------------------

ReplaceSceneCommand::ReplaceSceneCommand(Document* document, SceneDesc scene, const QString& text,
                                         QUndoCommand* parent)
    : QUndoCommand(text, parent), m_document(document), m_before(document->scene()),
      m_after(std::move(scene))
{
    setObsolete(m_before == m_after);
}

void ReplaceSceneCommand::undo()
{
    m_document->setScene(m_before);
}

void ReplaceSceneCommand::redo()
{
    m_document->setScene(m_after);
}

// --- Compound edits --------------------------------------------------------------------------

namespace {

QList<int> indicesOf(const ItemRefs& refs, ItemKind kind)
{
    QList<int> result;
    for (const ItemRef& ref : refs)
        if (ref.kind == kind && !result.contains(ref.index))
            result.append(ref.index);
    std::sort(result.begin(), result.end());
    return result;
}

} // namespace

QUndoCommand* makeRemoveItemsCommand(Document* document, const ItemRefs& allRefs)
{
    const SceneDesc& scene = document->scene();
    const ItemRefs refs = existingRefs(scene, allRefs);
    const QList<int> walls = indicesOf(refs, ItemKind::Wall);
    const QList<int> obstacles = indicesOf(refs, ItemKind::Obstacle);
    const QList<int> pickups = indicesOf(refs, ItemKind::Pickup);
    const QList<int> groups = indicesOf(refs, ItemKind::SpawnArea);
    QList<int> targets = indicesOf(refs, ItemKind::SquadTarget);
    for (int g : groups)
        targets.removeAll(g); // the whole group goes

    auto* command = new QUndoCommand;
    // References first, while every index is still valid; removals from the highest index
    // down, so the lower ones stay valid. Undo runs the children in reverse.
    for (int t : targets) {
        GroupDesc group = scene.groups[static_cast<std::size_t>(t)];
        group.target.reset();
        new SetGroupCommand(document, t, group, true, command);
    }
    for (std::size_t g = 0; g < scene.groups.size(); ++g) {
        const GroupDesc& group = scene.groups[g];
        if (groups.contains(int(g)) || group.chase.empty())
            continue;
        const int chased = scene.groupIndex(group.chase);
        if (groups.contains(chased)) {
            GroupDesc changed = group;
            changed.chase.clear();
            new SetGroupCommand(document, int(g), changed, true, command);
        }
    }
    if (!scene.player.group.empty() && groups.contains(scene.groupIndex(scene.player.group))) {
        PlayerDesc player = scene.player;
        player.group.clear();
        new SetPlayerCommand(document, 0, player, true, command);
    }
    for (auto it = groups.crbegin(); it != groups.crend(); ++it)
        new RemoveGroupCommand(document, *it, command);
    for (auto it = walls.crbegin(); it != walls.crend(); ++it)
        new RemoveWallCommand(document, *it, command);
    for (auto it = obstacles.crbegin(); it != obstacles.crend(); ++it)
        new RemoveObstacleCommand(document, *it, command);
    for (auto it = pickups.crbegin(); it != pickups.crend(); ++it)
        new RemovePickupCommand(document, *it, command);

    ItemRefs removed;
    const auto add = [&removed](const QList<int>& indices, ItemKind kind) {
        for (int index : indices)
            removed.append({kind, index});
    };
    add(walls, ItemKind::Wall);
    add(obstacles, ItemKind::Obstacle);
    add(pickups, ItemKind::Pickup);
    add(groups, ItemKind::SpawnArea);
    add(targets, ItemKind::SquadTarget);
    if (removed.isEmpty()) {
        delete command;
        return nullptr;
    }
    command->setText(
        QCoreApplication::translate("UndoCommands", "Delete %1").arg(itemsName(scene, removed)));
    return command;
}

QUndoCommand* makeDuplicateItemsCommand(Document* document, const ItemRefs& allRefs, Point2 offset,
                                        ItemRefs* copies)
{
    const SceneDesc& scene = document->scene();
    const ItemRefs refs = existingRefs(scene, allRefs);
    auto* command = new QUndoCommand;
    ItemRefs created;
    ItemRefs originals;
    int wallCount = int(scene.walls.size());
    int obstacleCount = int(scene.obstacles.size());
    int pickupCount = int(scene.pickups.size());
    // Collects the new groups so their names stay unique (the names are all it needs).
    SceneDesc names;
    names.groups = scene.groups;

    for (const ItemRef& ref : refs) {
        // Only the one element is copied and moved, never the scene.
        const MoveItemsCommand::Parts before = partsOf(scene, {ref});
        MoveItemsCommand::Parts moved = before;
        moveParts(moved, {ref}, clampMoveOffset(scene, {ref}, offset));
        switch (ref.kind) {
        case ItemKind::Wall:
            new AddWallCommand(document, wallCount, moved.walls[ref.index], command);
            created.append({ItemKind::Wall, wallCount++});
            break;
        case ItemKind::Obstacle:
            new AddObstacleCommand(document, obstacleCount, moved.obstacles[ref.index], command);
            created.append({ItemKind::Obstacle, obstacleCount++});
            break;
        case ItemKind::Pickup:
            new AddPickupCommand(document, pickupCount, moved.pickups[ref.index], command);
            created.append({ItemKind::Pickup, pickupCount++});
            break;
        case ItemKind::SpawnArea: {
            GroupDesc group = moved.groups[ref.index];
            const Point2 applied = clampMoveOffset(scene, {ref}, offset);
            for (AgentDesc& agent : group.agents) {
                agent.position = clampToBounds(
                    scene.bounds, {agent.position.x + applied.x, agent.position.y + applied.y});
                // A tank's goal of its own moves with it, as the squad's target does.
                if (agent.goal)
                    agent.goal = clampToBounds(
                        scene.bounds, {agent.goal->x + applied.x, agent.goal->y + applied.y});
            }
            if (group.target)
                group.target = clampToBounds(
                    scene.bounds, {group.target->x + applied.x, group.target->y + applied.y});
            group.name = uniqueGroupName(names, group.name);
            names.groups.push_back(group);
            const int index = int(names.groups.size()) - 1;
            new AddGroupCommand(document, index, group, command);
            created.append({ItemKind::SpawnArea, index});
            break;
        }
        case ItemKind::SquadTarget:
        case ItemKind::PlayerStart:
            continue; // they belong to a squad / the player: one each
        }
        originals.append(ref);
    }
    if (created.isEmpty()) {
        delete command;
        return nullptr;
    }
    command->setText(QCoreApplication::translate("UndoCommands", "Duplicate %1")
                         .arg(itemsName(scene, originals)));
    if (copies)
        *copies = created;
    return command;
}

} // namespace shoal::ui
