// Parameter handles in the view, dragged with the mouse through the real view: a drag of the
// keep band's outer ring sets keepMaxDistance in one undo step that restores it exactly; a drag
// that would break a rule is refused with its reason and changes nothing; a squad's target
// distances are rings round its target; every family shows the handles the issue names; the
// View menu's toggle hides them; a knob takes the mouse before the select tool.

#include "document/document.h"
#include "document/groupselection.h"
#include "panels/paramrow.h"
#include "panels/propertypanel.h"
#include "simulation/paramhandles.h"
#include "simulation/simulationcontroller.h"
#include "viewport/editorscene.h"
#include "viewport/sceneview.h"
#include "window/mainwindow.h"

#include "uitestsupport.h"

#include <QUndoStack>
#include <QtTest>

using namespace shoal;
using namespace shoal::ui;

namespace {

SceneDesc oneOfEach()
{
    SceneDesc scene = test::emptyScene();
    scene.bounds = {{-40.0, -30.0}, {40.0, 30.0}};
    const BehaviourKind kinds[] = {BehaviourKind::FishSchool, BehaviourKind::TankSquad,
                                   BehaviourKind::Swarm, BehaviourKind::LeaderFollow,
                                   BehaviourKind::Worm};
    double x = -30.0;
    for (BehaviourKind kind : kinds) {
        GroupDesc group = makeDefaultGroup(kind, std::string(behaviourKey(kind)));
        group.agents.push_back({{x, 0.0}, 0.0});
        if (kind == BehaviourKind::TankSquad)
            group.target = Point2{x, 20.0};
        scene.groups.push_back(group);
        x += 15.0;
    }
    scene.player.position = {0.0, -20.0};
    return scene;
}

struct Window
{
    Window()
    {
        window.resize(1400, 900);
        window.show();
        window.document()->resetScene(oneOfEach(), {});
        QTRY_VERIFY(window.simulation()->world());
        window.view()->setPixelsPerMetre(40.0);
    }
    ParamHandlesItem* handles() const { return window.paramHandles(); }
    QWidget* viewport() const { return window.view()->viewport(); }
    QPoint at(QPointF p) const { return window.view()->mapFromScene(p); }
    /// Shows group `g` selected and its agent in the middle of the view.
    void show(int g)
    {
        window.groupSelection()->select(g);
        const ParamHandlesItem::Knob any = handles()->knobs().front();
        window.view()->centerOn(QPointF(any.anchor.x, any.anchor.y));
        handles()->relayout();
    }
    /// Drags the knob of `key` to `to` (scene metres) in a few moves.
    void dragKnob(const QString& key, QPointF to)
    {
        const auto k = handles()->knob(key);
        QVERIFY(k);
        const QPointF from(k->at.x, k->at.y);
        QTest::mousePress(viewport(), Qt::LeftButton, {}, at(from));
        for (int i = 1; i <= 5; ++i)
            QTest::mouseMove(viewport(), at(from + (to - from) * i / 5.0));
        QTest::mouseRelease(viewport(), Qt::LeftButton, {}, at(to));
    }
    double param(int g, const char* key) const
    {
        const GroupDesc& group = window.document()->scene().groups[std::size_t(g)];
        return group.params[std::size_t(paramIndex(paramSpecs(group.kind), key))];
    }
    MainWindow window;
};

} // namespace

class TestParamHandles : public QObject
{
    Q_OBJECT

private slots:
    void dragSetsTheParameterInOneUndoStep();
    void dragThatBreaksARuleIsRefused();
    void targetDistancesRingTheTarget();
    void everyFamilyShowsItsHandles();
    void theViewMenuHidesThem();
};

void TestParamHandles::dragSetsTheParameterInOneUndoStep()
{
    Window w;
    w.show(0);
    const auto knob = w.handles()->knob(QStringLiteral("keepMaxDistance"));
    QVERIFY(knob);
    QCOMPARE(knob->value, 2.0);
    const QPointF anchor(knob->anchor.x, knob->anchor.y);
    // The knob sits on the ring of the value.
    QVERIFY(std::fabs(QLineF(anchor, QPointF(knob->at.x, knob->at.y)).length() - 2.0) < 1e-4);

    const SceneDesc before = w.window.document()->scene();
    const int steps = w.window.document()->undoStack()->count();
    const QPointF direction = (QPointF(knob->at.x, knob->at.y) - anchor) / 2.0;
    w.dragKnob(QStringLiteral("keepMaxDistance"), anchor + direction * 2.8);
    // On the parameter's step exactly, as a file writes it: 56 steps of 0.05 make
    // 2.8000000000000003, which is not what a designer set.
    QCOMPARE(w.param(0, "keepMaxDistance"), 2.8);
    QCOMPARE(w.window.document()->undoStack()->count(), steps + 1);
    // The panel follows.
    auto* panel = w.window.findChild<PropertyPanel*>();
    QCOMPARE(panel->groupRow(QStringLiteral("keepMaxDistance"))->value(),
             w.param(0, "keepMaxDistance"));
    // The running world too.
    QCOMPARE(w.window.simulation()->world()->param(0, "keepMaxDistance"),
             w.param(0, "keepMaxDistance"));

    w.window.document()->undoStack()->undo();
    QVERIFY(w.window.document()->scene() == before);
    // Nothing else was selected or moved by the drag (the knob took the mouse).
    QCOMPARE(w.window.groupSelection()->groups(), QList<int>{0});
}

