// The SteerSuite case reader (app/cli/steersuitecase.h) by itself: the axis convention,
// goals, groups and checks it makes, the warnings for what does not map, one scene per
// seed, and the place and wording of every refusal.

#include "steersuitecase.h"

#include <QtTest>

#include <string>

using namespace shoal;
using namespace shoal::cli;

namespace {

/// A case with `body` after a header of world bounds -20..20 and `criteria`.
std::string caseWith(const std::string& body, const std::string& criteria = std::string())
{
    return "<SteerBenchTestCase xmlns=\"http://www.magix.ucla.edu/steerbench\">\n"
           "<header><version>1.0</version><name>t</name>\n"
           "<worldBounds><xmin>-20</xmin><xmax>20</xmax><ymin>0</ymin><ymax>0</ymax>"
           "<zmin>-20</zmin><zmax>20</zmax></worldBounds>\n" +
           (criteria.empty() ? std::string()
                             : "<passingCriteria>" + criteria + "</passingCriteria>\n") +
           "</header>\n" + body + "</SteerBenchTestCase>\n";
}

std::string agent(const std::string& position, const std::string& direction,
                  const std::string& goals, const std::string& radius = "0.5")
{
    return "<agent><initialConditions><radius>" + radius + "</radius><position>" + position +
           "</position><direction>" + direction +
           "</direction><speed>0</speed></initialConditions><goalSequence>" + goals +
           "</goalSequence></agent>\n";
}

std::string seek(const std::string& target, const std::string& speed = "1.3")
{
    return "<seekStaticTarget><targetLocation>" + target + "</targetLocation><desiredSpeed>" +
           speed + "</desiredSpeed><timeDuration>1000</timeDuration></seekStaticTarget>";
}

std::string xyz(double x, double y, double z)
{
    return "<x>" + std::to_string(x) + "</x><y>" + std::to_string(y) + "</y><z>" +
           std::to_string(z) + "</z>";
}

bool anyContains(const std::vector<std::string>& lines, const std::string& part)
{
    for (const std::string& line : lines)
        if (line.find(part) != std::string::npos)
            return true;
    return false;
}

} // namespace

/// The reader's cases, one slot per promise of steersuitecase.h and docs/cli.md, "import".
class TestSteerSuiteCase : public QObject
{
    Q_OBJECT

private slots:
    void axesHeadingsAndGoals();
    void groupsByRadiusAndSpeed();
    void criteriaBecomeChecks();
    void whatDoesNotMapIsReported();
    void randomPartsFollowTheSeed();
    void refusals_data();
    void refusals();
};

void TestSteerSuiteCase::axesHeadingsAndGoals()
{
    const std::string text =
        caseWith("<obstacle><xmin>1</xmin><xmax>3</xmax><ymin>0</ymin><ymax>1</ymax><zmin>4</zmin>"
                 "<zmax>6</zmax></obstacle>\n" +
                 agent(xyz(2, 0, 5), xyz(0, 0, 1), seek(xyz(-4, 0, -3))));
    const auto imported = importSteerSuiteCase(text, "a.xml", 1);
    QVERIFY2(imported.ok(), imported.ok() ? "" : imported.error().message.c_str());
    const SceneDesc& scene = imported->scene;
    // SteerSuite (x, z) is Shoal (x, -z): bounds, positions, goals and boxes alike.
    QCOMPARE(scene.bounds.min, (Point2{-20, -20}));
    QCOMPARE(scene.bounds.max, (Point2{20, 20}));
    QCOMPARE(scene.groups.size(), std::size_t(1));
    const GroupDesc& group = scene.groups[0];
    QCOMPARE(group.kind, BehaviourKind::TankSquad);
    QCOMPARE(group.agents.size(), std::size_t(1));
    QCOMPARE(group.agents[0].position, (Point2{2, -5}));
    QVERIFY(group.agents[0].goal);
    QCOMPARE(*group.agents[0].goal, (Point2{-4, 3}));
    // Facing +z is facing -y: a turn of the plane, so -90 degrees.
    QCOMPARE(group.agents[0].heading, -90.0);
    QCOMPARE(scene.obstacles.size(), std::size_t(1));
    const std::vector<Point2> corners = {{1, -6}, {3, -6}, {3, -4}, {1, -4}};
    QCOMPARE(scene.obstacles[0].points, corners);
    QVERIFY(!scene.player.enabled);
    QVERIFY(checkScene(scene).ok());
}

