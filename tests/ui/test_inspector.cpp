// The agent inspector through the real view: a click on an agent (paused) inspects it and the
// dock shows what the runtime holds for it; it stays the same agent through the cell-order
// reshuffles (by its stable id); Follow keeps it in the middle of the view; while playing a
// plain click steers and Ctrl+click inspects.

#include "document/document.h"
#include "inspector/agentinspector.h"
#include "inspector/inspectedagent.h"
#include "simulation/simulationcontroller.h"
#include "viewport/sceneview.h"
#include "window/mainwindow.h"

#include "uitestsupport.h"

#include <shoal/world.h>

#include <QPushButton>
#include <QtTest>

using namespace shoal;
using namespace shoal::ui;

namespace {

SceneDesc swarmScene()
{
    SceneDesc scene = test::emptyScene();
    GroupDesc swarm = makeDefaultGroup(BehaviourKind::Swarm, "swarm");
    swarm.spawn = SpawnAreaDesc{{{5.0, -10.0}, {15.0, 10.0}}, 40};
    scene.groups.push_back(swarm);
    scene.player.position = {-10.0, 0.0};
    return scene;
}

struct Window
{
    Window()
    {
        window.resize(1400, 900);
        window.show();
        window.document()->resetScene(swarmScene(), {});
        QTRY_VERIFY(window.simulation()->world());
        window.view()->setPixelsPerMetre(25.0);
        window.view()->centerOn(QPointF(5.0, 0.0));
    }
    void steps(int n)
    {
        for (int k = 0; k < n; ++k)
            window.simulation()->stepOnce();
    }
    const World& world() const { return *window.simulation()->world(); }
    QPoint at(Vec2 p) const { return window.view()->mapFromScene(QPointF(p.x, p.y)); }
    /// Where agent `id` of the swarm is now.
    Vec2 where(std::uint32_t id) const
    {
        const AgentArrays& a = world().group(0).agents;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (a.id[i] == id)
                return {a.px[i], a.py[i]};
        return {};
    }
    MainWindow window;
};

} // namespace

class TestInspector : public QObject
{
    Q_OBJECT

private slots:
    void aClickInspectsTheAgentUnderIt();
    void itsRulesAreTheRuntimes();
    void theSameAgentThroughTheReshuffles();
    void followKeepsItInTheMiddle();
    void whilePlayingCtrlClickInspects();
};

void TestInspector::aClickInspectsTheAgentUnderIt()
{
    Window w;
    w.steps(30);
    const AgentArrays& a = w.world().group(0).agents;
    const std::size_t i = 7;
    const std::uint32_t id = a.id[i];
    QTest::mouseClick(w.window.view()->viewport(), Qt::LeftButton, {}, w.at({a.px[i], a.py[i]}));
    InspectedAgent* inspected = w.window.inspectedAgent();
    QVERIFY(inspected->hasAgent());
    QCOMPARE(inspected->group(), 0);
    QCOMPARE(inspected->id(), id);
    AgentInspector* panel = w.window.agentInspector();
    QTRY_VERIFY(panel->isVisible());
    QCOMPARE(panel->field(QStringLiteral("Agent")), QStringLiteral("#%1").arg(id));
    QCOMPARE(panel->field(QStringLiteral("State")), QString::fromUtf8(w.world().agentState(0, i)));
    QCOMPARE(panel->field(QStringLiteral("Position")),
             QStringLiteral("%1, %2 m").arg(a.px[i], 0, 'f', 2).arg(a.py[i], 0, 'f', 2));
    QCOMPARE(panel->field(QStringLiteral("Speed")),
             QStringLiteral("%1 m/s").arg(a.speed[i], 0, 'f', 2));
    // The level was not edited by the click.
    QVERIFY(!w.window.document()->isModified());
}

