#pragma once
/// Access to the scenes compiled into the executables (the demo level).

#include <QByteArray>
#include <QString>

namespace shoal::resources {

/// Resource path of the embedded demo: one level with all five families at once.
inline QString demoScenePath()
{
    return QStringLiteral(":/scenes/demo.json");
}

/// The demo scene's bytes (empty if the resource is missing, which a build never allows).
QByteArray demoSceneBytes();

} // namespace shoal::resources
