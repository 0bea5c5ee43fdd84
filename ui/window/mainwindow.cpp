#include "window/mainwindow.h"

#include "checks/checksdock.h"
#include "compare/comparedock.h"
#include "document/document.h"
#include "document/groupselection.h"
#include "experiments/experimentsmenu.h"
#include "inspector/agentinspector.h"
#include "inspector/inspectedagent.h"
#include "metrics/metricsdock.h"
#include "panels/grouplistpanel.h"
#include "panels/propertypanel.h"
#include "panels/toolspanel.h"
#include "problems/problemsdock.h"
#include "simulation/overlayoptions.h"
#include "simulation/overlaytoolbar.h"
#include "simulation/paramhandles.h"
#include "simulation/simulationcontroller.h"
#include "simulation/simulationlayers.h"
#include "timeline/recordingfiles.h"
#include "timeline/timelinebar.h"
#include "tools/obstacletool.h"
#include "tools/placetool.h"
#include "tools/playtool.h"
#include "tools/selecttool.h"
#include "tools/spawnareatool.h"
#include "tools/walltool.h"
#include "viewport/editorscene.h"
#include "viewport/sceneview.h"
#include "window/clipboardactions.h"
#include "window/shortcutsdialog.h"
#include "window/statusline.h"
#include "window/toolicons.h"
#include "window/viewportmenu.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QSessionManager>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>
#include <QUndoView>

namespace shoal::ui {

namespace {

constexpr int kStatusRefreshMs = 250;
const double kSpeeds[] = {0.25, 0.5, 1.0, 2.0, 4.0};

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_document(new Document(this)),
      m_scene(new EditorScene(m_document, this)), m_view(nullptr), m_simulation(nullptr),
      m_groupSelection(new GroupSelection(m_document, this))
{
    m_document->resetScene(SceneFiles::newSceneDesc(), {});
    m_files = std::make_unique<SceneFiles>(
        m_document,
        [this](QMessageBox::Icon icon, const QString& title, const QString& text,
               QMessageBox::StandardButtons buttons, QMessageBox::StandardButton defaultButton) {
            return present(icon, title, text, buttons, defaultButton);
        },
        [this](bool save, const QString& suggestion) { return chooseFile(save, suggestion); });
    m_files->setWindowOpener([this] { return openRecoveryWindow(); });
    m_scene->setGroupSelection(m_groupSelection);
    m_simulation = new SimulationController(m_document, this);
    m_view = new SceneView(m_scene, this);
    m_playTool = new PlayTool(m_simulation, this);
    m_scene->setPlayTool(m_playTool);
    setCentralWidget(m_view);
    m_overlayOptions = new OverlayOptions(this);
    m_agentLayers =
        new SimulationLayers(m_scene, m_simulation, m_overlayOptions, m_groupSelection, this);
    m_paramHandles = new ParamHandlesItem(m_scene, m_groupSelection, m_simulation);
    m_inspected = new InspectedAgent(m_scene, m_view, m_simulation);

    createTools();
    createActions();
    createTimeline();
    createDocks();
    createMenus();
    m_viewportMenu = new ViewportMenu(m_scene, m_view, m_clipboard, m_groupSelection, this);
    createToolBar();
    createStatusBar();
    setTool(m_tools.first());

    connect(m_document, &Document::titleChanged, this, &MainWindow::updateTitle);
    connect(m_view, &SceneView::playToggleRequested, m_simulation,
            &SimulationController::togglePlay);
    connect(m_simulation, &SimulationController::stateChanged, this,
            &MainWindow::updateSimulationActions);
    connect(m_simulation, &SimulationController::worldRebuilt, this, &MainWindow::refreshStatus);
    connect(m_simulation, &SimulationController::worldRebuilt, this,
            &MainWindow::updateSimulationActions);
    // Step Back and Branch Here follow where the world is on its timeline.
    connect(m_simulation, &SimulationController::timelineChanged, this,
            &MainWindow::updateSimulationActions);
    connect(m_simulation, &SimulationController::stepped, this,
            &MainWindow::updateSimulationActions);
    connect(m_scene, &EditorScene::statusMessage, this,
            [this](const QString& message) { m_statusLine->showMessage(message, 8000); });
    connect(m_files.get(), &SceneFiles::aboutToReplaceScene, m_simulation,
            &SimulationController::pause);
    connect(m_files.get(), &SceneFiles::sceneReplaced, this, [this] {
        if (m_view->isVisible())
            m_view->fitToLevel();
        updateTitle();
    });
    connect(m_files.get(), &SceneFiles::statusMessage, m_statusLine, &StatusLine::showMessage);
    connect(m_document, &Document::changed, this, [this] { m_closeWithoutAsking = false; });
#ifndef QT_NO_SESSIONMANAGER
    // Direct: the session manager waits for the answer inside the emission.
    connect(
        qGuiApp, &QGuiApplication::commitDataRequest, this,
        [this](QSessionManager&) { keepEditsForSessionEnd(); }, Qt::DirectConnection);
    connect(
        qGuiApp, &QGuiApplication::saveStateRequest, this,
        [this](QSessionManager&) { keepEditsForSessionEnd(); }, Qt::DirectConnection);
#endif

    m_statusTimer.setInterval(kStatusRefreshMs);
    connect(&m_statusTimer, &QTimer::timeout, this, &MainWindow::refreshStatus);
    m_statusTimer.start();

    resize(1440, 900);
    updateTitle();
    updateSimulationActions();
    refreshStatus();
}

MainWindow::~MainWindow()
{
    m_scene->setTool(nullptr);
    m_files.reset(); // before the document: see SceneFiles
    // ~QWidget deletes the children, the document among them, when this is no longer a
    // MainWindow: nothing they say as they go (the dying undo stack announces "clean") may
    // reach this window's slots.
    for (QObject* child : findChildren<QObject*>())
        child->disconnect(this);
}

// --- Construction ----------------------------------------------------------------------------

void MainWindow::createTools()
{
    m_tools = {new SelectTool(this),
               new WallTool(this),
               new ObstacleTool(this),
               new SpawnAreaTool(this),
               new PlaceTool(PlaceTool::Family::Pickup, this),
               new PlaceTool(PlaceTool::Family::Target, this)};
    m_toolActions = new QActionGroup(this);
    m_toolActions->setExclusive(true);
    for (AbstractTool* tool : m_tools) {
        auto* action = new QAction(tool->icon(), tool->name(), m_toolActions);
        action->setCheckable(true);
        action->setShortcut(tool->shortcut());
        action->setToolTip(
            tr("%1 (%2)").arg(tool->name(), tool->shortcut().toString(QKeySequence::NativeText)));
        action->setStatusTip(tool->statusInfo());
        action->setData(QVariant::fromValue(static_cast<QObject*>(tool)));
        connect(action, &QAction::triggered, this, [this, tool] { setTool(tool); });
        connect(tool, &AbstractTool::statusInfoChanged, this, [this, tool](const QString& info) {
            if (m_scene->tool() == tool && m_statusLine)
                m_statusLine->setHint(info);
        });
        addAction(action);
    }
}

void MainWindow::setTool(AbstractTool* tool)
{
    m_scene->setTool(tool);
    const int index = int(m_tools.indexOf(tool));
    if (index >= 0)
        m_toolActions->actions()[index]->setChecked(true);
    if (m_toolsPanel)
        m_toolsPanel->setCurrentTool(tool);
    m_view->refreshCursor();
    if (m_statusLine)
        m_statusLine->setHint(tool ? tool->statusInfo() : QString());
}

void MainWindow::createDocks()
{
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);

