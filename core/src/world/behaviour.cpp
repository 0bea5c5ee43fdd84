#include "world/behaviour.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace shoal {

namespace {

/// Spawn-time occupancy: a bucket grid of placed agents over the spawn rectangle, so a new
/// agent can avoid landing on top of another (linked lists in flat arrays; build time only).
class SpawnOccupancy
{
public:
    SpawnOccupancy(const Rect& area, float spacing, std::size_t expected)
        : m_spacing(spacing), m_min{static_cast<float>(area.min.x), static_cast<float>(area.min.y)}
    {
        const float w = static_cast<float>(area.max.x - area.min.x);
        const float h = static_cast<float>(area.max.y - area.min.y);
        m_cell = spacing > 1e-3f ? spacing : 1e-3f;
        while ((w / m_cell + 1.0f) * (h / m_cell + 1.0f) > 4.0e6f)
            m_cell *= 2.0f;
        m_cols = static_cast<int>(w / m_cell) + 1;
        m_rows = static_cast<int>(h / m_cell) + 1;
        m_head.assign(static_cast<std::size_t>(m_cols) * m_rows, -1);
        m_next.reserve(expected);
        m_points.reserve(expected);
    }

    bool isFree(Vec2 p) const
    {
        const int cx = cellX(p.x), cy = cellY(p.y);
        for (int y = std::max(0, cy - 1); y <= std::min(m_rows - 1, cy + 1); ++y)
            for (int x = std::max(0, cx - 1); x <= std::min(m_cols - 1, cx + 1); ++x)
                for (int k = m_head[static_cast<std::size_t>(y) * m_cols + x]; k >= 0;
                     k = m_next[k])
                    if (distanceSquared(p, m_points[k]) < m_spacing * m_spacing)
                        return false;
        return true;
    }

    void add(Vec2 p)
    {
        const std::size_t c = static_cast<std::size_t>(cellY(p.y)) * m_cols + cellX(p.x);
        m_points.push_back(p);
        m_next.push_back(m_head[c]);
        m_head[c] = static_cast<int>(m_points.size() - 1);
    }

private:
    int cellX(float x) const
    {
        return std::clamp(static_cast<int>((x - m_min.x) / m_cell), 0, m_cols - 1);
    }
    int cellY(float y) const
    {
        return std::clamp(static_cast<int>((y - m_min.y) / m_cell), 0, m_rows - 1);
    }

    float m_spacing;
    Vec2 m_min;
    float m_cell = 1.0f;
    int m_cols = 1;
    int m_rows = 1;
    std::vector<int> m_head;
    std::vector<int> m_next;
    std::vector<Vec2> m_points;
};

} // namespace

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
                      const StaticGeometry& geometry)
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
    for (const AgentDesc& agent : desc.agents) {
        const auto cx = static_cast<std::int64_t>(std::floor(agent.position.x / square));
        const auto cy = static_cast<std::int64_t>(std::floor(agent.position.y / square));
        const std::uint64_t key =
            (static_cast<std::uint64_t>(cx) << 32) ^ (static_cast<std::uint64_t>(cy) & 0xFFFFFFFFu);
        if (++crowd[key] > kListedPerSquare)
            continue;
        place({static_cast<float>(agent.position.x), static_cast<float>(agent.position.y)},
              degToRad(static_cast<float>(agent.heading)));
    }
    report.listedPlaced = n;
    if (desc.spawn) {
        const Rect& area = desc.spawn->area;
        report.areaAsked = static_cast<std::size_t>(desc.spawn->count);
        report.areaCapacity = spawnCapacity(area, radius);
        const std::size_t wanted = std::min(report.areaAsked, report.areaCapacity);
        SpawnOccupancy occupancy(area, 2.0f * radius, wanted);
        for (std::size_t k = 0; k < wanted; ++k) {
            // Rejection sampling: clear of walls, obstacles and the agents already placed.
            // Bodies start apart: a crowd spawned overlapping could not be parted before the
            // run's overlap check gives up on it (0.1 s), however many settle passes it had.
            // When no clear place turns up the area is full (random placing fills about half
            // of it), and it places no more: the world warns with the count.
            bool placed = false;
            for (int attempt = 0; attempt < kSpawnPlaceAttempts; ++attempt) {
                const Vec2 p{
                    random.uniform(static_cast<float>(area.min.x), static_cast<float>(area.max.x)),
                    random.uniform(static_cast<float>(area.min.y), static_cast<float>(area.max.y))};
                if (geometry.isInsideSolid(p, radius) || !occupancy.isFree(p))
                    continue;
                occupancy.add(p);
                place(p, random.uniform(-kPi, kPi));
                placed = true;
                break;
            }
            if (!placed) {
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
