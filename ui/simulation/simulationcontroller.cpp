#include "simulation/simulationcontroller.h"

#include "document/document.h"
#include "document/qtstrings.h"

#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#endif

#include <algorithm>
#include <cmath>

namespace shoal::ui {

namespace {

constexpr int kTickIntervalMs = 16;
constexpr double kMinSpeed = 0.25;
constexpr double kMaxSpeed = 4.0;
/// Steps one tick may take at 1x; scaled up with the speed factor so 4x still keeps up.
constexpr int kCatchUpStepsAt1x = 3;
/// A stall longer than this (a modal dialog, a debugger) is not made up for.
constexpr double kMaxTickSeconds = 0.25;
constexpr double kFpsWindowSeconds = 0.5;
/// The nice value of the thread that builds big levels' worlds (0 normal, 19 lowest).
constexpr int kBuildNice = 10;

/// The one thread that builds big levels' worlds. It runs at a lower priority than the
/// window: on a machine of two cores the first frame of a big level came seconds later
/// while the build took a core from it. Its own pool, so no other task inherits that.
QThreadPool& worldBuildPool()
{
    static QThreadPool pool;
    pool.setMaxThreadCount(1);
    return pool;
}

void lowerThisThreadsPriority()
{
#ifdef Q_OS_LINUX
    // Linux keeps a nice value per thread; 0 names the calling one.
    setpriority(PRIO_PROCESS, 0, kBuildNice);
#endif
}

std::vector<int> resolveChases(const SceneDesc& scene)
{
    std::vector<int> chases;
    chases.reserve(scene.groups.size());
    for (const GroupDesc& group : scene.groups)
        chases.push_back(group.chase.empty() ? -1 : scene.groupIndex(group.chase));
    return chases;
}

int resolvePlayerGroup(const SceneDesc& scene)
{
    return scene.player.group.empty() ? -1 : scene.groupIndex(scene.player.group);
}

} // namespace

SimulationController::SimulationController(Document* document, QObject* parent)
    : QObject(parent), m_document(document)
{
    m_timer.setInterval(kTickIntervalMs);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &SimulationController::tick);
    connect(m_document, &Document::changed, this, &SimulationController::onDocumentChanged);
    connect(&m_build, &QFutureWatcherBase::finished, this, &SimulationController::onBuildFinished);
    restart();
}

// A build still running finishes on its own copy of the scene and is dropped with its future.
SimulationController::~SimulationController()
{
    // Steps under way read the timeline, the watches and B, which go before the thread does.
    m_stepper.wait();
}

void SimulationController::finishStep() const
{
    if (!m_stepper.busy())
        return;
    m_stepper.wait();
    m_front = 1 - m_front;
    m_frameFresh = true;
    m_unannounced += m_jobSteps;
    m_jobSteps = 0;
}

void SimulationController::settle()
{
    finishStep();
    if (m_jobDecidedChecks) {
        m_jobDecidedChecks = false;
        applyMetricsRate();
        emit checksRestarted();
    }
    if (m_unannounced == 0)
        return;
    m_lastStepMs = static_cast<double>(m_jobNanoseconds) / 1e6 / m_unannounced;
    m_unannounced = 0;
    emit stepped();
    // From here on anything may change the world (an edit, a seek): frame() copies afresh.
    m_frameFresh = false;
}

void SimulationController::setStepsBesidePaint(bool allowed)
{
    if (allowed == m_stepsBesidePaint)
        return;
    // Whoever turns it off is about to read the live world while painting.
    settle();
    m_stepsBesidePaint = allowed;
}

const WorldFrame* SimulationController::frame() const
{
    finishStep();
    if (!m_world)
        return nullptr;
    if (!m_frameFresh) {
        m_world->copyFrame(m_frames[m_front], m_frameOutlines);
        if (m_compareWorld)
            m_compareWorld->copyFrame(m_compareFrames[m_front], m_frameOutlines);
        m_frameFresh = true;
    }
    return &m_frames[m_front];
}

const WorldFrame* SimulationController::compareFrame() const
{
    const WorldFrame* a = frame();
    return a && m_compareWorld ? &m_compareFrames[m_front] : nullptr;
}

