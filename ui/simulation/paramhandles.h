#pragma once
/// Parameter handles in the view: for the one selected group, what each parameter with a
/// ParamHandle (neighbour radius, keep band, keep distance, target distances, scatter radius,
/// wander circle, behind and evade distances, feelers, a worm's width and turn cone) means,
/// drawn on one agent (the group's leader, or agent 0; before the world runs, where the group
/// starts) with a knob to drag. A drag is one undo step, refused at once (the reason beside the
/// knob) where a rule between parameters would break; the property panel follows the
/// document as for any edit. The knobs take the mouse before the tools (SceneMouseFilter).

#include "viewport/scenemousefilter.h"

#include <shoal/paramspec.h>
#include <shoal/vec2.h>

#include <QGraphicsObject>
#include <QString>

#include <optional>
#include <vector>

namespace shoal::ui {

class Document;
class EditorScene;
class GroupSelection;
class SimulationController;

class ParamHandlesItem : public QGraphicsObject, public SceneMouseFilter
{
    Q_OBJECT

public:
    static constexpr double kZValue = 46.0;
    static constexpr double kKnobPx = 5.0; ///< a knob's radius on screen
    static constexpr double kGrabPx = 9.0; ///< how near the pointer must be to take a knob

    ParamHandlesItem(EditorScene* scene, GroupSelection* selection,
                     SimulationController* simulation);
    ~ParamHandlesItem() override;

    /// Shown for one selected group when `on` (View ▸ Parameter Handles).
    void setEnabled(bool on);
    bool isEnabledByUser() const { return m_enabled; }

    /// One drawn handle: the parameter, its geometry in the scene (m) and its knob.
    struct Knob
    {
        int paramIndex = -1;
        ParamHandle handle;
        Vec2 anchor;    ///< ring centre or line origin
        Vec2 direction; ///< the agent's heading, unit
        double value = 0.0;
        Vec2 at; ///< where the knob is
    };
    /// The handles as last laid out (empty when hidden).
    const std::vector<Knob>& knobs() const { return m_knobs; }
    /// The knob of parameter `key`, if shown.
    std::optional<Knob> knob(const QString& key) const;
    /// Why the last drag position was refused (empty when it was not).
    QString refusal() const { return m_refusal; }
    /// The value a knob of `knob` dragged to `scenePos` gives (rounded to the parameter's step,
    /// inside its range).
    double valueAt(const Knob& knob, QPointF scenePos) const;

    bool filterMouse(QGraphicsSceneMouseEvent* event) override;
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    /// Lays the handles out again (selection, document or world changed).
    void relayout();

private:
    /// The group shown (-1: none), its family's specs and its representative agent's pose.
    int shownGroup() const;
    bool pose(int group, Vec2& at, Vec2& heading) const;
    int knobAt(QPointF scenePos, double pixelsPerMetre) const;
    double pixelsPerMetre(QGraphicsSceneMouseEvent* event) const;
    void drag(QPointF scenePos, bool commit);

    EditorScene* m_scene;
    GroupSelection* m_selection;
    SimulationController* m_simulation;
    bool m_enabled = true;
    std::vector<Knob> m_knobs;
    QRectF m_bounds;
    double m_pixelsPerMetre = 50.0; ///< as last painted
    int m_hover = -1;               ///< index into m_knobs
    int m_dragging = -1;            ///< index into m_knobs
    int m_dragGroup = -1;
    int m_dragParam = -1;
    bool m_dragPushed = false; ///< the drag has an open undo command
    double m_dragValue = 0.0;
    QString m_refusal;
};

} // namespace shoal::ui
