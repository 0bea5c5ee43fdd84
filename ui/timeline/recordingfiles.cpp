#include "timeline/recordingfiles.h"

#include "files/scenewriter.h"
#include "simulation/simulationcontroller.h"

#include <shoal/recording.h>
#include <shoal/world.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace shoal::ui {

namespace {

constexpr int kMessageMs = 5000;

} // namespace

RecordingFiles::RecordingFiles(SceneFiles* files, SimulationController* simulation,
                               SceneFiles::MessagePresenter presenter,
                               SceneFiles::FileChooser chooser, QObject* parent)
    : QObject(parent), m_files(files), m_simulation(simulation), m_presenter(std::move(presenter)),
      m_chooser(std::move(chooser))
{
}

void RecordingFiles::open()
{
    const QString path = m_chooser(false, m_lastPath);
    if (!path.isEmpty())
        openFile(path);
}

bool RecordingFiles::openFile(const QString& path)
{
    Expected<Recording> recording = loadRecordingFile(QFile::encodeName(path).toStdString());
    if (!recording) {
        m_presenter(QMessageBox::Critical, tr("Open Recording Failed"),
                    tr("Could not open %1.\n\n%2\n\nThe current level was left as it was.")
                        .arg(QDir::toNativeSeparators(path),
                             QString::fromStdString(recording.error().message)),
                    QMessageBox::Ok, QMessageBox::NoButton);
        return false;
    }
    if (!m_files->openUntitled(recording->scene))
        return false;
    m_simulation->loadRecording(*recording);
    m_lastPath = QFileInfo(path).absoluteFilePath();
    emit statusMessage(tr("Opened the recording %1: %2 steps to scrub or play")
                           .arg(QDir::toNativeSeparators(path))
                           .arg(recording->steps),
                       kMessageMs);
    return true;
}

void RecordingFiles::save()
{
    QString suggestion = m_lastPath;
    if (suggestion.isEmpty())
        suggestion = QDir::home().filePath(QStringLiteral("run.shoalrec"));
    QString path = m_chooser(true, suggestion);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".shoalrec");
    saveTo(path);
}

bool RecordingFiles::saveTo(const QString& path)
{
    const std::optional<Recording> recording = m_simulation->recording();
    if (!recording) {
        const World* world = m_simulation->world();
        m_presenter(QMessageBox::Warning, tr("Save Recording"),
                    world ? tr("The walls or the collision rules changed while this run "
                               "played, and a recording holds only the input and parameter "
                               "edits of a run. Restart the simulation (R) to record a run "
                               "from its start.")
                          : tr("There is no run to save: the level cannot be simulated."),
                    QMessageBox::Ok, QMessageBox::NoButton);
        return false;
    }
    if (const QString error = writeRecordingFile(*recording, path); !error.isEmpty()) {
        m_presenter(QMessageBox::Critical, tr("Save Recording Failed"),
                    tr("Could not write %1: %2").arg(QDir::toNativeSeparators(path), error),
                    QMessageBox::Ok, QMessageBox::NoButton);
        return false;
    }
    m_lastPath = QFileInfo(path).absoluteFilePath();
    emit statusMessage(tr("Saved %1 steps to %2 (hash %3)")
                           .arg(recording->steps)
                           .arg(QDir::toNativeSeparators(path))
                           .arg(recording->hash, 16, 16, QLatin1Char('0')),
                       kMessageMs);
    return true;
}

} // namespace shoal::ui