void SimulationController::startSteps(int steps)
{
    applyPendingPointer();
    m_frameFresh = false;
    const int back = 1 - m_front;
    m_jobSteps = steps;
    const bool outlines = m_frameOutlines;
    m_stepper.start([this, steps, back, outlines] {
        QElapsedTimer clock;
        clock.start();
        for (int s = 0; s < steps; ++s)
            stepWorld();
        m_jobNanoseconds = clock.nsecsElapsed();
        // The copy is the job's too: the GUI thread paints the front frame meanwhile.
        m_world->copyFrame(m_frames[back], outlines);
        if (m_compareWorld)
            m_compareWorld->copyFrame(m_compareFrames[back], outlines);
    });
}

const GroupState* SimulationController::runningGroup(int group) const
{
    finishStep();
    // Between a document change and the rebuild it causes, the world may still run the old
    // list of groups: then its indices mean nothing for the document's.
    if (!m_world || m_world->stepCount() == 0 || group < 0 || group >= m_world->groupCount() ||
        m_document->scene().groups.size() != m_built.groups.size())
        return nullptr;
    return &m_world->group(group);
}

QString SimulationController::spawnWarning(int group) const
{
    finishStep();
    if (!m_world || m_document->scene().groups.size() != m_built.groups.size())
        return QString();
    QString message;
    for (const WorldWarning& warning : m_world->warnings())
        if (warning.group == group)
            message += (message.isEmpty() ? QString() : QStringLiteral("\n")) +
                       QString::fromStdString(warning.message);
    return message;
}

int SimulationController::maxStepsPerTick() const
{
    return static_cast<int>(std::ceil(kCatchUpStepsAt1x * std::max(1.0, m_speed)));
}

void SimulationController::play()
{
    waitForWorld();
    if (m_playing || !m_world)
        return;
    applyPendingGeometry();
    m_playing = true;
    m_accumulator = 0.0;
    m_fps = 0.0;
    m_fpsTicks = 0;
    m_realRate = 0.0;
    m_rateSimSeconds = 0.0;
    m_clock.start();
    m_fpsClock.start();
    m_timer.start();
    emit stateChanged();
}

void SimulationController::pause()
{
    if (!m_playing)
        return;
    settle(); // the steps under way are shown
    m_playing = false;
    m_timer.stop();
    m_accumulator = 0.0;
    m_fps = 0.0;
    emit stateChanged();
}

void SimulationController::togglePlay()
{
    if (m_playing)
        pause();
    else
        play();
}

void SimulationController::stepOnce()
{
    waitForWorld();
    if (m_playing || !m_world)
        return;
    beginChange();
    applyPendingGeometry();
    applyPendingPointer();
    stepHere(1);
}

void SimulationController::stepHere(int steps)
{
    if (steps > 0) {
        QElapsedTimer clock;
        clock.start();
        for (int s = 0; s < steps; ++s)
            stepWorld();
        m_jobNanoseconds = clock.nsecsElapsed();
        m_unannounced += steps;
    }
    settle();
}

void SimulationController::restart()
{
    beginChange();
    if (m_buildRunning) {
        // One build at a time: this one is out of date, and the next starts when it ends.
        m_rebuildWanted = true;
        return;
    }
    m_accumulator = 0.0;
    m_geometryPending = false;
    m_geometryEdited = false;
    // The document's one check of this scene decides; the world does not check it again.
    if (const CheckedScene* checked = m_document->checkedScene(); !checked) {
        m_world.reset();
        m_timeline.clear();
        m_lastError = qs(m_document->sceneError()->message);
    } else if (checked->scene().walls.size() + checked->scene().obstacles.size() >=
               m_backgroundThreshold) {
        // Building a big level's geometry takes seconds: the level shows and is edited
        // meanwhile. The build reads its own copy; the document's scene changes under edits.
        m_world.reset();
        m_lastError.clear();
        m_buildRunning = true;
        m_resumeAfterBuild = m_playing;
        auto copy = std::make_shared<const CheckedScene>(*checked);
        m_build.setFuture(QtConcurrent::run(&worldBuildPool(), [copy] {
            lowerThisThreadsPriority();
            return std::shared_ptr<World>(World::create(*copy));
        }));
    } else {
        installWorld(World::create(*checked));
    }
    if (const CheckedScene* checked = m_document->checkedScene()) {
        // What a recording of this run needs but the walls (see m_recordScene).
        const SceneDesc& built = checked->scene();
        m_recordScene = SceneDesc{};
        m_recordScene.name = built.name;
        m_recordScene.bounds = built.bounds;
        m_recordScene.pickups = built.pickups;
        m_recordScene.groups = built.groups;
        m_recordScene.player = built.player;
        m_recordScene.simulation = built.simulation;
        m_recordScene.checks = built.checks;
    }
    // Asked for after the check: checking may move the scene to where the proof keeps it.
    const SceneDesc& scene = m_document->scene();
    // Only what the in-place edits compare against: a copy of a big level's walls here
    // would cost as much memory as the document's.
    m_built.groups = scene.groups;
    m_built.player = scene.player;
    m_builtChase = resolveChases(scene);
    m_builtPlayerGroup = resolvePlayerGroup(scene);
    if (!m_world)
        restartChecks(); // none to watch (a world being built gets its runner when ready)
    const bool stopped = m_playing && !m_world;
    if (stopped) {
        m_playing = false;
        m_timer.stop();
        m_fps = 0.0;
    }
    emit worldRebuilt();
    if (stopped)
        emit stateChanged();
}

