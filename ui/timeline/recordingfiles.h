#pragma once
/// File ▸ Open Recording and Save Timeline as Recording: the editor's side of the recording
/// files `shoal-cli run --record` writes and `shoal-cli replay` reads (docs/cli.md,
/// "Recordings"). Saving writes the timeline up to its head, so `shoal-cli replay` of the
/// file prints the hash the editor's world had there; opening puts the recording's scene
/// in the document (untitled) and its input on the timeline, to scrub or to play.

#include "files/scenefiles.h"

#include <QObject>
#include <QString>

namespace shoal::ui {

class SceneFiles;
class SimulationController;

class RecordingFiles : public QObject
{
    Q_OBJECT

public:
    /// `presenter` and `chooser` as SceneFiles takes them (the chooser is asked with
    /// suggestions ending in ".shoalrec").
    RecordingFiles(SceneFiles* files, SimulationController* simulation,
                   SceneFiles::MessagePresenter presenter, SceneFiles::FileChooser chooser,
                   QObject* parent = nullptr);

    /// Asks for a file and opens it.
    void open();
    /// Opens the recording at `path`: unsaved changes first, then its scene in the document
    /// and its input on the timeline. A bad file is reported (the loader's message, which
    /// names the file and the field) and nothing changes.
    bool openFile(const QString& path);
    /// Asks for a file and saves the timeline to it.
    void save();
    /// Writes the timeline as a recording to `path`; said why when it cannot (a timeline cut
    /// by a change of the walls, a failed write: the old file is kept).
    bool saveTo(const QString& path);

signals:
    /// A line for the status bar.
    void statusMessage(const QString& message, int timeout);

private:
    SceneFiles* m_files;
    SimulationController* m_simulation;
    SceneFiles::MessagePresenter m_presenter;
    SceneFiles::FileChooser m_chooser;
    QString m_lastPath;
};

} // namespace shoal::ui
