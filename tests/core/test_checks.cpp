// Checks inside scenes: each comparison and window decides as written (a true check passes, a
// false one fails with the value and the time it failed at), a step where a metric has no value
// decides nothing, "all." combines the groups, and bad checks are refused with their field.

#include "testsupport.h"
#include <shoal/checks.h>
#include <shoal/scenefile.h>
#include <shoal/world.h>

#include <QDir>
#include <QtTest>

#include <cmath>

using namespace shoal;

namespace {

SceneDesc demoScene()
{
    auto scene = loadSceneFile(SHOAL_DEMO_SCENE);
    if (!scene)
        qFatal("%s", scene.error().message.c_str());
    return *scene;
}

CheckDesc makeCheck(const std::string& metric, CheckCompare compare, double value,
                    CheckWindow window = CheckWindow::Always, double seconds = 0.0)
{
    CheckDesc check;
    check.metric = metric;
    check.compare = compare;
    check.value = value;
    check.window = window;
    check.seconds = seconds;
    return check;
}

/// Runs `scene` with `checks` for `seconds` of simulated time and decides them.
CheckRunner runChecks(SceneDesc scene, const std::vector<CheckDesc>& checks, double seconds)
{
    scene.checks = checks;
    auto world = World::create(scene);
    if (!world)
        qFatal("%s", world.error().message.c_str());
    auto runner = CheckRunner::create(checks, **world);
    if (!runner)
        qFatal("%s", runner.error().message.c_str());
    const auto steps = static_cast<int>(std::ceil(seconds / (*world)->dt()));
    for (int s = 0; s < steps; ++s) {
        (*world)->step();
        runner->observe(**world);
    }
    runner->finish(**world);
    return std::move(*runner);
}

/// A scene text with `checks` (JSON) after an empty level.
std::string sceneWithChecks(const std::string& checks)
{
    return R"({"format": "shoal-scene", "version": 3, "bounds": {"min": [-10, -10], "max": [10, 10]},
 "groups": [{"name": "school", "kind": "fishSchool", "spawn": {"min": [-2, -2], "max": [2, 2], "count": 5}}],
 "checks": )" +
           checks + "}";
}

} // namespace

class TestChecks : public QObject
{
    Q_OBJECT

private slots:
    void theDemosChecksPass();
    void theTestScenesChecksPass_data();
    void theTestScenesChecksPass();
    void windowsDecideAsWritten();
    void aFailureSaysWhatAndWhen();
    void aStepWithoutAValueDecidesNothing();
    void allCombinesTheGroups();
    void unknownGroupsAreRefused();
    void checksRoundTripOneToALine();
    void badChecksAreRefused_data();
    void badChecksAreRefused();
};

void TestChecks::theDemosChecksPass()
{
    const SceneDesc demo = demoScene();
    QVERIFY(demo.checks.size() >= 5);
    const CheckRunner runner =
        runChecks(demo, demo.checks, CheckRunner::secondsNeeded(demo.checks));
    for (std::size_t k = 0; k < runner.checks().size(); ++k)
        QVERIFY2(runner.results()[k].state == CheckState::Passed,
                 (describeCheck(runner.checks()[k]) + ": " +
                  describeResult(runner.checks()[k], runner.results()[k]))
                     .c_str());
    QVERIFY(runner.allPassed());
}

void TestChecks::theTestScenesChecksPass_data()
{
    QTest::addColumn<QString>("file");
    const QDir dir(QStringLiteral(SHOAL_TEST_DATA_DIR "/scenes"));
    for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files))
        QTest::newRow(name.toUtf8().constData()) << dir.filePath(name);
}

void TestChecks::theTestScenesChecksPass()
{
    QFETCH(QString, file);
    auto scene = loadSceneFile(file.toStdString());
    QVERIFY2(scene.ok(), scene.ok() ? "" : scene.error().message.c_str());
    if (scene->checks.empty())
        QSKIP("no checks");
    const CheckRunner runner =
        runChecks(*scene, scene->checks, CheckRunner::secondsNeeded(scene->checks));
    for (std::size_t k = 0; k < runner.checks().size(); ++k)
        QVERIFY2(runner.results()[k].state == CheckState::Passed,
                 (describeCheck(runner.checks()[k]) + ": " +
                  describeResult(runner.checks()[k], runner.results()[k]))
                     .c_str());
}

