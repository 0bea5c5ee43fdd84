#pragma once
/// Runs the simulation for the editor: owns the running World (built from the Document's
/// scene, separate from it), advances it in fixed steps from a timer with an accumulator,
/// and applies parameter edits to the running world at once. Play/Pause, Step, Restart and
/// the speed factor never touch the undo stack; undo never rewinds the simulation.
///
/// While it plays, the steps of a tick run on a thread of their own (SteppingThread) and the
/// GUI thread meanwhile paints the frame of the tick before: each job ends by copying the
/// world's frame (World::copyFrame) into the back buffer, the next tick collects the job,
/// swaps the buffers and announces stepped(). The agents drawn, the inspector, the plots and
/// the status bar all show the same step. Anything that reads or changes the world through
/// this class first waits for a job under way, so the world is never touched by two threads.

#include "simulation/steppingthread.h"
#include "timeline/timeline.h"

#include <shoal/checks.h>
#include <shoal/problems.h>
#include <shoal/scenedesc.h>
#include <shoal/world.h>
#include <shoal/worldframe.h>

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QObject>
#include <QTimer>

#include <memory>
#include <optional>

namespace shoal::ui {

class Document;
struct Change;

class SimulationController : public QObject
{
    Q_OBJECT

public:
    explicit SimulationController(Document* document, QObject* parent = nullptr);
    ~SimulationController() override;

    /// The running world, or null when the scene cannot be built (lastError() says why) or
    /// while it is being built (isBuilding()).
    World* world()
    {
        finishStep();
        return m_world.get();
    }
    const World* world() const
    {
        finishStep();
        return m_world.get();
    }
    /// What the views draw of the running world (and of B while comparing): the frame the
    /// last step left, copied out of the world so it can be painted while the next steps run.
    /// Valid until the next stepped(), worldRebuilt() or compareChanged(); null without a
    /// world.
    const WorldFrame* frame() const;
    const WorldFrame* compareFrame() const;
    /// Whether a tick's steps may run on the stepping thread while the view paints (default
    /// true). A view that reads the live world while it paints (the debug overlays) turns it
    /// off: the steps then run on the GUI thread between paints.
    void setStepsBesidePaint(bool allowed);
    /// Whether the frames carry the worms' ribbon edges (World::copyFrame): only while a
    /// view is near enough to draw ribbons (default true). From the next frame on.
    void setFrameOutlines(bool wanted) { m_frameOutlines = wanted; }
    bool stepsBesidePaint() const { return m_stepsBesidePaint; }
    /// Waits for steps under way on the stepping thread and announces the steps not yet
    /// announced (stepped(), and checksRestarted() when they decided the checks): the world
    /// is then at rest until the next tick.
    void settle();
    QString lastError() const { return m_lastError; }
    /// Group `group` of the running world once it has left its first step, else null: a world
    /// just built (or restarted) still shows the level as authored.
    /// What the built world says `group`'s spawn could not do (World::warnings(), one per
    /// line), empty when nothing or when the world runs another list of groups.
    QString spawnWarning(int group) const;
    const GroupState* runningGroup(int group) const;

    /// A big level's world is built off the UI thread, so the level shows and can be edited
    /// at once: until it is ready world() is null, Play and Step wait, and worldRebuilt()
    /// announces it. Edits made meanwhile reach it as they would a paused world (walls at
    /// its first step, anything else by building it again).
    bool isBuilding() const { return m_buildRunning; }
    /// Blocks until a background build has finished and its world is in place (tests, the
    /// bench, and Play pressed before it is ready).
    void waitForWorld();
    /// Levels with at least this many walls and obstacles are built in the background
    /// (default kBackgroundBuildElements); tests lower it to build small levels that way.
    void setBackgroundBuildThreshold(std::size_t elements) { m_backgroundThreshold = elements; }
    static constexpr std::size_t kBackgroundBuildElements = 20000;

    bool isPlaying() const { return m_playing; }
    /// Simulation speed factor, 0.25 to 4.
    double speed() const { return m_speed; }