void TestSteerSuiteCase::groupsByRadiusAndSpeed()
{
    const std::string text =
        caseWith(agent(xyz(0, 0, 0), xyz(1, 0, 0), seek(xyz(5, 0, 0), "1.3")) +
                 agent(xyz(0, 0, 3), xyz(1, 0, 0), seek(xyz(5, 0, 3), "2")) +
                 agent(xyz(0, 0, 6), xyz(1, 0, 0), seek(xyz(5, 0, 6), "1.3"), "0.4") +
                 agent(xyz(0, 0, 9), xyz(1, 0, 0), seek(xyz(5, 0, 9), "1.3")));
    const auto imported = importSteerSuiteCase(text, "g.xml", 1);
    QVERIFY(imported.ok());
    const auto& groups = imported->scene.groups;
    QCOMPARE(groups.size(), std::size_t(3));
    QCOMPARE(groups[0].name, std::string("walkers"));
    QCOMPARE(groups[1].name, std::string("walkers2"));
    QCOMPARE(groups[0].agents.size(), std::size_t(2)); // the first and the last agent
    const auto& specs = paramSpecs(BehaviourKind::TankSquad);
    const auto param = [&](const GroupDesc& g, const char* key) {
        return g.params[static_cast<std::size_t>(paramIndex(specs, key))];
    };
    QCOMPARE(param(groups[0], "moveSpeed"), 1.3);
    QCOMPARE(param(groups[1], "moveSpeed"), 2.0);
    QCOMPARE(param(groups[2], "radius"), 0.4);
    QCOMPARE(param(groups[2], "arriveDistance"), 0.4);
    QCOMPARE(param(groups[0], "reverseDistance"), 0.0);
}

void TestSteerSuiteCase::criteriaBecomeChecks()
{
    const std::string text =
        caseWith(agent(xyz(0, 0, 0), xyz(1, 0, 0), seek(xyz(13, 0, 0))),
                 "Every agent must reach its goal; there should be no collisions. It looks calm.");
    const auto imported = importSteerSuiteCase(text, "c.xml", 1);
    QVERIFY(imported.ok());
    const auto& checks = imported->scene.checks;
    QCOMPARE(checks.size(), std::size_t(2));
    QCOMPARE(checks[0].metric, std::string("walkers.atGoal"));
    QCOMPARE(checks[0].compare, CheckCompare::Equals);
    QCOMPARE(checks[0].valueMetric, std::string("walkers.agents"));
    QCOMPARE(checks[0].window, CheckWindow::By);
    QCOMPARE(checks[0].seconds, 40.0); // 3 x (13 m / 1.3 m/s) + 10 s
    QCOMPARE(checks[1].metric, std::string("all.penetrations"));
    QCOMPARE(checks[1].compare, CheckCompare::AtMost);
    QCOMPARE(checks[1].value, 0.0);
    QVERIFY(
        anyContains(imported->warnings, "passing criterion \"It looks calm\" is not recognised"));
    // Goals to reach but none that maps: said, not a check that could never pass.
    const auto idle = importSteerSuiteCase(
        caseWith(agent(xyz(0, 0, 0), xyz(1, 0, 0),
                       "<idle><desiredSpeed>0</desiredSpeed><timeDuration>5</timeDuration></idle>"),
                 "All agents reach their goals."),
        "i.xml", 1);
    QVERIFY(idle.ok());
    QVERIFY(idle->scene.checks.empty());
    QVERIFY(anyContains(idle->warnings, "asks for goals reached, but no agent has a goal"));
}

void TestSteerSuiteCase::whatDoesNotMapIsReported()
{
    const std::string text = caseWith(
        agent(xyz(0, 2, 0), xyz(1, 0, 0),
              "<fleeStaticTarget><targetLocation>" + xyz(1, 0, 1) +
                  "</targetLocation><desiredSpeed>1</desiredSpeed><timeDuration>9</timeDuration>"
                  "</fleeStaticTarget>" +
                  seek(xyz(3, 0, 3))) +
        "<suggestedCameraView><position>" + xyz(0, 9, 0) + "</position><lookat>" + xyz(0, 0, 0) +
        "</lookat><up>" + xyz(0, 1, 0) + "</up></suggestedCameraView>\n<mystery/>\n");
    const auto imported = importSteerSuiteCase(text, "w.xml", 1);
    QVERIFY(imported.ok());
    const auto& w = imported->warnings;
    QVERIFY(anyContains(w, "y coordinates (heights) are dropped"));
    QVERIFY(anyContains(w, "<fleeStaticTarget> is not supported"));
    QVERIFY(anyContains(w, "goal <seekStaticTarget> after the first is dropped"));
    QVERIFY(anyContains(w, "<suggestedCameraView> is dropped"));
    QVERIFY(anyContains(w, "w.xml:7:1: <mystery> is not part of SteerSuite's test case format"));
    // The fleeing agent gets no goal: it keeps still rather than seek its second goal.
    QVERIFY(!imported->scene.groups[0].agents[0].goal);
}

