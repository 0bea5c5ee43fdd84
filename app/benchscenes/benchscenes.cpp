#include "benchscenes.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace shoal {

namespace {

/// Smallest arena side, m: tiny agent counts still get room for the obstacles and the
/// pointer's circle.
constexpr double kMinSide = 24.0;

double defaultParam(BehaviourKind kind, const char* key)
{
    const auto& specs = paramSpecs(kind);
    const int index = paramIndex(specs, key);
    return index < 0 ? 0.0 : specs[static_cast<std::size_t>(index)].defaultValue;
}

void setParam(GroupDesc& group, const char* key, double value)
{
    const int index = paramIndex(paramSpecs(group.kind), key);
    if (index >= 0)
        group.params[static_cast<std::size_t>(index)] = value;
}

/// Worm body length for the bench: kBenchWormSegments segments of the minimum length.
double benchWormLength()
{
    return kBenchWormSegments * defaultParam(BehaviourKind::Worm, "minSegmentLength");
}

/// A default group of `kind` as the bench runs it (worms kBenchWormSegments segments long).
GroupDesc benchGroup(BehaviourKind kind)
{
    GroupDesc group = makeDefaultGroup(kind, "bench");
    if (kind == BehaviourKind::Worm)
        setParam(group, "length", benchWormLength());
    return group;
}

double areaPerAgentOf(BehaviourKind kind)
{
    return areaPerAgent(benchGroup(kind));
}

struct Box
{
    double minX, minY, maxX, maxY;
    bool overlaps(double x0, double y0, double x1, double y1) const
    {
        return x0 < maxX && x1 > minX && y0 < maxY && y1 > minY;
    }
};

ObstacleDesc circle(double cx, double cy, double r)
{
    ObstacleDesc o;
    o.shape = ObstacleShape::Circle;
    o.center = {cx, cy};
    o.radius = r;
    return o;
}

ObstacleDesc polygon(double cx, double cy, double scale, std::initializer_list<Point2> unitPoints)
{
    ObstacleDesc o;
    o.shape = ObstacleShape::Polygon;
    for (const Point2& p : unitPoints)
        o.points.push_back({cx + p.x * scale, cy + p.y * scale});
    return o;
}

/// The fixed layout, scaled with the arena: two circles, a square, a triangle, a concave L
/// and an open wall with a bend. Returns their bounding boxes (for placing spawn tiles).
std::vector<Box> addGeometry(SceneDesc& scene, double side)
{
    const double h = 0.03 * side; // obstacle half size
    scene.obstacles.push_back(circle(-0.25 * side, -0.25 * side, h));
    scene.obstacles.push_back(circle(0.25 * side, 0.25 * side, h));
    scene.obstacles.push_back(
        polygon(0.25 * side, -0.25 * side, h, {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}));
    scene.obstacles.push_back(polygon(-0.25 * side, 0.25 * side, h, {{-1, -1}, {1, -1}, {0, 1}}));
    scene.obstacles.push_back(polygon(
        0.0, -0.35 * side, h, {{-1, -1}, {1, -1}, {1, -0.4}, {-0.4, -0.4}, {-0.4, 1}, {-1, 1}}));
    WallDesc wall;
    wall.points = {{-0.1 * side, 0.35 * side}, {0.1 * side, 0.35 * side}, {0.1 * side, 0.3 * side}};
    scene.walls.push_back(wall);

    std::vector<Box> boxes;
    for (const ObstacleDesc& o : scene.obstacles) {
        if (o.shape == ObstacleShape::Circle) {
            boxes.push_back({o.center.x - o.radius, o.center.y - o.radius, o.center.x + o.radius,
                             o.center.y + o.radius});
            continue;
        }
        Box box{o.points[0].x, o.points[0].y, o.points[0].x, o.points[0].y};
        for (const Point2& p : o.points) {
            box.minX = std::min(box.minX, p.x);
            box.minY = std::min(box.minY, p.y);
            box.maxX = std::max(box.maxX, p.x);
            box.maxY = std::max(box.maxY, p.y);
        }
        boxes.push_back(box);
    }
    boxes.push_back({-0.1 * side, 0.3 * side, 0.1 * side, 0.35 * side});
    return boxes;
}

GroupDesc wholeArenaGroup(BehaviourKind kind, const std::string& name, double side, int count,
                          double margin)
{
    GroupDesc group = makeDefaultGroup(kind, name);
    const double half = 0.5 * side - margin;
    if (count > 0)
        group.spawn = SpawnAreaDesc{{{-half, -half}, {half, half}}, count};
    return group;
}

/// Lays out groups of kBenchFollowGroupSize on square tiles over the arena, skipping the
/// tiles an obstacle or the wall touches so every group spawns complete. Returns the agents
/// it could not place (the caller then grows the arena).
int addFollowGroups(SceneDesc& scene, int agents, double tile, const std::vector<Box>& solid)
{
    const double side = scene.bounds.max.x - scene.bounds.min.x;
    const double half = 0.5 * side;
    const int cols = static_cast<int>(std::floor(side / tile + 1e-9));
    const double inset = 0.5;
    int remaining = agents;
    int groupNumber = 0;
    for (int row = 0; row < cols && remaining > 0; ++row) {
        for (int col = 0; col < cols && remaining > 0; ++col) {
            const double x0 = -half + col * tile + inset;
            const double y0 = -half + row * tile + inset;
            const double x1 = x0 + tile - 2.0 * inset;
            const double y1 = y0 + tile - 2.0 * inset;
            const bool blocked = std::any_of(solid.begin(), solid.end(), [&](const Box& b) {
                return b.overlaps(x0 - inset, y0 - inset, x1 + inset, y1 + inset);
            });
            if (blocked)
                continue;
            const int count = std::min(kBenchFollowGroupSize, remaining);
            remaining -= count;
            GroupDesc group = makeDefaultGroup(BehaviourKind::LeaderFollow,
                                               "follow" + std::to_string(++groupNumber));
            group.spawn = SpawnAreaDesc{{{x0, y0}, {x1, y1}}, count};
            scene.groups.push_back(std::move(group));
        }
    }
    return remaining;
}

} // namespace

