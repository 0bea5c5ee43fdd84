#include "simulation/paramhandles.h"

#include "document/commands.h"
#include "document/document.h"
#include "document/groupselection.h"
#include "document/qtstrings.h"
#include "panels/paramlabels.h"
#include "simulation/simulationcontroller.h"
#include "viewport/editorscene.h"

#include <shoal/world.h>

#include <QGraphicsSceneMouseEvent>
#include <QGraphicsView>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <QUndoStack>

#include <algorithm>
#include <cmath>

namespace shoal::ui {

namespace {

constexpr double kPi = 3.14159265358979323846;

Vec2 rotated(Vec2 v, double degrees)
{
    const double r = degrees * kPi / 180.0;
    const double c = std::cos(r), s = std::sin(r);
    return {float(v.x * c - v.y * s), float(v.x * s + v.y * c)};
}

QPointF qt(Vec2 v)
{
    return {v.x, v.y};
}

const QColor kHandleColor(255, 214, 102);
const QColor kRefusedColor(255, 99, 99);

} // namespace

ParamHandlesItem::ParamHandlesItem(EditorScene* scene, GroupSelection* selection,
                                   SimulationController* simulation)
    : m_scene(scene), m_selection(selection), m_simulation(simulation)
{
    setZValue(kZValue);
    setAcceptedMouseButtons(Qt::NoButton); // the scene hands events over (filterMouse)
    scene->addItem(this);
    scene->addMouseFilter(this);
    connect(selection, &GroupSelection::selectionChanged, this, &ParamHandlesItem::relayout);
    connect(scene->document(), &Document::changed, this, &ParamHandlesItem::relayout);
    connect(simulation, &SimulationController::stepped, this, &ParamHandlesItem::relayout);
    connect(simulation, &SimulationController::worldRebuilt, this, &ParamHandlesItem::relayout);
    relayout();
}

ParamHandlesItem::~ParamHandlesItem()
{
    m_scene->removeMouseFilter(this);
}

void ParamHandlesItem::setEnabled(bool on)
{
    m_enabled = on;
    relayout();
}

int ParamHandlesItem::shownGroup() const
{
    const QList<int>& groups = m_selection->groups();
    const int count = int(m_scene->document()->scene().groups.size());
    if (!m_enabled || groups.size() != 1 || groups.first() < 0 || groups.first() >= count)
        return -1;
    return groups.first();
}

bool ParamHandlesItem::pose(int g, Vec2& at, Vec2& heading) const
{
    const World* world = m_simulation->world();
    const GroupDesc& desc = m_scene->document()->scene().groups[std::size_t(g)];
    if (world && g < world->groupCount() && world->group(g).kind == desc.kind &&
        world->group(g).agents.size() > 0) {
        // The leader (id 0) stays the same agent through the cell-order reshuffles.
        const AgentArrays& a = world->group(g).agents;
        const auto found = std::find(a.id.begin(), a.id.end(), 0u);
        const std::size_t i = found == a.id.end() ? 0 : std::size_t(found - a.id.begin());
        at = {a.px[i], a.py[i]};
        heading = {std::cos(a.heading[i]), std::sin(a.heading[i])};
        return true;
    }
    // Before the world runs: where the group starts.
    if (!desc.agents.empty()) {
        at = {float(desc.agents.front().position.x), float(desc.agents.front().position.y)};
        heading = rotated({1.0f, 0.0f}, desc.agents.front().heading);
        return true;
    }
    if (desc.spawn) {
        at = {float((desc.spawn->area.min.x + desc.spawn->area.max.x) / 2),
              float((desc.spawn->area.min.y + desc.spawn->area.max.y) / 2)};
        heading = {1.0f, 0.0f};
        return true;
    }
    return false;
}

void ParamHandlesItem::relayout()
{
    const int g = shownGroup();
    Vec2 at, heading;
    const bool shown = g >= 0 && pose(g, at, heading);
    // No group shown before or now: the empty item stays as it is.
    if (!shown && m_knobs.empty() && m_bounds.isNull())
        return;
    prepareGeometryChange();
    m_knobs.clear();
    m_bounds = QRectF();
    if (!shown) {
        update();
        return;
    }
    const GroupDesc& desc = m_scene->document()->scene().groups[std::size_t(g)];
    const std::vector<ParamSpec>& specs = paramSpecs(desc.kind);
    const World* world = m_simulation->world();
    std::optional<Vec2> goal;
    if (world && g < world->groupCount())
        goal = world->goal(g);
    else if (desc.target)
        goal = Vec2{float(desc.target->x), float(desc.target->y)};
    for (std::size_t p = 0; p < specs.size() && p < desc.params.size(); ++p) {
        const ParamHandle& h = specs[p].handle;
        if (h.shape == ParamHandle::Shape::None)
            continue;
        Knob k;
        k.paramIndex = int(p);
        k.handle = h;
        k.value = desc.params[p];
        k.direction = heading;
        k.anchor = at;
        if (h.anchor == ParamHandle::Anchor::Goal) {
            if (!goal)
                continue;
            k.anchor = *goal;
        } else if (h.anchor == ParamHandle::Anchor::AheadBy) {
            const int by = paramIndex(specs, h.anchorKey);
            if (by >= 0)
                k.anchor = at + heading * float(desc.params[std::size_t(by)]);
        }
        const float v = float(k.value);
        switch (h.shape) {
        case ParamHandle::Shape::Radius:
            k.at = k.anchor + rotated(heading, h.knobAngle) * v;
            break;
        case ParamHandle::Shape::Ahead:
            k.at = k.anchor + heading * v;
            break;
        case ParamHandle::Shape::Behind:
            k.at = k.anchor - heading * v;
            break;
        case ParamHandle::Shape::Side:
            k.at = k.anchor + rotated(heading, 90.0) * (v / 2.0f);
            break;
        case ParamHandle::Shape::Cone:
            k.at = k.anchor + rotated(heading, v) * h.reach;
            break;
        case ParamHandle::Shape::None:
            break;
        }
        const double extent = h.shape == ParamHandle::Shape::Radius
                                  ? v
                                  : std::hypot(k.at.x - k.anchor.x, k.at.y - k.anchor.y);
        m_bounds |= QRectF(k.anchor.x - extent, k.anchor.y - extent, 2 * extent, 2 * extent);
        m_bounds |= QRectF(qt(k.at), QSizeF(0, 0));
        m_knobs.push_back(k);
    }
    // Room for the knobs, their labels and a refusal, a few metres at any zoom worth using.
    m_bounds.adjust(-6.0, -6.0, 6.0, 6.0);
    update();
}

std::optional<ParamHandlesItem::Knob> ParamHandlesItem::knob(const QString& key) const
{
    const int g = shownGroup();
    if (g < 0)
        return std::nullopt;
    const auto& specs = paramSpecs(m_scene->document()->scene().groups[std::size_t(g)].kind);
    for (const Knob& k : m_knobs)
        if (qs(specs[std::size_t(k.paramIndex)].key) == key)
            return k;
    return std::nullopt;
}

double ParamHandlesItem::valueAt(const Knob& k, QPointF scenePos) const
{
    const Vec2 d{float(scenePos.x() - k.anchor.x), float(scenePos.y() - k.anchor.y)};
    const Vec2 h = k.direction;
    double v = 0.0;
    switch (k.handle.shape) {
    case ParamHandle::Shape::Radius:
        v = std::hypot(d.x, d.y);
        break;
    case ParamHandle::Shape::Ahead:
        v = d.x * h.x + d.y * h.y;
        break;
    case ParamHandle::Shape::Behind:
        v = -(d.x * h.x + d.y * h.y);
        break;
    case ParamHandle::Shape::Side:
        v = 2.0 * std::fabs(h.x * d.y - h.y * d.x);
        break;
    case ParamHandle::Shape::Cone:
        v = std::fabs(std::atan2(h.x * d.y - h.y * d.x, h.x * d.x + h.y * d.y)) * 180.0 / kPi;
        break;
    case ParamHandle::Shape::None:
        break;
    }
    const int g = shownGroup();
    if (g < 0)
        return v;
    const ParamSpec& spec = paramSpecs(
        m_scene->document()->scene().groups[std::size_t(g)].kind)[std::size_t(k.paramIndex)];
    // To the step, then to nine decimals: 33 steps of 0.1 are 3.3000000000000003, which
    // a file would keep.
    if (spec.step > 0.0)
        v = std::round(std::round(v / spec.step) * spec.step * 1e9) / 1e9;
    return std::clamp(v, spec.minValue, spec.maxValue);
}

double ParamHandlesItem::pixelsPerMetre(QGraphicsSceneMouseEvent* event) const
{
    if (event && event->widget())
        if (auto* view = qobject_cast<QGraphicsView*>(event->widget()->parentWidget()))
            return std::abs(view->transform().m11());
    return m_pixelsPerMetre;
}

int ParamHandlesItem::knobAt(QPointF scenePos, double ppm) const
{
    int best = -1;
    double bestPx = kGrabPx;
    for (std::size_t i = 0; i < m_knobs.size(); ++i) {
        const double px = QLineF(scenePos, qt(m_knobs[i].at)).length() * ppm;
        if (px <= bestPx) {
            bestPx = px;
            best = int(i);
        }
    }
    return best;
}

bool ParamHandlesItem::filterMouse(QGraphicsSceneMouseEvent* event)
{
    if (m_knobs.empty() && m_dragging < 0)
        return false;
    const QPointF pos = event->scenePos();
    switch (event->type()) {
    case QEvent::GraphicsSceneMousePress: {
        if (event->button() != Qt::LeftButton)
            return false;
        const int i = knobAt(pos, pixelsPerMetre(event));
        if (i < 0)
            return false;
        m_dragging = i;
        m_dragGroup = shownGroup();
        m_dragParam = m_knobs[std::size_t(i)].paramIndex;
        m_dragPushed = false;
        m_refusal.clear();
        update();
        return true;
    }
    case QEvent::GraphicsSceneMouseMove:
        if (m_dragging >= 0) {
            drag(pos, false);
            return true;
        }
        if (const int hover = knobAt(pos, pixelsPerMetre(event)); hover != m_hover) {
            m_hover = hover;
            update();
        }
        return false;
    case QEvent::GraphicsSceneMouseRelease:
        if (m_dragging < 0)
            return false;
        drag(pos, true);
        m_dragging = -1;
        update();
        return true;
    default:
        return m_dragging >= 0;
    }
}

void ParamHandlesItem::drag(QPointF scenePos, bool commit)
{
    if (m_dragging < 0 || std::size_t(m_dragging) >= m_knobs.size() || m_dragGroup != shownGroup())
        return;
    Document* document = m_scene->document();
    const GroupDesc& group = document->scene().groups[std::size_t(m_dragGroup)];
    const auto p = std::size_t(m_dragParam);
    const double value = valueAt(m_knobs[std::size_t(m_dragging)], scenePos);
    if (auto error = checkParamEdit(group.kind, group.params, m_dragParam, value)) {
        // Nothing changes: the knob stays at the last value the rules allowed, and says why.
        m_refusal = withLabels(error->message, paramSpecs(group.kind));
        if (commit && m_dragPushed)
            document->undoStack()->push(new SetGroupParamCommand(document, m_dragGroup, m_dragParam,
                                                                 group.params[p], true));
        update();
        return;
    }
    m_refusal.clear();
    if (value == group.params[p] && !m_dragPushed)
        return; // a click on a knob, or no change yet: no edit
    document->undoStack()->push(
        new SetGroupParamCommand(document, m_dragGroup, m_dragParam, value, commit));
    m_dragPushed = true;
}

QRectF ParamHandlesItem::boundingRect() const
{
    return m_bounds;
}

void ParamHandlesItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    if (m_knobs.empty())
        return;
    const double ppm =
        std::max(1e-6, option->levelOfDetailFromTransform(painter->worldTransform()));
    m_pixelsPerMetre = ppm;
    const int g = shownGroup();
    if (g < 0)
        return;
    const auto& specs = paramSpecs(m_scene->document()->scene().groups[std::size_t(g)].kind);
    painter->setRenderHint(QPainter::Antialiasing);
    for (std::size_t i = 0; i < m_knobs.size(); ++i) {
        const Knob& k = m_knobs[i];
        const bool active = int(i) == m_dragging || (m_dragging < 0 && int(i) == m_hover);
        QColor color = kHandleColor;
        color.setAlpha(active ? 255 : 170);
        QPen pen(color, active ? 2.0 : 1.2, active ? Qt::SolidLine : Qt::DashLine);
        pen.setCosmetic(true);
        painter->setPen(pen);
        painter->setBrush(Qt::NoBrush);
        const QPointF anchor = qt(k.anchor);
        switch (k.handle.shape) {
        case ParamHandle::Shape::Radius:
            painter->drawEllipse(anchor, k.value, k.value);
            break;
        case ParamHandle::Shape::Ahead:
        case ParamHandle::Shape::Behind:
        case ParamHandle::Shape::Side:
            painter->drawLine(anchor, qt(k.at));
            break;
        case ParamHandle::Shape::Cone: {
            painter->drawLine(anchor, qt(k.at));
            const Vec2 other = k.anchor + rotated(k.direction, -k.value) * k.handle.reach;
            painter->drawLine(anchor, qt(other));
            break;
        }
        case ParamHandle::Shape::None:
            break;
        }
        // The knob and, while it is pointed at or dragged, what it sets, at a fixed screen size.
        painter->save();
        painter->translate(qt(k.at));
        painter->scale(1.0 / ppm, -1.0 / ppm); // the view flips y: text stays upright
        const bool refused = int(i) == m_dragging && !m_refusal.isEmpty();
        painter->setPen(QPen(QColor(20, 20, 20), 1.0));
        painter->setBrush(refused ? kRefusedColor : color);
        painter->drawEllipse(QPointF(0, 0), kKnobPx, kKnobPx);
        if (active) {
            const ParamSpec& spec = specs[std::size_t(k.paramIndex)];
            const QString text = QStringLiteral("%1 %2 %3")
                                     .arg(qs(spec.label), qs(formatNumber(k.value)), qs(spec.unit))
                                     .trimmed();
            painter->setPen(kHandleColor);
            painter->drawText(QPointF(kKnobPx + 4.0, -kKnobPx - 2.0), text);
            if (refused) {
                painter->setPen(kRefusedColor);
                painter->drawText(QRectF(kKnobPx + 4.0, 2.0, 320.0, 60.0),
                                  Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, m_refusal);
            }
        }
        painter->restore();
    }
}

} // namespace shoal::ui