void SimulationController::setMetricsWanted(bool wanted, int everySteps)
{
    finishStep();
    m_metricsWanted = wanted;
    m_metricsEvery = std::max(1, everySteps);
    applyMetricsRate();
}

void SimulationController::applyMetricsRate()
{
    if (!m_world)
        return;
    // A check decides on every step (a spike between two samples fails it), so while one is
    // watched the world measures every step, whatever the plots ask.
    const bool checks = m_checks && !m_checksDecided;
    // A/B compare sets A's and B's figures side by side: measured while it runs, five
    // times a simulated second unless someone asks for more.
    const bool comparing = m_compareWorld != nullptr;
    const int compareEvery = std::max(1, static_cast<int>(std::lround(0.2 / m_world->dt())));
    m_world->setMetricsEnabled(m_metricsWanted || checks || comparing);
    m_world->setMetricsEvery(checks            ? 1
                             : m_metricsWanted ? m_metricsEvery
                             : comparing       ? compareEvery
                                               : m_metricsEvery);
}

// The runner reads the world's groups by the names the world was built with, and a rename
// reaches the world without a rebuild: each check's group is named as the world names it.
void SimulationController::restartChecks()
{
    std::vector<CheckDesc> checks = m_document->scene().checks;
    const SceneDesc& scene = m_document->scene();
    if (m_world && scene.groups.size() == static_cast<std::size_t>(m_world->groupCount())) {
        auto worldName = [&](std::string& metric) {
            const std::size_t dot = metric.rfind('.');
            if (metric.empty() || dot == std::string::npos)
                return;
            const int g = scene.groupIndex(metric.substr(0, dot));
            if (g >= 0)
                metric = m_world->group(g).name + metric.substr(dot);
        };
        for (CheckDesc& check : checks) {
            worldName(check.metric);
            worldName(check.valueMetric);
        }
    }
    // The same checks of the same world (a group renamed): the watch goes on.
    if (m_checks && m_world && m_checks->checks() == checks)
        return;
    m_checks.reset();
    m_checksError.clear();
    m_checksDecided = false;
    m_checksSince = m_world ? m_world->time() : 0.0;
    if (m_world && !checks.empty()) {
        Expected<CheckRunner> runner = CheckRunner::create(checks, *m_world);
        if (runner)
            m_checks = std::move(*runner);
        else
            m_checksError = qs(runner.error().message);
    }
    applyMetricsRate();
    emit checksRestarted();
}

void SimulationController::decideChecks()
{
    finishStep();
    if (!m_checks || !m_world || m_checksDecided)
        return;
    finishChecks();
    applyMetricsRate();
    emit checksRestarted();
}

void SimulationController::finishChecks()
{
    m_checks->finish(*m_world);
    m_checksDecided = true;
    m_checksDecidedAt = m_world->time();
}

void SimulationController::setProblemsWanted(bool wanted)
{
    finishStep();
    if (wanted && !m_problemsWanted)
        m_problemWatch.reset(); // what it missed while nobody watched is not history
    m_problemsWanted = wanted;
}

