// What the tank squad shows a viewer: half the keep distance round every tank (green once
// parked), the target with its arrive disc and close-distance circle, the parking spots
// round it (each tank's own joined to it), the way round walls; its feelers; what each tank
// is doing.

#include "families/tanksquad/tanksquad.h"

#include "families/sketchsupport.h"

namespace shoal {

const FamilyView& tankSquadView()
{
    static const FamilyView view = [] {
        FamilyView v;
        v.overlayKey = "squadRanges";
        v.overlayLabel = "Keep Distance and Target Radius (Squad)";
        v.overlayToolTip =
            "The squad target with its arrive radius and close-distance circle, the spots the "
            "squad parks on (each tank joined to its own) and the way round walls; half the keep "
            "distance around every tank (touching circles are within keep distance).";
        v.glyph = FamilyView::Glyph::Tank;
        v.dimUnlessFlag = 0;
        v.restingFlag = kAgentArrived;
        v.leaderFirst = false;
        v.takesTarget = true;
        v.groupName = "squad";
        v.usualCount = 6;
        v.paintedCount = 12;
        return v;
    }();
    return view;
}

void TankSquadBehaviour::sketch(const Group& group, const StepContext& ctx,
                                const SketchRequest& request, Sketch& out) const
{
    (void)ctx;
    const TankSquadParams& p = m_params;
    const AgentArrays& a = group.agents;
    sketch::agentCircles(
        group, request, 0.5f * p.keepDistance,
        [&](std::size_t i) {
            return (a.flags[i] & kAgentArrived)
                       ? SketchStyle{SketchTone::Good, SketchStroke::Solid, 1.0f, 150}
                       : SketchStyle{SketchTone::Faint};
        },
        out);
    if (!group.hasTarget)
        return;
    sketch::routeArrows(group, request, m_route, 0.5f * p.keepDistance, out);
    // The spots, and each tank under way joined to its own.
    const SketchStyle spotStyle{SketchTone::Good, SketchStroke::Solid, 1.0f, 170};
    for (std::size_t k = 0; k < m_spots.size(); ++k) {
        const Vec2 spot = m_spots.spot(static_cast<int>(k));
        if (request.visible(spot, p.arriveDistance))
            out.marks.push_back({spot, SketchMark::Shape::Circle, 3.0f, spotStyle});
    }
    if (sketch::visibleAgents(a, request, 0.0f) <= request.maxAgentCircles)
        for (std::size_t i = 0; i < a.size(); ++i) {
            const int spot = spotOf(i);
            const Vec2 at{a.px[i], a.py[i]};
            if (spot >= 0 && !(a.flags[i] & kAgentArrived) && request.visible(at))
                out.lines.push_back(
                    {at, m_spots.spot(spot), {SketchTone::Good, SketchStroke::Dotted, 1.0f, 120}});
        }
    const Vec2 target = group.target;
    out.circles.push_back(
        {target, p.targetCloseDistance, {SketchTone::Goal, SketchStroke::Dashed, 1.0f, 90}});
    out.circles.push_back(
        {target, p.arriveDistance, {SketchTone::Goal, SketchStroke::Solid, 1.5f, 0, true, 30}});
    out.marks.push_back(
        {target, SketchMark::Shape::Cross, 6.0f, {SketchTone::Goal, SketchStroke::Solid, 2.0f}});
    if (p.arriveDistance * request.pixelsPerMetre >= 12.0f)
        out.labels.push_back({target + Vec2{p.arriveDistance, p.arriveDistance} * 0.7071f,
                              "target, arrive " +
                                  sketch::authored(group, tankSquadParamSpecs(), "arriveDistance") +
                                  " m",
                              SketchTone::Goal});
}

std::optional<Vec2> TankSquadBehaviour::goal(const Group& group, const StepContext& ctx) const
{
    (void)ctx;
    if (!group.hasTarget)
        return std::nullopt;
    return group.target;
}

const char* TankSquadBehaviour::agentState(const Group& group, std::size_t i) const
{
    const std::uint8_t flags = group.agents.flags[i];
    if (flags & kAgentArrived)
        return "parked";
    if (flags & kAgentReversing)
        return "reversing";
    return Behaviour::agentState(group, i);
}

} // namespace shoal