void TestSteerSuiteCase::randomPartsFollowTheSeed()
{
    const std::string text = caseWith(
        "<obstacleRegion><numObstacles>5</numObstacles><regionBounds><xmin>-5</xmin>"
        "<xmax>5</xmax><ymin>0</ymin><ymax>0</ymax><zmin>-5</zmin><zmax>5</zmax>"
        "</regionBounds><obstacleSize>1</obstacleSize><obstacleHeight>1</obstacleHeight>"
        "</obstacleRegion>\n"
        "<agentRegion><numAgents>6</numAgents><regionBounds><xmin>-15</xmin><xmax>-10</xmax>"
        "<ymin>0</ymin><ymax>0</ymax><zmin>-5</zmin><zmax>5</zmax></regionBounds>"
        "<initialConditions><direction><random>true</random></direction><radius>0.5</radius>"
        "<speed>0</speed></initialConditions><goalSequence>" +
        seek("<random>true</random>") + "</goalSequence></agentRegion>\n");
    const auto a = importSteerSuiteCase(text, "r.xml", 1);
    const auto b = importSteerSuiteCase(text, "r.xml", 1);
    const auto c = importSteerSuiteCase(text, "r.xml", 2);
    QVERIFY(a.ok() && b.ok() && c.ok());
    QVERIFY(a->scene == b->scene);
    QVERIFY(a->scene != c->scene);
    QCOMPARE(a->scene.obstacles.size(), std::size_t(5));
    QCOMPARE(a->scene.groups[0].agents.size(), std::size_t(6));
    for (const AgentDesc& agent : a->scene.groups[0].agents) {
        QVERIFY(agent.position.x >= -15 && agent.position.x <= -10);
        QVERIFY(agent.position.y >= -5 && agent.position.y <= 5);
        QVERIFY(agent.goal);
    }
    QVERIFY(checkScene(a->scene).ok());
}

void TestSteerSuiteCase::refusals_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("not XML") << QStringLiteral("<SteerBenchTestCase>\n<header>\n</heade>\n")
                             << QStringLiteral("x.xml:3:");
    QTest::newRow("empty") << QString() << QStringLiteral("x.xml:1:1:");
    QTest::newRow("another root")
        << QStringLiteral("<?xml version=\"1.0\"?>\n  <scene/>\n")
        << QStringLiteral(
               "x.xml:2:3: the root element is <scene>, not SteerSuite's <SteerBenchTestCase>");
    QTest::newRow("no header") << QStringLiteral("<SteerBenchTestCase>\n</SteerBenchTestCase>")
                               << QStringLiteral(
                                      "x.xml:1:1: <SteerBenchTestCase> needs a <header> element");
    QTest::newRow("a word for a number")
        << QString::fromStdString(
               caseWith(agent(xyz(0, 0, 0), xyz(1, 0, 0), seek(xyz(1, 0, 1)), "wide")))
        << QStringLiteral("x.xml:5:27: <radius> must be a finite number, got \"wide\"");
    QTest::newRow("inside-out box")
        << QString::fromStdString(caseWith(
               "<obstacle><xmin>3</xmin><xmax>1</xmax><ymin>0</ymin><ymax>1</ymax><zmin>0</zmin>"
               "<zmax>1</zmax></obstacle>\n"))
        << QStringLiteral("x.xml:5:1: <obstacle> is inside out: xmin 3, xmax 1");
    QTest::newRow("zero radius") << QString::fromStdString(caseWith(
                                        agent(xyz(0, 0, 0), xyz(1, 0, 0), seek(xyz(1, 0, 1)), "0")))
                                 << QStringLiteral("x.xml:5:27: <radius> must be above 0, got 0");
    QTest::newRow("a goal with no target")
        << QString::fromStdString(caseWith(
               agent(xyz(0, 0, 0), xyz(1, 0, 0),
                     "<seekStaticTarget><desiredSpeed>1</desiredSpeed></seekStaticTarget>")))
        << QStringLiteral("<seekStaticTarget> needs a <targetLocation> element");
    QTest::newRow("random that is not true")
        << QString::fromStdString(
               caseWith(agent("<random>false</random>", xyz(1, 0, 0), seek(xyz(1, 0, 1)))))
        << QStringLiteral("<random> must be true, got \"false\"");
}

void TestSteerSuiteCase::refusals()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    const auto imported = importSteerSuiteCase(text.toStdString(), "x.xml", 1);
    QVERIFY(!imported.ok());
    const QString message = QString::fromStdString(imported.error().message);
    QVERIFY2(message.startsWith(QStringLiteral("x.xml:")), qPrintable(message));
    QVERIFY2(message.contains(expected),
             qPrintable(QStringLiteral("expected \"%1\" in: %2").arg(expected, message)));
}

QTEST_GUILESS_MAIN(TestSteerSuiteCase)
#include "test_steersuitecase.moc"