    m_toolsPanel = new ToolsPanel(m_tools, m_toolActions->actions(), m_scene);
    auto* tools = new QDockWidget(tr("Tools"), this);
    tools->setObjectName(QStringLiteral("toolsDock"));
    tools->setWidget(m_toolsPanel);
    addDockWidget(Qt::LeftDockWidgetArea, tools);

    m_undoView = new QUndoView(m_document->undoStack());
    m_undoView->setEmptyLabel(tr("<opened>"));
    auto* history = new QDockWidget(tr("History"), this);
    history->setObjectName(QStringLiteral("historyDock"));
    history->setWidget(m_undoView);
    addDockWidget(Qt::LeftDockWidgetArea, history);

    m_groupList = new GroupListPanel(m_document, m_groupSelection);
    m_groupList->setSimulation(m_simulation);
    connect(m_groupList, &GroupListPanel::groupVisibilityChanged, m_agentLayers,
            &SimulationLayers::setGroupVisible);
    m_agentLayers->setVisibilityQuery(
        [this](int group) { return m_groupList->isGroupVisible(group); });
    auto* groups = new QDockWidget(tr("Groups"), this);
    groups->setObjectName(QStringLiteral("groupsDock"));
    groups->setWidget(m_groupList);
    addDockWidget(Qt::RightDockWidgetArea, groups);

    m_propertyPanel = new PropertyPanel(m_document, m_groupSelection, m_simulation);
    auto* properties = new QDockWidget(tr("Properties"), this);
    properties->setObjectName(QStringLiteral("propertiesDock"));
    properties->setWidget(m_propertyPanel);
    addDockWidget(Qt::RightDockWidgetArea, properties);
    // A tab beside the properties, brought forward when an agent is picked.
    m_inspector = new AgentInspector(m_inspected, m_simulation, m_document);
    auto* inspector = new QDockWidget(tr("Inspector"), this);
    inspector->setObjectName(QStringLiteral("inspectorDock"));
    inspector->setWidget(m_inspector);
    tabifyDockWidget(properties, inspector);
    properties->raise();
    connect(m_inspected, &InspectedAgent::changed, this, [this, inspector] {
        if (m_inspected->hasAgent()) {
            inspector->show();
            inspector->raise();
        }
    });

