#include "geometry/flowroute.h"
#include "geometry/staticgeometry.h"
#include "world/statebytes.h"

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
    m_radius = bodyRadius;
}

bool FlowRoute::want(FlowField& field, const Cover& cover)
{
    bool any = false;
    for (std::size_t i = 0; i < cover.count; ++i)
        any |= field.want({cover.x[i], cover.y[i]});
    if (cover.extra)
        any |= field.want(*cover.extra);
    if (cover.reach > 0.0f)
        any |= field.wantReach(cover.reach);
    return any;
}

void FlowRoute::update(const StaticGeometry& geometry, float bodyRadius, Vec2 goal,
                       std::vector<FlowField*>* aimed, const Cover& cover)
{
    prepare(geometry, bodyRadius);
    m_active = true;
    m_lastGoal = goal;
    // The goal's cell decides the field. Same cell as last time: it stays.
    const int raw = m_level->placement().slotAt(goal);
    bool joined = false;
    if (m_field && m_field->searching() && m_field->aimed() && raw != m_rawGoalSlot &&
        m_field.use_count() == 1) {
        // This route's search in slices goes on; the goal it has moved to since is aimed at
        // once it lands. Started again at every cell the goal crosses, a search that takes
        // longer than the goal stays in a cell would never land.
        if (aimed)
            m_field->enqueue(*aimed);
        return;
    }
    // On a big level a chased goal keeps its field while it stays near its cell, in sight of
    // it (m_rawGoalSlot then keeps the cell it was aimed from): a swarm chasing a running
    // player searches a million cells a quarter as often. A placed goal is searched again.
    const bool moved =
        raw != m_rawGoalSlot && !(m_chased && m_field && m_field->sliced() &&
                                  m_field->leadsNear(goal, kGoalSlackCells * m_field->cellSize()));
    if (!m_field || moved) {
        m_rawGoalSlot = raw;
        const int target = m_level->goalSlotFor(goal);
        if (!(m_field && m_field->hasGoal() && m_field->goalSlot() == target)) {
            // Another route's field for that cell, else this route's own, computed for it.
            if (std::shared_ptr<FlowField> shared = m_level->fieldFor(target)) {
                m_field = std::move(shared);
                joined = true;
            } else {
                const bool fresh = !m_field || m_field.use_count() > 1;
                FlowField& field = ownField(m_level);
                if (field.aimAt(goal)) {
                    want(field, cover);
                    if (aimed)
                        field.enqueue(*aimed);
                    else
                        field.computeAimed();
                }
                if (fresh)
                    m_level->addField(m_field);
                return;
            }
        }
    }
    // The field stays, or another route's was taken: it widens if it does not reach this
    // route's bodies (asked when taken, or when a plan looked beyond it). Only the aiming
    // widens a field other routes hold: in their plans they may be reading it.
    FlowField& field = *m_field;
    if (field.queueOrder() != 0) {
        // A search in slices (a new goal's or a widening) queued by an earlier step: it goes
        // on as it started.
        if (aimed)
            field.enqueue(*aimed);
        return;
    }
    if (field.aimed()) {
        // Aimed this step (by another route), to be computed with the others: its horizon
        // is still the last goal's, so this route's bodies are wanted as they are (unless
        // the field is due over the whole level anyway).
        if (aimed && field.aimedWithin())
            want(field, cover);
        return;
    }
    if (cover.empty() || field.complete() || !(joined || field.readBeyond()) ||
        (!aimed && m_field.use_count() > 1))
        return;
    if (want(field, cover) && field.requestWidening()) {
        if (aimed)
            field.enqueue(*aimed);
        else
            field.widenNow();
    }
}

const FlowField* FlowRoute::reachOut(const Cover& cover)
{
    if (pending())
        return nullptr;
    if (m_field && m_field.use_count() == 1 && !m_local && !m_field->complete() &&
        want(*m_field, cover) && m_field->requestWidening())
        m_field->widenNow();
    return m_field.get();
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
        m_windowHalf = 2.0f * reach;
        const Vec2 half{m_windowHalf, m_windowHalf};
        useOccupancy(std::make_shared<const FlowOccupancy>(*level, goal - half, goal + half));
    }
    m_level = std::move(level);
    m_local = true;
    m_active = true;
    m_radius = bodyRadius;
    m_lastGoal = goal;
    m_field->setGoal(goal);
}

