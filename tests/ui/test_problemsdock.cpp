// The Problems dock as a designer uses it: a swarm enemy walled off from its prey shows up as
// stuck, ringed in the view, and a click on its row selects its group and brings the view to
// it; the thresholds change what counts and are kept; the watch runs only while the dock is
// shown; the list filters by kind.

#include "document/document.h"
#include "document/groupselection.h"
#include "files/scenefiles.h"
#include "problems/problemmarkers.h"
#include "problems/problemsdock.h"
#include "simulation/simulationcontroller.h"
#include "viewport/editorscene.h"
#include "viewport/sceneview.h"
#include "window/mainwindow.h"

#include "uitestsupport.h"

#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QToolButton>
#include <QTreeWidget>
#include <QtTest>

using namespace shoal;
using namespace shoal::ui;

namespace {

/// A closed room round (10, 0) with one swarm enemy in it, and the player outside.
SceneDesc walledOffEnemy()
{
    SceneDesc scene = test::emptyScene();
    scene.walls.push_back({{{7.0, -3.0}, {13.0, -3.0}, {13.0, 3.0}, {7.0, 3.0}}, true});
    GroupDesc swarm = makeDefaultGroup(BehaviourKind::Swarm, "swarm");
    swarm.agents.push_back({{10.0, 0.0}, 0.0});
    scene.groups.push_back(swarm);
    GroupDesc school = makeDefaultGroup(BehaviourKind::FishSchool, "school");
    school.spawn = SpawnAreaDesc{{{-14.0, -3.0}, {-8.0, 3.0}}, 6};
    scene.groups.push_back(school);
    scene.player.group = "school";
    return scene;
}

struct Fixture
{
    explicit Fixture(const SceneDesc& scene)
    {
        document.resetScene(scene, {});
        dock.resize(700, 300);
        dock.show();
    }
    /// Plays `seconds` of simulated time the way the timer does, one tick a step.
    void play(double seconds)
    {
        QTRY_VERIFY(controller.world());
        const int ticks = static_cast<int>(std::lround(seconds * 60.0));
        for (int k = 0; k < ticks; ++k)
            controller.advance(1.0 / 60.0);
        dock.refresh();
    }
    /// The rows as "Kind group #agent".
    QStringList rows() const
    {
        QStringList out;
        QTreeWidget* list = dock.list();
        for (int i = 0; i < list->topLevelItemCount(); ++i) {
            QTreeWidgetItem* item = list->topLevelItem(i);
            out.append(QStringLiteral("%1 %2 %3").arg(item->text(0), item->text(1), item->text(2)));
        }
        return out;
    }

    Document document;
    EditorScene scene{&document};
    SimulationController controller{&document};
    ProblemsDock dock{&controller, &scene};
};

} // namespace

class TestProblemsDock : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void aWalledOffEnemyIsListedAndRinged();
    void thresholdsChangeWhatCountsAndAreKept();
    void watchesOnlyWhileShown();
    void filtersByKind();
    void aClickSelectsTheGroupAndBringsTheViewThere();
};

void TestProblemsDock::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QSettings().remove(QStringLiteral("problems"));
}

void TestProblemsDock::aWalledOffEnemyIsListedAndRinged()
{
    Fixture f(walledOffEnemy());
    QVERIFY(f.controller.problemsWanted());
    f.play(1.0);
    QVERIFY(!f.rows().contains(QStringLiteral("Stuck swarm #0")));
    f.play(4.0);
    QVERIFY2(f.rows().contains(QStringLiteral("Stuck swarm #0")),
             qPrintable(f.rows().join(QLatin1Char('|'))));
    QVERIFY(f.dock.summary()->text().contains(QStringLiteral("stuck")));
    QVERIFY(f.dock.markers()->isVisible());
    QVERIFY(f.dock.markers()->markerCount() >= 1);
    // The ring is where the enemy is, inside the room.
    QVERIFY(f.dock.markers()->sceneBoundingRect().contains(QPointF(10.0, 0.0)));

    // Markers off: the list stays, the rings go.
    f.dock.markersButton()->setChecked(false);
    QVERIFY(!f.dock.markers()->isVisible());
    QVERIFY(f.rows().contains(QStringLiteral("Stuck swarm #0")));
}

