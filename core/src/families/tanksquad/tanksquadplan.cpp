// The tank squad's plan, in the seed's rules: every tank heads for the target (round walls,
// along the squad's flow field) and then for the parking spot it claimed, keeps apart from and
// aligns with the tanks within keepDistance (one scan, four or eight tanks at a time, that
// also measures the room ahead and behind for braking), parks once it reaches its spot, reverses to
// a goal close behind, and drives with a limited turn rate, braking so it stops before it touches
// any tank it is closing on. A tank's plan itself is tanksquadkernel.h's; this file prepares the
// step (spots, routes, the neighbours' attributes in cell order) and keeps the spots.

#include "families/tanksquad/tanksquadkernel.h"

#include "math/assignment.h"
#include "math/statehash.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace shoal {

namespace {

// The squad's tanks on their way are given their spots again this often (steps), so a
// tank that was overtaken or held up takes the spot that now suits it.
constexpr int kReassignSteps = 30;
// A tank keeps its spot unless another is shorter by more than this (m): no dithering
// between two about as good.
constexpr float kKeepSpotBonus = 0.5f;
// Later arrivals pay this much more per metre (the last tank 1 + this), so that of two tanks
// coming in one behind the other the first takes the far spot.
constexpr float kLaterArrival = 1.0f;

} // namespace

std::size_t TankSquadBehaviour::preparePlan(Group& group, const StepContext& ctx)
{
    std::size_t parts = 0;
    withNeighbourSearch(ctx, [&](auto search) {
        parts = preparePlanWith<typename decltype(search)::type>(group, ctx);
    });
    return parts;
}

void TankSquadBehaviour::planPart(Group& group, const StepContext& ctx, std::size_t part,
                                  int worker)
{
#if SHOAL_WIDE_LANES
    if (ctx.laneWidth == 8 && ctx.search == NeighbourSearch::Grid) {
        planPartWide(group, ctx, part, worker);
        return;
    }
#endif
    withNeighbourSearch(ctx, [&](auto search) {
        using Search = typename decltype(search)::type;
        planPartWith(group, ctx, part, worker, neighbourSearch<Search>(group));
    });
}

void TankSquadBehaviour::finishPlan(Group& group, const StepContext& ctx)
{
    AgentArrays& a = group.agents;
    const std::size_t n = a.size();
    if (m_inspected < n)
        ctx.inspection->planned = {a.nvx[m_inspected], a.nvy[m_inspected]};
    std::copy(m_nextFlags.begin(), m_nextFlags.begin() + static_cast<std::ptrdiff_t>(n),
              a.flags.begin());
    group.startClearanceKnown = true;
    group.startNearestKnown = true;
}

void TankSquadBehaviour::aimRoutes(Group& group, const StepContext& ctx,
                                   std::vector<FlowField*>& aimed)
{
    // As preparePlanWith() updates the route: it then finds the field ready.
    if (group.hasTarget && group.agents.size() > 0)
        m_route.update(*ctx.geometry, m_params.radius, group.target, &aimed, routeCover(group));
}

FlowRoute::Cover TankSquadBehaviour::routeCover(const Group& group) const
{
    // The tanks, and the parking spots' first search (ParkingSpots::layOut; a wall cutting
    // its disc has it search further, and reach the field out then).
    const AgentArrays& a = group.agents;
    FlowRoute::Cover cover = FlowRoute::Cover::bodies(a.px.data(), a.py.data(), a.size());
    const float spacing = m_params.keepDistance + 2.0f * m_params.arriveDistance;
    cover.reach = ParkingSpots::firstReach(spacing, a.size()) + spacing;
    return cover;
}

