#include "simulation/overlayitem.h"

#include "simulation/agentlayeritem.h"
#include "families/fishschool/fishschool.h"
#include "families/leaderfollow/leaderfollow.h"
#include "families/swarm/swarm.h"
#include "families/tanksquad/tanksquad.h"
#include <shoal/world.h>
#include "world/worldaccess.h"
#include "families/worm/worm.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace shoal::ui {

namespace {

// Translucent, so the agents stay readable underneath; one meaning per colour throughout.
constexpr QColor kFaint{255, 255, 255, 70};      ///< a radius that is fine
constexpr QColor kNeutral{255, 255, 255, 150};   ///< lines of reference
constexpr QColor kWarm{255, 150, 60, 215};       ///< too close, a hit
constexpr QColor kCool{90, 190, 255, 205};       ///< closing up
constexpr QColor kGoal{255, 214, 90, 225};       ///< targets and goals
constexpr QColor kGood{110, 230, 150, 220};      ///< where an agent wants to be / at rest
constexpr QColor kDanger{255, 90, 90, 200};      ///< zones to keep out of
constexpr QColor kGridLine{120, 200, 255, 60};
constexpr QColor kGridBox{120, 200, 255, 150};
constexpr QColor kLabelBack{10, 16, 24, 170};
constexpr QColor kShade{10, 16, 24, 200};       ///< dark lines over light bodies

/// Feeler directions as the core casts them (StaticGeometry::feelerAvoidance): ahead at
/// full length and 35 degrees either side at 0.7 of it.
constexpr float kFeelerSide = 0.6108652f; // 35 degrees
constexpr float kFeelerSideLength = 0.7f;

QPen pen(const QColor& color, qreal width = 1.0, Qt::PenStyle style = Qt::SolidLine)
{
    QPen p(color, width, style);
    p.setCosmetic(true);
    p.setCapStyle(Qt::FlatCap);
    return p;
}

QColor alpha(QColor color, int a)
{
    color.setAlpha(a);
    return color;
}

QPointF at(Vec2 p) { return sceneFromWorld(p); }

/// Unit circles of 12 to 192 sides. Circles are drawn as polygons with one-pixel pens:
/// drawEllipse() flattens a curved path on every call, and a pen wider than one pixel goes
/// through the raster engine's general stroker; with a few thousand circles either one
/// costs more than the whole frame.
const std::vector<QPointF>& unitCircle(int sides)
{
    static const std::array<std::vector<QPointF>, 5> tables = [] {
        std::array<std::vector<QPointF>, 5> out;
        int n = 12;
        for (auto& table : out) {
            for (int k = 0; k < n; ++k)
                table.emplace_back(std::cos(6.283185307179586 * k / n), std::sin(6.283185307179586 * k / n));
            n *= 2;
        }
        return out;
    }();
    std::size_t index = 0;
    for (int n = 12; n < sides && index + 1 < tables.size(); n *= 2)
        ++index;
    return tables[index];
}

} // namespace

struct OverlayItem::Frame
{
    Frame(QPainter* p, const World& w, qreal pixelsPerMetre, Vec2 lo, Vec2 hi, std::vector<QPointF>& polygon)
        : painter(p), world(w), ppm(pixelsPerMetre), minX(lo.x), maxX(hi.x), minY(lo.y), maxY(hi.y),
          scratch(polygon), font(p->font())
    {
        font.setPixelSize(11);
        metrics = QFontMetricsF(font);
    }

    QPainter* painter;
    const World& world;
    qreal ppm;      ///< device pixels per metre
    float minX, maxX, minY, maxY; ///< exposed area in world coordinates
    std::vector<QPointF>& scratch;
    QFont font;
    QFontMetricsF metrics{QFont()};

    bool visible(float x, float y, float pad = 0.0f) const
    {
        return x >= minX - pad && x <= maxX + pad && y >= minY - pad && y <= maxY + pad;
    }
    /// Metres that show as `pixels` on screen.
    qreal metres(qreal pixels) const { return pixels / ppm; }

