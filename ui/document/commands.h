#pragma once
/// Every edit a user makes is one of these QUndoCommands. All merge ids live in one enum
/// (Tiled's undocommands.h); every command that merges does so by the one rule of
/// MergeableCommand (Glaxnimate's command/base.hpp): live edits (a slider drag) merge into one
/// command until the edit is committed, so two separate drags stay two steps.

#include "document/document.h"
#include "document/itemids.h"
#include "document/itemnames.h"

#include <QCoreApplication>
#include <QList>
#include <QUndoCommand>

#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace shoal::ui {

/// Merge ids (QUndoCommand::id). Commands that never merge return -1.
enum UndoCommandId
{
    kSetGroupParamId = 1,
    kSetPlayerParamId,
    kMoveItemsId,
    kSetWallId,
    kSetObstacleId,
    kSetPickupId,
    kSetGroupId,
    kSetPlayerId,
    kSetSimulationId,
    kSetBoundsId,
    kSetChecksId,
};

/// The one merge rule of every command that merges (Glaxnimate's command/base.hpp). While its
/// edit is not committed, a command absorbs the next command of the same id and target (a
/// slider drag, a run of nudges: one undo step) and takes over that one's commit flag; the
/// edit that ends the gesture is pushed with commit = true and closes the chain, so two
/// separate drags stay two steps. A command whose edit changes nothing is obsolete, from the
/// start or after a merge (QUndoStack drops it).
///
/// `Derived` provides `bool absorb(const Derived& next)` (take over `next`'s edit; false when
/// it edits something else) and `bool unchanged() const`, and calls updateObsolete() at the
/// end of its constructor.
template <class Derived, int Id> class MergeableCommand : public QUndoCommand
{
public:
    int id() const override { return Id; }

    bool mergeWith(const QUndoCommand* other) override
    {
        // QUndoStack only offers commands of the same id, and every id is one class.
        const auto& next = static_cast<const Derived&>(*other);
        if (m_committed || !static_cast<Derived*>(this)->absorb(next))
            return false;
        m_committed = next.isCommitted();
        updateObsolete();
        return true;
    }

    bool isCommitted() const { return m_committed; }

protected:
    MergeableCommand(bool commit, QUndoCommand* parent) : QUndoCommand(parent), m_committed(commit)
    {
    }

    void updateObsolete() { setObsolete(static_cast<const Derived*>(this)->unchanged()); }

private:
    bool m_committed;
};

/// The undo history's name for a command (translated in the "UndoCommands" context).
inline QString undoText(const char* text)
{
    return QCoreApplication::translate("UndoCommands", text);
}

/// Sets one parameter on one group or on several groups of one family, as one undo step
/// (Tiled's ChangeValue): each group's old value is kept, the new value goes to all. Merges
/// with the next edit of the same parameter on the same groups; back at every old value it is
/// obsolete.
class SetGroupParamCommand : public MergeableCommand<SetGroupParamCommand, kSetGroupParamId>
{
public:
    SetGroupParamCommand(Document* document, QList<int> groups, int paramIndex, double value,
                         bool commit, QUndoCommand* parent = nullptr);
    SetGroupParamCommand(Document* document, int group, int paramIndex, double value, bool commit,
                         QUndoCommand* parent = nullptr)
        : SetGroupParamCommand(document, QList<int>{group}, paramIndex, value, commit, parent)
    {
    }
    void undo() override;
    void redo() override;

    // MergeableCommand's hooks.
    bool absorb(const SetGroupParamCommand& next);
    bool unchanged() const;

private:
    Document* m_document;
    QList<int> m_groups;
    int m_paramIndex;
    std::vector<double> m_oldValues; ///< one per group, in m_groups order
    double m_newValue;
};

// ---------------------------------------------------------------------------------------------
// One template for every "replace a value" edit (Tiled's ChangeValue): an Access struct says
// how to read and write the value, its merge id and its name in the history.

/// Replaces one value of the scene; merges by MergeableCommand's rule with the next edit of
/// the same value.
template <class Access>
class SetValueCommand : public MergeableCommand<SetValueCommand<Access>, Access::kId>
{
public:
    using Value = typename Access::Value;

