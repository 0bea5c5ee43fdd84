// What the swarm shows a viewer: half the scatter radius round every enemy (orange while it
// overlaps another, so the pair pushes apart), the goal with its stop distance, the way round
// walls; its feelers, cast toward the goal as the plan casts them.

#include "families/swarm/swarm.h"

#include "families/sketchsupport.h"

namespace shoal {

const FamilyView& swarmView()
{
    static const FamilyView view = [] {
        FamilyView v;
        v.overlayKey = "swarmScatter";
        v.overlayLabel = "Scatter Radius (Swarm)";
        v.overlayToolTip =
            "Half the scatter radius around every enemy: overlapping circles push apart (drawn "
            "orange). The goal with its stop distance, and the way round walls (blue arrows).";
        v.glyph = FamilyView::Glyph::Dart;
        v.dimUnlessFlag = 0;
        v.restingFlag = 0;
        v.leaderFirst = false;
        v.takesTarget = false;
        v.groupName = "swarm";
        v.usualCount = 30;
        v.paintedCount = 60;
        return v;
    }();
    return view;
}

void SwarmBehaviour::sketch(const Group& group, const StepContext& ctx,
                            const SketchRequest& request, Sketch& out) const
{
    const SwarmParams& p = m_params;
    const AgentArrays& a = group.agents;
    const float R = p.minAllowedRadius;
    sketch::agentCircles(
        group, request, 0.5f * R,
        [&](std::size_t i) {
            // The grid holds the positions the last step planned from: it finds candidates,
            // the current positions decide.
            const Vec2 pos{a.px[i], a.py[i]};
            bool near = false;
            group.grid.forEachWithin(pos, R * 1.5f + 0.5f,
                                     [&](std::uint32_t j, float, float, float) {
                                         if (j == i || near)
                                             return;
                                         near = distanceSquared(pos, {a.px[j], a.py[j]}) < R * R;
                                     });
            return SketchStyle{near ? SketchTone::Warm : SketchTone::Faint};
        },
        out);
    // The goal, as the plan sees it: the chased group's leader, or the player.
    const std::optional<Vec2> goal = this->goal(group, ctx);
    if (!goal)
        return;
    sketch::routeArrows(group, request, m_route, R, out);
    const Vec2 target = *goal;
    out.circles.push_back({target, p.stopDistance, {SketchTone::Goal, SketchStroke::Solid, 1.5f}});
    out.marks.push_back(
        {target, SketchMark::Shape::Cross, 5.0f, {SketchTone::Goal, SketchStroke::Solid, 2.0f}});
}

} // namespace shoal