void FlowRoute::saveState(StateWriter& out) const
{
    out.flag(m_level != nullptr);
    out.flag(m_field != nullptr);
    out.flag(m_active);
    out.flag(m_local);
    out.value(m_radius);
    out.value(m_lastGoal);
    out.value(m_reach);
    out.value(m_windowCentre);
    out.value(m_windowHalf);
    out.value(m_occupancyChanges);
    // How far the field searched, and whether a plan looked beyond it (the next aiming
    // widens it): the same field, and the same widening, after a restore.
    out.value(m_field ? m_field->horizon() : FlowField::kUnreachable);
    out.flag(m_field && m_field->readBeyond());
    // Format 3: the goal the field was aimed at (the route's own goal may have moved on
    // while a search in slices runs), the cell the route last saw its goal in, and a search
    // in slices under way with the goal the field reads as meanwhile.
    out.value(m_field ? m_field->goal() : Vec2{});
    out.value(static_cast<std::int32_t>(m_rawGoalSlot));
    const bool queued = m_field && !m_local && (m_field->aimed() || m_field->queueOrder() != 0);
    out.flag(queued);
    if (queued) {
        const FlowField::QueuedSearch search = m_field->queuedSearch();
        out.flag(search.widening);
        out.flag(m_field->landed());
        out.value(m_field->landedGoal());
        out.value(search.goal);
        out.array(search.wanted);
        out.value(search.wantedCost);
        out.value(search.start);
        out.flag(search.grow);
        out.value(search.settled);
        out.value(search.order);
    }
}

bool FlowRoute::loadState(StateReader& in, const StaticGeometry& geometry)
{
    bool hasLevel = false, hasField = false, active = false, local = false;
    float radius = 0.0f, reach = 0.0f, windowHalf = 0.0f;
    Vec2 lastGoal, windowCentre;
    std::uint64_t changes = 0;
    if (!(in.flag(hasLevel) && in.flag(hasField) && in.flag(active) && in.flag(local) &&
          in.value(radius) && in.value(lastGoal) && in.value(reach) && in.value(windowCentre) &&
          in.value(windowHalf) && in.value(changes)))
        return false;
    // Format 1 kept every field over the whole level.
    float horizon = FlowField::kUnreachable;
    bool beyond = false;
    if (!in.olderThan(2) && !(in.value(horizon) && in.flag(beyond)))
        return false;
    // Format 2 kept no search in slices (none ran), and the field's goal was the route's.
    Vec2 fieldGoal = lastGoal;
    std::int32_t rawGoalSlot = -1;
    bool queued = false, landed = false;
    Vec2 landedGoal;
    FlowField::QueuedSearch search;
    if (!in.olderThan(3)) {
        if (!(in.value(fieldGoal) && in.value(rawGoalSlot) && in.flag(queued)))
            return false;
        if (queued && !(in.flag(search.widening) && in.flag(landed) && in.value(landedGoal) &&
                        in.value(search.goal) && in.array(search.wanted) &&
                        in.value(search.wantedCost) && in.value(search.start) &&
                        in.flag(search.grow) && in.value(search.settled) && in.value(search.order)))
            return false;
    }
    // The field is a function of the occupancy, the goal's cell and its horizon
    // (FlowField::setGoalWithin), so the last goal over the same occupancy (the same window)
    // to the same horizon builds the same field. Routes that shared a field saved its
    // horizon alike, so the first to load builds it and the others find it.
    // (The level's occupancy is taken before this route lets go of its own: were it the
    // last to hold it, the level would build it again.)
    std::shared_ptr<const FlowOccupancy> level =
        hasLevel ? geometry.flowOccupancy(radius) : std::shared_ptr<const FlowOccupancy>{};
    m_field.reset();
    m_level = std::move(level);
    m_rawGoalSlot = -1;
    if (hasLevel && hasField && local) {
        const Vec2 half{windowHalf, windowHalf};
        m_field = std::make_shared<FlowField>(std::make_shared<const FlowOccupancy>(
            *m_level, windowCentre - half, windowCentre + half));
        m_field->setGoal(lastGoal);
    } else if (hasLevel && hasField) {
        m_rawGoalSlot = in.olderThan(3) ? m_level->placement().slotAt(lastGoal) : rawGoalSlot;
        const Vec2 aimedAt = queued ? search.goal : fieldGoal;
        const int target = m_level->goalSlotFor(aimedAt);
        if (std::shared_ptr<FlowField> shared = m_level->fieldFor(target)) {
            m_field = std::move(shared);
        } else {
            // A search in slices: what the field read as meanwhile, then the search itself
            // as far as it had gone.
            m_field = std::make_shared<FlowField>(m_level);
            if (!queued || landed)
                m_field->setGoalWithin(queued ? landedGoal : fieldGoal, horizon);
            if (queued)
                m_field->restoreSearch(search);
            m_level->addField(m_field);
        }
        if (beyond)
            m_field->setReadBeyond(true);
    }
    m_active = active;
    m_local = local;
    m_radius = radius;
    m_lastGoal = lastGoal;
    m_reach = reach;
    m_windowCentre = windowCentre;
    m_windowHalf = windowHalf;
    m_occupancyChanges = changes;
    return true;
}

std::size_t FlowRoute::memoryBytes() const
{
    if (!m_field)
        return sizeof(*this);
    return sizeof(*this) + m_field->memoryBytes() +
           (m_local ? m_field->occupancy().memoryBytes() : 0);
}

} // namespace shoal