    SetValueCommand(Document* document, int index, Value value, bool commit = true,
                    QUndoCommand* parent = nullptr)
        : MergeableCommand<SetValueCommand<Access>, Access::kId>(commit, parent),
          m_document(document), m_index(index), m_oldValue(Access::get(document->scene(), index)),
          m_newValue(std::move(value))
    {
        this->setText(undoText(Access::kText));
        this->updateObsolete();
    }

    void undo() override { Access::set(*m_document, m_index, m_oldValue); }
    void redo() override { Access::set(*m_document, m_index, m_newValue); }

    // MergeableCommand's hooks.
    bool absorb(const SetValueCommand& next)
    {
        if (next.m_index != m_index || next.m_document != m_document)
            return false;
        m_newValue = next.m_newValue;
        return true;
    }
    bool unchanged() const { return m_oldValue == m_newValue; }

    const Value& oldValue() const { return m_oldValue; }
    const Value& newValue() const { return m_newValue; }

private:
    Document* m_document;
    int m_index;
    Value m_oldValue;
    Value m_newValue;
};

struct WallAccess
{
    using Value = WallDesc;
    static constexpr int kId = kSetWallId;
    static constexpr const char* kText = QT_TRANSLATE_NOOP("UndoCommands", "Change Wall");
    static Value get(const SceneDesc& s, int i) { return s.walls[static_cast<std::size_t>(i)]; }
    static void set(Document& d, int i, const Value& v) { d.setWall(i, v); }
};

struct ObstacleAccess
{
    using Value = ObstacleDesc;
    static constexpr int kId = kSetObstacleId;
    static constexpr const char* kText = QT_TRANSLATE_NOOP("UndoCommands", "Change Obstacle");
    static Value get(const SceneDesc& s, int i) { return s.obstacles[static_cast<std::size_t>(i)]; }
    static void set(Document& d, int i, const Value& v) { d.setObstacle(i, v); }
};

struct PickupAccess
{
    using Value = PickupDesc;
    static constexpr int kId = kSetPickupId;
    static constexpr const char* kText = QT_TRANSLATE_NOOP("UndoCommands", "Change Pickup");
    static Value get(const SceneDesc& s, int i) { return s.pickups[static_cast<std::size_t>(i)]; }
    static void set(Document& d, int i, const Value& v) { d.setPickup(i, v); }
};

/// A group's name, colours, spawn area, agents, target and chase (not its parameters).
struct GroupAccess
{
    using Value = GroupDesc;
    static constexpr int kId = kSetGroupId;
    static constexpr const char* kText = QT_TRANSLATE_NOOP("UndoCommands", "Change Group");
    static Value get(const SceneDesc& s, int i) { return s.groups[static_cast<std::size_t>(i)]; }
    static void set(Document& d, int i, const Value& v) { d.setGroup(i, v); }
};

/// The player (index unused).
struct PlayerAccess
{
    using Value = PlayerDesc;
    static constexpr int kId = kSetPlayerId;
    static constexpr const char* kText = QT_TRANSLATE_NOOP("UndoCommands", "Change Player");
    static Value get(const SceneDesc& s, int) { return s.player; }
    static void set(Document& d, int, const Value& v) { d.setPlayer(v); }
};

/// One of the player's parameters (index = playerParamSpecs() index).
struct PlayerParamAccess
{
    using Value = double;
    static constexpr int kId = kSetPlayerParamId;
    static constexpr const char* kText =
        QT_TRANSLATE_NOOP("UndoCommands", "Change Player Parameter");
    static Value get(const SceneDesc& s, int i)
    {
        return s.player.params[static_cast<std::size_t>(i)];
    }
    static void set(Document& d, int i, const Value& v) { d.setPlayerParam(i, v); }
};

/// Simulation settings: dt and seed (index unused).
struct SimulationAccess
{
    using Value = SimulationDesc;
    static constexpr int kId = kSetSimulationId;
    static constexpr const char* kText =
        QT_TRANSLATE_NOOP("UndoCommands", "Change Simulation Settings");
    static Value get(const SceneDesc& s, int) { return s.simulation; }
    static void set(Document& d, int, const Value& v) { d.setSimulation(v); }
};

