#pragma once
/// Small builders shared by the core tests: scenes in a walled box, and world helpers.

#include <shoal/scenedesc.h>
#include <shoal/world.h>

#include "world/worldaccess.h"

#include <QtTest>

#include <memory>
#include <string>

namespace shoal::test {

/// An empty level: bounds of the given half size, no walls.
inline SceneDesc emptyScene(double halfWidth = 40.0, double halfHeight = 25.0)
{
    SceneDesc scene;
    scene.name = "test";
    scene.bounds = {{-halfWidth, -halfHeight}, {halfWidth, halfHeight}};
    scene.player = makeDefaultPlayer();
    scene.player.enabled = false;
    return scene;
}

/// A circular obstacle.
inline ObstacleDesc circleObstacle(double x, double y, double radius)
{
    ObstacleDesc circle;
    circle.shape = ObstacleShape::Circle;
    circle.center = {x, y};
    circle.radius = radius;
    return circle;
}

/// A level with every kind of geometry: open and closed walls, a convex and a concave
/// polygon, a circle, and the bounds.
inline SceneDesc geometryScene()
{
    SceneDesc scene = emptyScene(30.0, 30.0);
    scene.walls.push_back({{{-20.0, -20.0}, {-5.0, -18.0}, {-3.0, -5.0}}, false});
    scene.walls.push_back({{{10.0, 10.0}, {20.0, 10.0}, {20.0, 20.0}, {10.0, 20.0}}, true});
    ObstacleDesc convex;
    convex.points = {{0.0, 0.0}, {6.0, 0.0}, {7.0, 4.0}, {1.0, 5.0}};
    scene.obstacles.push_back(convex);
    ObstacleDesc concave; // a U shape
    concave.points = {{-20.0, 5.0}, {-10.0, 5.0}, {-10.0, 15.0}, {-12.0, 15.0},
                      {-12.0, 7.0}, {-18.0, 7.0}, {-18.0, 15.0}, {-20.0, 15.0}};
    scene.obstacles.push_back(concave);
    scene.obstacles.push_back(circleObstacle(15.0, -15.0, 4.0));
    return scene;
}

/// Builds a world or fails the calling test with the scene error.
inline std::unique_ptr<World> buildWorld(const SceneDesc& scene)
{
    auto world = World::create(scene);
    if (!world.ok())
        qWarning("World::create failed: %s", world.error().message.c_str());
    return world.ok() ? std::move(world.value()) : nullptr;
}

/// Sets one parameter of a group description by key (fails loudly on a bad key).
inline void setParam(GroupDesc& group, const std::string& key, double value)
{
    const int i = paramIndex(paramSpecs(group.kind), key);
    if (i < 0)
        qFatal("unknown parameter %s", key.c_str());
    group.params[static_cast<std::size_t>(i)] = value;
}

} // namespace shoal::test