    /// Whether the running world measures its group metrics (World::setMetricsEnabled), and
    /// every how many steps: off unless someone shows them (the metrics dock), as at 100,000
    /// agents they cost about as much as a step. Kept for every world built later.
    void setMetricsWanted(bool wanted, int everySteps = 1);
    /// Watch for problems (stuck, oscillating, overlapping agents...) while `wanted`: the
    /// watch observes every step then, and costs nothing otherwise.
    void setProblemsWanted(bool wanted);
    bool problemsWanted() const { return m_problemsWanted; }
    ProblemWatch& problemWatch()
    {
        finishStep();
        return m_problemWatch;
    }
    /// The agent whose rules the world reports (World::setInspected), kept for the worlds
    /// built after; a group of -1: none.
    void setInspected(int group, std::uint32_t id);
    /// The problems of the world now (none while not wanted or without a world).
    const std::vector<Problem>& problems();
    bool metricsWanted() const { return m_metricsWanted; }

    /// The scene's checks watched on the running world (CheckRunner): started with each world
    /// and again when the checks change, fed after every step (the world then measures every
    /// step), decided when a run watched from its start reaches CheckRunner::secondsNeeded (the
    /// length of a `shoal-cli check` run) or when decideChecks() is called. Null without checks or
    /// world, or when the checks name a group the world lacks (checksError() says which).
    const CheckRunner* checkRunner() const
    {
        finishStep();
        return m_checks ? &*m_checks : nullptr;
    }
    QString checksError() const { return m_checksError; }
    /// The simulated time the runner began watching at (0 for a run watched from its start).
    double checksSince() const { return m_checksSince; }
    /// Whether the runner has decided every check (finish()).
    bool checksDecided() const
    {
        finishStep(); // a job under way decides them
        return m_checksDecided;
    }
    /// The simulated time they were decided at (the world plays on after).
    double checksDecidedAt() const
    {
        finishStep(); // a job under way decides them
        return m_checksDecidedAt;
    }
    /// Decides the checks now, at the world's time (the Checks view's "Decide now").
    void decideChecks();

    /// The run's history (timeline/timeline.h): every step the world made since it was built
    /// (or since its walls or collision rules last changed) can be shown again.
    const Timeline& timeline() const
    {
        finishStep();
        return m_timeline;
    }
    /// Sets how much memory the timeline's snapshots may take (Timeline::setBudgetBytes).
    void setTimelineBudget(std::size_t bytes) { m_timeline.setBudgetBytes(bytes); }
    /// Whether the world is behind the timeline's head, following the input logged there.
    bool isReplaying() const
    {
        finishStep();
        return m_world && m_timeline.following(*m_world);
    }
    /// Puts the paused world at `step` of the timeline (clamped to what it keeps): the world
    /// exactly as the run had it there. Pauses a playing world. False (lastError() says why)
    /// when a snapshot was refused.
    bool seek(std::uint64_t step);
    /// One step back along the timeline (paused).
    void stepBack();
    /// Drops the timeline's future after the world's step, so the run goes on live from
    /// here: the mouse steers again, and parameters whose panel values differ from the
    /// world's there take the panel's values (an edit at this step, like any other).
    void branchHere();
    /// The timeline as a recording of the scene the world was built from, its head's hash
    /// included (the world is taken to the head and back to compute it). Nothing when the
    /// timeline is not recordable (Timeline::recordable()).
    std::optional<Recording> recording();
    /// After the document was given `recording`'s scene (and a world built from it): the
    /// recording's input and length become the timeline's future, to scrub or play.
    void loadRecording(const Recording& recording);

    /// A/B compare: a second world, B, that starts as the running world (A) is now and runs
    /// beside it with some parameters set otherwise, given the same pointer, targets and
    /// every other parameter A runs with. The view draws B as a ghost over A and the plots
    /// draw B's lines beside A's.
    struct CompareParam
    {
        int group = -1;
        int param = -1; ///< paramSpecs(kind) index
        double value = 0.0;
        bool operator==(const CompareParam& o) const
        {
            return group == o.group && param == o.param && value == o.value;
        }
    };
    /// Starts B from A's state now with `params` (each checked as World::setParam checks an
    /// edit; the first refusal is returned and nothing starts). Replaces a B running already.
    std::optional<Error> startCompare(const std::vector<CompareParam>& params);
    void stopCompare();
    /// Sets one of B's parameters while it runs (added to compareParams(), or changed there):
    /// B takes it at its next step, from where it is.
    std::optional<Error> setCompareParam(int group, int param, double value);
    bool isComparing() const { return m_compareWorld != nullptr; }
    const World* compareWorld() const
    {
        finishStep();
        return m_compareWorld.get();
    }
    const std::vector<CompareParam>& compareParams() const { return m_compareParams; }