void TestChecks::windowsDecideAsWritten()
{
    // The demo's squad drives to its target and parks there (all six by about 10 s); its
    // school keeps its band. Each condition is written once true and once false.
    CheckDesc parkedBy20 =
        makeCheck("squad.atGoal", CheckCompare::Equals, 0.0, CheckWindow::By, 20);
    parkedBy20.valueMetric = "squad.agents";
    CheckDesc parkedBy2 = parkedBy20;
    parkedBy2.seconds = 2;
    CheckDesc band =
        makeCheck("school.nearestMedian", CheckCompare::Within, 1.5, CheckWindow::After, 5);
    band.high = 2.1;
    CheckDesc tooTight = band;
    tooTight.value = 0.0;
    tooTight.high = 1.0;
    const std::vector<CheckDesc> checks = {
        makeCheck("all.wallCrossings", CheckCompare::Equals, 0),                       // 0 pass
        makeCheck("squad.maxSpeed", CheckCompare::Below, 0.01),                        // 1 fail
        makeCheck("squad.atGoal", CheckCompare::AtLeast, 6, CheckWindow::After, 15),   // 2 pass
        makeCheck("squad.atGoal", CheckCompare::AtLeast, 6, CheckWindow::After, 0),    // 3 fail
        parkedBy20,                                                                    // 4 pass
        parkedBy2,                                                                     // 5 fail
        makeCheck("squad.maxSpeed", CheckCompare::Below, 0.05, CheckWindow::Last, 2),  // 6 pass
        makeCheck("squad.maxSpeed", CheckCompare::Below, 0.05, CheckWindow::Last, 20), // 7 fail
        band,                                                                          // 8 pass
        tooTight,                                                                      // 9 fail
        makeCheck("squad.atGoal", CheckCompare::AtMost, 6, CheckWindow::After, 100),   // 10 fail
        makeCheck("all.maxPenetration", CheckCompare::AtMost, 0.05),                   // 11 pass
        makeCheck("swarm.agents", CheckCompare::Above, 59),                            // 12 pass
        makeCheck("swarm.agents", CheckCompare::Above, 60),                            // 13 fail
    };
    const CheckRunner runner = runChecks(demoScene(), checks, 22.0);
    const std::vector<bool> passes = {true,  false, true,  false, true, false, true,
                                      false, true,  false, false, true, true,  false};
    for (std::size_t k = 0; k < checks.size(); ++k) {
        const CheckState want = passes[k] ? CheckState::Passed : CheckState::Failed;
        QVERIFY2(runner.results()[k].state == want,
                 ("check " + std::to_string(k) + ", " + describeCheck(checks[k]) + ": " +
                  describeResult(checks[k], runner.results()[k]))
                     .c_str());
    }
    QVERIFY(!runner.allPassed());
    // "By" passes at the moment it first holds, not at the end.
    const CheckResult& parked = runner.results()[4];
    QVERIFY(parked.at > 2.0 && parked.at <= 20.0);
    QCOMPARE(parked.value, 6.0);
}

void TestChecks::aFailureSaysWhatAndWhen()
{
    const std::vector<CheckDesc> checks = {
        makeCheck("squad.maxSpeed", CheckCompare::Below, 0.01),
        makeCheck("squad.atGoal", CheckCompare::AtMost, 6, CheckWindow::After, 100),
        makeCheck("squad.atGoal", CheckCompare::Equals, 6, CheckWindow::By, 2),
    };
    const CheckRunner runner = runChecks(demoScene(), checks, 12.0);
    // Always: the first step the tanks moved faster than 0.01 m/s.
    const CheckResult& fast = runner.results()[0];
    QCOMPARE(fast.state, CheckState::Failed);
    QVERIFY(fast.value >= 0.01);
    QVERIFY(fast.at > 0.0 && fast.at < 1.0);
    const std::string text = describeResult(checks[0], fast);
    QVERIFY2(text.find("wanted below 0.01") != std::string::npos, text.c_str());
    QVERIFY2(text.find(" s ") != std::string::npos, text.c_str());
    // A window the run never reached, and a deadline missed, say so.
    QVERIFY2(runner.results()[1].reason.find("before 100 s") != std::string::npos,
             runner.results()[1].reason.c_str());
    QVERIFY2(runner.results()[2].reason.find("did not hold by 2 s") != std::string::npos,
             runner.results()[2].reason.c_str());
}

void TestChecks::aStepWithoutAValueDecidesNothing()
{
    // One tank has no neighbour: its nearest-neighbour distances have no value (NaN), where
    // its speed has one; a check on the distance never passes on a value it did not have.
    SceneDesc scene = test::emptyScene();
    GroupDesc squad = makeDefaultGroup(BehaviourKind::TankSquad, "squad");
    squad.spawn.reset();
    squad.agents.push_back({{0.0, 0.0}, 0.0});
    scene.groups.push_back(squad);
    auto world = World::create(scene);
    QVERIFY(world.ok());
    (*world)->step();
    QVERIFY(std::isnan(*worldMetric(**world, "squad.nearestMin")));
    QVERIFY(std::isnan(*worldMetric(**world, "all.nearestMedian")));
    QVERIFY(!std::isnan(*worldMetric(**world, "squad.meanSpeed")));
    const CheckRunner runner =
        runChecks(scene, {makeCheck("squad.nearestMin", CheckCompare::AtLeast, 0.0)}, 2.0);
    QCOMPARE(runner.results()[0].state, CheckState::Failed);
    QVERIFY2(runner.results()[0].reason.find("no value") != std::string::npos,
             runner.results()[0].reason.c_str());
}

