#pragma once
/// Small helpers the families share when they describe themselves to a viewer (sketch.h).

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

} // namespace shoal::sketch