/// The world bounds (index unused).
struct BoundsAccess
{
    using Value = Rect;
    static constexpr int kId = kSetBoundsId;
    static constexpr const char* kText = QT_TRANSLATE_NOOP("UndoCommands", "Change Level Bounds");
    static Value get(const SceneDesc& s, int) { return s.bounds; }
    static void set(Document& d, int, const Value& v) { d.setBounds(v); }
};

/// The scene's checks, the whole list (index: the check the edit touched, -1 for several).
struct ChecksAccess
{
    using Value = std::vector<CheckDesc>;
    static constexpr int kId = kSetChecksId;
    static constexpr const char* kText = QT_TRANSLATE_NOOP("UndoCommands", "Change Checks");
    static Value get(const SceneDesc& s, int) { return s.checks; }
    static void set(Document& d, int i, const Value& v) { d.setChecks(v, i); }
};

using SetWallCommand = SetValueCommand<WallAccess>;
using SetObstacleCommand = SetValueCommand<ObstacleAccess>;
using SetPickupCommand = SetValueCommand<PickupAccess>;
using SetGroupCommand = SetValueCommand<GroupAccess>;
using SetPlayerCommand = SetValueCommand<PlayerAccess>;
using SetPlayerParamCommand = SetValueCommand<PlayerParamAccess>;
using SetSimulationCommand = SetValueCommand<SimulationAccess>;
using SetBoundsCommand = SetValueCommand<BoundsAccess>;
using SetChecksCommand = SetValueCommand<ChecksAccess>;

// ---------------------------------------------------------------------------------------------
// Adding and removing elements of the scene's lists: one template each, a List struct says
// which list and what the user calls its elements.

struct WallList
{
    using Value = WallDesc;
    static QString name(const Value&) { return kindName(ItemKind::Wall); }
    static const std::vector<Value>& list(const SceneDesc& s) { return s.walls; }
    static void insert(Document& d, int i, const Value& v) { d.insertWall(i, v); }
    static void remove(Document& d, int i) { d.removeWall(i); }
};

struct ObstacleList
{
    using Value = ObstacleDesc;
    static QString name(const Value&) { return kindName(ItemKind::Obstacle); }
    static const std::vector<Value>& list(const SceneDesc& s) { return s.obstacles; }
    static void insert(Document& d, int i, const Value& v) { d.insertObstacle(i, v); }
    static void remove(Document& d, int i) { d.removeObstacle(i); }
};

struct PickupList
{
    using Value = PickupDesc;
    static QString name(const Value& pickup) { return pickupName(pickup.kind); }
    static const std::vector<Value>& list(const SceneDesc& s) { return s.pickups; }
    static void insert(Document& d, int i, const Value& v) { d.insertPickup(i, v); }
    static void remove(Document& d, int i) { d.removePickup(i); }
};

/// Raw group insertion/removal. Removing a group someone refers to (the player leads it, a
/// swarm chases it) needs those references cleared too: use makeRemoveItemsCommand().
struct GroupList
{
    using Value = GroupDesc;
    static QString name(const Value& group)
    {
        return QCoreApplication::translate("UndoCommands", "Group '%1'")
            .arg(QString::fromStdString(group.name));
    }
    static const std::vector<Value>& list(const SceneDesc& s) { return s.groups; }
    static void insert(Document& d, int i, const Value& v) { d.insertGroup(i, v); }
    static void remove(Document& d, int i) { d.removeGroup(i); }
};

/// Inserts one element at `index` (-1 = append).
template <class List> class AddElementCommand : public QUndoCommand
{
public:
    using Value = typename List::Value;

    AddElementCommand(Document* document, int index, Value value, QUndoCommand* parent = nullptr)
        : QUndoCommand(parent), m_document(document),
          m_index(index < 0 ? static_cast<int>(List::list(document->scene()).size()) : index),
          m_value(std::move(value))
    {
        setText(addText(List::name(m_value)));
    }

    void undo() override { List::remove(*m_document, m_index); }
    void redo() override { List::insert(*m_document, m_index, m_value); }
    int index() const { return m_index; }

private:
    Document* m_document;
    int m_index;
    Value m_value;
};