    // Under the view, as wide as it: time runs along the plots.
    m_metricsDock = new MetricsDock(m_document, m_groupSelection, m_simulation);
    auto* metrics = new QDockWidget(tr("Metrics"), this);
    metrics->setObjectName(QStringLiteral("metricsDock"));
    metrics->setWidget(m_metricsDock);
    addDockWidget(Qt::BottomDockWidgetArea, metrics);
    // A tab beside the plots: it watches the world only while it is the tab shown.
    m_problemsDock = new ProblemsDock(m_simulation, m_scene);
    auto* problems = new QDockWidget(tr("Problems"), this);
    problems->setObjectName(QStringLiteral("problemsDock"));
    problems->setWidget(m_problemsDock);
    tabifyDockWidget(metrics, problems);
    metrics->raise();
    connect(m_problemsDock, &ProblemsDock::focusRequested, this, &MainWindow::focusProblem);
    // The scene's checks, decided on the running world; the plots add to them.
    m_checksDock = new ChecksDock(m_document, m_simulation);
    auto* checks = new QDockWidget(tr("Checks"), this);
    checks->setObjectName(QStringLiteral("checksDock"));
    checks->setWidget(m_checksDock);
    tabifyDockWidget(problems, checks);
    // A/B compare: world B beside the running one, its lines on the plots beside.
    m_compareDock = new CompareDock(m_document, m_simulation);
    auto* compare = new QDockWidget(tr("A/B Compare"), this);
    compare->setObjectName(QStringLiteral("compareDock"));
    compare->setWidget(m_compareDock);
    tabifyDockWidget(checks, compare);
    metrics->raise();
    connect(m_metricsDock, &MetricsDock::checkProposed, this,
            [this, checks](const CheckDesc& check) {
                checks->show();
                checks->raise();
                m_checksDock->addCheck(check);
            });

    resizeDocks({metrics}, {260}, Qt::Vertical);
    resizeDocks({tools, history}, {520, 300}, Qt::Vertical);
    resizeDocks({groups, properties}, {230, 600}, Qt::Vertical);
    resizeDocks({tools, groups}, {250, 360}, Qt::Horizontal);
}

void MainWindow::focusProblem(int group, int agent, QPointF at)
{
    m_groupSelection->select(group);
    if (agent >= 0)
        m_inspected->inspect(group, std::uint32_t(agent));
    // Close enough to see the agent among its neighbours, never further out than now.
    constexpr double kFocusPixelsPerMetre = 30.0;
    if (m_view->pixelsPerMetre() < kFocusPixelsPerMetre)
        m_view->setPixelsPerMetre(kFocusPixelsPerMetre);
    m_view->centerOn(at);
}

void MainWindow::createActions()
{
    // Simulation actions; the menus pick them up in createMenus().
    m_playAction = new QAction(toolIcon(ToolIcon::Play), tr("&Play"), this);
    m_playAction->setShortcut(Qt::Key_Space);
    m_playAction->setStatusTip(tr("Run or pause the simulation (Space over the viewport: tap to "
                                  "toggle, hold and drag to pan)"));
    connect(m_playAction, &QAction::triggered, m_simulation, &SimulationController::togglePlay);

    m_stepAction = new QAction(toolIcon(ToolIcon::Step), tr("&Step"), this);
    m_stepAction->setShortcut(Qt::Key_Period);
    m_stepAction->setStatusTip(tr("Advance one fixed step while paused"));
    connect(m_stepAction, &QAction::triggered, m_simulation, &SimulationController::stepOnce);

    m_stepBackAction = new QAction(toolIcon(ToolIcon::StepBack), tr("Step &Back"), this);
    m_stepBackAction->setShortcut(Qt::Key_Comma);
    m_stepBackAction->setStatusTip(tr("Show the world one step earlier (the timeline)"));
    connect(m_stepBackAction, &QAction::triggered, m_simulation, &SimulationController::stepBack);
    m_branchAction = new QAction(tr("&Branch Here"), this);
    m_branchAction->setShortcut(Qt::Key_B);
    m_branchAction->setStatusTip(tr("Drop what the timeline holds after this step and play on "
                                    "live from here"));
    connect(m_branchAction, &QAction::triggered, m_simulation, &SimulationController::branchHere);

    m_restartAction = new QAction(toolIcon(ToolIcon::Restart), tr("&Restart"), this);
    m_restartAction->setShortcut(Qt::Key_R);
    m_restartAction->setStatusTip(
        tr("Rebuild the running world from the level (undo history is kept)"));
    connect(m_restartAction, &QAction::triggered, m_simulation, &SimulationController::restart);

    m_speedActions = new QActionGroup(this);
    for (double speed : kSpeeds) {
        auto* action = new QAction(tr("%1\u00d7").arg(QLocale().toString(speed)), m_speedActions);
        action->setCheckable(true);
        action->setData(speed);
        action->setChecked(speed == 1.0);
        connect(action, &QAction::triggered, this,
                [this, speed] { m_simulation->setSpeed(speed); });
    }

    for (QAction* action : {m_playAction, m_stepAction, m_restartAction})
        addAction(action);
}

void MainWindow::createMenus()
{
    createFileMenu();
    createEditMenu();
    createViewMenu();
    createSimulationMenu();
    addExperimentsMenu(menuBar(), m_document, this);
    createHelpMenu();
}

void MainWindow::createFileMenu()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* newAction = file->addAction(tr("&New"), m_files.get(), &SceneFiles::newFile);
    newAction->setShortcut(QKeySequence::New);
    QAction* openAction = file->addAction(tr("&Open\u2026"), m_files.get(), &SceneFiles::open);
    openAction->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    rebuildRecentMenu();
    file->addAction(tr("Open &Demo Level"), m_files.get(), &SceneFiles::openDemo);
    file->addSeparator();
    QAction* saveAction = file->addAction(tr("&Save"), m_files.get(), &SceneFiles::save);
    saveAction->setShortcut(QKeySequence::Save);
    QAction* saveAsAction =
        file->addAction(tr("Save &As\u2026"), m_files.get(), &SceneFiles::saveAs);
    // QKeySequence::SaveAs is empty on desktops without a platform theme: Ctrl+Shift+S
    // always, the platform's own as well where it has another.
    QList<QKeySequence> saveAsKeys{QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S)};
    for (const QKeySequence& key : QKeySequence::keyBindings(QKeySequence::SaveAs))
        if (!saveAsKeys.contains(key))
            saveAsKeys.append(key);
    saveAsAction->setShortcuts(saveAsKeys);
    saveAsAction->setObjectName(QStringLiteral("saveAsAction"));
    file->addSeparator();
    file->addAction(tr("Open Re&cording\u2026"), m_recordingFiles, &RecordingFiles::open);
    QAction* saveRecording = file->addAction(tr("Save &Timeline as Recording\u2026"),
                                             m_recordingFiles, &RecordingFiles::save);
    saveRecording->setStatusTip(tr("The run so far, for shoal-cli replay or to scrub again"));
    file->addSeparator();
    QAction* quitAction = file->addAction(tr("&Quit"), this, &QWidget::close);
    quitAction->setShortcut(QKeySequence::Quit);
    quitAction->setMenuRole(QAction::QuitRole);
}

