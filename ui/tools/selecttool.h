#pragma once
/// Select and move (Tiled's object selection tool): click selects, Shift+click adds or
/// removes, a drag on empty space draws a rubber band, a drag on a selected item moves the
/// selection (one undo step on release), handles reshape walls and polygons, resize circles
/// and spawn areas. Delete, Ctrl+D and the arrow keys act on the selection (EditorScene).

#include "document/itemids.h"
#include "document/scratchscene.h"
#include "tools/abstracttool.h"
#include "viewport/items/handleitem.h"

#include <QPointF>

namespace shoal::ui {

class PreviewItem;

class SelectTool : public AbstractTool
{
    Q_OBJECT

public:
    explicit SelectTool(QObject* parent = nullptr);

    void activate(EditorScene* scene) override;
    void mousePressed(QGraphicsSceneMouseEvent* event) override;
    void mouseMoved(QGraphicsSceneMouseEvent* event) override;
    void mouseReleased(QGraphicsSceneMouseEvent* event) override;
    void mouseDoubleClicked(QGraphicsSceneMouseEvent* event) override;
    void cancel() override;
    bool isBusy() const override { return m_mode != Mode::Idle; }
    QCursor cursor() const override { return Qt::ArrowCursor; }

private:
    enum class Mode
    {
        Idle,
        Pressing,
        Moving,
        RubberBand,
        DraggingHandle
    };

    /// The scene the current drag would produce (the gesture's scratch scene).
    const SceneDesc& movedScene(QPointF scenePos, Point2* offset);
    const SceneDesc& handleScene(QPointF scenePos);
    void finishMove(QPointF scenePos);
    void finishHandle(QPointF scenePos);
    void insertVertex(const ItemRef& ref, QPointF scenePos);
    void removeVertex(const ItemRef& ref, int vertex);

    Mode m_mode = Mode::Idle;
    QPointF m_start;
    QPoint m_startScreen;
    bool m_additive = false;
    Point2 m_anchor; ///< snapped to the grid while moving
    ItemRef m_handleOwner;
    HandleItem::Role m_handleRole = HandleItem::Role::Vertex;
    int m_handleIndex = 0;
    PreviewItem* m_band = nullptr; ///< the rubber band, while active
    ScratchScene m_scratch;        ///< what a move or a handle drag previews, while it lasts
};

} // namespace shoal::ui
