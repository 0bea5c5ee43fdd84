#include "scene/routebudget.h"

#include <shoal/paramspec.h>
#include <shoal/scenefile.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <utility>

namespace shoal {

float routeCellSize(float bodyRadius, double width, double height)
{
    // Half the radius keeps every door of 3 radii open at any angle (see
    // FlowOccupancy::inflation()), but a rebuild sweeps every cell, about 30 ns each: 0.5 m
    // cells keep a 100 m level near 40,000 cells and 1 ms, and a goal walking at 3.4 m/s
    // changes cell every 9 steps at 60 Hz. Small bodies trade their narrowest doors for that
    // (a caller with a small level can ask for finer cells); past 1 m the grid would blur
    // corners for no gain.
    float cell = std::min(1.0f, std::max(0.5f, 0.5f * bodyRadius));
    width = std::max(0.0, width);
    height = std::max(0.0, height);
    while ((std::ceil(width / cell) + 2.0) * (std::ceil(height / cell) + 2.0) >
           static_cast<double>(kMaxRouteCells))
        cell *= 2.0f;
    return cell;
}

double routeSlots(float bodyRadius, double width, double height)
{
    const double cell = routeCellSize(bodyRadius, width, height);
    return (std::ceil(std::max(0.0, width) / cell) + 2.0) *
           (std::ceil(std::max(0.0, height) / cell) + 2.0);
}

namespace {

bool mayHaveAgents(const GroupDesc& group)
{
    return !group.agents.empty() || (group.spawn && group.spawn->count > 0);
}

float radiusOf(const GroupDesc& group)
{
    const int i = paramIndex(paramSpecs(group.kind), "radius");
    return i < 0 ? 0.0f : static_cast<float>(group.params.at(static_cast<std::size_t>(i)));
}

} // namespace

RouteBudget routeBudget(const SceneDesc& scene)
{
    const double width = scene.bounds.max.x - scene.bounds.min.x;
    const double height = scene.bounds.max.y - scene.bounds.min.y;
    RouteBudget budget;
    std::set<std::pair<std::string, float>> swarmRoutes; // (chase, radius)
    for (const GroupDesc& group : scene.groups) {
        if (!mayHaveAgents(group))
            continue;
        const float radius = radiusOf(group);
        if (group.kind == BehaviourKind::TankSquad ||
            (group.kind == BehaviourKind::Swarm &&
             swarmRoutes.emplace(group.chase, radius).second)) {
            ++budget.fields;
            budget.bytes += routeSlots(radius, width, height) * kRouteFieldBytesPerSlot;
        }
    }
    return budget;
}

std::optional<Error> checkRouteBudget(const SceneDesc& scene)
{
    const RouteBudget budget = routeBudget(scene);
    if (budget.bytes <= kMaxRouteFieldBytes)
        return std::nullopt;
    const auto mb = [](double bytes) { return describeBytes(static_cast<std::size_t>(bytes)); };
    return Error{"groups: " + std::to_string(budget.fields) +
                 " routes round the walls (one per tank squad, one per swarm chase and radius) "
                 "would need " +
                 mb(budget.bytes) + " of flow fields over these bounds, " +
                 mb(budget.bytes / double(budget.fields)) + " each; at most " +
                 mb(kMaxRouteFieldBytes) +
                 " are allowed: fewer squads or swarm chases, or "
                 "smaller bounds"};
}

} // namespace shoal