void MainWindow::createEditMenu()
{
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setIcon(toolIcon(ToolIcon::Undo));
    undo->setObjectName(QStringLiteral("undoAction"));
    QAction* redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts({QKeySequence::Redo, QKeySequence(Qt::CTRL | Qt::Key_Y)});
    redo->setIcon(toolIcon(ToolIcon::Redo));
    redo->setObjectName(QStringLiteral("redoAction"));
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    m_clipboard = new ClipboardActions(m_scene, m_view, this);
    edit->addActions(
        {m_clipboard->cutAction(), m_clipboard->copyAction(), m_clipboard->pasteAction()});
    QAction* duplicate =
        edit->addAction(tr("D&uplicate"), m_scene, &EditorScene::duplicateSelection);
    duplicate->setShortcut(Qt::CTRL | Qt::Key_D);
    QAction* remove = edit->addAction(tr("&Delete"), m_scene, &EditorScene::deleteSelection);
    remove->setShortcut(QKeySequence::Delete);
    edit->addSeparator();
    QAction* selectAll = edit->addAction(tr("Select &All"), m_scene, &EditorScene::selectAll);
    selectAll->setShortcut(QKeySequence::SelectAll);
    QAction* selectNone =
        edit->addAction(tr("Select &None"), this, [this] { m_scene->setSelectedRefs({}); });
    selectNone->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_A);
    edit->addSeparator();
    QMenu* toolsMenu = edit->addMenu(tr("&Tools"));
    toolsMenu->addActions(m_toolActions->actions());
    for (QAction* action : {duplicate, remove, selectAll, selectNone}) {
        // The viewport's own key handling does these too; the menu shows the keys.
        action->setShortcutContext(Qt::WindowShortcut);
    }
}

