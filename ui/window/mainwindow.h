#pragma once
/// The editor's main window: the viewport in the centre; docks for the tools, the property
/// panel, the group list and the undo history; File/Edit/View/Simulation/Help menus; a status
/// bar with simulation time, agent count, step time and frames per second. It owns the open
/// Document and wires the File menu, the close question and the recovery offer to SceneFiles
/// (files/scenefiles.h), which opens, saves, autosaves and recovers it. Told to stop (a stop
/// signal through QuitOnSignals, a logout) it keeps the edits in the recovery copy and closes
/// without asking.

#include "files/scenefiles.h"

#include <QMainWindow>
#include <QMessageBox>
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
class ClipboardActions;
class ViewportMenu;
class SimulationLayers;
class Document;
class EditorScene;
class GroupListPanel;
class GroupSelection;
class OverlayOptions;
class PlayTool;
class PropertyPanel;
class MetricsDock;
class AgentInspector;
class InspectedAgent;
class ParamHandlesItem;
class ProblemsDock;
class ChecksDock;
class CompareDock;
class SceneView;
class SimulationController;
class StatusLine;
class RecordingFiles;
class TimelineBar;
class ToolsPanel;

/// The editor's main window: builds the docks, menus and status bar and wires them up.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    /// Shows a message and returns the button chosen: QMessageBox by default; tests answer
    /// without a dialog. The window's own messages and SceneFiles' go through it.
    using MessagePresenter = SceneFiles::MessagePresenter;
    /// Asks for a file to open (`save` false) or save; empty = cancelled. QFileDialog by default.
    using FileChooser = SceneFiles::FileChooser;

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    Document* document() const { return m_document; }
    EditorScene* editorScene() const { return m_scene; }
    SceneView* view() const { return m_view; }
    SimulationController* simulation() const { return m_simulation; }
    GroupSelection* groupSelection() const { return m_groupSelection; }
    OverlayOptions* overlayOptions() const { return m_overlayOptions; }
    SimulationLayers* agentLayers() const { return m_agentLayers; }
    ProblemsDock* problemsDock() const { return m_problemsDock; }
    ChecksDock* checksDock() const { return m_checksDock; }
    CompareDock* compareDock() const { return m_compareDock; }
    ParamHandlesItem* paramHandles() const { return m_paramHandles; }
    InspectedAgent* inspectedAgent() const { return m_inspected; }
    AgentInspector* agentInspector() const { return m_inspector; }
    /// Cut, Copy and Paste of level items (Edit menu).
    ClipboardActions* clipboardActions() const { return m_clipboard; }
    /// The view's right-click menu while editing.
    ViewportMenu* viewportMenu() const { return m_viewportMenu; }
    /// Open, save, recent files, autosave and recovery of the document.
    SceneFiles* files() const { return m_files.get(); }
    /// The timeline under the viewport, and the recording files it is saved to and read from.
    TimelineBar* timelineBar() const { return m_timelineBar; }
    RecordingFiles* recordingFiles() const { return m_recordingFiles; }
    /// The status bar's hint and message line.
    StatusLine* statusLine() const { return m_statusLine; }
    /// The tools, in the tools dock's order (select, wall, obstacle, spawn area, pickup, target).
    const QList<AbstractTool*>& tools() const { return m_tools; }
    void setTool(AbstractTool* tool);

    void setMessagePresenter(MessagePresenter presenter) { m_presenter = std::move(presenter); }
    void setFileChooser(FileChooser chooser) { m_fileChooser = std::move(chooser); }

    /// What the status bar shows, for tests and the screenshot: time, agents, step ms, fps.
    QString statusSummary() const;

    /// The process is told to stop (QuitOnSignals): the unsaved edits go to the recovery copy
    /// now, and closing asks nothing. False when the copy could not be written (the status
    /// bar says why): then closing still asks.
    bool keepEditsForQuit();
    /// The session ends (a logout): the session manager asks to save (commitDataRequest,
    /// saveStateRequest; no dialog may be shown then) and closes the window after. The edits
    /// go to the recovery copy now, and that close asks nothing. An edit after this (the logout
    /// was cancelled) brings the question back.
    void keepEditsForSessionEnd();

