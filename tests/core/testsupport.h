#pragma once
/// Small builders shared by the core tests: scenes in a walled box, and world helpers.

#include "scenedesc.h"
#include "world.h"

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
