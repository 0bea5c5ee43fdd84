#pragma once
/// The one agent the designer inspects, named by its group and its stable id (AgentArrays::id),
/// so the choice survives the world's cell-order reshuffles; found again in the world on each
/// look. Picked by a click on the agent in the view (paused, or with Ctrl while playing, as
/// for any tool in Play); drawn as a ring with its velocity and the way to its goal; the view
/// follows it when asked.

#include "viewport/scenemousefilter.h"

#include <shoal/vec2.h>

#include <QColor>
#include <QGraphicsObject>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace shoal {
class World;
}

namespace shoal::ui {

/// The colour of the inspected agent's rule `index` (Inspection::rules order), the same in
/// the view's arrows and the inspector's list.
QColor ruleColor(int index);
/// Metres of arrow per unit of a share in `unit` ("m/s": a second of motion; "N": a quarter
/// metre per newton; "wish" and "heading": as the family weighs them).
double ruleArrowScale(const std::string& unit);

class EditorScene;
class SceneView;
class SimulationController;

class InspectedAgent : public QGraphicsObject, public SceneMouseFilter
{
    Q_OBJECT

public:
    static constexpr double kZValue = 47.0;
    /// How far off a body a click still picks it, px.
    static constexpr double kPickPx = 4.0;

    InspectedAgent(EditorScene* scene, SceneView* view, SimulationController* simulation);
    ~InspectedAgent() override;

    bool hasAgent() const { return m_group >= 0; }
    int group() const { return m_group; }
    std::uint32_t id() const { return m_id; }
    /// Inspects agent `id` of `group` (a group of -1: none).
    void inspect(int group, std::uint32_t id);
    void clear() { inspect(-1, 0); }
    /// Where the agent is in the world now (its index), or nothing when it is gone.
    std::optional<std::size_t> index(const World& world) const;
    /// The agent whose body is under `scenePos` (within kPickPx on screen), group and id.
    std::optional<std::pair<int, std::uint32_t>> agentAt(QPointF scenePos,
                                                         double pixelsPerMetre) const;

    /// Keep the agent in the middle of the view as it moves.
    void setFollowing(bool follow);
    bool isFollowing() const { return m_following; }

    bool filterMouse(QGraphicsSceneMouseEvent* event) override;
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

signals:
    /// Another agent (or none) is inspected.
    void changed();
    /// The inspected agent's state may have changed (a step, a new world).
    void updated();

private:
    void onStepped();

    EditorScene* m_scene;
    SceneView* m_view;
    SimulationController* m_simulation;
    int m_group = -1;
    std::uint32_t m_id = 0;
    bool m_following = false;
    Vec2 m_at, m_velocity;
    std::optional<Vec2> m_goal;
    std::vector<Vec2> m_rules; ///< the shares as arrows (m), in the inspection's order
    float m_radius = 0.0f;
    bool m_found = false;
};

} // namespace shoal::ui