void MainWindow::createViewMenu()
{
    m_viewMenu = menuBar()->addMenu(tr("&View"));
    QAction* zoomIn = m_viewMenu->addAction(tr("Zoom &In"), m_view, &SceneView::zoomIn);
    zoomIn->setShortcuts({QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    QAction* zoomOut = m_viewMenu->addAction(tr("Zoom &Out"), m_view, &SceneView::zoomOut);
    zoomOut->setShortcut(QKeySequence::ZoomOut);
    QAction* actualSize = m_viewMenu->addAction(tr("&Actual Size (50 px = 1 m)"), this, [this] {
        m_view->setPixelsPerMetre(SceneView::kNominalPixelsPerMetre);
        m_view->centerOn(m_scene->levelRect().center());
    });
    actualSize->setShortcut(Qt::CTRL | Qt::Key_0);
    QAction* fit = m_viewMenu->addAction(toolIcon(ToolIcon::Fit), tr("&Fit to Level"), m_view,
                                         &SceneView::fitToLevel);
    fit->setShortcut(Qt::Key_F);
    fit->setObjectName(QStringLiteral("fitAction"));
    m_viewMenu->addSeparator();
    addGridActions(m_viewMenu);

    QAction* handles = m_viewMenu->addAction(tr("Parameter &Handles"));
    handles->setCheckable(true);
    handles->setChecked(m_paramHandles->isEnabledByUser());
    handles->setShortcut(Qt::Key_H);
    handles->setStatusTip(tr("Drag the selected group's radii, distances and angles in the view"));
    connect(handles, &QAction::toggled, m_paramHandles, &ParamHandlesItem::setEnabled);

    m_viewMenu->addSeparator();
    addOverlaysMenu(m_viewMenu);

    m_viewMenu->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        m_viewMenu->addAction(dock->toggleViewAction());
}

void MainWindow::addGridActions(QMenu* menu)
{
    m_gridAction = menu->addAction(tr("Show &Grid"));
    m_gridAction->setCheckable(true);
    m_gridAction->setShortcut(Qt::Key_G);
    connect(m_gridAction, &QAction::toggled, m_scene, &EditorScene::setGridVisible);
    m_snapAction = menu->addAction(tr("&Snap to Grid"));
    m_snapAction->setCheckable(true);
    m_snapAction->setShortcut(Qt::SHIFT | Qt::Key_G);
    connect(m_snapAction, &QAction::toggled, m_scene, &EditorScene::setSnapToGrid);
    QMenu* spacing = menu->addMenu(tr("Grid S&pacing"));
    auto* spacingGroup = new QActionGroup(spacing);
    for (double metres : {0.25, 0.5, 1.0, 2.0, 5.0}) {
        QAction* action = spacing->addAction(tr("%1 m").arg(QLocale().toString(metres)));
        action->setCheckable(true);
        action->setActionGroup(spacingGroup);
        action->setData(metres);
        connect(action, &QAction::triggered, this,
                [this, metres] { m_scene->setGridSize(metres); });
    }
    const auto refreshGridActions = [this, spacingGroup] {
        const QSignalBlocker a(m_gridAction);
        const QSignalBlocker b(m_snapAction);
        m_gridAction->setChecked(m_scene->isGridVisible());
        m_snapAction->setChecked(m_scene->snapToGrid());
        for (QAction* action : spacingGroup->actions())
            action->setChecked(action->data().toDouble() == m_scene->gridSize());
    };
    connect(m_scene, &EditorScene::gridChanged, this, refreshGridActions);
    refreshGridActions();
}

void MainWindow::addOverlaysMenu(QMenu* menu)
{
    QMenu* overlays = menu->addMenu(tr("&Overlays"));
    for (const OverlayOptions::Entry& entry : OverlayOptions::entries()) {
        QAction* action = overlays->addAction(entry.label);
        action->setCheckable(true);
        action->setStatusTip(entry.toolTip);
        action->setChecked(m_overlayOptions->isEnabled(entry.overlay));
        const OverlayOptions::Overlay overlay = entry.overlay;
        connect(action, &QAction::toggled, m_overlayOptions,
                [this, overlay](bool on) { m_overlayOptions->setEnabled(overlay, on); });
        connect(m_overlayOptions, &OverlayOptions::overlayToggled, action,
                [action, overlay](OverlayOptions::Overlay changed, bool on) {
                    if (changed == overlay) {
                        const QSignalBlocker blocker(action);
                        action->setChecked(on);
                    }
                });
    }
    overlays->addSeparator();
    auto* scope = new QActionGroup(overlays);
    QAction* selectedScope = overlays->addAction(tr("For Selected Groups"));
    QAction* allScope = overlays->addAction(tr("For All Groups"));
    for (QAction* action : {selectedScope, allScope}) {
        action->setCheckable(true);
        action->setActionGroup(scope);
    }
    selectedScope->setChecked(m_overlayOptions->scope() == OverlayOptions::Scope::SelectedGroups);
    allScope->setChecked(m_overlayOptions->scope() == OverlayOptions::Scope::AllGroups);
    connect(selectedScope, &QAction::triggered, this,
            [this] { m_overlayOptions->setScope(OverlayOptions::Scope::SelectedGroups); });
    connect(allScope, &QAction::triggered, this,
            [this] { m_overlayOptions->setScope(OverlayOptions::Scope::AllGroups); });
}

void MainWindow::createSimulationMenu()
{
    QMenu* simulation = menuBar()->addMenu(tr("&Simulation"));
    simulation->addAction(m_playAction);
    simulation->addAction(m_stepAction);
    simulation->addAction(m_stepBackAction);
    simulation->addAction(m_branchAction);
    simulation->addAction(m_restartAction);
    simulation->addSeparator();
    QMenu* speed = simulation->addMenu(tr("S&peed"));
    speed->addActions(m_speedActions->actions());
    QAction* slower = simulation->addAction(tr("S&lower"), this, [this] {
        for (auto it = std::rbegin(kSpeeds); it != std::rend(kSpeeds); ++it)
            if (*it < m_simulation->speed()) {
                m_simulation->setSpeed(*it);
                break;
            }
    });
    slower->setShortcut(Qt::Key_BracketLeft);
    QAction* faster = simulation->addAction(tr("&Faster"), this, [this] {
        for (double s : kSpeeds)
            if (s > m_simulation->speed()) {
                m_simulation->setSpeed(s);
                break;
            }
    });
    faster->setShortcut(Qt::Key_BracketRight);
    simulation->addSeparator();
    QAction* steering = simulation->addAction(tr("&Mouse Steers While Playing"));
    steering->setCheckable(true);
    steering->setChecked(m_playTool->playSteering());
    steering->setStatusTip(tr("While playing, the left button steers the player and the right "
                              "button sends the selected squad; hold Ctrl to use the active tool"));
    connect(steering, &QAction::toggled, m_playTool, &PlayTool::setPlaySteering);
}

void MainWindow::createHelpMenu()
{
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* shortcuts =
        help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
    // F1 always: QKeySequence::HelpContents is empty on desktops without a platform theme.
    QList<QKeySequence> helpKeys{QKeySequence(Qt::Key_F1)};
    for (const QKeySequence& key : QKeySequence::keyBindings(QKeySequence::HelpContents))
        if (!helpKeys.contains(key))
            helpKeys.append(key);
    shortcuts->setShortcuts(helpKeys);
    shortcuts->setObjectName(QStringLiteral("shortcutsAction"));
    help->addAction(tr("&About Shoal"), this, &MainWindow::showAbout);
}

void MainWindow::createTimeline()
{
    m_timelineBar = new TimelineBar(m_simulation, this);
    QToolBar* bar = new QToolBar(tr("Timeline"), this);
    bar->setObjectName(QStringLiteral("timelineToolBar"));
    bar->setMovable(false);
    bar->addWidget(m_timelineBar);
    addToolBar(Qt::BottomToolBarArea, bar);
    m_recordingFiles = new RecordingFiles(
        m_files.get(), m_simulation,
        [this](QMessageBox::Icon icon, const QString& title, const QString& text,
               QMessageBox::StandardButtons buttons, QMessageBox::StandardButton defaultButton) {
            return present(icon, title, text, buttons, defaultButton);
        },
        [this](bool save, const QString& suggestion) {
            if (m_fileChooser)
                return m_fileChooser(save, suggestion);
            const QString filter = tr("Shoal recordings (*.shoalrec);;All files (*)");
            return save ? QFileDialog::getSaveFileName(this, tr("Save Timeline as Recording"),
                                                       suggestion, filter)
                        : QFileDialog::getOpenFileName(this, tr("Open Recording"), suggestion,
                                                       filter);
        },
        this);
    connect(m_recordingFiles, &RecordingFiles::statusMessage, this,
            [this](const QString& message, int timeout) {
                m_statusLine->showMessage(message, timeout);
            });
}

void MainWindow::createToolBar()
{
    QToolBar* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setMovable(false);
    bar->setIconSize(QSize(20, 20));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    const auto find = [this](const char* name) {
        return findChild<QAction*>(QString::fromLatin1(name));
    };
    for (QAction* action : {find("undoAction"), find("redoAction")}) {
        bar->addAction(action);
        // The undo action's text names the command ("Undo Add Wall"): keep the button short.
        if (QWidget* button = bar->widgetForAction(action))
            static_cast<QToolButton*>(button)->setToolButtonStyle(Qt::ToolButtonIconOnly);
    }
    bar->addSeparator();
    bar->addAction(m_playAction);
    bar->addAction(m_stepAction);
    bar->addAction(m_restartAction);
    auto* speed = new QComboBox(bar);
    speed->setToolTip(tr("Simulation speed"));
    for (QAction* action : m_speedActions->actions())
        speed->addItem(action->text(), action->data());
    connect(speed, &QComboBox::activated, this, [this, speed](int index) {
        m_simulation->setSpeed(speed->itemData(index).toDouble());
    });
    connect(m_simulation, &SimulationController::stateChanged, speed, [this, speed] {
        const QSignalBlocker blocker(speed);
        speed->setCurrentIndex(speed->findData(m_simulation->speed()));
    });
    speed->setCurrentIndex(speed->findData(m_simulation->speed()));
    bar->addWidget(speed);
    bar->addSeparator();
    bar->addAction(find("fitAction"));

    // The overlays one click away, not two menus deep.
    auto* overlays = new OverlayToolBar(m_overlayOptions, this);
    overlays->setIconSize(bar->iconSize());
    addToolBar(overlays);
    if (m_viewMenu)
        m_viewMenu->addAction(overlays->toggleViewAction());
}

void MainWindow::createStatusBar()
{
    m_statusLine = new StatusLine(this);
    statusBar()->addWidget(m_statusLine, 1);
    const auto addLabel = [this](const QString& tip, int minWidth) {
        auto* label = new QLabel(this);
        label->setToolTip(tip);
        label->setMinimumWidth(minWidth);
        label->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        statusBar()->addPermanentWidget(label);
        return label;
    };
    m_cursorLabel = addLabel(tr("Pointer position in metres"), 150);
    m_timeLabel = addLabel(tr("Simulation time"), 90);
    m_agentsLabel = addLabel(tr("Agents in the running world"), 100);
    m_stepLabel = addLabel(tr("Time the last simulation step took"), 100);
    m_fpsLabel = addLabel(tr("Viewport frames per second while playing"), 70);
    m_rateLabel = addLabel(QString(), 110);
    m_rateLabel->setObjectName(QStringLiteral("realRateLabel"));
    m_rateLabel->setStyleSheet(QStringLiteral("color: #e8a33d;"));
    m_rateLabel->hide();
    m_zoomLabel = addLabel(tr("Zoom: 100 % is 50 pixels per metre (Ctrl+0)"), 60);
    m_zoomLabel->setObjectName(QStringLiteral("zoomLabel"));
    auto showZoom = [this](double pixelsPerMetre) {
        m_zoomLabel->setText(tr("%1 %").arg(
            QLocale().toString(100.0 * pixelsPerMetre / SceneView::kNominalPixelsPerMetre, 'f',
                               pixelsPerMetre < 0.1 * SceneView::kNominalPixelsPerMetre ? 1 : 0)));
    };
    showZoom(m_view->pixelsPerMetre());
    connect(m_view, &SceneView::zoomChanged, this, showZoom);
    connect(m_view, &SceneView::cursorMoved, this, [this](QPointF p) {
        m_cursorLabel->setText(tr("x %1  y %2 m").arg(p.x(), 0, 'f', 2).arg(p.y(), 0, 'f', 2));
    });
}

// --- State shown -----------------------------------------------------------------------------

void MainWindow::updateTitle()
{
    setWindowTitle(tr("%1[*] \u2014 Shoal").arg(m_document->displayName()));
    setWindowModified(m_document->isModified());
}

void MainWindow::updateSimulationActions()
{
    const bool playing = m_simulation->isPlaying();
    const bool hasWorld = m_simulation->world() != nullptr;
    m_playAction->setText(playing ? tr("&Pause") : tr("&Play"));
    m_playAction->setIcon(toolIcon(playing ? ToolIcon::Pause : ToolIcon::Play));
    m_playAction->setEnabled(hasWorld);
    m_stepAction->setEnabled(hasWorld && !playing);
    m_stepBackAction->setEnabled(hasWorld && !playing &&
                                 m_simulation->world()->stepCount() >
                                     m_simulation->timeline().firstKept());
    m_branchAction->setEnabled(hasWorld && m_simulation->isReplaying());
    for (QAction* action : m_speedActions->actions())
        action->setChecked(action->data().toDouble() == m_simulation->speed());
    refreshStatus();
}

void MainWindow::refreshStatus()
{
    const World* world = m_simulation->world();
    if (!world) {
        const bool building = m_simulation->isBuilding();
        m_timeLabel->setText(building ? tr("building the world\u2026") : tr("no world"));
        m_timeLabel->setToolTip(building ? tr("A big level's walls become the simulation's; "
                                              "Play is ready when this is done.")
                                         : m_simulation->lastError());
        m_agentsLabel->clear();
        m_stepLabel->clear();
        m_fpsLabel->clear();
        return;
    }
    m_timeLabel->setToolTip(tr("Simulation time"));
    m_timeLabel->setText(tr("t %1 s").arg(world->time(), 0, 'f', 2));
    m_agentsLabel->setText(
        tr("%1 agents").arg(QLocale().toString(qulonglong(world->agentCount()))));
    m_stepLabel->setText(tr("%1 ms/step").arg(m_simulation->lastStepMs(), 0, 'f', 2));
    m_fpsLabel->setText(m_simulation->isPlaying()
                            ? tr("%1 fps").arg(m_simulation->framesPerSecond(), 0, 'f', 0)
                            : tr("paused"));
    // The speed box says what was asked for; when the steps cannot keep up, say what runs.
    if (m_simulation->fallsBehind()) {
        m_rateLabel->setText(tr("%1\u00d7 real time").arg(m_simulation->realRate(), 0, 'f', 2));
        m_rateLabel->setToolTip(tr("The steps take longer than the time they simulate: the world "
                                   "runs at %1\u00d7 real time, not the %2\u00d7 asked for")
                                    .arg(m_simulation->realRate(), 0, 'f', 2)
                                    .arg(m_simulation->speed()));
        m_rateLabel->show();
    } else {
        m_rateLabel->hide();
    }
}

QString MainWindow::statusSummary() const
{
    return QStringList{m_timeLabel->text(), m_agentsLabel->text(), m_stepLabel->text(),
                       m_fpsLabel->text()}
        .join(QStringLiteral(" | "));
}

QMessageBox::StandardButton MainWindow::present(QMessageBox::Icon icon, const QString& title,
                                                const QString& text,
                                                QMessageBox::StandardButtons buttons,
                                                QMessageBox::StandardButton defaultButton)
{
    if (m_presenter)
        return m_presenter(icon, title, text, buttons, defaultButton);
    QMessageBox box(icon, title, text, buttons, this);
    if (defaultButton != QMessageBox::NoButton)
        box.setDefaultButton(defaultButton);
    return QMessageBox::StandardButton(box.exec());
}

// --- Files -----------------------------------------------------------------------------------

QString MainWindow::chooseFile(bool save, const QString& suggestion)
{
    if (m_fileChooser)
        return m_fileChooser(save, suggestion);
    if (save)
        return QFileDialog::getSaveFileName(this, tr("Save Scene As"), suggestion,
                                            tr("Shoal scenes (*.json)"));
    return QFileDialog::getOpenFileName(this, tr("Open Scene"), suggestion,
                                        tr("Shoal scenes (*.json);;All files (*)"));
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!m_closeWithoutAsking) {
        if (!m_files->maybeSave()) {
            event->ignore();
            return;
        }
        m_files->closeConfirmed();
    }
    m_simulation->pause();
    saveWindowState();
    event->accept();
}

void MainWindow::saveWindowState()
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
}