void TestParamHandles::dragThatBreaksARuleIsRefused()
{
    Window w;
    w.show(0);
    const auto knob = w.handles()->knob(QStringLiteral("keepMinDistance"));
    QVERIFY(knob);
    const QPointF anchor(knob->anchor.x, knob->anchor.y);
    const QPointF direction = (QPointF(knob->at.x, knob->at.y) - anchor) / knob->value;
    const int steps = w.window.document()->undoStack()->count();
    // Press and go past keepMaxDistance (2) without letting go: refused on the way.
    QTest::mousePress(w.viewport(), Qt::LeftButton, {}, w.at(QPointF(knob->at.x, knob->at.y)));
    QTest::mouseMove(w.viewport(), w.at(anchor + direction * 3.0));
    QVERIFY2(w.handles()->refusal().contains(
                 QStringLiteral("Keep min distance (3) must be less than Keep max distance (2)")),
             qPrintable(w.handles()->refusal()));
    QTest::mouseRelease(w.viewport(), Qt::LeftButton, {}, w.at(anchor + direction * 3.0));
    QCOMPARE(w.param(0, "keepMinDistance"), 1.6);
    QCOMPARE(w.window.document()->undoStack()->count(), steps);

    // Inside the band it goes through, and the refusal is gone.
    w.dragKnob(QStringLiteral("keepMinDistance"), anchor + direction * 1.2);
    QVERIFY(std::fabs(w.param(0, "keepMinDistance") - 1.2) < 0.051);
    QVERIFY(w.handles()->refusal().isEmpty());
    QCOMPARE(w.window.document()->undoStack()->count(), steps + 1);
}

void TestParamHandles::targetDistancesRingTheTarget()
{
    Window w;
    w.show(1);
    const auto close = w.handles()->knob(QStringLiteral("targetCloseDistance"));
    const auto arrive = w.handles()->knob(QStringLiteral("arriveDistance"));
    QVERIFY(close && arrive);
    const Point2 target = *w.window.document()->scene().groups[1].target;
    QCOMPARE(close->anchor, Vec2(float(target.x), float(target.y)));
    QCOMPARE(arrive->anchor, Vec2(float(target.x), float(target.y)));
    // Drag the slow-down ring out to 12 m.
    const QPointF anchor(target.x, target.y);
    const QPointF direction = (QPointF(close->at.x, close->at.y) - anchor) / close->value;
    w.window.view()->centerOn(anchor);
    w.window.view()->setPixelsPerMetre(12.0);
    w.handles()->relayout();
    w.dragKnob(QStringLiteral("targetCloseDistance"), anchor + direction * 12.0);
    QVERIFY(std::fabs(w.param(1, "targetCloseDistance") - 12.0) <= 0.5);
}

void TestParamHandles::everyFamilyShowsItsHandles()
{
    Window w;
    const QStringList expected[] = {
        {QStringLiteral("neighborRadius"), QStringLiteral("keepMinDistance"),
         QStringLiteral("keepMaxDistance"), QStringLiteral("pickRadius"),
         QStringLiteral("rayLength")},
        {QStringLiteral("keepDistance"), QStringLiteral("targetCloseDistance"),
         QStringLiteral("arriveDistance"), QStringLiteral("feelerLength")},
        {QStringLiteral("minAllowedRadius"), QStringLiteral("feelerLength")},
        {QStringLiteral("wanderRadius"), QStringLiteral("wanderDistance"),
         QStringLiteral("leaderBehindDistance"), QStringLiteral("evadeDistance"),
         QStringLiteral("separationRadius"), QStringLiteral("feelerLength")},
        {QStringLiteral("width"), QStringLiteral("maxTurnAngle")},
    };
    for (int g = 0; g < 5; ++g) {
        w.window.groupSelection()->select(g);
        for (const QString& key : expected[g]) {
            const auto knob = w.handles()->knob(key);
            QVERIFY2(knob, qPrintable(QStringLiteral("group %1: %2").arg(g).arg(key)));
            QCOMPARE(knob->value, w.param(g, key.toLatin1().constData()));
        }
    }
    // The wander circle sits wanderDistance ahead of the leader.
    w.window.groupSelection()->select(3);
    const auto wander = w.handles()->knob(QStringLiteral("wanderRadius"));
    const auto ahead = w.handles()->knob(QStringLiteral("wanderDistance"));
    QVERIFY(wander && ahead);
    QVERIFY(std::hypot(wander->anchor.x - ahead->at.x, wander->anchor.y - ahead->at.y) < 1e-4);
    // The worm's turn cone knob is at maxTurnAngle off its heading.
    w.window.groupSelection()->select(4);
    const auto cone = w.handles()->knob(QStringLiteral("maxTurnAngle"));
    QVERIFY(cone);
    const double angle = std::atan2(cone->at.y - cone->anchor.y, cone->at.x - cone->anchor.x) -
                         std::atan2(cone->direction.y, cone->direction.x);
    QVERIFY(std::fabs(std::fabs(angle) * 180.0 / M_PI - cone->value) < 1e-3);
    // A selection of two groups shows none.
    w.window.groupSelection()->setGroups({0, 1});
    QVERIFY(w.handles()->knobs().empty());
}

void TestParamHandles::theViewMenuHidesThem()
{
    Window w;
    w.show(0);
    QVERIFY(!w.handles()->knobs().empty());
    QAction* toggle = nullptr;
    for (QAction* action : w.window.findChildren<QAction*>())
        if (action->text() == QStringLiteral("Parameter &Handles"))
            toggle = action;
    QVERIFY(toggle);
    QVERIFY(toggle->isChecked());
    toggle->trigger();
    QVERIFY(w.handles()->knobs().empty());
    toggle->trigger();
    QVERIFY(!w.handles()->knobs().empty());
}

QTEST_MAIN(TestParamHandles)
#include "test_paramhandles.moc"
