#include "embeddedscenes.h"

#include <QFile>

namespace shoal::resources {

QByteArray demoSceneBytes()
{
    QFile file(demoScenePath());
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

} // namespace shoal::resources
