#pragma once
/// What a tool shows while an action is in progress: a path in scene coordinates (a wall
/// being drawn, a rubber band, a rectangle being dragged) with optional vertex dots, or an
/// icon at a point (a pickup or marker about to be placed). Never part of the document.

#include <QGraphicsItem>
#include <QPainterPath>
#include <QPen>
#include <QPolygonF>

#include <functional>

namespace shoal::ui {

class PreviewItem : public QGraphicsItem
{
public:
    PreviewItem();

    /// `pen` is cosmetic (pixels); `brush` fills closed paths.
    void setPath(const QPainterPath& path, const QPen& pen, const QBrush& brush = Qt::NoBrush);
    /// Dots (pixels across) at the points; `highlight` >= 0 draws that one larger (a loop can
    /// be closed there).
    void setVertices(const QPolygonF& points, int highlight = -1);
    void clear();

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    double metresPerPixel() const;

    QPainterPath m_path;
    QPen m_pen;
    QBrush m_brush;
    QPolygonF m_vertices;
    int m_highlight = -1;
};

/// An icon drawn in pixels at a scene point (ignores the zoom), semi-transparent.
class IconPreviewItem : public QGraphicsItem
{
public:
    using Painter = std::function<void(QPainter*)>;
    IconPreviewItem(Painter painter, double size);

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    Painter m_painter;
    double m_size;
};

} // namespace shoal::ui