const std::vector<Problem>& SimulationController::problems()
{
    finishStep();
    static const std::vector<Problem> none;
    if (!m_world || !m_problemsWanted)
        return none;
    return m_problemWatch.problems(*m_world);
}

void SimulationController::setInspected(int group, std::uint32_t id)
{
    finishStep();
    m_inspectedGroup = group;
    m_inspectedId = id;
    if (m_world)
        m_world->setInspected(group, id);
}

void SimulationController::stepWorld()
{
    m_timeline.applyDue(*m_world);
    if (m_compareWorld)
        stepCompare(); // before A: B reads the input A is about to step with
    m_world->step();
    m_timeline.stepped(*m_world);
    if (m_problemsWanted)
        m_problemWatch.observe(*m_world);
    if (m_checks && !m_checksDecided) {
        m_checks->observe(*m_world);
        // A whole run is decided once it is as long as `shoal-cli check` runs the scene, so the
        // two say the same. A watch that began mid-run (the checks edited while it played)
        // missed the start its windows count from: only "Decide now" ends it.
        if (m_checksSince == 0.0 && m_world->time() + 0.5 * m_world->dt() >=
                                        CheckRunner::secondsNeeded(m_checks->checks())) {
            finishChecks();
            m_jobDecidedChecks = true; // announced with the steps (settle())
        }
    }
}

std::optional<Error> SimulationController::startCompare(const std::vector<CompareParam>& params)
{
    beginChange();
    waitForWorld();
    if (!m_world)
        return Error{"there is no running world to compare with"};
    m_compareParams = params;
    auto error = rebaseCompare();
    applyMetricsRate();
    emit compareChanged();
    return error;
}

void SimulationController::stopCompare()
{
    beginChange();
    if (!m_compareWorld)
        return;
    m_compareWorld.reset();
    m_compareParams.clear();
    applyMetricsRate();
    emit compareChanged();
}

std::optional<Error> SimulationController::setCompareParam(int group, int param, double value)
{
    finishStep();
    if (!m_compareWorld)
        return Error{"B is not running"};
    if (auto error = m_compareWorld->setParam(group, param, value))
        return error;
    auto same = [&](const CompareParam& c) { return c.group == group && c.param == param; };
    const auto it = std::find_if(m_compareParams.begin(), m_compareParams.end(), same);
    if (it != m_compareParams.end())
        it->value = value;
    else
        m_compareParams.push_back({group, param, value});
    return std::nullopt;
}

std::optional<Error> SimulationController::rebaseCompare()
{
    m_compareWorld.reset();
    const CheckedScene* checked = m_document->checkedScene();
    if (!checked || m_geometryEdited)
        return Error{"the level has changed since the world was built: restart it first"};
    Expected<std::unique_ptr<World>> created = World::create(*checked);
    if (!created)
        return created.error();
    std::unique_ptr<World> b = std::move(*created);
    if (auto error = b->restore(m_world->snapshot()))
        return error;
    for (const CompareParam& p : m_compareParams)
        if (auto error = b->setParam(p.group, p.param, p.value))
            return error;
    b->setMetricsEnabled(m_world->metricsEnabled());
    b->setMetricsEvery(m_world->metricsEvery());
    b->setThreads(m_world->threads());
    m_compareWorld = std::move(b);
    return std::nullopt;
}

void SimulationController::stepCompare()
{
    World& a = *m_world;
    World& b = *m_compareWorld;
    b.setPointer(a.pointer().position, a.pointer().pressed);
    for (int g = 0; g < a.groupCount() && g < b.groupCount(); ++g) {
        const GroupState& group = a.group(g);
        if (group.hasTarget && (!b.group(g).hasTarget || b.group(g).target != group.target))
            b.setTarget(g, group.target);
        const std::vector<ParamSpec>& specs = paramSpecs(group.kind);
        for (std::size_t p = 0; p < specs.size(); ++p) {
            const bool own = std::any_of(m_compareParams.begin(), m_compareParams.end(),
                                         [&](const CompareParam& c) {
                                             return c.group == g && c.param == static_cast<int>(p);
                                         });
            const double value = a.param(g, specs[p].key);
            if (!own && b.param(g, specs[p].key) != value)
                b.setParam(g, static_cast<int>(p), value);
        }
    }
    for (const ParamSpec& spec : playerParamSpecs())
        if (b.playerParam(spec.key) != a.playerParam(spec.key))
            b.setPlayerParam(spec.key, a.playerParam(spec.key));
    b.setMetricsEnabled(a.metricsEnabled());
    b.setMetricsEvery(a.metricsEvery());
    b.step();
}