bool MainWindow::keepEditsForQuit()
{
    m_closeWithoutAsking = m_files->autosave();
    if (m_closeWithoutAsking)
        saveWindowState();
    return m_closeWithoutAsking;
}

void MainWindow::keepEditsForSessionEnd()
{
    m_closeWithoutAsking = m_files->autosave();
}

SceneFiles* MainWindow::openRecoveryWindow()
{
    auto* window = new MainWindow;
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->setMessagePresenter(m_presenter);
    window->setFileChooser(m_fileChooser);
    window->move(pos() + QPoint(40, 40));
    window->show();
    return window->files();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = m_files->recentFiles();
    for (const QString& path : files) {
        // The name first, then where it is (two levels named alike are told apart), the home
        // folder written as ~.
        QString folder = QDir::toNativeSeparators(QFileInfo(path).absolutePath());
        const QString home = QDir::toNativeSeparators(QDir::homePath());
        if (folder == home || folder.startsWith(home + QDir::separator()))
            folder = QLatin1Char('~') + folder.mid(home.size());
        QString text = QStringLiteral("%1  \u2014  %2").arg(QFileInfo(path).fileName(), folder);
        text.replace(QLatin1Char('&'), QStringLiteral("&&"));
        QAction* action =
            m_recentMenu->addAction(text, this, [this, path] { m_files->openFile(path); });
        action->setStatusTip(QDir::toNativeSeparators(path));
        action->setEnabled(QFileInfo::exists(path));
    }
    if (files.isEmpty()) {
        m_recentMenu->addAction(tr("No Recent Files"))->setEnabled(false);
        return;
    }
    m_recentMenu->addSeparator();
    m_recentMenu->addAction(tr("Clear Recent Files"), m_files.get(), &SceneFiles::clearRecentFiles);
}

// --- Help ------------------------------------------------------------------------------------

void MainWindow::showShortcuts()
{
    // One table, kept: F1 again brings it to the front with the filter as it was.
    auto* dialog = findChild<ShortcutsDialog*>();
    if (!dialog)
        dialog = new ShortcutsDialog(this);
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
}

void MainWindow::showAbout()
{
    present(QMessageBox::Information, tr("About Shoal"),
            tr("Shoal %1\nAn editor and live tuner for game group movement: fish schools, tank "
               "squads, swarms, leader following and worms.")
                .arg(QCoreApplication::applicationVersion()));
}

} // namespace shoal::ui
