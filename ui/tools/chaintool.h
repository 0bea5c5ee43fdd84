#pragma once
/// A tool that draws a chain of points: clicks add points (snapped to the grid), a click on
/// the first point closes the loop, a double-click, a right-click or Enter finishes,
/// Backspace removes the last point, Escape drops the chain. The wall painter and the
/// obstacle painter's polygon mode are chain tools.

#include "tools/abstracttool.h"

#include <QBrush>
#include <QPolygonF>

#include <vector>

namespace shoal::ui {

class PreviewItem;

class ChainTool : public AbstractTool
{
    Q_OBJECT

public:
    using AbstractTool::AbstractTool;

    void activate(EditorScene* scene) override;
    void mousePressed(QGraphicsSceneMouseEvent* event) override;
    void mouseMoved(QGraphicsSceneMouseEvent* event) override;
    void mouseReleased(QGraphicsSceneMouseEvent* event) override;
    void mouseDoubleClicked(QGraphicsSceneMouseEvent* event) override;
    void keyPressed(QKeyEvent* event) override;
    void cancel() override;
    bool isBusy() const override { return !m_points.isEmpty(); }

    /// Points placed so far (scene coordinates, m).
    const QPolygonF& points() const { return m_points; }

protected:
    /// The chain is finished: push the command (or report why not). `closed` when the user
    /// clicked the first point again. Consecutive duplicates are already removed.
    virtual void commitChain(const std::vector<Point2>& points, bool closed) = 0;
    /// A chain always drawn as a loop (a polygon) previews its closing edge.
    virtual bool alwaysClosed() const { return false; }
    virtual QBrush previewBrush() const { return Qt::NoBrush; }

private:
    void addPoint(QPointF scenePos);
    /// A click near the first point closes the chain (true); elsewhere it adds a point.
    bool closeOrAddPoint(QPointF scenePos);
    void finish(bool closed);
    bool nearFirst(QPointF scenePos) const;
    void updatePreview();

    QPolygonF m_points;
    QPointF m_cursor;
    bool m_hasCursor = false;
    PreviewItem* m_preview = nullptr;
};

} // namespace shoal::ui
