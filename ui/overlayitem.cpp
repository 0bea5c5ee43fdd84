#include "overlayitem.h"

#include "agentlayeritem.h"
#include "fishschool.h"
#include "leaderfollow.h"
#include "swarm.h"
#include "tanksquad.h"
#include "world.h"
#include "worm.h"

#include <QPainter>
#include <QPainterPath>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>

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

} // namespace

struct OverlayItem::Frame
{
    QPainter* painter;
    const World& world;
    qreal ppm;      ///< device pixels per metre
    float minX, maxX, minY, maxY; ///< exposed area in world coordinates

    bool visible(float x, float y, float pad = 0.0f) const
    {
        return x >= minX - pad && x <= maxX + pad && y >= minY - pad && y <= maxY + pad;
    }
    /// Metres that show as `pixels` on screen.
    qreal metres(qreal pixels) const { return pixels / ppm; }

    void circle(Vec2 c, qreal r) const { painter->drawEllipse(at(c), r, r); }

    void cross(Vec2 c, qreal pixels) const
    {
        const qreal d = metres(pixels);
        const QPointF p = at(c);
        painter->drawLine(p + QPointF(-d, -d), p + QPointF(d, d));
        painter->drawLine(p + QPointF(-d, d), p + QPointF(d, -d));
    }

    void dot(Vec2 c, qreal pixels, const QColor& color) const
    {
        painter->save();
        painter->setPen(Qt::NoPen);
        painter->setBrush(color);
        const qreal r = metres(pixels);
        painter->drawEllipse(at(c), r, r);
        painter->restore();
    }