    /// A circle with the current pen and brush, as a polygon fine enough for its size.
    void circle(Vec2 c, qreal r) const
    {
        const std::vector<QPointF>& unit = unitCircle(static_cast<int>(r * ppm * 0.75));
        const QPointF centre = at(c);
        scratch.resize(unit.size());
        for (std::size_t k = 0; k < unit.size(); ++k)
            scratch[k] = centre + unit[k] * r;
        painter->drawPolygon(scratch.data(), static_cast<int>(scratch.size()));
    }

    void cross(Vec2 c, qreal pixels) const
    {
        const qreal d = metres(pixels);
        const QPointF p = at(c);
        painter->drawLine(p + QPointF(-d, -d), p + QPointF(d, d));
        painter->drawLine(p + QPointF(-d, d), p + QPointF(d, -d));
    }

    /// A filled dot `pixels` in radius.
    void dot(Vec2 c, qreal pixels, const QColor& color) const
    {
        painter->setPen(Qt::NoPen);
        painter->setBrush(color);
        circle(c, metres(pixels));
    }

    /// A short text beside a point, on a dark plate, at a fixed pixel size.
    void label(Vec2 c, const QString& text, const QColor& color) const
    {
        const QPointF device = painter->worldTransform().map(at(c));
        painter->save();
        painter->resetTransform();
        painter->setFont(font);
        QRectF box(device + QPointF(8, -8 - metrics.height()),
                   QSizeF(metrics.horizontalAdvance(text) + 8, metrics.height() + 2));
        // Keep it on screen: a label at the edge of the view is still read.
        if (const QPaintDevice* target = painter->device()) {
            box.moveRight(std::min(box.right(), static_cast<qreal>(target->width()) - 2.0));
            box.moveLeft(std::max(box.left(), 2.0));
            box.moveTop(std::max(box.top(), 2.0));
            box.moveBottom(std::min(box.bottom(), static_cast<qreal>(target->height()) - 2.0));
        }
        painter->setPen(Qt::NoPen);
        painter->setBrush(kLabelBack);
        painter->drawRoundedRect(box, 3, 3);
        painter->setPen(alpha(color, 255));
        painter->drawText(box, Qt::AlignCenter, text);
        painter->restore();
    }
};

OverlayItem::OverlayItem(OverlayOptions* options, QGraphicsItem* parent)
    : QGraphicsObject(parent), m_options(options)
{
    setZValue(kZValue);
    setFlag(ItemUsesExtendedStyleOption, true);
    setAcceptedMouseButtons(Qt::NoButton);
    if (options)
        connect(options, &OverlayOptions::changed, this, [this] { update(); });
}

void OverlayItem::syncFromWorld(const World* world)
{
    m_world = world;
    recomputeBounds();
    if (m_options && m_options->anyEnabled())
        update();
}

void OverlayItem::setSelectedGroups(const QList<int>& groups)
{
    if (groups == m_selected)
        return;
    m_selected = groups;
    update();
}

QList<int> OverlayItem::shownGroups() const
{
    QList<int> shown;
    if (!m_world || !m_options)
        return shown;
    if (m_options->scope() == OverlayOptions::Scope::AllGroups) {
        for (int g = 0; g < m_world->groupCount(); ++g)
            shown << g;
        return shown;
    }
    for (int g : m_selected)
        if (g >= 0 && g < m_world->groupCount() && !shown.contains(g))
            shown << g;
    return shown;
}

void OverlayItem::recomputeBounds()
{
    QRectF bounds;
    if (m_world) {
        const StaticGeometry& geometry = WorldAccess::geometry(*m_world);
        const Vec2 lo = geometry.boundsMin();
        const Vec2 hi = geometry.boundsMax();
        // Circles around agents near the edge (a squad's close distance, a wander circle)
        // reach past the bounds.
        const float pad = 0.25f * std::max(hi.x - lo.x, hi.y - lo.y) + 25.0f;
        bounds = sceneRectFromWorld({lo.x - pad, lo.y - pad}, {hi.x + pad, hi.y + pad});
    }
    if (bounds != m_bounds) {
        prepareGeometryChange();
        m_bounds = bounds;
    }
}

QRectF OverlayItem::boundingRect() const { return m_bounds; }

void OverlayItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget)
{
    (void)widget;
    if (!m_world || !m_options || !m_options->anyEnabled())
        return;
    const QList<int> groups = shownGroups();
    if (groups.isEmpty())
        return;
    const QRectF exposed = option ? option->exposedRect : boundingRect();
    const qreal ppm = QStyleOptionGraphicsItem::levelOfDetailFromTransform(painter->worldTransform());
    if (ppm <= 0.0)
        return;
    const Vec2 c0 = worldFromScene(exposed.topLeft());
    const Vec2 c1 = worldFromScene(exposed.bottomRight());
    Frame f(painter, *m_world, ppm, {std::min(c0.x, c1.x), std::min(c0.y, c1.y)},
            {std::max(c0.x, c1.x), std::max(c0.y, c1.y)}, m_polygon);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    using O = OverlayOptions::Overlay;
    const OverlayOptions& o = *m_options;
    // Background first: cells, then vectors and rays, then each family's gizmos.
    if (o.isEnabled(O::Grid))
        for (int g : groups)
            paintGrid(f, WorldAccess::group(*m_world, g));
    if (o.isEnabled(O::Velocity))
        for (int g : groups)
            paintVelocity(f, WorldAccess::group(*m_world, g));
    if (o.isEnabled(O::Feelers)) {
        int budget = kMaxFeelerAgents;
        for (int g : groups)
            paintFeelers(f, WorldAccess::group(*m_world, g), budget);
    }
    for (int g : groups) {
        const Group& group = WorldAccess::group(*m_world, g);
        switch (group.kind) {
        case BehaviourKind::FishSchool:
            if (o.isEnabled(O::FishBand))
                paintFishBand(f, group);
            break;
        case BehaviourKind::TankSquad:
            if (o.isEnabled(O::SquadRanges))
                paintSquadRanges(f, group);
            break;
        case BehaviourKind::Swarm:
            if (o.isEnabled(O::SwarmScatter))
                paintSwarmScatter(f, group);
            break;
        case BehaviourKind::LeaderFollow:
            if (o.isEnabled(O::LeaderPoints))
                paintLeaderPoints(f, group);
            break;
        case BehaviourKind::Worm:
            if (o.isEnabled(O::WormJoints))
                paintWormJoints(f, group);
            break;
        }
    }
    painter->restore();
}

void OverlayItem::paintFishBand(Frame& f, const Group& group)
{
    const auto* fish = dynamic_cast<const FishSchoolBehaviour*>(group.behaviour.get());
    const AgentArrays& a = group.agents;
    if (!fish || a.size() == 0)
        return;
    const FishSchoolParams& p = fish->params();
    QPainter* painter = f.painter;
    const std::size_t n = a.size();
    const float half = 0.5f * p.keepMinDistance;

    // Every school fish: half the keep distance (two circles overlap = too close), coloured
    // by what the band rule is doing; free fish: the radius the player picks them up in.
    int shown = 0;
    for (std::size_t i = 1; i < n; ++i)
        shown += f.visible(a.px[i], a.py[i], p.pickRadius) ? 1 : 0;
    if (shown <= kMaxCircleAgents) {
        painter->setBrush(Qt::NoBrush);
        const QPen free = pen(kFaint, 1.0, Qt::DotLine);
        const QPen room = pen(kWarm);
        const QPen close = pen(kCool);
        const QPen calm = pen(kFaint, 1.0);
        for (std::size_t i = 1; i < n; ++i) {
            if (!f.visible(a.px[i], a.py[i], p.pickRadius))
                continue;
            const std::uint8_t flags = a.flags[i];
            if (!(flags & kAgentInSchool)) {
                painter->setPen(free);
                f.circle({a.px[i], a.py[i]}, p.pickRadius);
                continue;
            }
            painter->setPen((flags & kAgentMakingRoom) ? room : (flags & kAgentClosingUp) ? close : calm);
            f.circle({a.px[i], a.py[i]}, half);
        }
    }

    // Around agent 0 (the player fish when it leads): the neighbour radius and the band.
    const Vec2 focus{a.px[0], a.py[0]};
    if (!f.visible(focus.x, focus.y, p.neighborRadius))
        return;
    QPainterPath band; // one ring: drawn once per group, a path is fine
    band.addEllipse(at(focus), p.keepMaxDistance, p.keepMaxDistance);
    band.addEllipse(at(focus), p.keepMinDistance, p.keepMinDistance);
    band.setFillRule(Qt::OddEvenFill);
    painter->setPen(pen(alpha(kGood, 160)));
    painter->setBrush(alpha(kGood, 45));
    painter->drawPath(band);
    painter->setBrush(Qt::NoBrush);
    painter->setPen(pen(kNeutral, 1.0, Qt::DashLine));
    f.circle(focus, p.neighborRadius);
    if (p.neighborRadius * f.ppm >= 40.0) {
        f.label(focus + Vec2{p.neighborRadius * 0.7071f, p.neighborRadius * 0.7071f},
                OverlayItem::tr("neighbours %1 m").arg(static_cast<double>(p.neighborRadius)), kNeutral);
        f.label(focus + Vec2{p.keepMaxDistance, 0.0f},
                OverlayItem::tr("band %1-%2 m")
                    .arg(static_cast<double>(p.keepMinDistance))
                    .arg(static_cast<double>(p.keepMaxDistance)),
                kGood);
    }
}

