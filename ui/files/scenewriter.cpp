#include "files/scenewriter.h"

#include <shoal/scenefile.h>

#include <QSaveFile>

namespace shoal::ui {

namespace {

QString writeTextFile(const std::string& text, const QString& path)
{
    const auto size = qint64(text.size());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return file.errorString();
    // Flushed here on purpose: QSaveFile::commit() can lose a failed final write (a full
    // disk) and report success over a truncated file.
    if (file.write(text.data(), size) != size || !file.flush() ||
        file.error() != QFileDevice::NoError) {
        const QString error = file.errorString();
        file.cancelWriting();
        return error;
    }
    if (!file.commit())
        return file.errorString();
    return {};
}

} // namespace

QString writeSceneFile(const SceneDesc& scene, const QString& path)
{
    return writeTextFile(serializeScene(scene), path);
}

QString writeRecordingFile(const Recording& recording, const QString& path)
{
    return writeTextFile(serializeRecording(recording), path);
}

} // namespace shoal::ui