public slots:
    void refreshStatus();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    /// Another window for a further recovered copy (SceneFiles::WindowOpener); it deletes
    /// itself when closed.
    SceneFiles* openRecoveryWindow();
    void saveWindowState();
    void createTools();
    void createDocks();
    void createActions();
    /// A Problems row was clicked: select the group, bring the view to the agent.
    void focusProblem(int group, int agent, QPointF at);
    void createMenus();
    void createFileMenu();
    void createEditMenu();
    void createViewMenu();
    /// Show Grid, Snap to Grid and the Grid Spacing submenu, kept in step with the scene.
    void addGridActions(QMenu* menu);
    /// The Overlays submenu: one entry per overlay, then the scope (selected or all groups).
    void addOverlaysMenu(QMenu* menu);
    void createSimulationMenu();
    void createHelpMenu();
    void createStatusBar();
    void createToolBar();
    /// The timeline's bar (a toolbar along the bottom) and its recording files.
    void createTimeline();
    void updateTitle();
    void updateSimulationActions();
    void rebuildRecentMenu();
    /// The file chooser hook, or a file dialog without one.
    QString chooseFile(bool save, const QString& suggestion);
    void showShortcuts();
    void showAbout();
    QMessageBox::StandardButton
    present(QMessageBox::Icon icon, const QString& title, const QString& text,
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
    MetricsDock* m_metricsDock = nullptr;
    ProblemsDock* m_problemsDock = nullptr;
    ChecksDock* m_checksDock = nullptr;
    CompareDock* m_compareDock = nullptr;
    TimelineBar* m_timelineBar = nullptr;
    RecordingFiles* m_recordingFiles = nullptr;
    QAction* m_stepBackAction = nullptr;
    QAction* m_branchAction = nullptr;
    ParamHandlesItem* m_paramHandles = nullptr; ///< owned by the scene
    InspectedAgent* m_inspected = nullptr;      ///< owned by the scene
    AgentInspector* m_inspector = nullptr;
    GroupListPanel* m_groupList = nullptr;
    QUndoView* m_undoView = nullptr;
    QList<AbstractTool*> m_tools;
    PlayTool* m_playTool = nullptr;
    QActionGroup* m_toolActions = nullptr;
    ClipboardActions* m_clipboard = nullptr;
    ViewportMenu* m_viewportMenu = nullptr;

    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QAction* m_playAction = nullptr;
    QAction* m_stepAction = nullptr;
    QAction* m_restartAction = nullptr;
    QActionGroup* m_speedActions = nullptr;
    QAction* m_gridAction = nullptr;
    QAction* m_snapAction = nullptr;

    StatusLine* m_statusLine = nullptr; ///< the tool's hint, or a message for a while
    QLabel* m_timeLabel = nullptr;
    QLabel* m_agentsLabel = nullptr;
    QLabel* m_stepLabel = nullptr;
    QLabel* m_fpsLabel = nullptr;
    QLabel* m_rateLabel = nullptr; ///< shown while the world falls behind real time
    QLabel* m_zoomLabel = nullptr;
    QLabel* m_cursorLabel = nullptr;
    QTimer m_statusTimer;

    MessagePresenter m_presenter;
    FileChooser m_fileChooser;
    /// The edits are in the recovery copy because the editor is told to stop: see
    /// keepEditsForQuit(). Cleared by the next change.
    bool m_closeWithoutAsking = false;
    /// Not a child: it must go before the Document (see SceneFiles); ~MainWindow resets it.
    std::unique_ptr<SceneFiles> m_files;
};

} // namespace shoal::ui
