#pragma once
/// The viewport's QGraphicsScene: editable items rebuilt from the Document's changes, the
/// editor's own selection of ItemRefs (it survives the rebuilds), vertex handles for a single
/// selected item, the level background and grid, and the active tool, which gets every mouse
/// and key event (the mouse events the play tool, when there is one, leaves unaccepted). Scene
/// coordinates are metres with y up; SceneView flips the y axis.

#include "document/document.h"
#include "document/groupselection.h"
#include "document/itemids.h"
#include "tools/abstracttool.h"

#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QPointer>

#include <functional>
#include <map>
#include <optional>
#include <set>

namespace shoal::ui {

class EditableItem;
class HandleItem;
class SceneMouseFilter;
class SpawnAreaItem;
class WallTile;

class EditorScene : public QGraphicsScene
{
    Q_OBJECT

public:
    explicit EditorScene(Document* document, QObject* parent = nullptr);
    ~EditorScene() override;

    Document* document() const { return m_document; }

    void setTool(AbstractTool* tool);
    AbstractTool* tool() const { return m_tool; }
    /// The play tool (PlayTool: it steers while the simulation plays) sees every mouse event
    /// first; what it leaves unaccepted goes on to the active tool. It stays installed across
    /// tool switches and play/pause, and is not the active tool (tool() and its cursor stay).
    void setPlayTool(AbstractTool* tool);
    AbstractTool* playTool() const { return m_playTool; }
    /// Filters see every mouse event before the play tool and the tool (installed order).
    void addMouseFilter(SceneMouseFilter* filter);
    void removeMouseFilter(SceneMouseFilter* filter);

    // --- Selection (ItemRefs, not QGraphicsItem selection) -----------------------------------
    const ItemRefs& selectedRefs() const { return m_selection; }
    void setSelectedRefs(const ItemRefs& refs);
    void selectAll();
    EditableItem* itemFor(const ItemRef& ref) const;
    QList<EditableItem*> editableItems() const;
    /// The topmost editable thing under `scenePos`, if any.
    std::optional<ItemRef> refAt(QPointF scenePos) const;
    /// The handle under `scenePos`, if any.
    HandleItem* handleAt(QPointF scenePos) const;
    QList<HandleItem*> handles() const { return m_handles; }
    /// Everything whose extent lies inside `rect` (rubber band).
    ItemRefs refsInside(const QRectF& rect) const;
    void setHovered(const std::optional<ItemRef>& ref);

    /// Shows `candidate` (a tool's edit in progress) for the items `refs`, with their handles.
    void previewScene(const SceneDesc& candidate, const ItemRefs& refs);
    /// Back to the document's state after a preview.
    void endPreview();

    // --- Edits shared by tools and menus (each one undo step) ---------------------------------
    bool deleteSelection();
    bool duplicateSelection();
    /// Moves the selection by `offset` (m) as a keyboard nudge (nudges merge into one step).
    bool nudgeSelection(Point2 offset);

    // --- Groups ------------------------------------------------------------------------------
    /// Keeps GroupSelection and the scene's selection of spawn areas / targets in step.
    void setGroupSelection(GroupSelection* groups);
    GroupSelection* groupSelection() const { return m_groups; }
    /// The group the user is working with: GroupSelection's current one, else the first group
    /// among the selected spawn areas and targets; -1 if none.
    int currentGroup() const;
    /// The tank squad a target goes to: the current group if it is a squad, else the first
    /// squad of the scene; -1 if there is none.
    int targetSquad() const;

    // --- Group labels ---------------------------------------------------------------------------
    /// How many agents a group's label says it has. Without a query the authored count
    /// (groupAgentCount()); SimulationLayers answers with the running world's.
    void setAgentCountQuery(std::function<int(int group)> query);
    /// What the running world says a group's spawn could not do ("... placed 0 of 20
    /// agents: ..."), empty when nothing: the area and its label are marked, with the
    /// message as their tooltip. SimulationLayers answers from World::warnings().
    void setSpawnWarningQuery(std::function<QString(int group)> query);
    /// Relabels the spawn areas whose count changed (the world stepped).
    void refreshLabels();
    /// The label on `group`'s spawn area ("school · Fish school · 9"), or empty without one.
    QString groupLabel(int group) const;

    // --- View scale and grid -------------------------------------------------------------------
    void setMetresPerPixel(double metresPerPixel);
    double metresPerPixel() const { return m_metresPerPixel; }
    bool isGridVisible() const { return m_gridVisible; }
    void setGridVisible(bool visible);
    bool snapToGrid() const { return m_snap; }
    void setSnapToGrid(bool snap);
    /// Grid spacing in metres.
    double gridSize() const { return m_gridSize; }
    void setGridSize(double metres);
    /// `scenePos` on the nearest grid point when snapping is on, unchanged otherwise.
    QPointF snap(QPointF scenePos) const;

    QRectF levelRect() const;

