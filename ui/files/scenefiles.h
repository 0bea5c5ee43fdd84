#pragma once
/// The editor's file handling, in one place: New, Open, Open Demo, Save and Save As of the
/// open Document, the recent-files list, the question about unsaved changes, and the
/// autosave: each instance writes its own recovery copy (recoverycopy.h) when the
/// AutosaveSchedule says (a few seconds after the last change), on a worker thread so a large
/// level does not stall the window; the next start offers every copy an instance left behind.
/// Every file it writes goes through one routine, writeSceneFile() (scenewriter.h), so a
/// failed save leaves the old file and says why. It shows nothing itself: questions and
/// errors go through the MessagePresenter, file names come from the FileChooser, further
/// recovered copies go to windows from the WindowOpener, and status lines are a signal, so
/// the main window decides how they look and tests answer without dialogs.

#include "files/autosaveschedule.h"

#include <shoal/scenedesc.h>

#include <QFutureWatcher>
#include <QMessageBox>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace shoal::ui {

class Document;
class RecoveryCopy;

/// Opens, saves, autosaves and recovers the scene of one Document (see the file comment).
/// Destroy it before its Document: the dying undo stack reports "clean", which would delete
/// the recovery copy of an editor that did not close normally.
class SceneFiles : public QObject
{
    Q_OBJECT

public:
    /// Shows a message and returns the button chosen.
    using MessagePresenter = std::function<QMessageBox::StandardButton(
        QMessageBox::Icon icon, const QString& title, const QString& text,
        QMessageBox::StandardButtons buttons, QMessageBox::StandardButton defaultButton)>;
    /// Asks for a file to open (`save` false) or save; empty = cancelled.
    using FileChooser = std::function<QString(bool save, const QString& suggestion)>;
    /// Opens another editor window for a further recovered copy and returns its files.
    using WindowOpener = std::function<SceneFiles*()>;

    /// Claims this instance's recovery slot (RecoveryCopy::claimFreeSlot()) and autosaves
    /// into it from then on.
    SceneFiles(Document* document, MessagePresenter presenter, FileChooser chooser,
               QObject* parent = nullptr);
    ~SceneFiles() override;

    /// An empty level.
    static SceneDesc newSceneDesc();

    // --- Files -------------------------------------------------------------------------------
    /// Unsaved changes first (see maybeSave()), then an empty level.
    void newFile();
    /// Asks for a file (starting at the current file or the most recent one) and opens it.
    void open();
    /// Opens `path`. On error shows the loader's message and keeps the current scene.
    bool openFile(const QString& path);
    /// Opens the embedded demo level (untitled: Save asks for a file).
    bool openDemo();
    /// Unsaved changes first (see maybeSave()), then `scene` as an untitled level (a
    /// recording's scene: Save asks for a file). False when the user stayed.
    bool openUntitled(const SceneDesc& scene);
    /// Saves to the document's file, or asks for one (saveAs()) when it has none.
    bool save();
    /// Asks for a file, suggesting one named after the scene; adds ".json" to a bare name.
    bool saveAs();
    /// Writes the scene to `path`; on success the document is clean and takes `path`; on
    /// failure the old file is untouched and the message names the path and says why.
    bool saveTo(const QString& path);
    /// Unsaved changes: asks Save / Discard / Cancel. False = stay.
    bool maybeSave();

    /// The files opened or saved, newest first (at most ten).
    QStringList recentFiles() const;
    void clearRecentFiles();

    // --- Autosave and recovery ----------------------------------------------------------------
    /// This instance's recovery copy (in RecoveryCopy::directory()); empty with autosave off.
    QString recoveryFilePath() const;
    /// Other autosave delays (tests); see AutosaveSchedule for the defaults.
    void setAutosaveDelays(int quietMs, int longestMs);
    int autosaveQuietMs() const { return m_schedule.quietMs(); }
    int autosaveLongestMs() const { return m_schedule.longestMs(); }
    /// Off: no recovery copy is written, removed or offered, and the slot is given up (the
    /// screenshot mode must not touch the copies an earlier crash left). On claims one again.
    void setAutosaveEnabled(bool enabled);
    /// Writes the recovery copy now, waiting for a background write in flight, when there are
    /// unsaved changes it does not hold yet; removes it when there are none. False when the
    /// write failed (a status line says why) or autosave is off. The quit paths call this.
    bool autosave();
    /// Offers each copy an instance left behind (RecoveryCopy::claimLeftovers()), one question
    /// per copy. Yes: the first goes into this document, over the file it came from (the
    /// recovered edits show as unsaved changes), each further one into a window from the
    /// WindowOpener (without one it waits for the next start); this instance's own copy then
    /// holds the edits and the leftover goes. No deletes the copy; no answer (the editor quits
    /// while asking) keeps it for the next start. Returns whether this scene was recovered.
    bool offerRecovery();
    void setWindowOpener(WindowOpener opener) { m_windowOpener = std::move(opener); }
    /// The window closes normally (after maybeSave()): the recovery copy goes, and quitting
    /// afterwards writes none.
    void closeConfirmed();

signals:
    /// A new scene is about to replace the document's (New, Open, recovery).
    void aboutToReplaceScene();
    /// The document holds a new scene.
    void sceneReplaced();
    /// A line for the status bar, shown for `timeout` ms ("Saved ...", "Autosave failed: ...").
    void statusMessage(const QString& message, int timeout);

private:
    void replaceScene(const SceneDesc& scene, const QString& path);
    void replaceScene(CheckedScene scene, const QString& path);
    void addRecentFile(const QString& path);
    QString saveAsSuggestion() const;
    /// The schedule says the copy is due: the scene is copied here and written on a worker.
    void autosaveInBackground();
    /// Waits for the background write in flight, if any, and takes its result.
    void settleBackgroundWrite();
    void reportAutosaveFailure(const QString& error);
    void removeRecovery();
    /// The leftover's scene, or none (unreadable: said so and deleted).
    std::optional<CheckedScene> readLeftover(const RecoveryCopy& leftover);
    QMessageBox::StandardButton askToRecover(const RecoveryCopy& leftover);
    /// Recovers `scene`, read from `leftover`, into this document; then this instance's own
    /// copy holds the edits and the leftover goes.
    void recover(std::unique_ptr<RecoveryCopy> leftover, CheckedScene scene);
    /// Recovers `recovered` over the file it was autosaved from (when that still loads).
    void recoverOver(const QString& originalPath, CheckedScene recovered);
    QMessageBox::StandardButton
    present(QMessageBox::Icon icon, const QString& title, const QString& text,
            QMessageBox::StandardButtons buttons = QMessageBox::Ok,
            QMessageBox::StandardButton defaultButton = QMessageBox::NoButton);

    Document* m_document;
    MessagePresenter m_presenter;
    FileChooser m_fileChooser;
    WindowOpener m_windowOpener;
    AutosaveSchedule m_schedule;
    std::unique_ptr<RecoveryCopy> m_recovery; ///< this instance's slot; null: autosave off
    QFutureWatcher<QString> m_backgroundWrite;
    bool m_writeInFlight = false; ///< m_backgroundWrite's result is not taken yet
    /// The copy on disk (or its absence) holds the document's state: nothing to write.
    bool m_copyCurrent = true;
    bool m_closeConfirmed = false;
};

} // namespace shoal::ui