template <class Search>
std::size_t TankSquadBehaviour::preparePlanWith(Group& group, const StepContext& ctx)
{
    const Search& search = neighbourSearch<Search>(group);
    const AgentArrays& a = group.agents;
    const TankSquadParams& p = m_params;
    const StaticGeometry& geometry = *ctx.geometry;
    const std::size_t n = a.size();
    if (m_nextFlags.size() < n)
        m_nextFlags.resize(n);

    // A new target: everybody sets off again, round the walls in the way, for new spots.
    const bool targetMoved = group.targetVersion != m_seenTargetVersion;
    m_seenTargetVersion = group.targetVersion;
    // No field for a squad without tanks (the route budget counts none for it).
    if (group.hasTarget && n > 0)
        m_route.update(geometry, p.radius, group.target);
    else
        m_route.clear();
    const bool resettle = keepSpotsCurrent(group, geometry, targetMoved);
    m_resettle = resettle;
    m_inspected = n;
    if (group.hasTarget && m_spots.size() > 0 && !resettle)
        moveUpPastStuckTanks(group);
    if (group.hasTarget && m_spots.size() > 0 && (resettle || reassignDue(group)))
        assignSpots(group, resettle);

    // Neighbour attributes in cell order (contiguous reads), and every tank's heading, in one
    // pass; agents visited in cell order. Padded with zeros as UniformGrid::gather pads: lane
    // loads run up to kLanePadding past the last slot.
    // Only the padding is zeroed: the pass below writes every tank's slot (a fill of the
    // whole arrays first was a pass over megabytes at 100,000 tanks for nothing).
    const std::size_t padded = n + kLanePadding;
    const auto past = static_cast<std::ptrdiff_t>(n);
    for (std::vector<float>* v :
         {&m_sortedVx, &m_sortedVy, &m_sortedWay, &m_sortedId, &m_forwardX, &m_forwardY}) {
        v->resize(padded);
        std::fill(v->begin() + past, v->end(), 0.0f);
    }
    m_sortedArrived.resize(padded);
    std::fill(m_sortedArrived.begin() + past, m_sortedArrived.end(), 0u);
    {
        float* const vx = m_sortedVx.data();
        float* const vy = m_sortedVy.data();
        std::uint32_t* const arrived = m_sortedArrived.data();
        float* const way = m_sortedWay.data();
        float* const id = m_sortedId.data();
        float* const heading = m_forwardX.data(); // the heading, until the pass below
        ctx.forEachRange(n, [&](std::size_t begin, std::size_t end) {
            for (std::size_t k = begin; k < end; ++k) {
                const std::size_t i = search.sortedIndex(static_cast<std::uint32_t>(k));
                vx[k] = a.vx[i];
                vy[k] = a.vy[i];
                arrived[k] = (a.flags[i] & kAgentArrived) ? ~0u : 0u;
                way[k] = a.goalDistance[i];
                id[k] = static_cast<float>(a.id[i]);
                heading[k] = a.heading[i];
            }
        });
    }

    // Every tank's heading as a unit vector, four at a time: sinCosLanes is sinCos bit for
    // bit, at a quarter of its cost per tank.
    // (In ranges of whole lane groups: each range writes only its own.)
    constexpr std::size_t W = Float4::kWidth;
    ctx.forEachRange((n + W - 1) / W, [&](std::size_t begin, std::size_t end) {
        for (std::size_t k = begin * W; k < end * W; k += W) {
            const Float4 heading = Float4::load(m_forwardX.data() + k);
            Float4 sines, cosines;
            sinCosLanes(heading, sines, cosines);
            cosines.store(m_forwardX.data() + k);
            sines.store(m_forwardY.data() + k);
            // The lanes agree with sinCos below 2^31 quarter turns; a heading never wrapped
            // (one set from outside, say) beyond that goes through sinCos itself.
            if (SHOAL_UNLIKELY(any(abs(heading) >= Float4(1e9f)))) {
                alignas(16) float headings[W];
                heading.store(headings);
                for (std::size_t l = 0; l < W; ++l)
                    sinCos(headings[l], m_forwardY[k + l], m_forwardX[k + l]);
            }
        }
    });

    // A copy of the slots for each thread's walks.
    m_slotX.resize(static_cast<std::size_t>(ctx.workers > 1 ? ctx.workers : 1));
    for (std::vector<float>& slotX : m_slotX)
        SquadWalk<Search>::prepareSlots(search, n, slotX);
    group.startClearance.resize(n);
    group.startNearest2.resize(n);
    return ctx.planParts(n);
}

