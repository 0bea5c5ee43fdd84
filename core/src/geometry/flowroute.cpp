#include "geometry/flowroute.h"
#include "geometry/staticgeometry.h"

#include <cmath>

namespace shoal {

namespace {
constexpr float kReachStep = 4.0f; ///< m
} // namespace

void FlowRoute::useOccupancy(std::shared_ptr<const FlowOccupancy> occupancy)
{
    if (!m_field) {
        m_field = std::make_unique<FlowField>(std::move(occupancy));
    } else {
        // No goal while it moves, so the field is computed once, by setGoal().
        m_field->clearGoal();
        m_field->setOccupancy(std::move(occupancy));
    }
    ++m_occupancyChanges;
}

void FlowRoute::prepare(const StaticGeometry& geometry, float bodyRadius)
{
    std::shared_ptr<const FlowOccupancy> level = geometry.flowOccupancy(bodyRadius);
    if (!m_field || m_local || level != m_level)
        useOccupancy(level);
    m_level = std::move(level);
    m_local = false;
}

void FlowRoute::update(const StaticGeometry& geometry, float bodyRadius, Vec2 goal)
{
    prepare(geometry, bodyRadius);
    m_active = true;
    m_field->setGoal(goal);
}

void FlowRoute::updateLocal(const StaticGeometry& geometry, float bodyRadius, Vec2 goal,
                            float reach)
{
    std::shared_ptr<const FlowOccupancy> level = geometry.flowOccupancy(bodyRadius);
    // A window is placed anew when the goal has gone `reach` from its centre, when bodies
    // need more room round the goal (or much less: the window would cost rebuilds for nothing)
    // and when the level or the radius changed.
    const bool place = !m_field || !m_local || level != m_level || reach > m_reach ||
                       reach < 0.5f * m_reach || std::fabs(goal.x - m_windowCentre.x) > m_reach ||
                       std::fabs(goal.y - m_windowCentre.y) > m_reach;
    if (place) {
        // In whole steps, so a reach that creeps up does not move the window every step.
        m_reach = kReachStep * std::ceil(reach / kReachStep);
        m_windowCentre = goal;
        const Vec2 half{2.0f * reach, 2.0f * reach};
        useOccupancy(std::make_shared<const FlowOccupancy>(*level, goal - half, goal + half));
    }
    m_level = std::move(level);
    m_local = true;
    m_active = true;
    m_field->setGoal(goal);
}

std::size_t FlowRoute::memoryBytes() const
{
    if (!m_field)
        return sizeof(*this);
    return sizeof(*this) + m_field->memoryBytes() +
           (m_local ? m_field->occupancy().memoryBytes() : 0);
}

} // namespace shoal
