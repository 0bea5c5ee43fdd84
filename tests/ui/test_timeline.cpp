// The editor's timeline: scrubbing back to any step shows the world a fresh run shows there
// (the same hash), stepping on behind the head follows what was played, an edit there
// branches, the history stays within its memory budget, walls edited while it runs cut it,
// and a timeline saved as a recording replays to the hash the editor had.

#include "document/commands.h"
#include "document/document.h"
#include "files/scenefiles.h"
#include "metrics/metricshistory.h"
#include "simulation/simulationcontroller.h"
#include "timeline/recordingfiles.h"
#include "timeline/timelinebar.h"

#include <shoal/recording.h>
#include <shoal/world.h>

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <map>

using namespace shoal;
using namespace shoal::ui;

namespace {

/// A swarm chasing the player round a wall, a squad driving to its target, worms crawling
/// at the pointer: every kind of input the timeline logs changes what happens.
SceneDesc timelineScene()
{
    SceneDesc scene;
    scene.name = "timeline";
    scene.bounds = {{-40.0, -25.0}, {40.0, 25.0}};
    scene.walls.push_back({{{0.0, -10.0}, {0.0, 10.0}}, false});
    scene.player = makeDefaultPlayer();
    scene.player.position = {20.0, 0.0};
    GroupDesc swarm = makeDefaultGroup(BehaviourKind::Swarm, "swarm");
    swarm.spawn = SpawnAreaDesc{{{-24.0, -4.0}, {-18.0, 4.0}}, 30};
    scene.groups.push_back(swarm);
    GroupDesc squad = makeDefaultGroup(BehaviourKind::TankSquad, "squad");
    squad.spawn = SpawnAreaDesc{{{-30.0, 12.0}, {-20.0, 20.0}}, 4};
    squad.target = Point2{20.0, 15.0};
    scene.groups.push_back(squad);
    GroupDesc worms = makeDefaultGroup(BehaviourKind::Worm, "worms");
    worms.spawn = SpawnAreaDesc{{{10.0, -20.0}, {30.0, -14.0}}, 3};
    scene.groups.push_back(worms);
    return scene;
}

int swarmParam(const std::string& key)
{
    return paramIndex(paramSpecs(BehaviourKind::Swarm), key);
}

/// Plays `steps` steps the way a user would (step by step, the pointer steered now and then,
/// a parameter dragged, the squad sent elsewhere) and returns the hash after every step.
std::map<std::uint64_t, std::uint64_t> playWithInput(Document& document,
                                                     SimulationController& controller, int steps)
{
    std::map<std::uint64_t, std::uint64_t> hashes;
    hashes[controller.world()->stepCount()] = controller.world()->stateHash();
    for (int s = 0; s < steps; ++s) {
        const std::uint64_t at = controller.world()->stepCount();
        if (at % 40 == 10)
            controller.setPointer(10.0 + static_cast<double>(at % 7), -5.0 + 0.1 * at, true);
        if (at % 40 == 30)
            controller.setPointer(15.0, 5.0, false);
        if (at == 100 || at == 101) // a drag: two edits of one parameter
            document.undoStack()->push(new SetGroupParamCommand(&document, 0, swarmParam("speed"),
                                                                at == 100 ? 5.0 : 6.0, false));
        if (at == 150)
            controller.setTarget(1, -10.0, -15.0);
        controller.stepOnce();
        hashes[controller.world()->stepCount()] = controller.world()->stateHash();
    }
    return hashes;
}

/// The hash a fresh world built from the recording's scene has at `step`, given its input.
std::uint64_t freshRunHash(const Recording& recording, std::uint64_t step)
{
    auto created = World::create(recording.scene);
    if (!created)
        return 0;
    std::unique_ptr<World> world = std::move(*created);
    std::size_t cursor = 0;
    while (world->stepCount() < step) {
        applyInputEvents(*world, recording.input, world->stepCount(), cursor);
        world->step();
    }
    return world->stateHash();
}

SceneFiles::MessagePresenter silentPresenter(QString* said = nullptr)
{
    return [said](QMessageBox::Icon, const QString&, const QString& text,
                  QMessageBox::StandardButtons, QMessageBox::StandardButton) {
        if (said)
            *said = text;
        return QMessageBox::Ok;
    };
}

SceneFiles::FileChooser noFiles()
{
    return [](bool, const QString&) { return QString(); };
}

} // namespace