void SimulationController::installWorld(std::shared_ptr<World> world)
{
    if (m_compareWorld) {
        m_compareWorld.reset(); // B was A's
        m_compareParams.clear();
        emit compareChanged();
    }
    m_world = std::move(world);
    m_frameFresh = false;
    // The step on every core: the results are those of one thread, bit for bit.
    m_world->setThreads(0);
    m_problemWatch.reset();
    m_world->setInspected(m_inspectedGroup, m_inspectedId);
    // At 100,000 agents the group metrics cost about as much as the step itself: computed
    // only while someone shows them, and only as often as they are shown.
    m_world->setPointer(m_pointer, m_pointerPressed);
    m_lastError.clear();
    m_checks.reset(); // made anew for this world
    restartChecks();
    m_timeline.begin(*m_world, true);
    emit timelineChanged();
}

void SimulationController::onBuildFinished()
{
    if (!m_buildRunning || !m_build.isFinished())
        return; // taken already by waitForWorld()
    m_buildRunning = false;
    std::shared_ptr<World> built = m_build.result();
    m_build.setFuture(QFuture<std::shared_ptr<World>>());
    if (m_rebuildWanted) {
        m_rebuildWanted = false;
        restart();
        return;
    }
    installWorld(std::move(built));
    emit worldRebuilt();
    emit stateChanged();
    if (m_resumeAfterBuild) {
        m_resumeAfterBuild = false;
        play();
    }
}

void SimulationController::waitForWorld()
{
    while (m_buildRunning) {
        m_build.waitForFinished();
        onBuildFinished();
    }
}

void SimulationController::setSpeed(double factor)
{
    const double speed = std::clamp(factor, kMinSpeed, kMaxSpeed);
    if (speed == m_speed)
        return;
    m_speed = speed;
    emit stateChanged();
}

void SimulationController::setPointer(double x, double y, bool pressed)
{
    const bool wasPressed = m_pointerPressed;
    m_pointer = Vec2(static_cast<float>(x), static_cast<float>(y));
    m_pointerPressed = pressed;
    // A move while steps run reaches the world before the next ones (the last move wins, as
    // between two steps); a press or a release reaches it at once.
    if (m_stepper.busy() && pressed == wasPressed) {
        m_pointerPending = true;
        return;
    }
    finishStep();
    givePointer();
}

void SimulationController::applyPendingPointer()
{
    if (m_pointerPending)
        givePointer();
}

void SimulationController::givePointer()
{
    m_pointerPending = false;
    const bool pressed = m_pointerPressed;
    if (!m_world)
        return;
    const PointerInput& before = m_world->pointer();
    // Behind the timeline's head the logged pointer steers; a press takes over from it (a
    // branch), a mere move does not.
    if (m_timeline.following(*m_world) && !(pressed && !before.pressed))
        return;
    if (before.position == m_pointer && before.pressed == pressed)
        return;
    InputEvent event;
    event.kind = InputEventKind::Pointer;
    event.action = pressed == before.pressed ? PointerAction::Move
                   : pressed                 ? PointerAction::Down
                                             : PointerAction::Up;
    event.position = Point2{static_cast<double>(m_pointer.x), static_cast<double>(m_pointer.y)};
    m_world->setPointer(m_pointer, pressed);
    noteInput(std::move(event));
}

void SimulationController::setTarget(int group, double x, double y)
{
    finishStep();
    if (!m_world || group < 0 || group >= m_world->groupCount())
        return;
    if (!m_world->setTarget(group, Vec2(static_cast<float>(x), static_cast<float>(y))))
        return;
    InputEvent event;
    event.kind = InputEventKind::Target;
    event.group = m_world->group(group).name;
    event.position = Point2{x, y};
    noteInput(std::move(event));
}

