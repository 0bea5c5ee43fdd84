#pragma once
/// Draws the debug overlays OverlayOptions turns on, for the selected groups or all of them,
/// from the running World: the families' radii and bands, the leader's points, worm joints,
/// feeler rays (re-cast for up to kMaxFeelerAgents agents on screen), velocities and the
/// neighbour grid. Cosmetic pens and translucent colours over the agent layers.

#include "simulation/overlayoptions.h"
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
class Group;
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
    enum { Type = UserType + 0x5102 };

    explicit OverlayItem(OverlayOptions* options, QGraphicsItem* parent = nullptr);

    /// Call after every step and when the world is rebuilt (null: draw nothing).
    void syncFromWorld(const World* world);
    const World* world() const { return m_world; }

    /// The groups selected in the editor (GroupSelection::groups()); used in the
    /// SelectedGroups scope. Indices that the world does not have are ignored.
    void setSelectedGroups(const QList<int>& groups);
    const QList<int>& selectedGroups() const { return m_selected; }
    /// The groups the overlays draw for now (scope applied, valid indices only).
    QList<int> shownGroups() const;

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option,
               QWidget* widget = nullptr) override;
    int type() const override { return Type; }

private:
    struct Frame; // per-paint context (defined in the .cpp)

    void recomputeBounds();
    void paintFishBand(Frame& f, const Group& group);
    void paintSquadRanges(Frame& f, const Group& group);
    void paintSwarmScatter(Frame& f, const Group& group);
    void paintLeaderPoints(Frame& f, const Group& group);
    void paintWormJoints(Frame& f, const Group& group);
    void paintFeelers(Frame& f, const Group& group, int& budget);
    void paintVelocity(Frame& f, const Group& group);
    void paintGrid(Frame& f, const Group& group);

    QPointer<OverlayOptions> m_options;
    const World* m_world = nullptr;
    QList<int> m_selected;
    QRectF m_bounds;
    // Reused per frame.
    std::vector<QLineF> m_lines;
    std::vector<QLineF> m_hitLines;
    std::vector<QPointF> m_points;
    std::vector<QRectF> m_rects[3];
    std::vector<Vec2> m_joints;
    std::vector<Vec2> m_targets;
    std::vector<QPointF> m_polygon; ///< circle scratch
    QImage m_gridCanvas;
};

} // namespace shoal::ui
