#include "files/scenefiles.h"

#include "document/commands.h"
#include "document/document.h"
#include "embeddedscenes.h"
#include <shoal/scenefile.h>

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QLockFile>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSettings>
#include <QStandardPaths>

namespace shoal::ui {

namespace {

constexpr int kAutosaveMs = 60 * 1000;
constexpr int kMaxRecentFiles = 10;
constexpr int kMessageMs = 5000;
constexpr int kWarningMs = 8000;

QString recoveryInfoPath()
{
    return SceneFiles::recoveryFilePath() + QStringLiteral(".ini");
}

QString localPath(const QString& path)
{
    return QDir::toNativeSeparators(path);
}

QString recentFilesKey()
{
    return QStringLiteral("recentFiles");
}

} // namespace

SceneFiles::SceneFiles(Document* document, MessagePresenter presenter, FileChooser chooser,
                       QObject* parent)
    : QObject(parent), m_document(document), m_presenter(std::move(presenter)),
      m_fileChooser(std::move(chooser))
{
    connect(m_document->undoStack(), &QUndoStack::cleanChanged, this, [this](bool clean) {
        if (clean)
            removeRecovery();
    });
    // One instance owns the recovery copy; a second one runs without autosave.
    acquireRecoveryLock();
    m_autosaveTimer.setInterval(kAutosaveMs);
    connect(&m_autosaveTimer, &QTimer::timeout, this, &SceneFiles::autosave);
    m_autosaveTimer.start();
    // Quitting without the close dialog (the session ends, SIGTERM): keep the edits.
    connect(QCoreApplication::instance(), &QCoreApplication::aboutToQuit, this, [this] {
        if (!m_closeConfirmed)
            autosave();
    });
}

SceneFiles::~SceneFiles() = default;

SceneDesc SceneFiles::newSceneDesc()
{
    SceneDesc scene;
    scene.name = tr("Untitled").toStdString();
    scene.bounds = {{-40.0, -25.0}, {40.0, 25.0}};
    scene.player = makeDefaultPlayer();
    scene.player.position = {0.0, 0.0};
    return scene;
}

QMessageBox::StandardButton SceneFiles::present(QMessageBox::Icon icon, const QString& title,
                                                const QString& text,
                                                QMessageBox::StandardButtons buttons,
                                                QMessageBox::StandardButton defaultButton)
{
    return m_presenter(icon, title, text, buttons, defaultButton);
}

// --- Files -----------------------------------------------------------------------------------

void SceneFiles::replaceScene(const SceneDesc& scene, const QString& path)
{
    emit aboutToReplaceScene();
    m_document->resetScene(scene, path);
    emit sceneReplaced();
}

void SceneFiles::replaceScene(CheckedScene scene, const QString& path)
{
    emit aboutToReplaceScene();
    m_document->resetScene(std::move(scene), path); // checked by the loader: not again
    emit sceneReplaced();
}

void SceneFiles::newFile()
{
    if (!maybeSave())
        return;
    replaceScene(newSceneDesc(), {});
}

bool SceneFiles::openDemo()
{
    if (!maybeSave())
        return false;
    const QByteArray bytes = resources::demoSceneBytes();
    Expected<CheckedScene> scene = parseCheckedScene(bytes.toStdString(), "demo.json");
    if (!scene) {
        present(QMessageBox::Critical, tr("Open Failed"),
                QString::fromStdString(scene.error().message));
        return false;
    }
    replaceScene(std::move(*scene), {});
    return true;
}

void SceneFiles::open()
{
    if (!maybeSave())
        return;
    QString start = m_document->filePath();
    if (start.isEmpty() && !recentFiles().isEmpty())
        start = recentFiles().first();
    const QString path = m_fileChooser(false, start);
    if (!path.isEmpty())
        openFile(path);
}

bool SceneFiles::openFile(const QString& path)
{
    if (!maybeSave())
        return false;
    Expected<CheckedScene> loaded = loadCheckedScene(QFile::encodeName(path).toStdString());
    if (!loaded) {
        present(QMessageBox::Critical, tr("Open Failed"),
                tr("Could not open %1.\n\n%2\n\nThe current level was left as it was.")
                    .arg(localPath(path), QString::fromStdString(loaded.error().message)));
        return false;
    }
    const QString absolute = QFileInfo(path).absoluteFilePath();
    replaceScene(std::move(*loaded), absolute);
    addRecentFile(absolute);
    emit statusMessage(tr("Opened %1").arg(localPath(absolute)), kMessageMs);
    return true;
}

bool SceneFiles::save()
{
    if (m_document->filePath().isEmpty())
        return saveAs();
    return saveTo(m_document->filePath());
}

QString SceneFiles::saveAsSuggestion() const
{
    if (!m_document->filePath().isEmpty())
        return m_document->filePath();
    const QStringList recent = recentFiles();
    const QString dir = recent.isEmpty()
                            ? QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)
                            : QFileInfo(recent.first()).absolutePath();
    QString name = QString::fromStdString(m_document->scene().name).toLower();
    name.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    name = name.section(QLatin1Char('-'), 0, -1, QString::SectionSkipEmpty);
    return QDir(dir).filePath((name.isEmpty() ? QStringLiteral("level") : name) +
                              QStringLiteral(".json"));
}

bool SceneFiles::saveAs()
{
    QString path = m_fileChooser(true, saveAsSuggestion());
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    return saveTo(path);
}

