#pragma once
/// The editor's main window: the viewport in the centre; docks for the tools, the property
/// panel, the group list and the undo history; File/Edit/View/Simulation/Help menus; a status
/// bar with simulation time, agent count, step time and frames per second. It owns the open
/// Document and saves it through QSaveFile (a failed save leaves the old file and says why),
/// opens files without touching the current scene on error, and autosaves a recovery copy
/// every minute (and on quit) that the next start offers to recover.

#include <shoal/scenedesc.h>

#include <QLockFile>
#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <memory>

class QAction;
class QActionGroup;
class QLabel;
class QMenu;
class QUndoView;

namespace shoal::ui {

class AbstractTool;
class SimulationLayers;
class Document;
class EditorScene;
class GroupListPanel;
class GroupSelection;
class OverlayOptions;
class PlayTool;
class PropertyPanel;
class SceneView;
class SimulationController;
class ToolsPanel;

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    /// Shows a message and returns the button chosen: QMessageBox by default; tests answer
    /// without a dialog.
    using MessagePresenter = std::function<QMessageBox::StandardButton(
        QMessageBox::Icon icon, const QString& title, const QString& text,
        QMessageBox::StandardButtons buttons, QMessageBox::StandardButton defaultButton)>;
    /// Asks for a file to open (`save` false) or save; empty = cancelled.
    using FileChooser = std::function<QString(bool save, const QString& suggestion)>;

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    Document* document() const { return m_document; }
    EditorScene* editorScene() const { return m_scene; }
    SceneView* view() const { return m_view; }
    SimulationController* simulation() const { return m_simulation; }
    GroupSelection* groupSelection() const { return m_groupSelection; }
    OverlayOptions* overlayOptions() const { return m_overlayOptions; }
    SimulationLayers* agentLayers() const { return m_agentLayers; }
    /// The tools, in the tools dock's order (select, wall, obstacle, spawn area, pickup, target).
    const QList<AbstractTool*>& tools() const { return m_tools; }
    void setTool(AbstractTool* tool);

    void setMessagePresenter(MessagePresenter presenter) { m_presenter = std::move(presenter); }
    void setFileChooser(FileChooser chooser) { m_fileChooser = std::move(chooser); }

    // --- Files -------------------------------------------------------------------------------
    /// Opens `path`. On error shows the loader's message and keeps the current scene.
    bool openFile(const QString& path);
    /// Opens the embedded demo level (untitled: Save asks for a file).
    bool openDemo();
    /// An empty level.
    static SceneDesc newSceneDesc();
    /// Writes the scene to `path` through QSaveFile; on success the document is clean and
    /// takes `path`; on failure the old file is untouched and the message says why.
    bool saveTo(const QString& path);
    QStringList recentFiles() const;

    // --- Autosave and recovery ----------------------------------------------------------------
    /// The recovery copy's location (in QStandardPaths::AppDataLocation).
    static QString recoveryFilePath();
    void setAutosaveInterval(int milliseconds);
    /// Off: no recovery copy is written or removed (the screenshot mode must not touch the
    /// copy an earlier crash left).
    void setAutosaveEnabled(bool enabled);
    int autosaveInterval() const;
    /// Writes the recovery copy when there are unsaved changes, removes it when there are none.
    /// False when writing failed (or another instance owns the recovery file).
    bool autosave();
    /// If a recovery copy exists, asks whether to recover it: yes loads it over the file it
    /// came from (the recovered edits show as unsaved changes), no deletes it. Returns whether
    /// the scene was recovered.
    bool offerRecovery();

    /// What the status bar shows, for tests and the screenshot: time, agents, step ms, fps.
    QString statusSummary() const;

public slots:
    void newFile();
    void open();
    bool save();
    bool saveAs();
    void refreshStatus();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createTools();
    void createDocks();
    void createActions();
    void createMenus();
    void createStatusBar();
    void createToolBar();
    void updateTitle();
    void updateSimulationActions();
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    /// Unsaved changes: asks Save / Discard / Cancel. False = stay.
    bool maybeSave();
    void resetTo(const SceneDesc& scene, const QString& path);
    void removeRecovery();
    void showShortcuts();
    void showAbout();
    QMessageBox::StandardButton present(QMessageBox::Icon icon, const QString& title,
                                        const QString& text,
                                        QMessageBox::StandardButtons buttons = QMessageBox::Ok,
                                        QMessageBox::StandardButton defaultButton = QMessageBox::NoButton);

    Document* m_document;
    EditorScene* m_scene;
    SceneView* m_view;
    SimulationController* m_simulation;
    GroupSelection* m_groupSelection;
    OverlayOptions* m_overlayOptions = nullptr;
    SimulationLayers* m_agentLayers = nullptr;
    ToolsPanel* m_toolsPanel = nullptr;
    PropertyPanel* m_propertyPanel = nullptr;
    GroupListPanel* m_groupList = nullptr;
    QUndoView* m_undoView = nullptr;
    QList<AbstractTool*> m_tools;
    PlayTool* m_playTool = nullptr;
    QActionGroup* m_toolActions = nullptr;

    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QAction* m_playAction = nullptr;
    QAction* m_stepAction = nullptr;
    QAction* m_restartAction = nullptr;
    QActionGroup* m_speedActions = nullptr;
    QAction* m_gridAction = nullptr;
    QAction* m_snapAction = nullptr;

    QLabel* m_timeLabel = nullptr;
    QLabel* m_agentsLabel = nullptr;
    QLabel* m_stepLabel = nullptr;
    QLabel* m_fpsLabel = nullptr;
    QLabel* m_cursorLabel = nullptr;
    QTimer m_statusTimer;

    QTimer m_autosaveTimer;
    std::unique_ptr<QLockFile> m_recoveryLock;
    bool m_closeConfirmed = false;

    MessagePresenter m_presenter;
    FileChooser m_fileChooser;
};

} // namespace shoal::ui