void OverlayItem::paintSquadRanges(Frame& f, const Group& group)
{
    const auto* squad = dynamic_cast<const TankSquadBehaviour*>(group.behaviour.get());
    if (!squad)
        return;
    const TankSquadParams& p = squad->params();
    const AgentArrays& a = group.agents;
    QPainter* painter = f.painter;
    const float half = 0.5f * p.keepDistance;
    int shown = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        shown += f.visible(a.px[i], a.py[i], half) ? 1 : 0;
    if (shown <= kMaxCircleAgents) {
        painter->setBrush(Qt::NoBrush);
        const QPen resting = pen(alpha(kGood, 150));
        const QPen moving = pen(kFaint);
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (!f.visible(a.px[i], a.py[i], half))
                continue;
            painter->setPen((a.flags[i] & kAgentArrived) ? resting : moving);
            f.circle({a.px[i], a.py[i]}, half);
        }
    }
    if (!group.hasTarget)
        return;
    const Vec2 target = group.target;
    painter->setBrush(Qt::NoBrush);
    painter->setPen(pen(alpha(kGoal, 90), 1.0, Qt::DashLine));
    f.circle(target, p.targetCloseDistance);
    painter->setPen(pen(kGoal, 1.5));
    painter->setBrush(alpha(kGoal, 30));
    f.circle(target, p.arriveDistance);
    painter->setPen(pen(kGoal, 2.0));
    f.cross(target, 6.0);
    if (p.arriveDistance * f.ppm >= 12.0)
        f.label(target + Vec2{p.arriveDistance * 0.7071f, p.arriveDistance * 0.7071f},
                OverlayItem::tr("target, arrive %1 m").arg(static_cast<double>(p.arriveDistance)), kGoal);
}

void OverlayItem::paintSwarmScatter(Frame& f, const Group& group)
{
    const auto* swarm = dynamic_cast<const SwarmBehaviour*>(group.behaviour.get());
    if (!swarm)
        return;
    const SwarmParams& p = swarm->params();
    const AgentArrays& a = group.agents;
    QPainter* painter = f.painter;
    const float R = p.minAllowedRadius;
    const float half = 0.5f * R;
    int shown = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        shown += f.visible(a.px[i], a.py[i], half) ? 1 : 0;
    if (shown <= kMaxCircleAgents) {
        painter->setBrush(Qt::NoBrush);
        const QPen pushing = pen(kWarm);
        const QPen apart = pen(kFaint);
        for (std::size_t i = 0; i < a.size(); ++i) {
            const Vec2 pos{a.px[i], a.py[i]};
            if (!f.visible(pos.x, pos.y, half))
                continue;
            // The grid holds the positions the last step planned from: it finds candidates,
            // the current positions decide.
            bool near = false;
            group.grid.forEachWithin(pos, R * 1.5f + 0.5f, [&](std::uint32_t j, float, float, float) {
                if (j == i || near)
                    return;
                near = distanceSquared(pos, {a.px[j], a.py[j]}) < R * R;
            });
            painter->setPen(near ? pushing : apart);
            f.circle(pos, half);
        }
    }
    // The goal: the chased group's leader, or the player.
    const World& world = f.world;
    std::optional<Vec2> goal;
    if (group.chaseGroup >= 0 && group.chaseGroup < world.groupCount()) {
        const Group& chased = WorldAccess::group(world, group.chaseGroup);
        if (chased.agents.size() > 0)
            goal = Vec2{chased.agents.px[0], chased.agents.py[0]};
    } else if (world.player().enabled) {
        goal = world.player().position;
    }
    if (!goal)
        return;
    painter->setBrush(Qt::NoBrush);
    painter->setPen(pen(kGoal, 1.5));
    f.circle(*goal, p.stopDistance);
    painter->setPen(pen(kGoal, 2.0));
    f.cross(*goal, 5.0);
}