class TestTimeline : public QObject
{
    Q_OBJECT

private slots:
    void scrubbingShowsWhatAFreshRunShows();
    void steppingBehindTheHeadFollowsWhatWasPlayed();
    void anEditBehindTheHeadBranches();
    void branchHereTakesThePanelsValues();
    void budgetKeepsTheNewestAndScrubbingStopsAtTheOldest();
    void wallsEditedWhileRunningCutTheTimeline();
    void savedRecordingReplaysToTheEditorsHash();
    void openedRecordingScrubsToItsEnd();
    void plotsRewindWithTheWorld();
    void barScrubsWhereItIsPressed();
};

void TestTimeline::scrubbingShowsWhatAFreshRunShows()
{
    Document document;
    document.resetScene(timelineScene(), {});
    SimulationController controller(&document);
    QVERIFY(controller.world());
    const auto hashes = playWithInput(document, controller, 300);
    QCOMPARE(controller.timeline().head(), std::uint64_t(300));
    QVERIFY(controller.timeline().editSteps() ==
            (std::vector<std::uint64_t>{100, 101, 150})); // the drag and the target

    const std::optional<Recording> recording = controller.recording();
    QVERIFY(recording);
    QCOMPARE(recording->steps, std::uint64_t(300));
    QCOMPARE(recording->hash, hashes.at(300));
    for (const std::uint64_t step : {250u, 37u, 0u, 299u, 100u, 101u, 102u, 151u, 300u, 61u}) {
        QVERIFY(controller.seek(step));
        QCOMPARE(controller.world()->stepCount(), std::uint64_t(step));
        QCOMPARE(controller.world()->stateHash(), hashes.at(step));
        QCOMPARE(freshRunHash(*recording, step), hashes.at(step));
    }
    // Step Back walks the same history.
    QVERIFY(controller.seek(120));
    controller.stepBack();
    controller.stepBack();
    QCOMPARE(controller.world()->stateHash(), hashes.at(118));
}

void TestTimeline::steppingBehindTheHeadFollowsWhatWasPlayed()
{
    Document document;
    document.resetScene(timelineScene(), {});
    SimulationController controller(&document);
    const auto hashes = playWithInput(document, controller, 240);
    QVERIFY(controller.seek(90));
    QVERIFY(controller.isReplaying());
    // The logged pointer steers: a move of the mouse meanwhile changes nothing.
    for (int s = 0; s < 70; ++s) {
        controller.setPointer(-30.0, 20.0, false);
        controller.stepOnce();
        QCOMPARE(controller.world()->stateHash(), hashes.at(controller.world()->stepCount()));
    }
    QCOMPARE(controller.timeline().head(), std::uint64_t(240));
    // Stepped on, it reaches the head, then goes on live.
    for (int s = 0; s < 120; ++s)
        controller.stepOnce();
    QCOMPARE(controller.world()->stepCount(), std::uint64_t(160 + 120));
    QCOMPARE(controller.timeline().head(), std::uint64_t(280));
    QVERIFY(!controller.isReplaying());
    QVERIFY(controller.seek(200));
    QCOMPARE(controller.world()->stateHash(), hashes.at(200));
}

void TestTimeline::anEditBehindTheHeadBranches()
{
    Document document;
    document.resetScene(timelineScene(), {});
    SimulationController controller(&document);
    const auto hashes = playWithInput(document, controller, 200);
    QVERIFY(controller.seek(120));
    QSignalSpy changed(&controller, &SimulationController::timelineChanged);
    document.undoStack()->push(
        new SetGroupParamCommand(&document, 0, swarmParam("speed"), 2.0, true));
    QCOMPARE(controller.world()->param(0, "speed"), 2.0);
    QVERIFY(changed.count() >= 1);
    // The future after step 120 is gone; the edit is a mark at 120; the past is kept.
    QCOMPARE(controller.timeline().head(), std::uint64_t(120));
    QVERIFY(!controller.isReplaying());
    QVERIFY(controller.timeline().editSteps() == (std::vector<std::uint64_t>{100, 101, 120}));
    for (int s = 0; s < 30; ++s)
        controller.stepOnce();
    QCOMPARE(controller.timeline().head(), std::uint64_t(150));
    const std::uint64_t branched = controller.world()->stateHash();
    QVERIFY(branched != hashes.at(150)); // the swarm ran at 2 m/s instead of 6
    QVERIFY(controller.seek(110));
    QCOMPARE(controller.world()->stateHash(), hashes.at(110));
    QVERIFY(controller.seek(150));
    QCOMPARE(controller.world()->stateHash(), branched);
    // A recording of the branch replays to it.
    const std::optional<Recording> recording = controller.recording();
    QVERIFY(recording);
    QCOMPARE(freshRunHash(*recording, 150), branched);
}