    /// Milliseconds the last World::step() took, and frames (timer ticks) per second.
    double lastStepMs() const { return m_lastStepMs; }
    double framesPerSecond() const { return m_fps; }
    /// Simulated seconds per real second over the last half second of playing (0 before):
    /// below speed() when the steps take longer than the time they simulate and the
    /// backlog is dropped (maxStepsPerTick).
    double realRate() const { return m_realRate; }
    /// Whether the world falls behind the speed asked for (by more than 5 %).
    bool fallsBehind() const
    {
        return m_playing && m_realRate > 0.0 && m_realRate < 0.95 * m_speed;
    }

    /// Most fixed steps one timer tick may take at the current speed: a slow frame drops the
    /// backlog instead of spiralling into ever longer frames.
    int maxStepsPerTick() const;
    /// Advances the world by `realSeconds` of wall-clock time times the speed factor, in whole
    /// fixed steps (what one timer tick does; tests call it with chosen times). Returns the
    /// number of steps taken.
    int advance(double realSeconds);

public slots:
    void play();
    void pause();
    void togglePlay();
    /// One fixed step (only while paused).
    void stepOnce();
    /// Rebuilds the world from the document's scene.
    void restart();
    void setSpeed(double factor);
    /// Pointer in metres, button state: steers the player and the worms (Play mode).
    void setPointer(double x, double y, bool pressed);
    /// Moves a tank squad's target in the running world.
    void setTarget(int group, double x, double y);

signals:
    /// The world advanced one or more steps (repaint agents, update the status bar).
    void stepped();
    /// Play/pause or speed changed.
    void stateChanged();
    /// A new world was built (restart, new scene); null when the scene is invalid.
    void worldRebuilt();
    /// The check runner started again (a new world, the checks edited) or decided.
    void checksRestarted();
    /// The timeline changed: its head moved, it was cut, a branch dropped its future, or the
    /// world jumped to another step of it (seek).
    void timelineChanged();
    /// seek() is about to replay from an earlier step than the world was at: what was shown
    /// for later steps is not this world's past any more (the plots drop it).
    void rewound();
    /// seek() replayed one step (no repaint is asked for: stepped() follows at the end).
    void replayedStep();
    /// A/B compare started, stopped, or B started again from A (a seek).
    void compareChanged();

private:
    void tick();
    /// A new runner for the document's checks on the running world (see checkRunner()).
    void restartChecks();
    /// Tells the world how often to measure: every step while checks are watched.
    void applyMetricsRate();
    void installWorld(std::shared_ptr<World> world);
    /// One step of the world, observed by the problem watch when it is wanted. Runs on the
    /// stepping thread too: it emits nothing (a decision of the checks is announced later).
    void stepWorld();
    /// Collects the job on the stepping thread, if one runs: its frames become the front
    /// ones, its steps wait for settle(). Const: every getter of the world calls it.
    void finishStep() const;
    /// `steps` steps on this thread, announced at once (Step, and ticks while the steps may
    /// not run beside the paint).
    void stepHere(int steps);
    /// Starts `steps` steps on the stepping thread (the pointer's last move given first).
    void startSteps(int steps);
    /// Gives the world the pointer move setPointer() held back while a job ran.
    void applyPendingPointer();
    /// The part of setPointer() that reaches the world and the timeline.
    void givePointer();
    /// Ends the checks' run at the world's time: data only (see decideChecks()).
    void finishChecks();
    /// Before the world changes on the GUI thread: the job under way is collected and the
    /// frames are copied afresh when next asked for.
    void beginChange()
    {
        finishStep();
        m_frameFresh = false;
    }
    /// The whole fixed steps `realSeconds` of wall-clock time make at the speed factor
    /// (at most maxStepsPerTick()), taken from the accumulator.
    int takeDueSteps(double realSeconds);
    /// An input the world took just now, into the timeline.
    void noteInput(InputEvent event);
    /// The timeline starts again at the world's step (its walls or collision rules changed:
    /// neither is an input the history can replay).
    void cutTimeline();
    /// Gives the world the document's parameter values where they differ (branchHere).
    void takeDocumentParams();
    /// B from A's state now, with its parameters; false (and B stopped) when refused.
    std::optional<Error> rebaseCompare();
    /// Gives B what A took for this step (pointer, targets, parameters B does not set
    /// otherwise) and steps it.
    void stepCompare();
    void onBuildFinished();
    void onDocumentChanged(const Change& change);
    /// Applies the one parameter a change names (the document's value) to the running world;
    /// false when the world refused it (the caller then rebuilds).
    bool applyGroupParam(int group, int paramIndex);
    /// The same for the player's parameter `paramIndex`; for a change of the whole player
    /// (paramIndex -1), true when only what the world takes in place changed.
    bool applyPlayer(int paramIndex);
    void applyGeometry();
    /// Applies a geometry edit made while paused, before the world next steps.
    void applyPendingGeometry();
    /// A group change that only touched what the world does not run on (name, colours) or
    /// the squad target is applied in place; anything else (its spawn, agents, chase,
    /// collision) needs a rebuild.
    bool applyGroupInPlace(int group);