/// Removes the element at `index`; undo puts it back at the same index.
template <class List> class RemoveElementCommand : public QUndoCommand
{
public:
    using Value = typename List::Value;

    RemoveElementCommand(Document* document, int index, QUndoCommand* parent = nullptr)
        : QUndoCommand(parent), m_document(document), m_index(index),
          m_value(List::list(document->scene())[static_cast<std::size_t>(index)])
    {
        setText(QCoreApplication::translate("UndoCommands", "Delete %1").arg(List::name(m_value)));
    }

    void undo() override { List::insert(*m_document, m_index, m_value); }
    void redo() override { List::remove(*m_document, m_index); }

private:
    Document* m_document;
    int m_index;
    Value m_value;
};

using AddWallCommand = AddElementCommand<WallList>;
using RemoveWallCommand = RemoveElementCommand<WallList>;
using AddObstacleCommand = AddElementCommand<ObstacleList>;
using RemoveObstacleCommand = RemoveElementCommand<ObstacleList>;
using AddPickupCommand = AddElementCommand<PickupList>;
using RemovePickupCommand = RemoveElementCommand<PickupList>;
using AddGroupCommand = AddElementCommand<GroupList>;
using RemoveGroupCommand = RemoveElementCommand<GroupList>;

// ---------------------------------------------------------------------------------------------

/// Moves walls, obstacles, pickups, spawn areas, squad targets and the player start by one
/// offset (m). A drag pushes one committed command on release; keyboard nudges push
/// uncommitted ones, which merge with each other while they move the same items (a committed
/// move is never absorbed, so a drag after nudges is a step of its own).
class MoveItemsCommand : public MergeableCommand<MoveItemsCommand, kMoveItemsId>
{
public:
    MoveItemsCommand(Document* document, ItemRefs refs, Point2 offset, bool commit = true,
                     QUndoCommand* parent = nullptr);
    void undo() override;
    void redo() override;

    // MergeableCommand's hooks.
    bool absorb(const MoveItemsCommand& next);
    bool unchanged() const { return m_after == m_before; }

    /// The elements a move touches, by index: all it keeps of the scene (a move of one wall
    /// in a big level holds that wall twice, not the level).
    struct Parts
    {
        std::map<int, WallDesc> walls;
        std::map<int, ObstacleDesc> obstacles;
        std::map<int, PickupDesc> pickups;
        std::map<int, GroupDesc> groups;
        std::optional<PlayerDesc> player;
        bool operator==(const Parts& o) const
        {
            return walls == o.walls && obstacles == o.obstacles && pickups == o.pickups &&
                   groups == o.groups && player == o.player;
        }
    };

private:
    void apply(const Parts& parts);

    Document* m_document;
    ItemRefs m_refs;
    Point2 m_offset;
    Parts m_before;
    Parts m_after;
};

/// Replaces the whole scene as one undoable step (recovering an autosave over the file it
/// came from, so the recovered edits show as unsaved changes).
class ReplaceSceneCommand : public QUndoCommand
{
public:
    ReplaceSceneCommand(Document* document, SceneDesc scene, const QString& text,
                        QUndoCommand* parent = nullptr);
    void undo() override;
    void redo() override;

private:
    Document* m_document;
    SceneDesc m_before;
    SceneDesc m_after;
};

/// One command deleting every referenced thing: walls, obstacles, pickups, groups (for a
/// spawn area; references to the group from the player and from swarms are cleared in the same
/// step) and squad targets (the squad keeps no target). The player start cannot be deleted.
/// Returns null when nothing deletable is referenced.
QUndoCommand* makeRemoveItemsCommand(Document* document, const ItemRefs& refs);

/// One command adding copies of every referenced thing moved by `offset` (m); groups get
/// unique names. `copies` (optional) receives the refs of the new things, for the selection.
/// Returns null when nothing copyable is referenced.
QUndoCommand* makeDuplicateItemsCommand(Document* document, const ItemRefs& refs, Point2 offset,
                                        ItemRefs* copies = nullptr);

} // namespace shoal::ui
