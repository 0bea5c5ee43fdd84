#pragma once
/// Draws the debug overlays OverlayOptions turns on, for the selected groups or all of them,
/// from the running World: the families' radii and bands, the leader's points, worm joints,
/// feeler rays (re-cast for up to kMaxFeelerAgents agents on screen), velocities and the
/// neighbour grid. Cosmetic pens and translucent colours over the agent layers.

#include "simulation/overlayoptions.h"
#include <shoal/sketch.h>
#include <shoal/vec2.h>

#include <QGraphicsObject>
#include <QImage>
#include <QLineF>
#include <QList>
#include <QPointer>
#include <QRectF>

#include <vector>

namespace shoal {
class World;
struct GroupState;
} // namespace shoal

namespace shoal::ui {

class OverlayItem : public QGraphicsObject
{
    Q_OBJECT

public:
    /// Above the agent layers (AgentLayerItem::kZValue) and the level geometry.
    static constexpr qreal kZValue = 20.0;
    /// Feelers are cast again for drawing; this many agents on screen at most.
    static constexpr int kMaxFeelerAgents = 300;
    /// Per-agent circles (keep, scatter) are skipped above this many agents on screen: they
    /// would only be a grey fog.
    static constexpr int kMaxCircleAgents = 1500;
    /// Velocity vectors show where an agent is this many seconds later.
    static constexpr float kVelocitySeconds = 0.5f;
    enum
    {
        Type = UserType + 0x5102
    };

    explicit OverlayItem(OverlayOptions* options, QGraphicsItem* parent = nullptr);

    /// Call after every step and when the world is rebuilt (null: draw nothing).
    void syncFromWorld(const World* world);
    /// Whether paint() draws anything now: an overlay on and a group in scope. It reads the
    /// live world then, so no step may run while it paints (SimulationController::
    /// setStepsBesidePaint).
    bool drawsAnything() const;
    const World* world() const { return m_world; }

    /// The groups selected in the editor (GroupSelection::groups()); used in the
    /// SelectedGroups scope. Indices that the world does not have are ignored.
    void setSelectedGroups(const QList<int>& groups);
    const QList<int>& selectedGroups() const { return m_selected; }
    /// The groups the overlays draw for now (scope applied, valid indices only).
    QList<int> shownGroups() const;

    QRectF boundingRect() const override;
    /// The text plates the last paint drew (device pixels), none covering another.
    const std::vector<QRectF>& lastLabelRects() const { return m_lastLabels; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option,
               QWidget* widget = nullptr) override;
    int type() const override { return Type; }

private:
    struct Frame;      // per-paint context (defined in the .cpp)
    class GridCanvas;  // the grid's pixels (defined in the .cpp)
    struct CellWindow; // the grid cells on screen

    void recomputeBounds();
    /// Draws what a family (or the feelers) sketched, tones mapped to the overlay colours.
    void paintSketch(Frame& f, const Sketch& sketch);
    void paintMarks(Frame& f, const std::vector<SketchMark>& marks);
    void paintVelocity(Frame& f, const GroupState& group);
    void paintGrid(Frame& f, int group);
    void shadeCells(GridCanvas& canvas, const GridSketch& grid, const CellWindow& window,
                    int group) const;
    static void drawGridLines(GridCanvas& canvas, const GridSketch& grid, const CellWindow& window);

    /// Marks of one shape, size and style, drawn in one go.
    struct MarkBatch
    {
        SketchMark::Shape shape = SketchMark::Shape::Dot;
        float pixels = 0.0f;
        SketchStyle style;
        std::vector<Vec2> points;
    };
    /// Lines of one style, drawn in one go.
    struct LineBatch
    {
        SketchStyle style;
        std::vector<QLineF> items;
    };

    QPointer<OverlayOptions> m_options;
    const World* m_world = nullptr;
    QList<int> m_selected;
    QRectF m_bounds;
    // Reused per frame.
    Sketch m_sketch;
    std::vector<QLineF> m_lines;
    std::vector<QPointF> m_points;
    std::vector<QRectF> m_rects;
    std::vector<QRectF> m_lastLabels;
    std::vector<LineBatch> m_lineBatches;
    std::vector<MarkBatch> m_markBatches;
    std::vector<QPointF> m_polygon; ///< circle scratch
    QImage m_gridCanvas;
};

} // namespace shoal::ui