void TestProblemsDock::thresholdsChangeWhatCountsAndAreKept()
{
    {
        Fixture f(walledOffEnemy());
        f.play(5.0);
        QVERIFY(f.rows().contains(QStringLiteral("Stuck swarm #0")));
        ProblemThresholds patient = f.dock.thresholds();
        patient.stuckSeconds = 30.0f;
        f.dock.setThresholds(patient);
        QVERIFY(!f.rows().contains(QStringLiteral("Stuck swarm #0")));
    }
    // A new dock (a new session) starts with the thresholds the designer left.
    Fixture again(walledOffEnemy());
    QCOMPARE(again.dock.thresholds().stuckSeconds, 30.0f);
    QCOMPARE(again.controller.problemWatch().thresholds().stuckSeconds, 30.0f);
    ProblemThresholds defaults;
    again.dock.setThresholds(defaults);
}

void TestProblemsDock::watchesOnlyWhileShown()
{
    Fixture f(walledOffEnemy());
    f.dock.hide();
    QVERIFY(!f.controller.problemsWanted());
    QVERIFY(!f.dock.markers()->isVisible());
    f.play(5.0);
    QVERIFY(f.controller.problems().empty());
    f.dock.show();
    QVERIFY(f.controller.problemsWanted());
}

void TestProblemsDock::filtersByKind()
{
    Fixture f(walledOffEnemy());
    f.play(5.0);
    const int all = f.dock.list()->topLevelItemCount();
    QVERIFY(all >= 1);
    QComboBox* filter = f.dock.kindFilter();
    filter->setCurrentIndex(filter->findData(int(ProblemKind::Overlap)));
    for (const QString& row : f.rows())
        QVERIFY2(row.startsWith(QStringLiteral("Overlapping")), qPrintable(row));
    filter->setCurrentIndex(filter->findData(int(ProblemKind::Stuck)));
    QVERIFY(f.rows().contains(QStringLiteral("Stuck swarm #0")));
    filter->setCurrentIndex(0);
    QCOMPARE(f.dock.list()->topLevelItemCount(), all);
}

void TestProblemsDock::aClickSelectsTheGroupAndBringsTheViewThere()
{
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    window.document()->resetScene(walledOffEnemy(), {});
    ProblemsDock* dock = window.problemsDock();
    // The dock is a tab behind the metrics: bring it forward as a user clicks its tab.
    auto* dockWidget = qobject_cast<QDockWidget*>(dock->parentWidget());
    QVERIFY(dockWidget);
    dockWidget->raise();
    QTRY_VERIFY(dock->isVisible());
    QTRY_VERIFY(window.simulation()->world());
    window.view()->setPixelsPerMetre(5.0);
    for (int k = 0; k < 300; ++k)
        window.simulation()->advance(1.0 / 60.0);
    dock->refresh();

    QTreeWidget* list = dock->list();
    QTreeWidgetItem* stuck = nullptr;
    for (int i = 0; i < list->topLevelItemCount(); ++i)
        if (list->topLevelItem(i)->text(0) == QStringLiteral("Stuck"))
            stuck = list->topLevelItem(i);
    QVERIFY(stuck);
    const QRect rect = list->visualItemRect(stuck);
    QTest::mouseClick(list->viewport(), Qt::LeftButton, Qt::NoModifier, rect.center());
    QCOMPARE(window.groupSelection()->groups(), QList<int>{0});
    QVERIFY(window.view()->pixelsPerMetre() >= 30.0);
    const QPointF centre = window.view()->mapToScene(window.view()->viewport()->rect().center());
    QVERIFY2(QLineF(centre, QPointF(10.0, 0.0)).length() < 3.0,
             qPrintable(QStringLiteral("%1 %2").arg(centre.x()).arg(centre.y())));
}

QTEST_MAIN(TestProblemsDock)
#include "test_problemsdock.moc"