void TestTimeline::branchHereTakesThePanelsValues()
{
    Document document;
    document.resetScene(timelineScene(), {});
    SimulationController controller(&document);
    const double original = controller.world()->param(0, "speed");
    playWithInput(document, controller, 160);
    QVERIFY(controller.seek(50));
    QCOMPARE(controller.world()->param(0, "speed"), original); // as it was at step 50
    QCOMPARE(document.scene().groups[0].params[static_cast<std::size_t>(swarmParam("speed"))], 6.0);
    controller.branchHere();
    QVERIFY(!controller.isReplaying());
    QCOMPARE(controller.timeline().head(), std::uint64_t(50));
    QCOMPARE(controller.world()->param(0, "speed"), 6.0);
    QVERIFY(controller.timeline().editSteps() == (std::vector<std::uint64_t>{50}));
    // Live again: the pointer steers.
    controller.setPointer(-30.0, 20.0, true);
    QCOMPARE(controller.world()->pointer().position.x, -30.0f);
}

void TestTimeline::budgetKeepsTheNewestAndScrubbingStopsAtTheOldest()
{
    Document document;
    document.resetScene(timelineScene(), {});
    SimulationController controller(&document);
    const std::size_t one = controller.world()->snapshot().size();
    controller.setTimelineBudget(4 * one + one / 2);
    const auto hashes = playWithInput(document, controller, 400);
    const Timeline& timeline = controller.timeline();
    QVERIFY2(timeline.snapshotCount() <= 4, qPrintable(QString::number(timeline.snapshotCount())));
    QVERIFY(timeline.memoryBytes() < 5 * one + 64 * 1024);
    QVERIFY(timeline.firstKept() > 0);
    QVERIFY(timeline.firstKept() % static_cast<std::uint64_t>(timeline.interval()) == 0);
    QVERIFY(controller.seek(0)); // clamped to the oldest step a snapshot covers
    QCOMPARE(controller.world()->stepCount(), timeline.firstKept());
    QCOMPARE(controller.world()->stateHash(), hashes.at(timeline.firstKept()));
    QVERIFY(controller.seek(399));
    QCOMPARE(controller.world()->stateHash(), hashes.at(399));
}

void TestTimeline::wallsEditedWhileRunningCutTheTimeline()
{
    Document document;
    document.resetScene(timelineScene(), {});
    SimulationController controller(&document);
    playWithInput(document, controller, 60);
    QVERIFY(controller.timeline().recordable());
    controller.play();
    document.undoStack()->push(
        new AddWallCommand(&document, -1, WallDesc{{{5.0, -20.0}, {5.0, -12.0}}, false}));
    controller.pause();
    QCOMPARE(controller.timeline().base(), std::uint64_t(60));
    QVERIFY(!controller.timeline().recordable());
    QVERIFY(!controller.recording());
    for (int s = 0; s < 20; ++s)
        controller.stepOnce();
    QVERIFY(controller.seek(10)); // clamped to where the walls changed
    QCOMPARE(controller.world()->stepCount(), std::uint64_t(60));
    // A restart records again.
    controller.restart();
    QVERIFY(controller.timeline().recordable());
    QCOMPARE(controller.timeline().head(), std::uint64_t(0));
}

void TestTimeline::savedRecordingReplaysToTheEditorsHash()
{
    Document document;
    document.resetScene(timelineScene(), {});
    SimulationController controller(&document);
    const auto hashes = playWithInput(document, controller, 180);
    QVERIFY(controller.seek(90)); // saving from the middle saves the whole run
    SceneFiles files(&document, silentPresenter(), noFiles());
    RecordingFiles recordings(&files, &controller, silentPresenter(), noFiles());
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("run.shoalrec"));
    QVERIFY(recordings.saveTo(path));
    QCOMPARE(controller.world()->stepCount(), std::uint64_t(90)); // and stays where it was
    Expected<Recording> loaded = loadRecordingFile(QFile::encodeName(path).toStdString());
    QVERIFY2(loaded, loaded ? "" : loaded.error().message.c_str());
    QCOMPARE(loaded->steps, std::uint64_t(180));
    QCOMPARE(loaded->hash, hashes.at(180));
    QCOMPARE(freshRunHash(*loaded, 180), hashes.at(180));

    // A timeline that cannot be recorded says why and writes nothing.
    QString said;
    RecordingFiles refusing(&files, &controller, silentPresenter(&said), noFiles());
    document.undoStack()->push(
        new AddWallCommand(&document, -1, WallDesc{{{5.0, -20.0}, {5.0, -12.0}}, false}));
    controller.stepOnce();
    const QString second = dir.filePath(QStringLiteral("cut.shoalrec"));
    QVERIFY(!refusing.saveTo(second));
    QVERIFY(said.contains(QStringLiteral("walls")));
    QVERIFY(!QFile::exists(second));
}

