#include "inspector/inspectedagent.h"

#include "simulation/simulationcontroller.h"
#include "viewport/editorscene.h"
#include "viewport/sceneview.h"

#include <shoal/world.h>

#include <QGraphicsSceneMouseEvent>
#include <QGraphicsView>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>

namespace shoal::ui {

namespace {

const QColor kInspectColor(120, 230, 255);

} // namespace

QColor ruleColor(int index)
{
    static const QColor palette[] = {QColor(0x4f, 0xc3, 0xf7), QColor(0x81, 0xc7, 0x84),
                                     QColor(0xff, 0xb7, 0x4d), QColor(0xe5, 0x73, 0x73),
                                     QColor(0xba, 0x68, 0xc8), QColor(0xff, 0xf1, 0x76)};
    return palette[index % 6];
}

double ruleArrowScale(const std::string& unit)
{
    if (unit == "N")
        return 0.25;
    if (unit == "wish")
        return 2.0;
    return 1.0; // m/s and headings (at the agent's speed): a second of motion
}

InspectedAgent::InspectedAgent(EditorScene* scene, SceneView* view,
                               SimulationController* simulation)
    : m_scene(scene), m_view(view), m_simulation(simulation)
{
    setZValue(kZValue);
    setAcceptedMouseButtons(Qt::NoButton);
    scene->addItem(this);
    scene->addMouseFilter(this);
    connect(simulation, &SimulationController::stepped, this, &InspectedAgent::onStepped);
    connect(simulation, &SimulationController::worldRebuilt, this, &InspectedAgent::onStepped);
}

InspectedAgent::~InspectedAgent()
{
    m_scene->removeMouseFilter(this);
}

void InspectedAgent::inspect(int group, std::uint32_t id)
{
    m_group = group;
    m_id = id;
    m_simulation->setInspected(group, id);
    onStepped();
    emit changed();
}

std::optional<std::size_t> InspectedAgent::index(const World& world) const
{
    if (m_group < 0 || m_group >= world.groupCount())
        return std::nullopt;
    const AgentArrays& a = world.group(m_group).agents;
    const auto found = std::find(a.id.begin(), a.id.end(), m_id);
    if (found == a.id.end())
        return std::nullopt;
    return std::size_t(found - a.id.begin());
}

std::optional<std::pair<int, std::uint32_t>> InspectedAgent::agentAt(QPointF p, double ppm) const
{
    const World* world = m_simulation->world();
    if (!world)
        return std::nullopt;
    const double slack = kPickPx / std::max(ppm, 1e-6);
    std::optional<std::pair<int, std::uint32_t>> best;
    double bestGap = 0.0;
    for (int g = 0; g < world->groupCount(); ++g) {
        const AgentArrays& a = world->group(g).agents;
        const double reach = world->bodyRadius(g) + slack;
        for (std::size_t i = 0; i < a.size(); ++i) {
            const double d = std::hypot(a.px[i] - p.x(), a.py[i] - p.y());
            if (d <= reach && (!best || d - reach < bestGap)) {
                best = std::make_pair(g, a.id[i]);
                bestGap = d - reach;
            }
        }
    }
    return best;
}

void InspectedAgent::setFollowing(bool follow)
{
    m_following = follow;
    onStepped();
}

bool InspectedAgent::filterMouse(QGraphicsSceneMouseEvent* event)
{
    if (event->type() != QEvent::GraphicsSceneMousePress || event->button() != Qt::LeftButton)
        return false;
    const World* world = m_simulation->world();
    // Agents are where the level says until the world has stepped: a click there edits the
    // level. While playing a click steers; Ctrl hands it to the tools, as for any tool.
    if (!world || world->stepCount() == 0)
        return false;
    if (m_simulation->isPlaying() && !(event->modifiers() & Qt::ControlModifier))
        return false;
    double ppm = 50.0;
    if (event->widget())
        if (auto* view = qobject_cast<QGraphicsView*>(event->widget()->parentWidget()))
            ppm = std::abs(view->transform().m11());
    const auto hit = agentAt(event->scenePos(), ppm);
    if (!hit)
        return false;
    inspect(hit->first, hit->second);
    return true;
}

void InspectedAgent::onStepped()
{
    const World* world = m_simulation->world();
    const std::optional<std::size_t> i = world ? index(*world) : std::nullopt;
    // Nobody inspected before or now: nothing drawn moves, so the scene is left alone.
    if (!i && !m_found)
        return;
    prepareGeometryChange();
    m_found = bool(i);
    if (m_found) {
        const AgentArrays& a = world->group(m_group).agents;
        m_at = {a.px[*i], a.py[*i]};
        m_velocity = {a.vx[*i], a.vy[*i]};
        m_radius = world->bodyRadius(m_group);
        m_goal = world->goal(m_group);
        m_rules.clear();
        const Inspection& seen = world->inspection();
        if (seen.recorded && seen.wants(m_group, m_id)) {
            const double scale = ruleArrowScale(seen.unit);
            for (const RuleShare& rule : seen.rules)
                m_rules.push_back(rule.vector * float(scale));
        }
        if (m_following)
            m_view->centerOn(QPointF(m_at.x, m_at.y));
    }
    update();
    emit updated();
}

QRectF InspectedAgent::boundingRect() const
{
    if (!m_found)
        return {};
    QRectF r(m_at.x - 4.0, m_at.y - 4.0, 8.0, 8.0);
    r |= QRectF(QPointF(m_at.x, m_at.y), QPointF(m_at.x + m_velocity.x, m_at.y + m_velocity.y))
             .normalized();
    if (m_goal)
        r |= QRectF(QPointF(m_at.x, m_at.y), QPointF(m_goal->x, m_goal->y)).normalized();
    for (const Vec2& v : m_rules)
        r |= QRectF(QPointF(m_at.x, m_at.y), QPointF(m_at.x + v.x, m_at.y + v.y)).normalized();
    return r.adjusted(-m_radius - 2.0, -m_radius - 2.0, m_radius + 2.0, m_radius + 2.0);
}

void InspectedAgent::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    if (!m_found)
        return;
    const double ppm =
        std::max(1e-6, option->levelOfDetailFromTransform(painter->worldTransform()));
    painter->setRenderHint(QPainter::Antialiasing);
    const QPointF at(m_at.x, m_at.y);
    if (m_goal) {
        QPen goal(kInspectColor, 1.0, Qt::DotLine);
        goal.setCosmetic(true);
        painter->setPen(goal);
        painter->drawLine(at, QPointF(m_goal->x, m_goal->y));
    }
    QPen ring(kInspectColor, 2.0);
    ring.setCosmetic(true);
    painter->setPen(ring);
    painter->setBrush(Qt::NoBrush);
    const double r = std::max(double(m_radius) + 0.15, 10.0 / ppm);
    painter->drawEllipse(at, r, r);
    // Its velocity (a second of motion), then what each rule wanted, in the rules' colours.
    const auto arrow = [&](Vec2 v, const QColor& color, double width) {
        if (std::hypot(v.x, v.y) * ppm < 2.0)
            return; // shorter than a knob: nothing to read
        QPen pen(color, width);
        pen.setCosmetic(true);
        painter->setPen(pen);
        const QPointF tip(m_at.x + v.x, m_at.y + v.y);
        painter->drawLine(at, tip);
        const double head = 6.0 / ppm;
        const double angle = std::atan2(v.y, v.x);
        for (double side : {2.6, -2.6})
            painter->drawLine(
                tip, tip + QPointF(head * std::cos(angle + side), head * std::sin(angle + side)));
    };
    for (std::size_t k = 0; k < m_rules.size(); ++k)
        arrow(m_rules[k], ruleColor(int(k)), 1.6);
    arrow(m_velocity, kInspectColor, 2.0);
}

} // namespace shoal::ui