QString SceneFiles::writeSceneFile(const QString& path) const
{
    const std::string text = serializeScene(m_document->scene());
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

bool SceneFiles::saveTo(const QString& path)
{
    const QString error = writeSceneFile(path);
    if (!error.isEmpty()) {
        const bool existed = QFileInfo::exists(path);
        present(QMessageBox::Critical, tr("Save Failed"),
                tr("Could not save %1:\n%2\n\n%3")
                    .arg(localPath(path), error,
                         existed ? tr("The file on disk was not changed.")
                                 : tr("No file was written.")));
        return false;
    }
    const QString absolute = QFileInfo(path).absoluteFilePath();
    m_document->setFilePath(absolute);
    m_document->undoStack()->setClean();
    addRecentFile(absolute);
    emit statusMessage(tr("Saved %1").arg(localPath(absolute)), kMessageMs);
    return true;
}

bool SceneFiles::maybeSave()
{
    if (!m_document->isModified())
        return true;
    const auto answer =
        present(QMessageBox::Warning, tr("Unsaved Changes"),
                tr("%1 has unsaved changes. Save them first?").arg(m_document->displayName()),
                QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

QStringList SceneFiles::recentFiles() const
{
    return QSettings().value(recentFilesKey()).toStringList();
}

void SceneFiles::addRecentFile(const QString& path)
{
    QStringList files = recentFiles();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    QSettings().setValue(recentFilesKey(), files);
}

void SceneFiles::clearRecentFiles()
{
    QSettings().remove(recentFilesKey());
}

// --- Autosave and recovery -------------------------------------------------------------------

QString SceneFiles::recoveryFilePath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(QStringLiteral("recovery.json"));
}

void SceneFiles::acquireRecoveryLock()
{
    if (m_recoveryLock)
        return;
    QDir().mkpath(QFileInfo(recoveryFilePath()).absolutePath());
    m_recoveryLock = std::make_unique<QLockFile>(recoveryFilePath() + QStringLiteral(".lock"));
    m_recoveryLock->setStaleLockTime(0);
    if (!m_recoveryLock->tryLock(0))
        m_recoveryLock.reset();
}

void SceneFiles::setAutosaveInterval(int milliseconds)
{
    m_autosaveTimer.setInterval(milliseconds);
}

int SceneFiles::autosaveInterval() const
{
    return m_autosaveTimer.interval();
}

void SceneFiles::setAutosaveEnabled(bool enabled)
{
    if (!enabled) {
        m_autosaveTimer.stop();
        m_recoveryLock.reset();
        return;
    }
    acquireRecoveryLock();
    m_autosaveTimer.start();
}

bool SceneFiles::autosave()
{
    if (!m_recoveryLock)
        return false;
    if (!m_document->isModified()) {
        removeRecovery();
        return true;
    }
    const QString error = writeSceneFile(recoveryFilePath());
    if (!error.isEmpty()) {
        emit statusMessage(tr("Autosave failed: %1").arg(error), kWarningMs);
        return false;
    }
    QSettings info(recoveryInfoPath(), QSettings::IniFormat);
    info.setValue(QStringLiteral("filePath"), m_document->filePath());
    info.setValue(QStringLiteral("savedAt"), QDateTime::currentDateTime());
    info.sync();
    return true;
}

void SceneFiles::removeRecovery()
{
    if (!m_recoveryLock)
        return;
    QFile::remove(recoveryFilePath());
    QFile::remove(recoveryInfoPath());
}

void SceneFiles::closeConfirmed()
{
    m_closeConfirmed = true;
    removeRecovery();
}

bool SceneFiles::offerRecovery()
{
    if (!m_recoveryLock || !QFileInfo::exists(recoveryFilePath()))
        return false;
    QString originalPath;
    QDateTime savedAt;
    {
        QSettings info(recoveryInfoPath(), QSettings::IniFormat);
        originalPath = info.value(QStringLiteral("filePath")).toString();
        savedAt = info.value(QStringLiteral("savedAt")).toDateTime();
    }
    QFile file(recoveryFilePath());
    if (!file.open(QIODevice::ReadOnly)) {
        removeRecovery();
        return false;
    }
    Expected<CheckedScene> recovered =
        parseCheckedScene(file.readAll().toStdString(), "recovery.json");
    file.close();
    if (!recovered) {
        present(QMessageBox::Warning, tr("Recovery Failed"),
                tr("An autosaved level was found but cannot be read:\n%1")
                    .arg(QString::fromStdString(recovered.error().message)));
        removeRecovery();
        return false;
    }
    const QString what =
        originalPath.isEmpty() ? tr("an untitled level") : QFileInfo(originalPath).fileName();
    const auto answer = present(
        QMessageBox::Question, tr("Recover Unsaved Changes"),
        tr("Shoal was not closed normally. Recover the unsaved changes to %1, autosaved %2?")
            .arg(what, QLocale().toString(savedAt, QLocale::ShortFormat)),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes);
    if (answer != QMessageBox::Yes) {
        removeRecovery();
        return false;
    }
    recoverOver(originalPath, std::move(*recovered));
    return true;
}

void SceneFiles::recoverOver(const QString& originalPath, CheckedScene recovered)
{
    // Recover over the file the edits were made to, so they show as unsaved changes of it.
    Expected<CheckedScene> original =
        originalPath.isEmpty() ? Expected<CheckedScene>(Error{})
                               : loadCheckedScene(QFile::encodeName(originalPath).toStdString());
    if (original)
        replaceScene(std::move(*original), originalPath);
    else
        replaceScene(newSceneDesc(), QString());
    auto* command =
        new ReplaceSceneCommand(m_document, recovered.scene(), tr("Recover Autosaved Changes"));
    m_document->expectScene(std::move(recovered)); // checked when read: not again
    m_document->undoStack()->push(command);
    if (!m_document->isModified()) // the file already held exactly these edits
        removeRecovery();
}

} // namespace shoal::ui
