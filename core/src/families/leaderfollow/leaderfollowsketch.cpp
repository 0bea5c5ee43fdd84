// What leader following shows a viewer: the leader's wander circle and target, the point
// followers arrive at behind it with the radius they slow down in, the way round a wall to
// it, and the zone ahead of it they get out of; its feelers; who is leading, following or
// evading.

#include "families/leaderfollow/leaderfollow.h"

#include "families/sketchsupport.h"

#include <algorithm>

namespace shoal {

const FamilyView& leaderFollowView()
{
    static const FamilyView view = [] {
        FamilyView v;
        v.overlayKey = "leaderPoints";
        v.overlayLabel = "Wander Circle, Behind Point and Evade Zone (Leader)";
        v.overlayToolTip =
            "The leader's wander circle and target, the point followers arrive at behind it (and "
            "the way round a wall to it), and the zone ahead of it they get out of.";
        v.glyph = FamilyView::Glyph::Chevron;
        v.dimUnlessFlag = 0;
        v.restingFlag = 0;
        v.leaderFirst = true;
        v.takesTarget = false;
        v.groupName = "convoy";
        v.usualCount = 10;
        v.paintedCount = 12;
        return v;
    }();
    return view;
}

void LeaderFollowBehaviour::sketch(const Group& group, const StepContext& ctx,
                                   const SketchRequest& request, Sketch& out) const
{
    (void)ctx;
    const LeaderFollowOverlay o = overlay(group);
    if (!o.valid)
        return;
    const LeaderFollowParams& p = m_params;
    const float reach = std::max({o.evadeDistance, p.wanderDistance + o.wanderRadius,
                                  p.leaderBehindDistance + p.slowingRadius});
    if (!request.visible(o.leader, reach))
        return;
    const bool labels = request.pixelsPerMetre >= 18.0f;
    const Vec2 diagonal{0.7071f, 0.7071f};

    // Evade zone: followers inside it step out of the leader's path.
    out.circles.push_back(
        {o.ahead, o.evadeDistance, {SketchTone::Danger, SketchStroke::Solid, 1.0f, 170, true, 40}});
    if (labels)
        out.labels.push_back({o.ahead + diagonal * o.evadeDistance, "evade", SketchTone::Danger});

    // Behind point, with the radius followers slow down in.
    out.circles.push_back(
        {o.behind, p.slowingRadius, {SketchTone::Good, SketchStroke::Dashed, 1.0f, 90}});
    out.lines.push_back({o.leader, o.behind, {SketchTone::Good, SketchStroke::Solid, 1.0f, 160}});
    out.marks.push_back({o.behind,
                         SketchMark::Shape::Dot,
                         4.0f,
                         {SketchTone::Good, SketchStroke::None, 1.0f, 0, true}});
    if (labels)
        out.labels.push_back({o.behind, "behind", SketchTone::Good});
    sketch::routeArrows(group, request, m_route, p.separationRadius, out);

    if (!o.wanders)
        return;
    out.circles.push_back({o.wanderCenter, o.wanderRadius, {SketchTone::Reference}});
    out.lines.push_back({o.leader, o.wanderCenter, {SketchTone::Faint, SketchStroke::Dashed}});
    out.lines.push_back(
        {o.wanderCenter, o.wanderTarget, {SketchTone::Goal, SketchStroke::Solid, 1.5f}});
    out.marks.push_back({o.wanderTarget,
                         SketchMark::Shape::Dot,
                         3.5f,
                         {SketchTone::Goal, SketchStroke::None, 1.0f, 0, true}});
    if (labels)
        out.labels.push_back(
            {o.wanderCenter + diagonal * o.wanderRadius, "wander", SketchTone::Reference});
}

std::optional<Vec2> LeaderFollowBehaviour::goal(const Group& group, const StepContext& ctx) const
{
    (void)ctx;
    const LeaderFollowOverlay o = overlay(group);
    if (!o.valid)
        return std::nullopt;
    return o.behind;
}

const char* LeaderFollowBehaviour::agentState(const Group& group, std::size_t i) const
{
    if (i == 0)
        return group.playerLed ? "player" : "leader";
    const LeaderFollowOverlay o = overlay(group);
    const Vec2 at{group.agents.px[i], group.agents.py[i]};
    if (o.valid && distanceSquared(at, o.ahead) < o.evadeDistance * o.evadeDistance)
        return "evading";
    return Behaviour::agentState(group, i);
}

} // namespace shoal