    /// A short text beside a point, on a dark plate, at a fixed pixel size.
    void label(Vec2 c, const QString& text, const QColor& color) const
    {
        const QPointF device = painter->worldTransform().map(at(c));
        painter->save();
        painter->resetTransform();
        QFont font = painter->font();
        font.setPixelSize(11);
        painter->setFont(font);
        const QFontMetrics metrics(font);
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
        const StaticGeometry& geometry = m_world->geometry();
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
    Frame f{painter,
            *m_world,
            ppm,
            std::min(c0.x, c1.x),
            std::max(c0.x, c1.x),
            std::min(c0.y, c1.y),
            std::max(c0.y, c1.y)};
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    using O = OverlayOptions::Overlay;
    const OverlayOptions& o = *m_options;
    // Background first: cells, then vectors and rays, then each family's gizmos.
    if (o.isEnabled(O::Grid))
        for (int g : groups)
            paintGrid(f, m_world->group(g));
    if (o.isEnabled(O::Velocity))
        for (int g : groups)
            paintVelocity(f, m_world->group(g));
    if (o.isEnabled(O::Feelers)) {
        int budget = kMaxFeelerAgents;
        for (int g : groups)
            paintFeelers(f, m_world->group(g), budget);
    }
    for (int g : groups) {
        const Group& group = m_world->group(g);
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
        const QPen room = pen(kWarm, 1.5);
        const QPen close = pen(kCool, 1.5);
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
    QPainterPath band;
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
        const QPen resting = pen(alpha(kGood, 150), 1.0);
        const QPen moving = pen(kFaint, 1.0);
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
        const QPen pushing = pen(kWarm, 1.5);
        const QPen apart = pen(kFaint, 1.0);
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
        const Group& chased = world.group(group.chaseGroup);
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
    for (int w = 0; w < worm->wormCount(); ++w) {
        const Vec2 head = worm->joint(w, 0);
        if (!f.visible(head.x, head.y, static_cast<float>(worm->bodyLength(w))))
            continue;
        worm->joints(w, m_joints);
        m_points.clear();
        for (const Vec2& j : m_joints)
            m_points.push_back(at(j));
        // Dark line, light joints with a dark rim: readable over the worm's own colour.
        painter->setBrush(Qt::NoBrush);
        painter->setPen(pen(kShade, 1.5));
        painter->drawPolyline(m_points.data(), static_cast<int>(m_points.size()));
        if (dots) {
            painter->setPen(pen(kShade, 1.0));
            painter->setBrush(QColor(255, 255, 255, 230));
            const qreal r = f.metres(2.5);
            for (std::size_t k = 1; k + 1 < m_points.size(); ++k)
                painter->drawEllipse(m_points[k], r, r);
        }
        // Segment ends: the head (where new joints are made) and the tail end.
        painter->setBrush(Qt::NoBrush);
        painter->setPen(pen(kShade, 4.0));
        painter->drawEllipse(m_points.front(), f.metres(6.0), f.metres(6.0));
        painter->setPen(pen(kGood, 2.0));
        painter->drawEllipse(m_points.front(), f.metres(6.0), f.metres(6.0));
        painter->setPen(pen(kWarm, 2.0));
        const qreal s = f.metres(4.0);
        painter->drawRect(QRectF(m_points.back() - QPointF(s, s), QSizeF(2 * s, 2 * s)));
        if (worm->hasTarget(w)) {
            painter->setPen(pen(alpha(kGoal, 140), 1.0, Qt::DashLine));
            painter->drawLine(m_points.front(), at(worm->target(w)));
            painter->setPen(pen(kGoal, 2.0));
            f.cross(worm->target(w), 5.0);
        }
    }
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
    const StaticGeometry& geometry = world.geometry();
    const AgentArrays& a = group.agents;
    // A swarm feels along the way to its goal, the others along their heading.
    std::optional<Vec2> goal;
    if (group.kind == BehaviourKind::Swarm) {
        if (group.chaseGroup >= 0 && group.chaseGroup < world.groupCount() &&
            world.group(group.chaseGroup).agents.size() > 0)
            goal = Vec2{world.group(group.chaseGroup).agents.px[0], world.group(group.chaseGroup).agents.py[0]};
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
    painter->setPen(pen(kWarm, 1.5));
    painter->drawLines(m_hitLines.data(), static_cast<int>(m_hitLines.size()));
    painter->setPen(pen(kGoal, 1.0));
    painter->drawLines(normals.data(), static_cast<int>(normals.size()));
    painter->setPen(Qt::NoPen);
    painter->setBrush(kWarm);
    const qreal r = f.metres(2.5);
    for (const QPointF& p : m_points)
        painter->drawEllipse(p, r, r);
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
    const float cell = grid.cellSize();
    const Vec2 origin = grid.origin();
    const int cols = grid.columns();
    const int rows = grid.rows();
    const Vec2 far{origin.x + cols * cell, origin.y + rows * cell};
    QPainter* painter = f.painter;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, false);
    painter->setBrush(Qt::NoBrush);
    painter->setPen(pen(kGridBox, 1.0));
    painter->drawRect(sceneRectFromWorld(origin, far));
    if (cell * f.ppm >= 5.0) {
        // Only the cells on screen.
        const int c0 = std::clamp(static_cast<int>(std::floor((f.minX - origin.x) / cell)), 0, cols);
        const int c1 = std::clamp(static_cast<int>(std::ceil((f.maxX - origin.x) / cell)), 0, cols);
        const int r0 = std::clamp(static_cast<int>(std::floor((f.minY - origin.y) / cell)), 0, rows);
        const int r1 = std::clamp(static_cast<int>(std::ceil((f.maxY - origin.y) / cell)), 0, rows);
        // Occupied cells shaded by how full they are (1-2, 3-6, 7+ agents).
        for (auto& rects : m_rects)
            rects.clear();
        for (int r = r0; r < r1; ++r) {
            for (int c = c0; c < c1; ++c) {
                const int index = r * cols + c;
                const std::uint32_t count = grid.cellEnd(index) - grid.cellBegin(index);
                if (count == 0)
                    continue;
                const int level = count <= 2 ? 0 : (count <= 6 ? 1 : 2);
                const float x = origin.x + c * cell;
                const float y = origin.y + r * cell;
                m_rects[level].push_back(sceneRectFromWorld({x, y}, {x + cell, y + cell}));
            }
        }
        painter->setPen(Qt::NoPen);
        for (int level = 0; level < 3; ++level) {
            painter->setBrush(alpha(kGridBox, 22 + 22 * level));
            painter->drawRects(m_rects[level].data(), static_cast<int>(m_rects[level].size()));
        }
        m_lines.clear();
        for (int c = c0; c <= c1; ++c) {
            const float x = origin.x + c * cell;
            m_lines.emplace_back(at({x, origin.y + r0 * cell}), at({x, origin.y + r1 * cell}));
        }
        for (int r = r0; r <= r1; ++r) {
            const float y = origin.y + r * cell;
            m_lines.emplace_back(at({origin.x + c0 * cell, y}), at({origin.x + c1 * cell, y}));
        }
        painter->setPen(pen(kGridLine, 1.0));
        painter->drawLines(m_lines.data(), static_cast<int>(m_lines.size()));
    }
    painter->restore();
    if (cell * f.ppm >= 5.0 && f.visible(far.x, far.y))
        f.label(far, OverlayItem::tr("%1: cell %2 m").arg(QString::fromStdString(group.name)).arg(static_cast<double>(cell), 0, 'g', 3),
                kGridBox);
}

} // namespace shoal::ui