void OverlayItem::paintLeaderPoints(Frame& f, const Group& group)
{
    const auto* leader = dynamic_cast<const LeaderFollowBehaviour*>(group.behaviour.get());
    if (!leader)
        return;
    const LeaderFollowOverlay o = leader->overlay(group);
    if (!o.valid)
        return;
    const float reach = std::max({o.evadeDistance, leader->params().wanderDistance + o.wanderRadius,
                                  leader->params().leaderBehindDistance + leader->params().slowingRadius});
    if (!f.visible(o.leader.x, o.leader.y, reach))
        return;
    QPainter* painter = f.painter;
    const bool labels = f.ppm >= 18.0;

    // Evade zone: followers inside it step out of the leader's path.
    painter->setPen(pen(alpha(kDanger, 170), 1.0));
    painter->setBrush(alpha(kDanger, 40));
    f.circle(o.ahead, o.evadeDistance);
    if (labels)
        f.label(o.ahead + Vec2{o.evadeDistance * 0.7071f, o.evadeDistance * 0.7071f},
                OverlayItem::tr("evade"), kDanger);

    // Behind point, with the radius followers slow down in.
    painter->setBrush(Qt::NoBrush);
    painter->setPen(pen(alpha(kGood, 90), 1.0, Qt::DashLine));
    f.circle(o.behind, leader->params().slowingRadius);
    painter->setPen(pen(alpha(kGood, 160), 1.0));
    painter->drawLine(at(o.leader), at(o.behind));
    f.dot(o.behind, 4.0, kGood);
    if (labels)
        f.label(o.behind, OverlayItem::tr("behind"), kGood);

    if (o.wanders) {
        painter->setBrush(Qt::NoBrush);
        painter->setPen(pen(kNeutral, 1.0));
        f.circle(o.wanderCenter, o.wanderRadius);
        painter->setPen(pen(kFaint, 1.0, Qt::DashLine));
        painter->drawLine(at(o.leader), at(o.wanderCenter));
        painter->setPen(pen(kGoal, 1.5));
        painter->drawLine(at(o.wanderCenter), at(o.wanderTarget));
        f.dot(o.wanderTarget, 3.5, kGoal);
        if (labels)
            f.label(o.wanderCenter + Vec2{o.wanderRadius * 0.7071f, o.wanderRadius * 0.7071f},
                    OverlayItem::tr("wander"), kNeutral);
    }
}