void TestInspector::itsRulesAreTheRuntimes()
{
    Window w;
    w.steps(20);
    const std::uint32_t id = w.world().group(0).agents.id[11];
    w.window.inspectedAgent()->inspect(0, id);
    AgentInspector* panel = w.window.agentInspector();
    // Picked between steps: the rules come with the next one.
    QVERIFY(panel->rulesText().contains(QStringLiteral("next step")));
    w.steps(1);
    const Inspection& seen = w.world().inspection();
    QVERIFY(seen.recorded);
    QCOMPARE(seen.id, id);
    const QString text = panel->rulesText();
    for (const RuleShare& rule : seen.rules) {
        const double length = std::hypot(double(rule.vector.x), double(rule.vector.y));
        const QString expected = QStringLiteral("%1 %2 m/s")
                                     .arg(QString::fromStdString(rule.name))
                                     .arg(length, 0, 'f', 2);
        QVERIFY2(text.simplified().contains(expected),
                 qPrintable(text + QStringLiteral(" / ") + expected));
    }
    QVERIFY(text.contains(QStringLiteral("seek")));
    QVERIFY(text.contains(QStringLiteral("planned velocity")));
}

void TestInspector::theSameAgentThroughTheReshuffles()
{
    Window w;
    w.steps(20);
    const AgentArrays& a = w.world().group(0).agents;
    const std::uint32_t id = a.id[3];
    w.window.inspectedAgent()->inspect(0, id);
    // The world re-sorts its agents into cell order every 16 steps: indices change, ids stay.
    bool moved = false;
    for (int round = 0; round < 6; ++round) {
        w.steps(16);
        const std::size_t now = *w.window.inspectedAgent()->index(w.world());
        const AgentArrays& after = w.world().group(0).agents;
        for (std::size_t k = 0; k < after.size(); ++k)
            moved = moved || after.id[k] != k; // the reshuffle happened
        QCOMPARE(w.world().group(0).agents.id[now], id);
        const Vec2 p = w.where(id);
        QCOMPARE(w.window.agentInspector()->field(QStringLiteral("Position")),
                 QStringLiteral("%1, %2 m").arg(p.x, 0, 'f', 2).arg(p.y, 0, 'f', 2));
    }
    QVERIFY(moved);
    QCOMPARE(w.window.inspectedAgent()->id(), id);
}

void TestInspector::followKeepsItInTheMiddle()
{
    Window w;
    w.steps(10);
    const std::uint32_t id = w.world().group(0).agents.id[0];
    w.window.inspectedAgent()->inspect(0, id);
    w.window.agentInspector()->followButton()->click();
    QVERIFY(w.window.inspectedAgent()->isFollowing());
    w.steps(60);
    const Vec2 p = w.where(id);
    const QPointF centre =
        w.window.view()->mapToScene(w.window.view()->viewport()->rect().center());
    QVERIFY2(
        QLineF(centre, QPointF(p.x, p.y)).length() < 0.2,
        qPrintable(
            QStringLiteral("%1,%2 vs %3,%4").arg(centre.x()).arg(centre.y()).arg(p.x).arg(p.y)));
}

void TestInspector::whilePlayingCtrlClickInspects()
{
    Window w;
    w.steps(10);
    SimulationController* simulation = w.window.simulation();
    simulation->play();
    QVERIFY(simulation->isPlaying());
    const AgentArrays& a = w.world().group(0).agents;
    const Vec2 p{a.px[5], a.py[5]};
    const std::uint32_t id = a.id[5];
    QTest::mouseClick(w.window.view()->viewport(), Qt::LeftButton, {}, w.at(p));
    QVERIFY(!w.window.inspectedAgent()->hasAgent()); // a plain click steers
    QTest::mouseClick(w.window.view()->viewport(), Qt::LeftButton, Qt::ControlModifier, w.at(p));
    QVERIFY(w.window.inspectedAgent()->hasAgent());
    QCOMPARE(w.window.inspectedAgent()->id(), id);
    simulation->pause();
}

QTEST_MAIN(TestInspector)
#include "test_inspector.moc"
