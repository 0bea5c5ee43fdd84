// The tank squad's parameters and the rules between them. The plan lives in
// tanksquadplan.cpp, what it shows a viewer in tanksquadsketch.cpp.

#include "families/tanksquad/tanksquad.h"
#include "world/statebytes.h"

#include <limits>

namespace shoal {

namespace {

using F = ParamField<TankSquadParams>;

const F kTankFields[] = {
    {{"moveSpeed", "Move speed", "m/s", 0.1, 30.0, 0.1, 5.0,
      "Top speed of a tank (the article's moveSpeed 5, in Unity units: m/s)."},
     &TankSquadParams::moveSpeed},
    {{"rotateSpeed", "Turn rate", "deg/s", 5.0, 720.0, 5.0, 90.0,
      "Most a tank turns per second (the article's 20 deg/s, on which a tank at 5 m/s turns "
      "on a 14 m radius; 90 deg/s: 3.2 m). Low values make wide arcs; tanks that cannot turn "
      "tightly enough to reach a target near them reverse instead."},
     &TankSquadParams::rotateSpeed,
     ParamScale::Degrees},
    {{"targetWeight", "Target weight", "", 0.0, 5.0, 0.05, 1.25,
      "Pull toward the squad target against keeping distance and aligning (the article's "
      "1.25). "
      "Higher: a direct, crowded approach; lower: a loose formation that drifts."},
     &TankSquadParams::targetWeight},
    {{"targetCloseDistance", "Slow-down distance", "m", 0.1, 200.0, 0.5, 20.0,
      "Inside this distance the pull toward the target, and with it the speed, scales down "
      "linearly: tanks brake as they arrive (the article's 20 m)."},
     &TankSquadParams::targetCloseDistance},
    {{"arriveDistance", "Arrive distance", "m", 0.1, 100.0, 0.1, 0.2,
      "A tank this close to its parking spot has arrived and eases to a stop (the article's "
      "minMoveCheck, 0.2 m, for its one tank and the target). Every tank of a squad has a "
      "spot of its own round the target, keepDistance + 2 x this apart, so the parked squad "
      "keeps its distance however far off its spot each tank stops. Larger: tanks park "
      "sooner, further apart."},
     &TankSquadParams::arriveDistance},
    {{"keepDistance", "Keep distance", "m", 0.1, 100.0, 0.1, 6.0,
      "Members closer than this push apart and count as neighbours for alignment (the "
      "article's 10 m; at 10 m a squad of 20 of our 3 m tanks parks up to 28 m from its "
      "target, at 6 m within 18 m). Must exceed two body radii."},
     &TankSquadParams::keepDistance},
    {{"keepWeight", "Keep weight", "", 0.0, 5.0, 0.05, 1.0,
      "How hard members avoid each other (the article's 1). Higher spreads the squad; lower "
      "lets it bunch up."},
     &TankSquadParams::keepWeight},
    {{"moveWeight", "Align weight", "", 0.0, 5.0, 0.05, 0.8,
      "How much a tank copies its neighbours' movement (the article's 0.8). Higher: a column "
      "that moves as one."},
     &TankSquadParams::moveWeight},
    {{"speedEasing", "Speed easing", "1/s", 0.1, 20.0, 0.1, 2.0,
      "How fast speed eases toward its goal (the article's lerp factor 2). Low: heavy tanks."},
     &TankSquadParams::speedEasing},
    {{"turnDeadZone", "Turn dead zone", "deg", 0.0, 45.0, 0.5, 11.5,
      "No turning while the wanted direction is within this angle: the article's anti-shake "
      "(dot 0.98)."},
     &TankSquadParams::turnDeadZone,
     ParamScale::Degrees},
    {{"turnSlowdown", "Turn slowdown", "", 0.0, 1.0, 0.05, 0.8,
      "Share of speed lost while turning hard (the article's 0.8)."},
     &TankSquadParams::turnSlowdown},
    {{"reverseDistance", "Reverse distance", "m", 0.0, 100.0, 0.5, 15.0,
      "A target behind the tank (forward dot below -0.2, the article's test) and closer than "
      "this is reached by backing up instead of a U-turn (the article backs up at any "
      "distance). 0 never reverses."},
     &TankSquadParams::reverseDistance},
    {{"reverseSpeed", "Reverse speed", "", 0.05, 1.0, 0.05, 0.6,
      "Backing-up speed as a share of moveSpeed (the article eases toward -8 x its speed but "
      "takes its turn slowdown off every frame: it creeps back at about 0.13 at 60 fps)."},
     &TankSquadParams::reverseSpeed},
    {{"feelerLength", "Feeler length", "m", 0.0, 20.0, 0.1, 4.0,
      "Feelers ahead that steer a tank off walls. Longer: earlier, smoother avoidance and more "
      "ray casts."},
     &TankSquadParams::feelerLength},
    {{"wallWeight", "Wall weight", "", 0.0, 10.0, 0.1, 2.0,
      "How hard the feelers steer away from walls against the pull to the target."},
     &TankSquadParams::wallWeight},
    {{"radius", "Body radius", "m", 0.1, 10.0, 0.1, 1.5,
      "Half the size of a tank: its clearance from walls and the overlap metric."},
     &TankSquadParams::radius},
};

using TankReading = ParamReading<TankSquadParams>;

// Compared in runtime units (float), shown as authored.
const std::array<ParamRule<TankSquadParams>, 1> kTankRules = {{
    {[](const TankReading& r) { return r.params().keepDistance > 2.0f * r.params().radius; },
     [](const TankReading& r) {
         return "keepDistance (" + r.text(&TankSquadParams::keepDistance) +
                ") must exceed two body radii (2 x " + r.text(&TankSquadParams::radius) +
                "): tanks would overlap before they push apart";
     }},
}};

} // namespace

const std::vector<ParamSpec>& tankSquadParamSpecs()
{
    using H = ParamHandle;
    static const std::vector<ParamSpec> specs = withHandles(
        specsOf(kTankFields), {{"keepDistance", H::radius(60.0f)},
                               {"targetCloseDistance", H::radius(45.0f, H::Anchor::Goal)},
                               {"arriveDistance", H::radius(-45.0f, H::Anchor::Goal)},
                               {"feelerLength", H::line(H::Shape::Ahead)}});
    return specs;
}

std::optional<Error> checkTankSquadRelations(const ParamValues& values)
{
    return checkRules(kTankFields, kTankRules, values);
}

void TankSquadBehaviour::setParams(const ParamValues& values)
{
    m_params = paramsFrom(kTankFields, values);
}

void TankSquadBehaviour::spawn(Group& group, const GroupDesc& desc, Random& random,
                               const StaticGeometry& geometry, SpawnOccupancy& placed)
{
    Behaviour::spawn(group, desc, random, geometry, placed);
    // Goals of their own from the scene (AgentDesc::goal), as World::setAgentGoal sets them.
    // The arrays stay empty when no agent has one, so the squad plans as it always did.
    const std::vector<std::uint32_t>& from = group.spawnReport.listedFrom;
    for (std::size_t k = 0; k < from.size(); ++k)
        if (const auto& goal = desc.agents[from[k]].goal)
            setAgentGoal(group, k, Vec2{static_cast<float>(goal->x), static_cast<float>(goal->y)});
    // The first plan updates the route with the same level, radius and target: a lookup and
    // a cell test. (A target or radius set before it is routed to there, as before.)
    if (group.hasTarget && group.agents.size() > 0)
        m_route.update(geometry, m_params.radius, group.target, nullptr, routeCover(group));
}

void TankSquadBehaviour::saveState(StateWriter& out) const
{
    out.value(m_seenTargetVersion);
    m_route.saveState(out);
    m_spots.saveState(out);
    out.array(m_spotOf);
    out.array(m_keepsSpot);
    out.value(m_reassignIn);
    out.flag(m_layout.valid);
    out.value(static_cast<std::uint64_t>(m_layout.count));
    out.value(m_layout.spacing);
    out.value(m_layout.radius);
    out.value(m_layout.occupancyChanges);
    out.flag(m_layout.routePending);
    out.array(m_nextFlags);
    out.array(m_ownX);
    out.array(m_ownY);
}

bool TankSquadBehaviour::loadState(StateReader& in, const StaticGeometry& geometry)
{
    std::uint64_t count = 0;
    m_layout.routePending = false; // format 2: no route was ever searched in slices
    const bool ok = in.value(m_seenTargetVersion) && m_route.loadState(in, geometry) &&
                    m_spots.loadState(in) && in.array(m_spotOf) && in.array(m_keepsSpot) &&
                    in.value(m_reassignIn) && in.flag(m_layout.valid) && in.value(count) &&
                    in.value(m_layout.spacing) && in.value(m_layout.radius) &&
                    in.value(m_layout.occupancyChanges) &&
                    (in.olderThan(3) || in.flag(m_layout.routePending)) && in.array(m_nextFlags) &&
                    in.array(m_ownX) && in.array(m_ownY) && m_ownX.size() == m_ownY.size();
    m_layout.count = static_cast<std::size_t>(count);
    return ok;
}

void TankSquadBehaviour::agentAdded(const Group& group)
{
    // The squad's size changed: the next plan lays the spots out again for all (see
    // keepSpotsCurrent); until then the newcomer has none.
    if (m_spotOf.size() + 1 == group.agents.size()) {
        m_spotOf.push_back(-1);
        m_keepsSpot.push_back(0);
    }
    if (m_ownX.size() + 1 == group.agents.size()) {
        m_ownX.push_back(std::numeric_limits<float>::quiet_NaN());
        m_ownY.push_back(std::numeric_limits<float>::quiet_NaN());
    }
}

bool TankSquadBehaviour::setAgentGoal(const Group& group, std::size_t i, std::optional<Vec2> goal)
{
    const std::size_t n = group.agents.size();
    if (m_ownX.size() != n) {
        m_ownX.assign(n, std::numeric_limits<float>::quiet_NaN());
        m_ownY.assign(n, std::numeric_limits<float>::quiet_NaN());
    }
    m_ownX[i] = goal ? goal->x : std::numeric_limits<float>::quiet_NaN();
    m_ownY[i] = goal ? goal->y : std::numeric_limits<float>::quiet_NaN();
    return true;
}

void TankSquadBehaviour::agentRemoved(std::size_t i)
{
    if (i < m_spotOf.size())
        m_spotOf.erase(m_spotOf.begin() + static_cast<std::ptrdiff_t>(i));
    if (i < m_keepsSpot.size())
        m_keepsSpot.erase(m_keepsSpot.begin() + static_cast<std::ptrdiff_t>(i));
    if (i < m_ownX.size()) {
        m_ownX.erase(m_ownX.begin() + static_cast<std::ptrdiff_t>(i));
        m_ownY.erase(m_ownY.begin() + static_cast<std::ptrdiff_t>(i));
    }
}

} // namespace shoal
