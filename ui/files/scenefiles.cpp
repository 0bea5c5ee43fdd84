#include "files/scenefiles.h"

#include "document/commands.h"
#include "document/document.h"
#include "embeddedscenes.h"
#include "files/recoverycopy.h"
#include "files/scenewriter.h"
#include <shoal/scenefile.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QtConcurrent/QtConcurrentRun>

namespace shoal::ui {

namespace {

constexpr int kMaxRecentFiles = 10;
constexpr int kMessageMs = 5000;
constexpr int kWarningMs = 8000;

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
    connect(m_document, &Document::changed, this, [this] {
        m_copyCurrent = false;
        if (m_recovery)
            m_schedule.noteChange();
    });
    connect(&m_schedule, &AutosaveSchedule::due, this, &SceneFiles::autosaveInBackground);
    connect(&m_backgroundWrite, &QFutureWatcher<QString>::finished, this,
            &SceneFiles::settleBackgroundWrite);
    m_recovery = RecoveryCopy::claimFreeSlot();
    // Quitting without the close dialog (the session ends, SIGTERM): keep the edits.
    connect(QCoreApplication::instance(), &QCoreApplication::aboutToQuit, this, [this] {
        if (!m_closeConfirmed)
            autosave();
    });
}

SceneFiles::~SceneFiles()
{
    // The worker writes into this instance's slot: it must be done before the lock goes.
    m_backgroundWrite.waitForFinished();
}

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

bool SceneFiles::openUntitled(const SceneDesc& scene)
{
    if (!maybeSave())
        return false;
    replaceScene(scene, {});
    return true;
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

bool SceneFiles::saveTo(const QString& path)
{
    const QString error = writeSceneFile(m_document->scene(), path);
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

QString SceneFiles::recoveryFilePath() const
{
    return m_recovery ? m_recovery->filePath() : QString();
}

void SceneFiles::setAutosaveDelays(int quietMs, int longestMs)
{
    m_schedule.setDelays(quietMs, longestMs);
}

void SceneFiles::setAutosaveEnabled(bool enabled)
{
    if (!enabled) {
        settleBackgroundWrite();
        m_schedule.cancel();
        m_recovery.reset();
        return;
    }
    if (!m_recovery)
        m_recovery = RecoveryCopy::claimFreeSlot();
}

void SceneFiles::autosaveInBackground()
{
    if (!m_recovery)
        return;
    if (m_writeInFlight) { // the write before is slow (a large level): this one comes after
        m_schedule.noteChange();
        return;
    }
    if (!m_document->isModified()) {
        removeRecovery();
        return;
    }
    if (m_copyCurrent)
        return;
    // Copying the scene is quick; turning it into text and writing it is what takes long.
    m_copyCurrent = true; // as of this copy: a change while it is written clears it again
    m_writeInFlight = true;
    m_backgroundWrite.setFuture(
        QtConcurrent::run([path = m_recovery->filePath(), scene = m_document->scene(),
                           originalPath = m_document->filePath()] {
            return RecoveryCopy::write(path, scene, originalPath);
        }));
}

void SceneFiles::settleBackgroundWrite()
{
    if (!m_writeInFlight)
        return;
    m_backgroundWrite.waitForFinished();
    m_writeInFlight = false;
    const QString error = m_backgroundWrite.result();
    if (!error.isEmpty())
        reportAutosaveFailure(error);
}

void SceneFiles::reportAutosaveFailure(const QString& error)
{
    m_copyCurrent = false;
    m_schedule.retryLater();
    emit statusMessage(tr("Autosave failed: %1").arg(error), kWarningMs);
}

bool SceneFiles::autosave()
{
    if (!m_recovery)
        return false;
    settleBackgroundWrite();
    m_schedule.cancel();
    if (!m_document->isModified()) {
        removeRecovery();
        return true;
    }
    if (m_copyCurrent && m_recovery->exists())
        return true;
    const QString error =
        RecoveryCopy::write(m_recovery->filePath(), m_document->scene(), m_document->filePath());
    if (!error.isEmpty()) {
        reportAutosaveFailure(error);
        return false;
    }
    m_copyCurrent = true;
    return true;
}

void SceneFiles::removeRecovery()
{
    if (!m_recovery)
        return;
    settleBackgroundWrite(); // else a write in flight would bring the copy back
    m_schedule.cancel();
    m_recovery->remove();
    m_copyCurrent = true;
}

void SceneFiles::closeConfirmed()
{
    m_closeConfirmed = true;
    removeRecovery();
}

bool SceneFiles::offerRecovery()
{
    if (!m_recovery)
        return false;
    bool recoveredHere = false;
    for (std::unique_ptr<RecoveryCopy>& leftover : RecoveryCopy::claimLeftovers()) {
        if (recoveredHere && !m_windowOpener)
            break; // no window for it: it waits for the next start
        std::optional<CheckedScene> scene = readLeftover(*leftover);
        if (!scene)
            continue;
        const QMessageBox::StandardButton answer = askToRecover(*leftover);
        if (answer == QMessageBox::No) {
            leftover->remove();
            continue;
        }
        if (answer != QMessageBox::Yes)
            break; // not answered: the editor is quitting, and asks again at the next start
        if (!recoveredHere) {
            recover(std::move(leftover), std::move(*scene));
            recoveredHere = true;
        } else if (SceneFiles* other = m_windowOpener()) {
            other->recover(std::move(leftover), std::move(*scene));
        }
    }
    return recoveredHere;
}

std::optional<CheckedScene> SceneFiles::readLeftover(const RecoveryCopy& leftover)
{
    QFile file(leftover.filePath());
    if (!file.open(QIODevice::ReadOnly)) {
        leftover.remove();
        return std::nullopt;
    }
    Expected<CheckedScene> scene = parseCheckedScene(
        file.readAll().toStdString(), QFileInfo(leftover.filePath()).fileName().toStdString());
    if (!scene) {
        present(QMessageBox::Warning, tr("Recovery Failed"),
                tr("An autosaved level was found but cannot be read:\n%1")
                    .arg(QString::fromStdString(scene.error().message)));
        leftover.remove();
        return std::nullopt;
    }
    return std::move(*scene);
}

QMessageBox::StandardButton SceneFiles::askToRecover(const RecoveryCopy& leftover)
{
    const QString originalPath = leftover.originalPath();
    const QString what =
        originalPath.isEmpty() ? tr("an untitled level") : QFileInfo(originalPath).fileName();
    return present(
        QMessageBox::Question, tr("Recover Unsaved Changes"),
        tr("Shoal was not closed normally. Recover the unsaved changes to %1, autosaved %2?")
            .arg(what, QLocale().toString(leftover.savedAt(), QLocale::ShortFormat)),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes);
}

void SceneFiles::recover(std::unique_ptr<RecoveryCopy> leftover, CheckedScene scene)
{
    recoverOver(leftover->originalPath(), std::move(scene));
    // Into this instance's own copy first, so the edits are on disk all the while.
    if (!m_document->isModified() || autosave())
        leftover->remove();
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
}

} // namespace shoal::ui