    Document* m_document;
    std::shared_ptr<World> m_world;
    // The stepping thread and the frames it leaves (see the class comment). Mutable: a
    // const getter collects a finished job (finishStep()).
    mutable SteppingThread m_stepper;
    /// Front and back frames of A and of B: [0] and [1], m_front is the front's index.
    mutable WorldFrame m_frames[2];
    mutable WorldFrame m_compareFrames[2];
    mutable int m_front = 0;
    /// The front frames are the world as it is (made by the job just collected); any other
    /// time frame() copies the world afresh.
    mutable bool m_frameFresh = false;
    mutable int m_unannounced = 0;       ///< steps of collected jobs not yet announced
    mutable int m_jobSteps = 0;          ///< steps of the job under way
    mutable qint64 m_jobNanoseconds = 0; ///< what the last job's steps took
    bool m_jobDecidedChecks = false;     ///< a job decided the checks: announce it
    bool m_stepsBesidePaint = true;
    bool m_frameOutlines = true;
    bool m_pointerPending = false; ///< a pointer move waits for the job under way
    /// The background build of a big level's world; its result is taken once.
    QFutureWatcher<std::shared_ptr<World>> m_build;
    bool m_buildRunning = false;
    /// The document changed in a way the running build does not have: build again after it.
    bool m_rebuildWanted = false;
    /// The world was playing when the build began: it plays on once built.
    bool m_resumeAfterBuild = false;
    std::size_t m_backgroundThreshold = kBackgroundBuildElements;
    QString m_lastError;
    QTimer m_timer;
    QElapsedTimer m_clock;
    double m_accumulator = 0.0;
    double m_speed = 1.0;
    bool m_playing = false;
    bool m_metricsWanted = false;
    bool m_problemsWanted = false;
    int m_inspectedGroup = -1;
    std::uint32_t m_inspectedId = 0;
    ProblemWatch m_problemWatch;
    std::optional<CheckRunner> m_checks;
    QString m_checksError;
    double m_checksSince = 0.0;
    bool m_checksDecided = false;
    double m_checksDecidedAt = 0.0;
    int m_metricsEvery = 1;
    double m_lastStepMs = 0.0;
    double m_fps = 0.0;
    double m_realRate = 0.0;
    double m_rateSimSeconds = 0.0; ///< simulated in the current rate window
    QElapsedTimer m_fpsClock;
    int m_fpsTicks = 0;
    /// The groups and player of the scene the running world was built from (nothing else of
    /// it is kept), plus the edits of names, colours, targets
    /// and the player's lead applied in place since: compared with the document to tell an
    /// edit the world takes in place from one that needs a rebuild. Parameters are not kept
    /// up to date here: each edit reaches the world as the document announces it.
    SceneDesc m_built;
    /// The walls, obstacles or bounds changed while paused and the world has the old ones:
    /// rebuilding a big level's geometry takes seconds, and a paused world does not move,
    /// so it is rebuilt once, when it next steps, not on every edit.
    bool m_geometryPending = false;
    /// Per group of m_built, the index of the group it chases (-1: the player), and the
    /// group the player leads: references by index, so a rename needs no rebuild.
    std::vector<int> m_builtChase;
    int m_builtPlayerGroup = -1;
    Vec2 m_pointer;
    bool m_pointerPressed = false;
    Timeline m_timeline;
    /// The scene the running world was built from, without its walls and obstacles (a big
    /// level's would double the memory): a recordable timeline has the document's.
    SceneDesc m_recordScene;
    /// The walls changed in the document since the world was built: no recording.
    bool m_geometryEdited = false;
    std::unique_ptr<World> m_compareWorld; ///< B; null when not comparing
    std::vector<CompareParam> m_compareParams;
};

} // namespace shoal::ui
