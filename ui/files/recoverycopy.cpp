#include "files/recoverycopy.h"

#include "files/scenewriter.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>

namespace shoal::ui {

namespace {

QString infoPath(const QString& copyPath)
{
    return copyPath + QStringLiteral(".ini");
}

QString filePathKey()
{
    return QStringLiteral("filePath");
}

QString savedAtKey()
{
    return QStringLiteral("savedAt");
}

/// The copy's lock, held; null when a running instance holds it. A lock whose process is
/// gone is stale and taken over; never by age (0), since an editor may run for days.
std::unique_ptr<QLockFile> lockCopy(const QString& copyPath)
{
    auto lock = std::make_unique<QLockFile>(copyPath + QStringLiteral(".lock"));
    lock->setStaleLockTime(0);
    if (!lock->tryLock(0))
        return nullptr;
    return lock;
}

} // namespace

RecoveryCopy::RecoveryCopy(QString path, std::unique_ptr<QLockFile> lock)
    : m_path(std::move(path)), m_lock(std::move(lock))
{
}

RecoveryCopy::~RecoveryCopy() = default;

QString RecoveryCopy::directory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
}

std::unique_ptr<RecoveryCopy> RecoveryCopy::claimFreeSlot()
{
    const QDir dir(directory());
    if (!QDir().mkpath(dir.absolutePath()))
        return nullptr;
    for (int n = 1; n <= kMaxSlots; ++n) {
        const QString path = dir.filePath(QStringLiteral("recovery-%1.json").arg(n));
        std::unique_ptr<QLockFile> lock = lockCopy(path);
        if (!lock || QFileInfo::exists(path))
            continue; // a running instance's, or a leftover the recovery offer is for
        return std::unique_ptr<RecoveryCopy>(new RecoveryCopy(path, std::move(lock)));
    }
    return nullptr;
}

std::vector<std::unique_ptr<RecoveryCopy>> RecoveryCopy::claimLeftovers()
{
    static const QRegularExpression name(QStringLiteral("^recovery(-[0-9]+)?\\.json$"));
    std::vector<std::unique_ptr<RecoveryCopy>> leftovers;
    const QFileInfoList candidates =
        QDir(directory())
            .entryInfoList({QStringLiteral("recovery*.json")}, QDir::Files,
                           QDir::Time); // newest first
    for (const QFileInfo& candidate : candidates) {
        if (!name.match(candidate.fileName()).hasMatch())
            continue;
        const QString path = candidate.absoluteFilePath();
        std::unique_ptr<QLockFile> lock = lockCopy(path);
        if (lock && QFileInfo::exists(path)) // still there once locked: not offered elsewhere
            leftovers.emplace_back(new RecoveryCopy(path, std::move(lock)));
    }
    return leftovers;
}

bool RecoveryCopy::exists() const
{
    return QFileInfo::exists(m_path);
}

QString RecoveryCopy::originalPath() const
{
    return QSettings(infoPath(m_path), QSettings::IniFormat).value(filePathKey()).toString();
}

QDateTime RecoveryCopy::savedAt() const
{
    return QSettings(infoPath(m_path), QSettings::IniFormat).value(savedAtKey()).toDateTime();
}

void RecoveryCopy::remove() const
{
    QFile::remove(m_path);
    QFile::remove(infoPath(m_path));
}

QString RecoveryCopy::write(const QString& path, const SceneDesc& scene,
                            const QString& originalPath)
{
    const QString error = writeSceneFile(scene, path);
    if (!error.isEmpty())
        return error;
    QSettings info(infoPath(path), QSettings::IniFormat);
    info.setValue(filePathKey(), originalPath);
    info.setValue(savedAtKey(), QDateTime::currentDateTime());
    info.sync();
    if (info.status() != QSettings::NoError)
        return tr("could not write %1").arg(QDir::toNativeSeparators(infoPath(path)));
    return {};
}

} // namespace shoal::ui
