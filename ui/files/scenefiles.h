#pragma once
/// The editor's file handling, in one place: New, Open, Open Demo, Save and Save As of the
/// open Document, the recent-files list, the question about unsaved changes, and the
/// autosaved recovery copy (one instance owns it, through a lock file) that the next start
/// offers to recover. Every file it writes goes through one routine, writeSceneFile(): a
/// QSaveFile whose errors are checked at the write and at the commit, so a failed save leaves
/// the old file and says why. It shows nothing itself: questions and errors go through the
/// MessagePresenter, file names come from the FileChooser, and status lines are a signal, so
/// the main window decides how they look and tests answer without dialogs.

#include <shoal/scenedesc.h>

#include <QMessageBox>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <functional>
#include <memory>

class QLockFile;

namespace shoal::ui {

class Document;

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

    /// Starts the autosave timer and takes the recovery lock if no other instance holds it.
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
    /// The recovery copy's location (in QStandardPaths::AppDataLocation).
    static QString recoveryFilePath();
    void setAutosaveInterval(int milliseconds);
    int autosaveInterval() const;
    /// Off: no recovery copy is written or removed (the screenshot mode must not touch the
    /// copy an earlier crash left).
    void setAutosaveEnabled(bool enabled);
    /// Writes the recovery copy when there are unsaved changes, removes it when there are none.
    /// False when writing failed (or another instance owns the recovery file).
    bool autosave();
    /// If a recovery copy exists, asks whether to recover it: yes loads it over the file it
    /// came from (the recovered edits show as unsaved changes), no deletes it. Returns whether
    /// the scene was recovered.
    bool offerRecovery();
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
    /// The one save routine: the scene's text through QSaveFile. Empty, or why it failed.
    QString writeSceneFile(const QString& path) const;
    void replaceScene(const SceneDesc& scene, const QString& path);
    void replaceScene(CheckedScene scene, const QString& path);
    void addRecentFile(const QString& path);
    QString saveAsSuggestion() const;
    void acquireRecoveryLock();
    void removeRecovery();
    /// Recovers `recovered` over the file it was autosaved from (when that still loads).
    void recoverOver(const QString& originalPath, CheckedScene recovered);
    QMessageBox::StandardButton
    present(QMessageBox::Icon icon, const QString& title, const QString& text,
            QMessageBox::StandardButtons buttons = QMessageBox::Ok,
            QMessageBox::StandardButton defaultButton = QMessageBox::NoButton);

    Document* m_document;
    MessagePresenter m_presenter;
    FileChooser m_fileChooser;
    QTimer m_autosaveTimer;
    std::unique_ptr<QLockFile> m_recoveryLock;
    bool m_closeConfirmed = false;
};

} // namespace shoal::ui