bool TankSquadBehaviour::keepSpotsCurrent(const Group& group, const StaticGeometry& geometry,
                                          bool targetMoved)
{
    const TankSquadParams& p = m_params;
    const std::size_t n = group.agents.size();
    const float spacing = p.keepDistance + 2.0f * p.arriveDistance;
    // On a big level the route to a new target may take a few steps to search (FlowRoute::
    // pending): the spots are laid out at once without its field (the squad is on its way),
    // and again with it once it lands.
    const bool routePending = m_route.pending();
    const bool current = !targetMoved && m_layout.valid && m_layout.count == n &&
                         m_layout.spacing == spacing && m_layout.radius == p.radius &&
                         m_layout.occupancyChanges == m_route.occupancyChanges() &&
                         (routePending || !m_layout.routePending);
    if (current)
        return false;
    m_spotOf.assign(n, -1);
    m_keepsSpot.assign(n, 0);
    // Spots for squads the assignment is quick for (O(n^3)); a bigger one parks the seed's
    // way, against the tanks parked nearer the target.
    if (group.hasTarget && n > 0 && n <= kMaxSquadWithSpots)
        m_spots.layOut(group.target, arrivalDirection(group), spacing, n, geometry, p.radius,
                       &m_route);
    else
        m_spots.clear();
    m_layout = {true, n, spacing, p.radius, m_route.occupancyChanges(), routePending};
    return true;
}

Vec2 TankSquadBehaviour::arrivalDirection(const Group& group)
{
    const AgentArrays& a = group.agents;
    const std::size_t n = a.size();
    if (n == 0)
        return {};
    double sx = 0.0, sy = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        sx += a.px[i];
        sy += a.py[i];
    }
    const Vec2 centre{static_cast<float>(sx / static_cast<double>(n)),
                      static_cast<float>(sy / static_cast<double>(n))};
    double spread2 = 0.0;
    for (std::size_t i = 0; i < n; ++i)
        spread2 += distanceSquared({a.px[i], a.py[i]}, centre);
    const float spread = static_cast<float>(std::sqrt(spread2 / static_cast<double>(n)));
    // Round its target already (further from it than its own spread is wide): no side.
    if (distance(centre, group.target) <= spread)
        return {};
    // The way in is the route's last leg: follow the route from the centre until the target
    // is in sight (a cell at a time, and no further than the level is wide). The field
    // reaches the tanks; the centre may lie beyond them (behind a wall between two halves).
    Vec2 at = centre;
    if (const FlowField* field = m_route.reachOut(FlowRoute::Cover::point(centre))) {
        const int steps = 2 * (field->columns() + field->rows());
        for (int k = 0; k < steps && m_route.bends(at); ++k)
            at += m_route.direction(at) * field->cellSize();
    }
    return (group.target - at).normalizedOr({});
}

bool TankSquadBehaviour::reassignDue(const Group& group)
{
    // Now and then while tanks are on their way.
    if (m_reassignIn > 0 && --m_reassignIn > 0)
        return false;
    const AgentArrays& a = group.agents;
    bool underWay = false;
    for (std::size_t i = 0; i < a.size() && !underWay; ++i)
        underWay = !(a.flags[i] & kAgentArrived) && m_spotOf[i] >= 0;
    if (!underWay)
        return false;
    m_reassignIn = kReassignSteps;
    return true;
}