    /// Key handling for the viewport: the tool first, then Delete, Ctrl+D, Ctrl+A, Escape
    /// (clear the selection) and the arrow keys (nudge). Sets the event's accepted flag.
    void handleKeyPress(QKeyEvent* event);

signals:
    void editorSelectionChanged();
    /// A short message for the status bar (an edit refused, and why).
    void statusMessage(const QString& message);
    void gridChanged();
    /// A right click (or the menu key) in the view that no tool took: the viewport menu opens
    /// at `screenPos` for the point `scenePos` (m). Not while playing with the mouse steering
    /// (right click sends the squad there), nor when the click finished a wall or polygon.
    void contextMenuRequested(QPointF scenePos, QPoint screenPos);

protected:
    void drawBackground(QPainter* painter, const QRectF& rect) override;
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseMoveEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QGraphicsSceneContextMenuEvent* event) override;

private:
    using MouseHandler = void (AbstractTool::*)(QGraphicsSceneMouseEvent*);
    /// `event` to the play tool, then (unless it accepted it) to the active tool.
    /// Hands the event to the play tool, and to the active tool unless the play tool took it;
    /// true when one of them used it as its own right click (see contextMenuRequested()).
    bool forwardMouse(QGraphicsSceneMouseEvent* event, MouseHandler handler);
    void onDocumentChanged(const Change& change);
    void rebuild(ItemKind kind);
    /// One element of `kind` was inserted (delta +1) or removed (-1) at `at`: that item is
    /// made or deleted and the ones after it renumbered, not every item rebuilt. False when
    /// the items do not match the change (then the caller rebuilds).
    bool shiftItems(ItemKind kind, int at, int delta);
    void rebuildAll();
    /// A new item for `ref`, synced from the document and put in the scene: a wall into the
    /// tile of the level it lies in, anything else at the top level.
    EditableItem* addEditableItem(const ItemRef& ref);
    void updateSceneRect();
    /// Has every view draw the background again (it keeps it as a picture) over the scene's
    /// rect and `alsoThere`.
    void redrawBackground(const QRectF& alsoThere = QRectF());
    void applySelection(bool announce);
    void rebuildHandles(const SceneDesc& scene);
    void positionHandles(const SceneDesc& scene);
    void syncGroupSelectionFromScene();
    /// One label per spawn area, above the agents, from the items' text and anchor.
    void syncLabels();
    QList<SpawnAreaItem*> spawnAreas() const;
    /// Calls `visit(ref, item)` for the items of `kind` only, in index order.
    template <typename Visit> void forEachOfKind(ItemKind kind, Visit visit) const;
    /// The first item after the walls (they come first in ref order), for the few others.
    std::map<ItemRef, EditableItem*>::const_iterator afterWalls() const;
    /// The items' selected and hovered flags to match m_selection and m_hovered, touching
    /// only the items flagged before and those to flag now (m_flagged), not every item.
    void showSelectionOnItems();
    int agentCount(int group) const;
    void syncSceneFromGroupSelection();

    Document* m_document;
    QPointer<AbstractTool> m_tool;
    QPointer<AbstractTool> m_playTool;
    QList<SceneMouseFilter*> m_mouseFilters;
    bool m_rightClickTaken = false; ///< the last right press was a tool's (no menu for it)
    std::map<ItemRef, EditableItem*> m_items;
    /// The walls' parents, one per kWallTileMetres square of the level a wall was made in:
    /// QGraphicsScene sorts and walks its top-level items on every change of the items (a
    /// handle added, a wall removed), and a big level's 200,000 walls as top-level items
    /// made each such edit cost hundreds of ms. Drawing and hit-testing still go wall by
    /// wall through the index; a wall edited out of its tile stays in it and draws the same.
    /// Each tile also draws its walls (see WallTile).
    std::map<std::pair<int, int>, WallTile*> m_wallTiles;
    bool m_buildingTiles = false; ///< rebuild(): new tiles wait to join the scene
    QList<HandleItem*> m_handles;
    QList<QGraphicsSimpleTextItem*> m_labels;
    std::function<int(int)> m_agentCount;
    std::function<QString(int)> m_spawnWarning;
    /// The label text of an area: its name and count, marked when its spawn fell short.
    QString labelText(const SpawnAreaItem& area) const;
    ItemRefs m_selection;
    ItemRefs m_previewed; ///< items previewScene() showed a candidate for, until endPreview()
    std::optional<ItemRef> m_hovered;
    /// The refs of the items that show a selected or hovered flag: a big level has 200,000
    /// items, and an edit or a click must not visit them all. Renumbered with the items.
    std::set<ItemRef> m_flagged;
    QPointer<GroupSelection> m_groups;
    bool m_syncingGroups = false;
    double m_metresPerPixel = 0.02;
    bool m_gridVisible = true;
    bool m_snap = false;
    double m_gridSize = 1.0;
};

} // namespace shoal::ui
