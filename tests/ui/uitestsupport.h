#pragma once
// Shared by the UI tests: the embedded demo scene and a small scene built by hand.

#include "embeddedscenes.h"
#include <shoal/scenefile.h>

#include <QTest>

namespace shoal::ui::test {

inline SceneDesc demoScene()
{
    const QByteArray bytes = shoal::resources::demoSceneBytes();
    Expected<SceneDesc> scene = parseScene(bytes.toStdString(), "demo.json");
    if (!scene)
        qFatal("the embedded demo does not parse: %s", scene.error().message.c_str());
    return scene.value();
}

/// An empty 40 x 30 m level with a player and no groups.
inline SceneDesc emptyScene()
{
    SceneDesc scene;
    scene.name = "test";
    scene.bounds = {{-20.0, -15.0}, {20.0, 15.0}};
    scene.player = makeDefaultPlayer();
    scene.player.position = {-10.0, 0.0};
    return scene;
}

} // namespace shoal::ui::test