void TankSquadBehaviour::moveUpPastStuckTanks(Group& group)
{
    // A tank held up for two seconds by a parked one in front of it, on the way to a spot
    // further in, takes that tank's spot, and the parked tank moves up to the spot further
    // in: a queue moving up, instead of a tank waiting for ever behind one that will not go.
    AgentArrays& a = group.agents;
    const std::size_t n = a.size();
    for (std::size_t i = 0; i < n; ++i) {
        const int mine = m_spotOf[i];
        if (mine < 0 || !(a.flags[i] & kAgentStuck) || (a.flags[i] & kAgentArrived))
            continue;
        const Vec2 pos{a.px[i], a.py[i]};
        const Vec2 forward = fromAngle(a.heading[i]);
        const float myWay = distance(pos, m_spots.spot(mine));
        std::size_t best = n;
        float bestD2 = m_params.keepDistance * m_params.keepDistance;
        for (std::size_t j = 0; j < n; ++j) {
            const int theirs = m_spotOf[j];
            if (j == i || theirs < 0 || !(a.flags[j] & kAgentArrived))
                continue;
            const Vec2 other{a.px[j], a.py[j]};
            const float d2 = distanceSquared(pos, other);
            // In front of it, its spot nearer than this tank's own, this tank's spot nearer
            // to it than to this tank.
            if (d2 < bestD2 && dot(other - pos, forward) > 0.0f &&
                distance(pos, m_spots.spot(theirs)) < myWay &&
                distance(other, m_spots.spot(mine)) < myWay) {
                best = j;
                bestD2 = d2;
            }
        }
        if (best == n)
            continue;
        std::swap(m_spotOf[i], m_spotOf[best]);
        a.flags[best] &= static_cast<std::uint8_t>(~(kAgentArrived | kAgentAtGoal));
        // Both keep these spots until they park: the least total way would send them back.
        m_keepsSpot[i] = m_keepsSpot[best] = 1;
    }
}

Vec2 TankSquadBehaviour::wayIn(Vec2 from) const
{
    // Where a tank's route comes into sight of the target: along it, a cell at a time.
    const FlowField* field = m_route.field();
    if (!field)
        return from;
    const int steps = 2 * (field->columns() + field->rows());
    for (int k = 0; k < steps && m_route.bends(from); ++k)
        from += m_route.direction(from) * field->cellSize();
    return from;
}

void TankSquadBehaviour::assignSpots(const Group& group, bool fresh)
{
    // The tanks under way share the spots parked tanks do not hold, by least total way (from
    // where each comes into sight of the target): straight ways that do not cross, so the
    // first in takes the far spots and nobody drives through a parked tank. A tank keeps its
    // spot unless another is clearly shorter.
    const AgentArrays& a = group.agents;
    const std::size_t n = a.size();
    m_rows.clear();
    m_held.assign(m_spots.size(), 0);
    if (fresh)
        std::fill(m_keepsSpot.begin(), m_keepsSpot.end(), 0);
    for (std::size_t i = 0; i < n; ++i) {
        if (!fresh && ((a.flags[i] & kAgentArrived) || m_keepsSpot[i]) && m_spotOf[i] >= 0)
            m_held[static_cast<std::size_t>(m_spotOf[i])] = 1;
        else
            m_rows.push_back(static_cast<std::uint32_t>(i));
    }
    m_columns.clear();
    for (std::size_t k = 0; k < m_spots.size(); ++k)
        if (!m_held[k])
            m_columns.push_back(static_cast<std::uint32_t>(k));
    if (m_rows.empty())
        return;
    // How far each has to go, for the order they arrive in; and where each comes in.
    m_entries.resize(m_rows.size());
    m_order.resize(m_rows.size());
    float nearest = 0.0f, furthest = 0.0f;
    for (std::size_t r = 0; r < m_rows.size(); ++r) {
        const std::size_t i = m_rows[r];
        const Vec2 pos{a.px[i], a.py[i]};
        m_entries[r] = wayIn(pos);
        m_order[r] = distance(pos, m_entries[r]) + distance(m_entries[r], group.target);
        nearest = r == 0 ? m_order[r] : std::min(nearest, m_order[r]);
        furthest = r == 0 ? m_order[r] : std::max(furthest, m_order[r]);
    }
    const std::size_t tanks = m_rows.size(), spots = m_columns.size();
    const bool tanksAreRows = tanks <= spots;
    const std::size_t rows = tanksAreRows ? tanks : spots, columns = tanksAreRows ? spots : tanks;
    m_cost.resize(rows * columns);
    for (std::size_t r = 0; r < tanks; ++r) {
        const std::size_t i = m_rows[r];
        const float later =
            1.0f + kLaterArrival * (m_order[r] - nearest) / (furthest - nearest + 1.0f);
        for (std::size_t c = 0; c < spots; ++c) {
            const int k = static_cast<int>(m_columns[c]);
            float cost = distance(m_entries[r], m_spots.spot(k)) * later;
            if (m_spotOf[i] == k)
                cost -= kKeepSpotBonus;
            m_cost[tanksAreRows ? r * columns + c : c * columns + r] = cost;
        }
    }
    const std::vector<int> taken = solveAssignment(m_cost, rows, columns, m_assignment);
    for (const std::uint32_t i : m_rows)
        m_spotOf[i] = -1;
    for (std::size_t r = 0; r < rows; ++r) {
        const std::size_t tank = tanksAreRows ? r : static_cast<std::size_t>(taken[r]);
        const std::size_t spot = tanksAreRows ? static_cast<std::size_t>(taken[r]) : r;
        m_spotOf[m_rows[tank]] = static_cast<std::int32_t>(m_columns[spot]);
    }
}

