#include "world/behaviour.h"

#include "world/spawnoccupancy.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace shoal {

std::size_t spawnCapacity(const Rect& area, float radius)
{
    const double width = area.max.x - area.min.x, height = area.max.y - area.min.y;
    const double body = kPi * static_cast<double>(radius) * radius;
    if (!(body > 0.0))
        return static_cast<std::size_t>(kMaxSpawnCount);
    const double fits = std::floor(kSpawnCrowding * width * height / body);
    return fits < 1.0 ? 1 : static_cast<std::size_t>(std::min(fits, double(kMaxSpawnCount)));
}

void Behaviour::spawn(Group& group, const GroupDesc& desc, Random& random,
                      const StaticGeometry& geometry, SpawnOccupancy& placed)
{
    const float radius = bodyRadius();
    std::size_t count =
        desc.agents.size() + (desc.spawn ? static_cast<std::size_t>(desc.spawn->count) : 0);
    group.agents.resize(0);
    group.agents.resize(count);
    std::size_t n = 0;
    auto place = [&](Vec2 p, float heading) {
        group.agents.px[n] = p.x;
        group.agents.py[n] = p.y;
        group.agents.heading[n] = heading;
        ++n;
    };
    // Listed agents piled on one place (a list pasted a thousand times) could never be
    // parted: at most kListedPerSquare of them to a square of two radii.
    SpawnReport& report = group.spawnReport;
    report = SpawnReport{};
    report.listedAsked = desc.agents.size();
    std::unordered_map<std::uint64_t, std::uint32_t> crowd;
    const double square = std::max(2.0 * static_cast<double>(radius), 1e-3);
    report.listedFrom.reserve(desc.agents.size());
    for (std::size_t listed = 0; listed < desc.agents.size(); ++listed) {
        const AgentDesc& agent = desc.agents[listed];
        const auto cx = static_cast<std::int64_t>(std::floor(agent.position.x / square));
        const auto cy = static_cast<std::int64_t>(std::floor(agent.position.y / square));
        const std::uint64_t key =
            (static_cast<std::uint64_t>(cx) << 32) ^ (static_cast<std::uint64_t>(cy) & 0xFFFFFFFFu);
        if (++crowd[key] > kListedPerSquare)
            continue;
        const Vec2 p{static_cast<float>(agent.position.x), static_cast<float>(agent.position.y)};
        // Nor in a pile of other groups' bodies deeper than that.
        int blocker = -1;
        if (placed.othersOverlapping(p, radius, group.index, group.collision.layers,
                                     group.collision.mask, static_cast<int>(kListedPerSquare),
                                     blocker) >= static_cast<int>(kListedPerSquare)) {
            report.listedCrowdedBy = blocker;
            continue;
        }
        report.listedFrom.push_back(static_cast<std::uint32_t>(listed));
        place(p, degToRad(static_cast<float>(agent.heading)));
        placed.add(p, radius, group.index, group.collision.layers, group.collision.mask);
    }
    report.listedPlaced = n;
    if (desc.spawn) {
        const Rect& area = desc.spawn->area;
        report.areaAsked = static_cast<std::size_t>(desc.spawn->count);
        report.areaCapacity = spawnCapacity(area, radius);
        const std::size_t wanted = std::min(report.areaAsked, report.areaCapacity);
        const SpawnPose pose = spawnPose();
        // Tries with the pose's gap come first, then as many as ever without it: an area fills
        // as full as it did without a gap.
        int gapTries = pose.gap > 0.0f ? kSpawnPlaceAttempts / 2 : 0;
        for (std::size_t k = 0; k < wanted; ++k) {
            // Rejection sampling: clear of walls, obstacles and the bodies already placed, of
            // this group and of the groups before it that it meets.
            // Bodies start apart: a crowd spawned overlapping could not be parted before the
            // run's overlap check gives up on it (0.1 s), however many settle passes it had.
            // When no clear place turns up the area is full (random placing fills about half
            // of it), and it places no more: the world warns with the count.
            bool found = false;
            for (int attempt = 0; attempt < gapTries + kSpawnPlaceAttempts; ++attempt) {
                const Vec2 p{
                    random.uniform(static_cast<float>(area.min.x), static_cast<float>(area.max.x)),
                    random.uniform(static_cast<float>(area.min.y), static_cast<float>(area.max.y))};
                if (geometry.isInsideSolid(p, radius))
                    continue;
                const float room = attempt < gapTries ? pose.gap : 0.0f;
                const int blocker = placed.inTheWay(p, radius + room, group.index,
                                                    group.collision.layers, group.collision.mask);
                if (blocker >= 0) {
                    if (blocker != group.index)
                        report.crowdedBy = blocker;
                    continue;
                }
                placed.add(p, radius, group.index, group.collision.layers, group.collision.mask);
                // No room with the gap in all its tries: the area is nearly full at that
                // spacing, and the rest go without it (the tries would only be wasted).
                if (attempt >= gapTries)
                    gapTries = 0;
                float heading = random.uniform(-kPi, kPi);
                if (pose.aligned) {
                    const Vec2 ahead = group.target - p;
                    if (group.hasTarget && dot(ahead, ahead) > 1e-6f)
                        heading = std::atan2(ahead.y, ahead.x);
                    else if (n > report.listedPlaced)
                        heading = group.agents.heading[report.listedPlaced];
                }
                place(p, heading);
                found = true;
                break;
            }
            if (!found) {
                report.areaFull = true;
                break;
            }
        }
    }
    group.agents.resize(n);
    report.areaPlaced = n - report.listedPlaced;
}

} // namespace shoal

namespace shoal {

const char* Behaviour::agentState(const Group& group, std::size_t i) const
{
    const std::uint8_t flags = group.agents.flags[i];
    if (group.playerLed && i == 0)
        return "player";
    if (flags & kAgentStuck)
        return "stuck";
    if (flags & kAgentBlocked)
        return "blocked";
    if (flags & kAgentAtGoal)
        return "at goal";
    return "moving";
}

} // namespace shoal