void OverlayItem::paintWormJoints(Frame& f, const Group& group)
{
    const auto* worm = dynamic_cast<const WormBehaviour*>(group.behaviour.get());
    if (!worm)
        return;
    QPainter* painter = f.painter;
    const bool dots = worm->params().minSegmentLength * f.ppm >= 4.0;
    // Joint markers are squares, batched: a dark 5 px square under a light 3 px one reads
    // over the worm's own colour.
    m_rects[0].clear();
    m_rects[1].clear();
    m_rects[2].clear();
    const qreal outer = f.metres(2.5);
    const qreal inner = f.metres(1.5);
    const qreal tail = f.metres(4.0);
    m_hitLines.clear();
    m_targets.clear();
    for (int w = 0; w < worm->wormCount(); ++w) {
        const Vec2 head = worm->joint(w, 0);
        if (!f.visible(head.x, head.y, static_cast<float>(worm->bodyLength(w))))
            continue;
        worm->joints(w, m_joints);
        m_points.clear();
        for (const Vec2& j : m_joints)
            m_points.push_back(at(j));
        painter->setBrush(Qt::NoBrush);
        painter->setPen(pen(kShade));
        painter->drawPolyline(m_points.data(), static_cast<int>(m_points.size()));
        if (dots) {
            for (std::size_t k = 1; k + 1 < m_points.size(); ++k) {
                m_rects[0].emplace_back(m_points[k] - QPointF(outer, outer), QSizeF(2 * outer, 2 * outer));
                m_rects[1].emplace_back(m_points[k] - QPointF(inner, inner), QSizeF(2 * inner, 2 * inner));
            }
        }
        // Segment ends: the head (where new joints are made) and the tail end.
        painter->setBrush(Qt::NoBrush);
        painter->setPen(pen(kShade));
        f.circle(head, f.metres(9.0));
        painter->setPen(pen(kGood));
        f.circle(head, f.metres(8.0));
        m_rects[2].emplace_back(m_points.back() - QPointF(tail, tail), QSizeF(2 * tail, 2 * tail));
        if (worm->hasTarget(w)) {
            // A short pointer toward the target, and the target once: worms steered by the
            // pointer all share it, and a line from each would bury the view.
            const Vec2 target = worm->target(w);
            const Vec2 toward = (target - head).normalizedOr({});
            const float reach = std::min(distance(target, head), static_cast<float>(f.metres(28.0)));
            m_hitLines.emplace_back(at(head), at(head + toward * reach));
            if (std::find(m_targets.begin(), m_targets.end(), target) == m_targets.end())
                m_targets.push_back(target);
        }
    }
    painter->setPen(pen(kGoal));
    painter->drawLines(m_hitLines.data(), static_cast<int>(m_hitLines.size()));
    painter->setPen(pen(kGoal, 2.0));
    for (const Vec2& target : m_targets)
        f.cross(target, 5.0);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, false);
    painter->setPen(Qt::NoPen);
    painter->setBrush(kShade);
    painter->drawRects(m_rects[0].data(), static_cast<int>(m_rects[0].size()));
    painter->setBrush(QColor(255, 255, 255, 230));
    painter->drawRects(m_rects[1].data(), static_cast<int>(m_rects[1].size()));
    painter->setBrush(Qt::NoBrush);
    painter->setPen(pen(kWarm));
    painter->drawRects(m_rects[2].data(), static_cast<int>(m_rects[2].size()));
    painter->restore();
}

void OverlayItem::paintFeelers(Frame& f, const Group& group, int& budget)
{
    float length = 0.0f;
    const Behaviour* behaviour = group.behaviour.get();
    if (const auto* fish = dynamic_cast<const FishSchoolBehaviour*>(behaviour))
        length = fish->params().rayLength;
    else if (const auto* squad = dynamic_cast<const TankSquadBehaviour*>(behaviour))
        length = squad->params().feelerLength;
    else if (const auto* swarm = dynamic_cast<const SwarmBehaviour*>(behaviour))
        length = swarm->params().feelerLength;
    else if (const auto* leader = dynamic_cast<const LeaderFollowBehaviour*>(behaviour))
        length = leader->params().feelerLength;
    if (length <= 0.0f || budget <= 0)
        return; // worms steer by their own look-ahead, not feelers

    const World& world = f.world;
    const StaticGeometry& geometry = WorldAccess::geometry(world);
    const AgentArrays& a = group.agents;
    // A swarm feels along the way to its goal, the others along their heading.
    std::optional<Vec2> goal;
    if (group.kind == BehaviourKind::Swarm) {
        if (group.chaseGroup >= 0 && group.chaseGroup < world.groupCount() &&
            WorldAccess::group(world, group.chaseGroup).agents.size() > 0)
            goal = Vec2{WorldAccess::group(world, group.chaseGroup).agents.px[0], WorldAccess::group(world, group.chaseGroup).agents.py[0]};
        else
            goal = world.player().position;
    }
    m_lines.clear();
    m_hitLines.clear();
    m_points.clear();
    std::vector<QLineF> normals;
    const float c = std::cos(kFeelerSide);
    const float s = std::sin(kFeelerSide);
    for (std::size_t i = group.playerLed ? 1 : 0; i < a.size() && budget > 0; ++i) {
        const Vec2 pos{a.px[i], a.py[i]};
        if (!f.visible(pos.x, pos.y, length))
            continue;
        --budget;
        Vec2 forward = fromAngle(a.heading[i]);
        if (goal)
            forward = (*goal - pos).normalizedOr(forward);
        const Vec2 dirs[3] = {forward, {forward.x * c - forward.y * s, forward.x * s + forward.y * c},
                              {forward.x * c + forward.y * s, -forward.x * s + forward.y * c}};
        const float lengths[3] = {length, length * kFeelerSideLength, length * kFeelerSideLength};
        for (int k = 0; k < 3; ++k) {
            const Vec2 end = pos + dirs[k] * lengths[k];
            const RayHit hit = geometry.rayCast(pos, end);
            if (!hit.hit) {
                m_lines.emplace_back(at(pos), at(end));
                continue;
            }
            m_hitLines.emplace_back(at(pos), at(hit.point));
            m_points.push_back(at(hit.point));
            normals.emplace_back(at(hit.point), at(hit.point + hit.normal * static_cast<float>(f.metres(10.0))));
        }
    }
    QPainter* painter = f.painter;
    painter->setBrush(Qt::NoBrush);
    painter->setPen(pen(alpha(kCool, 110), 1.0));
    painter->drawLines(m_lines.data(), static_cast<int>(m_lines.size()));
    painter->setPen(pen(kWarm));
    painter->drawLines(m_hitLines.data(), static_cast<int>(m_hitLines.size()));
    painter->setPen(pen(kGoal));
    painter->drawLines(normals.data(), static_cast<int>(normals.size()));
    painter->setPen(Qt::NoPen);
    painter->setBrush(kWarm);
    const qreal r = f.metres(2.5);
    for (const QPointF& p : m_points)
        f.circle(worldFromScene(p), r);
}