void TankSquadBehaviour::permuteAgents(const std::vector<std::uint32_t>& order)
{
    permuteOwnGoals(order);
    if (m_spotOf.size() != order.size())
        return; // not laid out for these agents: the next plan lays out afresh
    m_permuted.resize(order.size());
    for (std::size_t k = 0; k < order.size(); ++k)
        m_permuted[k] = m_spotOf[order[k]];
    m_spotOf.swap(m_permuted);
    m_held.resize(order.size());
    for (std::size_t k = 0; k < order.size(); ++k)
        m_held[k] = m_keepsSpot[order[k]];
    m_keepsSpot.swap(m_held);
}

void TankSquadBehaviour::permuteOwnGoals(const std::vector<std::uint32_t>& order)
{
    if (m_ownX.size() != order.size())
        return;
    std::vector<float> permuted(order.size());
    for (std::vector<float>* v : {&m_ownX, &m_ownY}) {
        for (std::size_t k = 0; k < order.size(); ++k)
            permuted[k] = (*v)[order[k]];
        v->swap(permuted);
    }
}

void TankSquadBehaviour::hashState(std::uint64_t& h) const
{
    m_spots.hash(h);
    hashVector(h, m_spotOf);
    hashVector(h, m_keepsSpot);
}

std::size_t TankSquadBehaviour::memoryBytes() const
{
    std::size_t slotCopies = 0;
    for (const std::vector<float>& slotX : m_slotX)
        slotCopies += slotX.capacity() * sizeof(float);
    return m_nextFlags.capacity() + m_sortedArrived.capacity() * sizeof(std::uint32_t) +
           (m_sortedVx.capacity() + m_sortedVy.capacity() + m_sortedWay.capacity() +
            m_sortedId.capacity() + m_forwardX.capacity() + m_forwardY.capacity()) *
               sizeof(float) +
           slotCopies + (m_spotOf.capacity() + m_permuted.capacity()) * sizeof(std::int32_t) +
           m_spots.memoryBytes() + m_route.memoryBytes() + m_held.capacity() +
           m_keepsSpot.capacity() +
           (m_rows.capacity() + m_columns.capacity()) * sizeof(std::uint32_t) +
           m_entries.capacity() * sizeof(Vec2) +
           (m_order.capacity() + m_cost.capacity()) * sizeof(float);
}

} // namespace shoal