void SimulationController::noteInput(InputEvent event)
{
    const bool branching = m_timeline.following(*m_world);
    m_timeline.note(*m_world, std::move(event));
    if (branching)
        emit timelineChanged();
}

void SimulationController::cutTimeline()
{
    m_timeline.begin(*m_world, false);
    emit timelineChanged();
}

bool SimulationController::seek(std::uint64_t step)
{
    waitForWorld();
    beginChange();
    if (!m_world || m_timeline.isEmpty())
        return false;
    pause();
    applyPendingGeometry();
    const Timeline::SeekResult result = m_timeline.seek(
        *m_world, step, [this] { emit replayedStep(); }, [this] { emit rewound(); });
    if (result.error) {
        m_lastError = qs(result.error->message);
        emit stepped();
        return false;
    }
    // B starts again from here, as if started now.
    if (m_compareWorld) {
        if (rebaseCompare())
            m_compareParams.clear();
        emit compareChanged();
    }
    // The watches saw another past: they start again from here.
    m_problemWatch.reset();
    m_checks.reset();
    restartChecks();
    m_pointer = m_world->pointer().position;
    m_pointerPressed = m_world->pointer().pressed;
    emit timelineChanged();
    emit stepped();
    return true;
}

void SimulationController::stepBack()
{
    finishStep();
    if (m_world && m_world->stepCount() > m_timeline.firstKept())
        seek(m_world->stepCount() - 1);
}

void SimulationController::branchHere()
{
    beginChange();
    if (!m_world || !m_timeline.following(*m_world))
        return;
    takeDocumentParams();
    m_timeline.branch(*m_world); // when no parameter differed
    emit timelineChanged();
}

void SimulationController::takeDocumentParams()
{
    const SceneDesc& scene = m_document->scene();
    if (scene.groups.size() != static_cast<std::size_t>(m_world->groupCount()))
        return;
    for (std::size_t g = 0; g < scene.groups.size(); ++g) {
        const GroupDesc& desc = scene.groups[g];
        const std::vector<ParamSpec>& specs = paramSpecs(desc.kind);
        const int group = static_cast<int>(g);
        if (m_world->group(group).kind != desc.kind || desc.params.size() != specs.size())
            continue;
        for (std::size_t p = 0; p < specs.size(); ++p) {
            if (m_world->param(group, specs[p].key) == desc.params[p] ||
                m_world->setParam(group, static_cast<int>(p), desc.params[p]))
                continue;
            InputEvent event;
            event.kind = InputEventKind::Set;
            event.group = m_world->group(group).name;
            event.key = specs[p].key;
            event.value = desc.params[p];
            noteInput(std::move(event));
        }
    }
    const std::vector<ParamSpec>& specs = playerParamSpecs();
    const PlayerDesc& player = scene.player;
    for (std::size_t p = 0; p < specs.size() && p < player.params.size(); ++p) {
        if (m_world->playerParam(specs[p].key) == player.params[p] ||
            m_world->setPlayerParam(static_cast<int>(p), player.params[p]))
            continue;
        InputEvent event;
        event.kind = InputEventKind::PlayerSet;
        event.key = specs[p].key;
        event.value = player.params[p];
        noteInput(std::move(event));
    }
}

std::optional<Recording> SimulationController::recording()
{
    waitForWorld();
    beginChange();
    const CheckedScene* checked = m_document->checkedScene();
    if (!m_world || !m_timeline.recordable() || m_geometryEdited || !checked)
        return std::nullopt;
    const std::uint64_t at = m_world->stepCount();
    const std::uint64_t head = m_timeline.head();
    if (at != head && !seek(head))
        return std::nullopt;
    Recording recording = m_timeline.recording(m_recordScene, m_world->stateHash());
    recording.scene.walls = checked->scene().walls;
    recording.scene.obstacles = checked->scene().obstacles;
    if (at != head)
        seek(at);
    return recording;
}

void SimulationController::loadRecording(const Recording& recording)
{
    waitForWorld();
    beginChange();
    if (!m_world || m_world->stepCount() != 0)
        return;
    m_timeline.load(*m_world, recording);
    emit timelineChanged();
}