double areaPerAgent(const GroupDesc& group)
{
    const auto& specs = paramSpecs(group.kind);
    auto param = [&](const char* key) {
        const int index = paramIndex(specs, key);
        if (index < 0)
            return 0.0;
        const auto i = static_cast<std::size_t>(index);
        return i < group.params.size() ? group.params[i] : specs[i].defaultValue;
    };
    switch (group.kind) {
    case BehaviourKind::FishSchool: {
        // About 2.8 m^2 per fish at the default 1.6-2.0 m band: ~10 school mates within the
        // default 3 m neighbour radius.
        const double mid = 0.5 * (param("keepMinDistance") + param("keepMaxDistance"));
        return 0.8660254 * mid * mid;
    }
    case BehaviourKind::Swarm: {
        // One enemy per R x R: each has ~3 neighbours inside R to push against.
        const double r = param("minAllowedRadius");
        return r * r;
    }
    case BehaviourKind::TankSquad: {
        // ~5 neighbours inside keepDistance, no overlap.
        const double s = 3.0 * param("radius");
        return s * s;
    }
    case BehaviourKind::LeaderFollow: {
        const double s = 1.5 * param("separationRadius");
        return s * s;
    }
    case BehaviourKind::Worm: {
        // Bodies overlap their neighbours' squares a little, as in a crowded level.
        const double half = 0.5 * param("length");
        return half * half;
    }
    }
    return 4.0;
}

SceneDesc makeBenchScene(BehaviourKind kind, int agents, std::uint64_t seed)
{
    agents = std::max(agents, 1);
    SceneDesc scene;
    scene.name = "bench " + std::string(behaviourKey(kind)) + " " + std::to_string(agents);
    scene.simulation.seed = seed;
    scene.player = makeDefaultPlayer();
    scene.player.enabled = false;

    const double followTile =
        std::sqrt(kBenchFollowGroupSize * areaPerAgentOf(BehaviourKind::LeaderFollow));
    double side = std::max(kMinSide, std::sqrt(agents * areaPerAgentOf(kind)));
    if (kind == BehaviourKind::LeaderFollow) {
        // Whole tiles, with room for the groups plus the tiles the geometry takes (about 4 %
        // of a large arena, more of a small one).
        const int groups = (agents + kBenchFollowGroupSize - 1) / kBenchFollowGroupSize;
        const double tiles = std::ceil(std::max(side / followTile, std::sqrt(groups * 1.15) + 2.0));
        side = tiles * followTile;
        // The geometry scales with the arena and may cover more tiles than planned when it
        // lands on tile corners: grow the arena by a tile until every group fits.
        for (;;) {
            SceneDesc trial = scene;
            trial.bounds = {{-0.5 * side, -0.5 * side}, {0.5 * side, 0.5 * side}};
            const std::vector<Box> solid = addGeometry(trial, side);
            if (addFollowGroups(trial, agents, followTile, solid) == 0)
                return trial;
            side += followTile;
        }
    }
    const double half = 0.5 * side;
    scene.bounds = {{-half, -half}, {half, half}};
    addGeometry(scene, side);

    switch (kind) {
    case BehaviourKind::FishSchool: {
        // The player is the school's agent 0, so the spawn makes the other agents - 1.
        GroupDesc school = wholeArenaGroup(kind, "school", side, agents - 1, 1.0);
        scene.groups.push_back(school);
        scene.player.enabled = true;
        scene.player.group = "school";
        break;
    }
    case BehaviourKind::Swarm:
        scene.groups.push_back(wholeArenaGroup(kind, "swarm", side, agents, 1.0));
        scene.player.enabled = true;
        break;
    case BehaviourKind::TankSquad: {
        GroupDesc squad = wholeArenaGroup(kind, "squad", side, agents, 2.0);
        squad.target = Point2{0.0, 0.0};
        scene.groups.push_back(squad);
        break;
    }
    case BehaviourKind::LeaderFollow: // built above
        break;
    case BehaviourKind::Worm: {
        GroupDesc worms = wholeArenaGroup(kind, "worms", side, agents, 1.0);
        setParam(worms, "length", benchWormLength());
        scene.groups.push_back(worms);
        break;
    }
    }
    if (scene.player.enabled)
        scene.player.position = {0.0, 0.0};
    return scene;
}

int benchSettleSteps(const SceneDesc& scene, BehaviourKind kind)
{
    if (kind != BehaviourKind::Worm)
        return 0;
    const double speed = defaultParam(BehaviourKind::Worm, "speed");
    if (speed <= 0.0)
        return 0;
    return static_cast<int>(std::ceil(benchWormLength() / speed / scene.simulation.dt));
}

Vec2 benchPointer(const SceneDesc& scene, std::uint64_t step)
{
    const double side = scene.bounds.max.x - scene.bounds.min.x;
    const double cx = 0.5 * (scene.bounds.min.x + scene.bounds.max.x);
    const double cy = 0.5 * (scene.bounds.min.y + scene.bounds.max.y);
    const double radius = std::min(0.2 * side, 15.0);
    const double angle = 0.5 * static_cast<double>(step) * scene.simulation.dt;
    return {static_cast<float>(cx + radius * std::cos(angle)),
            static_cast<float>(cy + radius * std::sin(angle))};
}

} // namespace shoal