void TestChecks::allCombinesTheGroups()
{
    auto world = World::create(demoScene());
    QVERIFY(world.ok());
    for (int s = 0; s < 120; ++s)
        (*world)->step();
    double agents = 0.0, maxSpeed = 0.0, speedSum = 0.0;
    for (int g = 0; g < (*world)->groupCount(); ++g) {
        const GroupMetrics& m = (*world)->group(g).metrics;
        agents += m.agents;
        maxSpeed = std::max(maxSpeed, static_cast<double>(m.maxSpeed));
        speedSum += static_cast<double>(m.meanSpeed) * m.agents;
    }
    QCOMPARE(*worldMetric(**world, "all.agents"), agents);
    QCOMPARE(*worldMetric(**world, "all.maxSpeed"), maxSpeed);
    QVERIFY(std::abs(*worldMetric(**world, "all.meanSpeed") - speedSum / agents) < 1e-9);
    QCOMPARE(*worldMetric(**world, "school.agents"),
             static_cast<double>((*world)->group((*world)->groupIndex("school")).metrics.agents));
}

void TestChecks::unknownGroupsAreRefused()
{
    auto world = World::create(demoScene());
    QVERIFY(world.ok());
    CheckDesc other = makeCheck("squad.atGoal", CheckCompare::Equals, 0);
    other.valueMetric = "tanks.agents";
    const auto runner =
        CheckRunner::create({makeCheck("squad.atGoal", CheckCompare::Equals, 6), other}, **world);
    QVERIFY(!runner.ok());
    const std::string& message = runner.error().message;
    QVERIFY2(message.find("checks[1].value") != std::string::npos, message.c_str());
    QVERIFY2(message.find("no group 'tanks'") != std::string::npos, message.c_str());
    QVERIFY2(message.find("'school'") != std::string::npos, message.c_str());
}

void TestChecks::checksRoundTripOneToALine()
{
    const SceneDesc demo = demoScene();
    const std::string text = serializeScene(demo);
    auto back = parseScene(text, "demo.json");
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
    QVERIFY(back->checks == demo.checks);
    QVERIFY(
        text.find("\n    {\"name\": \"nobody crosses a wall\", \"metric\": \"all.wallCrossings\", "
                  "\"equals\": 0}") != std::string::npos);
}

void TestChecks::badChecksAreRefused_data()
{
    QTest::addColumn<QString>("checks");
    QTest::addColumn<QString>("message");
    QTest::newRow("no comparison") << R"([{"metric": "school.maxSpeed"}])"
                                   << "checks[0]: needs one comparison";
    QTest::newRow("two comparisons") << R"([{"metric": "school.maxSpeed", "below": 1, "above": 0}])"
                                     << "has both \"below\" and \"above\"";
    QTest::newRow("two windows")
        << R"([{"metric": "school.maxSpeed", "below": 1, "after": 1, "by": 2}])"
        << "has both \"after\" and \"by\"";
    QTest::newRow("within a number") << R"([{"metric": "school.maxSpeed", "within": 3}])"
                                     << "checks[0].within";
    QTest::newRow("within three numbers")
        << R"([{"metric": "school.maxSpeed", "within": [1, 2, 3]}])"
        << "expected [low, high], got 3 numbers";
    QTest::newRow("within high below low")
        << R"([{"metric": "school.maxSpeed", "within": [2, 1]}])"
        << "checks[0].within: [2, 1] must be [low, high] with low <= high";
    QTest::newRow("unknown metric key") << R"([{"metric": "school.speeed", "below": 1}])"
                                        << "checks[0].metric: no metric 'speeed'; metrics: agents";
    QTest::newRow("no group in the name") << R"([{"metric": "maxSpeed", "below": 1}])"
                                          << "must name a group's metric as GROUP.KEY";
    QTest::newRow("negative window")
        << R"([{"metric": "school.maxSpeed", "below": 1, "after": -1}])"
        << "the window's -1 s must be in [0, 86400] s";
    QTest::newRow("unknown key") << R"([{"metric": "school.maxSpeed", "below": 1, "during": 2}])"
                                 << "checks[0]";
    QTest::newRow("value metric unknown")
        << R"([{"metric": "school.atGoal", "equals": "school.everyone"}])"
        << "checks[0].value: no metric 'everyone'";
    QTest::newRow("not a list") << R"({"metric": "school.maxSpeed"})"
                                << "checks";
}

void TestChecks::badChecksAreRefused()
{
    QFETCH(QString, checks);
    QFETCH(QString, message);
    const auto scene = parseScene(sceneWithChecks(checks.toStdString()), "bad.json");
    QVERIFY(!scene.ok());
    QVERIFY2(scene.error().message.find(message.toStdString()) != std::string::npos,
             scene.error().message.c_str());
    QVERIFY2(scene.error().message.find("bad.json") != std::string::npos,
             scene.error().message.c_str());
}

QTEST_GUILESS_MAIN(TestChecks)
#include "test_checks.moc"