int SimulationController::takeDueSteps(double realSeconds)
{
    const double dt = static_cast<double>(m_world->dt());
    m_accumulator += realSeconds * m_speed;
    const int cap = maxStepsPerTick();
    // The world's dt is a float: allow for its rounding so a tick of exactly dt is one step.
    const double due = dt * (1.0 - 1e-4);
    int steps = 0;
    while (m_accumulator >= due && steps < cap) {
        m_accumulator -= dt;
        ++steps;
    }
    if (m_accumulator >= due)
        m_accumulator = 0.0; // behind by more than the cap: drop the backlog, don't spiral
    return steps;
}

int SimulationController::advance(double realSeconds)
{
    if (!m_world || realSeconds <= 0.0)
        return 0;
    beginChange();
    applyPendingGeometry();
    applyPendingPointer();
    const int steps = takeDueSteps(realSeconds);
    stepHere(steps);
    return steps;
}

void SimulationController::tick()
{
    const double elapsed =
        std::min(static_cast<double>(m_clock.nsecsElapsed()) / 1e9, kMaxTickSeconds);
    m_clock.restart();
    ++m_fpsTicks;
    // The steps the last tick started are shown now (their frame was painted meanwhile: the
    // view is one tick behind the world, never between two steps).
    settle();
    int steps = 0;
    if (!m_stepsBesidePaint) {
        steps = advance(elapsed);
    } else if (m_world && elapsed > 0.0) {
        applyPendingGeometry();
        steps = takeDueSteps(elapsed);
        if (steps > 0)
            startSteps(steps);
    }
    if (m_world)
        m_rateSimSeconds += steps * static_cast<double>(m_world->dt());
    const double window = static_cast<double>(m_fpsClock.nsecsElapsed()) / 1e9;
    if (window >= kFpsWindowSeconds) {
        m_fps = m_fpsTicks / window;
        m_realRate = m_rateSimSeconds / window;
        m_fpsTicks = 0;
        m_rateSimSeconds = 0.0;
        m_fpsClock.restart();
    }
}

void SimulationController::onDocumentChanged(const Change& change)
{
    beginChange();
    if (m_buildRunning) {
        // The world being built has the level as it was: walls reach it at its first step,
        // as they reach a paused world; anything else needs it built again.
        const bool geometry = change.kind == ChangeKind::Bounds ||
                              change.kind == ChangeKind::Walls ||
                              change.kind == ChangeKind::Obstacles;
        if (geometry)
            m_geometryPending = true;
        else
            m_rebuildWanted = true;
        return;
    }
    const SceneDesc& scene = m_document->scene();
    // Everything below edits the running world in place; that needs a world whose groups
    // still line up with the document's.
    if (!m_world || scene.groups.size() != m_built.groups.size()) {
        restart();
        return;
    }
    switch (change.kind) {
    case ChangeKind::Bounds:
    case ChangeKind::Walls:
    case ChangeKind::Obstacles:
        m_geometryEdited = true;
        if (m_playing) {
            applyGeometry();
        } else {
            m_geometryPending = true;
            // The status still says at once whether the new geometry can be used.
            const std::optional<Error>& error = m_document->sceneError();
            m_lastError = error ? qs(error->message) : QString();
        }
        return;
    case ChangeKind::GroupParams:
        if (!applyGroupParam(change.index, change.paramIndex))
            restart();
        return;
    case ChangeKind::Player:
        if (!applyPlayer(change.paramIndex))
            restart();
        return;
    case ChangeKind::Groups:
        if (change.index < 0 || change.index >= static_cast<int>(scene.groups.size()) ||
            !applyGroupInPlace(change.index))
            restart();
        return;
    case ChangeKind::Checks:
        // The world does not run on them: only the runner watching it starts again.
        restartChecks();
        return;
    case ChangeKind::SceneReset:
    case ChangeKind::Pickups:
    case ChangeKind::Simulation:
        // The pickups, the step and the seed are the world's starting state.
        restart();
        return;
    }
}

