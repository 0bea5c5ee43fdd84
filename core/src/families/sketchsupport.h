#pragma once
/// Small helpers the families share when they describe themselves to a viewer (sketch.h).

#include "geometry/flowroute.h"
#include "world/behaviour.h"

#include <shoal/paramspec.h>
#include <shoal/sketch.h>

#include <string>
#include <vector>

namespace shoal::sketch {

/// Agents from `first` on whose position is on screen (with `pad` metres around it).
inline int visibleAgents(const AgentArrays& a, const SketchRequest& request, float pad,
                         std::size_t first = 0)
{
    int shown = 0;
    for (std::size_t i = first; i < a.size(); ++i)
        shown += request.visible({a.px[i], a.py[i]}, pad) ? 1 : 0;
    return shown;
}

/// A parameter as the designer typed it (the file's value, e.g. "1.6"), for labels.
inline std::string authored(const Group& group, const std::vector<ParamSpec>& specs,
                            const std::string& key)
{
    const int index = paramIndex(specs, key);
    if (index < 0 || static_cast<std::size_t>(index) >= group.values.size())
        return "?";
    return formatNumber(group.values[static_cast<std::size_t>(index)]);
}

/// Per-agent circles of `radius` for the agents on screen, each in the tone `toneOf(i)`
/// gives, unless more than the request allows are on screen.
template <class ToneOf>
void agentCircles(const Group& group, const SketchRequest& request, float radius, ToneOf toneOf,
                  Sketch& out)
{
    const AgentArrays& a = group.agents;
    if (visibleAgents(a, request, radius) > request.maxAgentCircles)
        return;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const Vec2 at{a.px[i], a.py[i]};
        if (request.visible(at, radius))
            out.circles.push_back({at, radius, toneOf(i)});
    }
}

/// Where a group's route round walls leads the agents it bends for: a short arrow of
/// `length` metres from each such agent on screen along the route (blue, like a clear way),
/// unless more agents than the request allows are on screen. Agents that see their goal
/// get none: they head straight for it.
inline void routeArrows(const Group& group, const SketchRequest& request, const FlowRoute& route,
                        float length, Sketch& out)
{
    if (!route.active())
        return;
    const AgentArrays& a = group.agents;
    if (visibleAgents(a, request, length) > request.maxAgentCircles)
        return;
    const SketchStyle style{SketchTone::Cool, SketchStroke::Solid, 1.5f};
    for (std::size_t i = 0; i < a.size(); ++i) {
        const Vec2 at{a.px[i], a.py[i]};
        if (!request.visible(at, length) || !route.bends(at))
            continue;
        const Vec2 tip = at + route.direction(at) * length;
        out.lines.push_back({at, tip, style});
        out.marks.push_back({tip, SketchMark::Shape::Dot, 2.0f, style});
    }
}

} // namespace shoal::sketch