void TestTimeline::openedRecordingScrubsToItsEnd()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("run.shoalrec"));
    std::map<std::uint64_t, std::uint64_t> hashes;
    {
        Document document;
        document.resetScene(timelineScene(), {});
        SimulationController controller(&document);
        hashes = playWithInput(document, controller, 160);
        SceneFiles files(&document, silentPresenter(), noFiles());
        RecordingFiles recordings(&files, &controller, silentPresenter(), noFiles());
        QVERIFY(recordings.saveTo(path));
    }
    Document document;
    document.resetScene(SceneFiles::newSceneDesc(), {});
    SimulationController controller(&document);
    SceneFiles files(&document, silentPresenter(), noFiles());
    RecordingFiles recordings(&files, &controller, silentPresenter(), noFiles());
    QVERIFY(recordings.openFile(path));
    QCOMPARE(QString::fromStdString(document.scene().name), QStringLiteral("timeline"));
    QCOMPARE(controller.world()->stepCount(), std::uint64_t(0));
    QCOMPARE(controller.timeline().head(), std::uint64_t(160));
    QVERIFY(controller.isReplaying());
    QVERIFY(controller.seek(160));
    QCOMPARE(controller.world()->stateHash(), hashes.at(160));
    QCOMPARE(*controller.timeline().recordedHash(), hashes.at(160));
    QVERIFY(controller.seek(75));
    QCOMPARE(controller.world()->stateHash(), hashes.at(75));

    // A damaged file is refused with the loader's message, and the level stays.
    QString said;
    RecordingFiles refusing(&files, &controller, silentPresenter(&said), noFiles());
    const QString bad = dir.filePath(QStringLiteral("bad.shoalrec"));
    QFile out(bad);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write("{\"format\": \"shoal-recording\", \"version\": 99}");
    out.close();
    QVERIFY(!refusing.openFile(bad));
    QVERIFY2(said.contains(QStringLiteral("bad.shoalrec")), qPrintable(said));
    QCOMPARE(QString::fromStdString(document.scene().name), QStringLiteral("timeline"));
}

void TestTimeline::plotsRewindWithTheWorld()
{
    MetricsHistory history;
    std::vector<const GroupState*> none;
    for (int s = 0; s <= 60; ++s)
        history.observe(s * 0.05, none);
    QVERIFY(history.latestTime() >= 2.9);
    history.addEdit(2.5, 0, 0, QStringLiteral("g"), QStringLiteral("k"), 1.0, 2.0);
    history.rewindTo(1.0);
    QVERIFY(history.latestTime() <= 1.0 + 1e-9);
    QVERIFY(history.edits().empty());
    for (const MetricSample& sample : history.samples(MetricsHistory::kAllGroups))
        QVERIFY(sample.time <= 1.0 + 1e-9);
    // Observed again from there, as the replay does: the series goes on, not cleared.
    const std::size_t kept = history.samples(MetricsHistory::kAllGroups).size();
    QVERIFY(kept > 0);
    for (int s = 21; s <= 40; ++s)
        history.observe(s * 0.05, none);
    QVERIFY(history.samples(MetricsHistory::kAllGroups).size() > kept);
}

void TestTimeline::barScrubsWhereItIsPressed()
{
    Document document;
    document.resetScene(timelineScene(), {});
    SimulationController controller(&document);
    const auto hashes = playWithInput(document, controller, 200);
    TimelineBar bar(&controller);
    bar.resize(800, 30);
    bar.show();
    QVERIFY(QTest::qWaitForWindowExposed(&bar));
    TimelineStrip* strip = bar.strip();
    const int x = qRound(strip->xOf(50));
    QCOMPARE(strip->stepAt(x), std::uint64_t(50));
    QTest::mouseClick(strip, Qt::LeftButton, {}, QPoint(x, strip->height() / 2));
    QCOMPARE(controller.world()->stepCount(), std::uint64_t(50));
    QCOMPARE(controller.world()->stateHash(), hashes.at(50));
    QVERIFY(bar.positionText().startsWith(QStringLiteral("step 50 ")));
    // Dragged to the end, it is at the head again.
    QTest::mousePress(strip, Qt::LeftButton, {}, QPoint(x, strip->height() / 2));
    QTest::mouseMove(strip, QPoint(strip->width() - 1, strip->height() / 2));
    QTest::mouseRelease(strip, Qt::LeftButton, {}, QPoint(strip->width() - 1, 5));
    QCOMPARE(controller.world()->stepCount(), std::uint64_t(200));
    QCOMPARE(controller.world()->stateHash(), hashes.at(200));
}

QTEST_MAIN(TestTimeline)
#include "test_timeline.moc"
