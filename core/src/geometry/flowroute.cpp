#include "geometry/flowroute.h"
#include "geometry/staticgeometry.h"

#include <cmath>

namespace shoal {

namespace {
constexpr float kReachStep = 4.0f; ///< m
} // namespace

FlowField& FlowRoute::ownField(const std::shared_ptr<const FlowOccupancy>& occupancy)
{
    if (!m_field || m_field.use_count() > 1)
        m_field = std::make_shared<FlowField>(occupancy);
    return *m_field;
}

void FlowRoute::useOccupancy(std::shared_ptr<const FlowOccupancy> occupancy)
{
    const bool fresh = !m_field || m_field.use_count() > 1;
    FlowField& field = ownField(occupancy);
    if (!fresh) {
        // No goal while it moves, so the field is computed once, by setGoal().
        field.clearGoal();
        field.setOccupancy(std::move(occupancy));
    }
    m_rawGoalSlot = -1;
    ++m_occupancyChanges;
}

void FlowRoute::prepare(const StaticGeometry& geometry, float bodyRadius)
{
    std::shared_ptr<const FlowOccupancy> level = geometry.flowOccupancy(bodyRadius);
    if (m_local || level != m_level) {
        // The field is found or made by the first update: a group that never routes (no
        // agents, no goal) holds none.
        m_field.reset();
        m_rawGoalSlot = -1;
        ++m_occupancyChanges;
    }
    m_level = std::move(level);
    m_local = false;
}

void FlowRoute::update(const StaticGeometry& geometry, float bodyRadius, Vec2 goal)
{
    prepare(geometry, bodyRadius);
    m_active = true;
    // The goal's cell decides the field. Same cell as last time: nothing to do.
    const int raw = m_level->placement().slotAt(goal);
    if (m_field && raw == m_rawGoalSlot)
        return;
    m_rawGoalSlot = raw;
    const int target = m_level->goalSlotFor(goal);
    if (m_field && m_field->hasGoal() && m_field->goalSlot() == target)
        return;
    // Another route's field for that cell, else this route's own, computed for it.
    if (std::shared_ptr<FlowField> shared = m_level->fieldFor(target)) {
        m_field = std::move(shared);
        return;
    }
    const bool fresh = !m_field || m_field.use_count() > 1;
    ownField(m_level).setGoal(goal);
    if (fresh)
        m_level->addField(m_field);
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
