// What the worms show a viewer: each worm's centre line with its joints, the head (where new
// joints are made) and the tail end, and a short pointer toward where it is heading; their
// bodies as centre lines and ribbons (AgentBodies); whether each worm has a target.

#include "families/worm/worm.h"

#include "families/sketchsupport.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace shoal {

const FamilyView& wormView()
{
    static const FamilyView view = [] {
        FamilyView v;
        v.overlayKey = "wormJoints";
        v.overlayLabel = "Worm Joints and Segment Ends";
        v.overlayToolTip =
            "Each worm's centre line with its joints, the head and tail ends, and where it is "
            "heading.";
        v.glyph = FamilyView::Glyph::Ribbon;
        v.dimUnlessFlag = 0;
        v.restingFlag = 0;
        v.leaderFirst = false;
        v.takesTarget = false;
        v.groupName = "worms";
        v.usualCount = 2;
        v.paintedCount = 4;
        return v;
    }();
    return view;
}

void WormBehaviour::sketch(const Group& group, const StepContext& ctx, const SketchRequest& request,
                           Sketch& out) const
{
    (void)group;
    (void)ctx;
    std::vector<Vec2> targets; // worms steered by the pointer share it: one cross for all
    // A dark centre line on a ribbon a few pixels wide would be most of what shows of it: a
    // thin ribbon is its own centre line, and keeps its colour.
    const bool wideOnScreen = m_params.width * request.pixelsPerMetre >= 8.0f;
    std::vector<SketchPath> lines; // each worm's joints, drawn or not
    for (int w = 0; w < m_worms; ++w) {
        const Vec2 head = joint(w, 0);
        if (!request.visible(head, static_cast<float>(bodyLength(w))))
            continue;
        const std::size_t first = out.points.size();
        for (int k = 0; k < jointCount(w); ++k)
            out.points.push_back(joint(w, k));
        lines.push_back({first, out.points.size() - first, {SketchTone::Shade}});
        if (wideOnScreen)
            out.paths.push_back(lines.back());
        out.marks.push_back({head, SketchMark::Shape::Circle, 9.0f, {SketchTone::Shade}});
        out.marks.push_back({head, SketchMark::Shape::Circle, 8.0f, {SketchTone::Good}});
        if (!hasTarget(w))
            continue;
        // A short pointer toward the target: a line from each worm would bury the view.
        const Vec2 aim = target(w);
        const float reach = std::min(distance(aim, head), request.metres(28.0f));
        out.lines.push_back(
            {head, head + (aim - head).normalizedOr({}) * reach, {SketchTone::Goal}});
        if (std::find(targets.begin(), targets.end(), aim) == targets.end())
            targets.push_back(aim);
    }
    for (const Vec2& aim : targets)
        out.marks.push_back(
            {aim, SketchMark::Shape::Cross, 5.0f, {SketchTone::Goal, SketchStroke::Solid, 2.0f}});
    // Joint markers: a dark square under a light one reads over the worm's own colour; then
    // the tail ends. Only where joints are three markers apart on screen or more, so the
    // ribbon still shows between them.
    const bool joints = m_params.minSegmentLength * request.pixelsPerMetre >= 12.0f;
    const SketchStyle dark{SketchTone::Shade, SketchStroke::None, 1.0f, 0, true};
    const SketchStyle light{SketchTone::Light, SketchStroke::None, 1.0f, 0, true};
    if (joints) {
        for (const auto& [style, half] : {std::pair{dark, 2.0f}, std::pair{light, 1.0f}})
            for (const SketchPath& path : lines)
                for (std::size_t k = 1; k + 1 < path.count; ++k)
                    out.marks.push_back(
                        {out.points[path.first + k], SketchMark::Shape::Square, half, style});
    }
    for (const SketchPath& path : lines)
        out.marks.push_back({out.points[path.first + path.count - 1],
                             SketchMark::Shape::Square,
                             4.0f,
                             {SketchTone::Warm}});
}

const char* WormBehaviour::agentState(const Group& group, std::size_t i) const
{
    if (i < m_hasTarget.size() && m_hasTarget[i])
        return "heading for target";
    if (group.agents.flags[i] & kAgentBlocked)
        return "blocked";
    return "wandering";
}

} // namespace shoal