bool SimulationController::applyGroupParam(int group, int paramIndex)
{
    const SceneDesc& scene = m_document->scene();
    if (group < 0 || group >= static_cast<int>(scene.groups.size()))
        return false;
    const GroupDesc& desc = scene.groups[static_cast<std::size_t>(group)];
    if (desc.kind != m_built.groups[static_cast<std::size_t>(group)].kind)
        return false;
    const std::vector<ParamSpec>& specs = paramSpecs(desc.kind);
    auto note = [&](std::size_t p) {
        InputEvent event;
        event.kind = InputEventKind::Set;
        event.group = m_world->group(group).name;
        event.key = specs[p].key;
        event.value = desc.params[p];
        noteInput(std::move(event));
    };
    if (paramIndex < 0) { // every parameter at once (a preset): the rules see the whole new set
        if (desc.params.size() != specs.size())
            return false;
        std::vector<double> before(specs.size());
        for (std::size_t p = 0; p < specs.size(); ++p)
            before[p] = m_world->param(group, specs[p].key);
        if (m_world->setParams(group, desc.params))
            return false;
        for (std::size_t p = 0; p < specs.size(); ++p)
            if (before[p] != desc.params[p])
                note(p);
        return true;
    }
    const auto p = static_cast<std::size_t>(paramIndex);
    if (p >= desc.params.size() || p >= specs.size() ||
        m_world->setParam(group, paramIndex, desc.params[p]))
        return false;
    note(p);
    return true;
}

bool SimulationController::applyPlayer(int paramIndex)
{
    const SceneDesc& scene = m_document->scene();
    const PlayerDesc& player = scene.player;
    const std::vector<ParamSpec>& specs = playerParamSpecs();
    auto note = [&](std::size_t p) {
        InputEvent event;
        event.kind = InputEventKind::PlayerSet;
        event.key = specs[p].key;
        event.value = player.params[p];
        noteInput(std::move(event));
    };
    if (paramIndex >= 0) {
        const auto p = static_cast<std::size_t>(paramIndex);
        if (p >= player.params.size() || p >= specs.size() ||
            m_world->setPlayerParam(paramIndex, player.params[p]))
            return false;
        note(p);
        return true;
    }
    // The whole player: its start and the group it leads are the world's starting state; a
    // rename of that group, and its parameters, apply in place.
    PlayerDesc& built = m_built.player;
    if (player.enabled != built.enabled || player.position != built.position ||
        player.heading != built.heading || player.params.size() != playerParamSpecs().size() ||
        resolvePlayerGroup(scene) != m_builtPlayerGroup)
        return false;
    for (std::size_t i = 0; i < player.params.size(); ++i) {
        const double before = m_world->playerParam(specs[i].key);
        if (m_world->setPlayerParam(static_cast<int>(i), player.params[i]))
            return false;
        if (before != player.params[i])
            note(i);
    }
    built.group = player.group;
    return true;
}

void SimulationController::applyPendingGeometry()
{
    if (!m_geometryPending)
        return;
    m_geometryPending = false;
    applyGeometry();
}

void SimulationController::applyGeometry()
{
    const CheckedScene* checked = m_document->checkedScene();
    if (!checked) {
        // The world keeps its old walls; the message says why the new ones were refused.
        m_lastError = qs(m_document->sceneError()->message);
        return;
    }
    m_world->replaceGeometry(*checked);
    m_lastError.clear();
    cutTimeline();
    stopCompare(); // B has the old walls
}

bool SimulationController::applyGroupInPlace(int group)
{
    const SceneDesc& scene = m_document->scene();
    const GroupDesc& desc = scene.groups[static_cast<std::size_t>(group)];
    GroupDesc& built = m_built.groups[static_cast<std::size_t>(group)];
    const int chase = desc.chase.empty() ? -1 : scene.groupIndex(desc.chase);
    if (desc.kind != built.kind || desc.spawn != built.spawn || !(desc.agents == built.agents) ||
        chase != m_builtChase[static_cast<std::size_t>(group)])
        return false;
    if (desc.collision != built.collision) {
        if (m_world->setCollision(group, desc.collision))
            return false; // the document checked it; a refusal rebuilds and reports there
        built.collision = desc.collision;
        cutTimeline();
    }
    if (desc.target != built.target) {
        if (!desc.target)
            return false;
        setTarget(group, desc.target->x, desc.target->y);
    }
    built.name = desc.name;
    built.color = desc.color;
    built.accent = desc.accent;
    built.target = desc.target;
    built.chase = desc.chase;
    // Document::setGroup keeps the parameters (and a new family rebuilt above).
    return true;
}

} // namespace shoal::ui