void OverlayItem::paintVelocity(Frame& f, const Group& group)
{
    const AgentArrays& a = group.agents;
    m_lines.clear();
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (!f.visible(a.px[i], a.py[i], 2.0f))
            continue;
        const Vec2 p{a.px[i], a.py[i]};
        const Vec2 v{a.vx[i], a.vy[i]};
        if (v.lengthSquared() < 1e-6f)
            continue;
        m_lines.emplace_back(at(p), at(p + v * kVelocitySeconds));
    }
    QPainter* painter = f.painter;
    painter->save();
    // Thousands of lines: antialiasing would cost more than the rest of the frame.
    painter->setRenderHint(QPainter::Antialiasing, m_lines.size() <= 2000);
    painter->setPen(pen(QColor(255, 255, 255, 150), 1.0));
    painter->drawLines(m_lines.data(), static_cast<int>(m_lines.size()));
    painter->restore();
}

void OverlayItem::paintGrid(Frame& f, const Group& group)
{
    const UniformGrid& grid = group.grid;
    if (grid.size() == 0 || grid.columns() <= 0 || grid.rows() <= 0)
        return;
    const GridCellShape shape = grid.cellShape();
    const float cellW = shape.columnWidth;
    const float cellH = shape.rowHeight;
    const Vec2 origin = grid.origin();
    const int cols = grid.columns();
    const int rows = grid.rows();
    const Vec2 far{origin.x + cols * cellW, origin.y + rows * cellH};
    QPainter* painter = f.painter;
    const QTransform transform = painter->worldTransform();
    const bool cells = std::min(cellW, cellH) * f.ppm >= 5.0;

    // The grid is drawn into an image and blitted once. Drawn as lines, every long one is
    // a separate blend the raster engine hands to its thread pool, and a few dozen of those
    // cost tens of milliseconds on two cores. A rotated view falls back to the box alone.
    QRect area = transform.mapRect(sceneRectFromWorld(origin, far)).toAlignedRect().adjusted(-1, -1, 1, 1);
    if (const QPaintDevice* device = painter->device())
        area &= QRect(0, 0, device->width(), device->height());
    if (!cells || area.isEmpty() || transform.type() > QTransform::TxScale) {
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing, false);
        painter->setBrush(Qt::NoBrush);
        painter->setPen(pen(kGridBox));
        painter->drawRect(sceneRectFromWorld(origin, far));
        painter->restore();
        return;
    }
    if (m_gridCanvas.size() != area.size())
        m_gridCanvas = QImage(area.size(), QImage::Format_ARGB32_Premultiplied);
    m_gridCanvas.fill(0);
    QRgb* bits = reinterpret_cast<QRgb*>(m_gridCanvas.bits());
    const int stride = static_cast<int>(m_gridCanvas.bytesPerLine() / 4);
    const int width = area.width();
    const int height = area.height();
    // Device pixel column / row of a world x / y (the view is axis aligned here).
    const QPointF sceneX = sceneFromWorld(1.0, 0.0);
    const QPointF sceneY = sceneFromWorld(0.0, 1.0);
    auto column = [&](float x) {
        return static_cast<int>(std::lround(transform.m11() * sceneX.x() * x + transform.dx())) - area.left();
    };
    auto row = [&](float y) {
        return static_cast<int>(std::lround(transform.m22() * sceneY.y() * y + transform.dy())) - area.top();
    };
    auto fill = [&](int x0, int y0, int x1, int y1, QRgb color) { // half-open, any order
        if (x0 > x1)
            std::swap(x0, x1);
        if (y0 > y1)
            std::swap(y0, y1);
        x0 = std::max(x0, 0);
        y0 = std::max(y0, 0);
        x1 = std::min(x1, width);
        y1 = std::min(y1, height);
        for (int y = y0; y < y1; ++y)
            for (int x = x0; x < x1; ++x)
                bits[static_cast<std::ptrdiff_t>(y) * stride + x] =
                    premultipliedOver(color, bits[static_cast<std::ptrdiff_t>(y) * stride + x]);
    };

    // Only the cells on screen.
    const int c0 = std::clamp(static_cast<int>(std::floor((f.minX - origin.x) / cellW)), 0, cols);
    const int c1 = std::clamp(static_cast<int>(std::ceil((f.maxX - origin.x) / cellW)), 0, cols);
    const int r0 = std::clamp(static_cast<int>(std::floor((f.minY - origin.y) / cellH)), 0, rows);
    const int r1 = std::clamp(static_cast<int>(std::ceil((f.maxY - origin.y) / cellH)), 0, rows);
    // Occupied cells shaded by how full they are (1-2, 3-6, 7+ agents).
    const std::array<QRgb, 3> shades = {qPremultiply(alpha(kGridBox, 22).rgba()),
                                        qPremultiply(alpha(kGridBox, 44).rgba()),
                                        qPremultiply(alpha(kGridBox, 66).rgba())};
    for (int r = r0; r < r1; ++r) {
        const float y = origin.y + r * cellH;
        for (int c = c0; c < c1; ++c) {
            const int index = r * cols + c;
            const std::uint32_t count = grid.cellEnd(index) - grid.cellBegin(index);
            if (count == 0)
                continue;
            const float x = origin.x + c * cellW;
            fill(column(x), row(y), column(x + cellW), row(y + cellH), shades[count <= 2 ? 0 : (count <= 6 ? 1 : 2)]);
        }
    }
    const QRgb line = qPremultiply(kGridLine.rgba());
    const QRgb box = qPremultiply(kGridBox.rgba());
    const int top = row(origin.y + r0 * cellH);
    const int bottom = row(origin.y + r1 * cellH);
    const int left = column(origin.x + c0 * cellW);
    const int right = column(origin.x + c1 * cellW);
    for (int c = c0; c <= c1; ++c) {
        const int x = column(origin.x + c * cellW);
        fill(x, top, x + 1, bottom + 1, (c == 0 || c == cols) ? box : line);
    }
    for (int r = r0; r <= r1; ++r) {
        const int y = row(origin.y + r * cellH);
        fill(left, y, right + 1, y + 1, (r == 0 || r == rows) ? box : line);
    }
    painter->save();
    painter->resetTransform();
    painter->drawImage(area.topLeft(), m_gridCanvas);
    painter->restore();
    if ((far.x - origin.x) * f.ppm >= 120.0 && f.visible(far.x, far.y))
        f.label(far,
                OverlayItem::tr("%1: cells %2 x %3 m")
                    .arg(QString::fromStdString(group.name))
                    .arg(static_cast<double>(cellW), 0, 'g', 3)
                    .arg(static_cast<double>(cellH), 0, 'g', 3),
                kGridBox);
}

} // namespace shoal::ui
