#include "bigscene.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace shoal::ui {

namespace {

/// Whole millimetres: the shortest round-trip text of such a value is short.
double mm(double metres)
{
    return std::round(metres * 1000.0) / 1000.0;
}

} // namespace

SceneDesc bigScene(int walls, std::uint64_t seed)
{
    SceneDesc scene;
    scene.name = "big level";
    // About 14 m² per wall: dense like a city block, and far from the coordinate limit.
    const double half = std::clamp(std::sqrt(std::max(walls, 1) * 14.0) / 2.0, 100.0, 8000.0);
    scene.bounds = {{-half, -half}, {half, half}};
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> coordinate(-half + 5.0, half - 5.0);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const auto clear = [](double x, double y) {
        return std::abs(x) < kBigSceneClearHalf + 5.0 && std::abs(y) < kBigSceneClearHalf + 5.0;
    };
    scene.walls.reserve(static_cast<std::size_t>(walls));
    while (static_cast<int>(scene.walls.size()) < walls) {
        double x = coordinate(random);
        double y = coordinate(random);
        if (clear(x, y))
            continue;
        WallDesc wall;
        double heading = unit(random) * 6.283185307179586;
        for (int p = 0; p < 5; ++p) {
            wall.points.push_back({mm(x), mm(y)});
            const double step = 1.0 + 2.0 * unit(random);
            heading += (unit(random) - 0.5) * 1.5;
            x += step * std::cos(heading);
            y += step * std::sin(heading);
        }
        scene.walls.push_back(std::move(wall));
    }
    for (int i = 0; i < 300; ++i) {
        const double x = coordinate(random);
        const double y = coordinate(random);
        if (clear(x, y))
            continue;
        ObstacleDesc obstacle;
        if (i % 2 == 0) {
            obstacle.shape = ObstacleShape::Circle;
            obstacle.center = {mm(x), mm(y)};
            obstacle.radius = 0.5 + mm(unit(random));
        } else {
            obstacle.points = {{mm(x), mm(y)}, {mm(x + 2.0), mm(y)}, {mm(x + 1.0), mm(y + 1.5)}};
        }
        scene.obstacles.push_back(std::move(obstacle));
        PickupDesc pickup;
        pickup.position = {mm(coordinate(random)), mm(coordinate(random))};
        scene.pickups.push_back(pickup);
    }
    const BehaviourKind kinds[] = {BehaviourKind::FishSchool, BehaviourKind::Swarm,
                                   BehaviourKind::TankSquad};
    for (int g = 0; g < 3; ++g) {
        GroupDesc group = makeDefaultGroup(kinds[g], "group " + std::to_string(g + 1));
        const double x0 = -30.0 + 20.0 * g;
        group.spawn = SpawnAreaDesc{{{x0, -30.0}, {x0 + 10.0, -20.0}}, 50};
        if (kinds[g] == BehaviourKind::TankSquad)
            group.target = Point2{x0 + 5.0, 20.0};
        scene.groups.push_back(std::move(group));
    }
    scene.player = makeDefaultPlayer();
    scene.player.group = scene.groups.front().name;
    scene.player.position = {-25.0, -25.0};
    return scene;
}

} // namespace shoal::ui
