// The Checks dock as a designer uses it: it lists the demo's eight checks with their
// conditions, their states follow the world as it plays (every one passes once the run is as
// long as shoal-cli check makes it), a restart watches again; "Keep this between these
// values…" on a metrics plot adds one check as one undo step, and the dialog refuses what the
// scene validator refuses; a group rename renames the group in the checks in the same step,
// and removing a group removes the checks that watch it in the same step; saving and
// reopening keeps them.

#include "checks/checkdialog.h"
#include "checks/checksdock.h"
#include "document/document.h"
#include "document/groupcommands.h"
#include "files/scenewriter.h"
#include "metrics/metricsdock.h"
#include "panels/grouplistpanel.h"
#include "simulation/simulationcontroller.h"
#include "window/mainwindow.h"

#include "uitestsupport.h"

#include <shoal/checks.h>
#include <shoal/scenefile.h>
#include <shoal/world.h>

#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QToolButton>
#include <QTreeWidget>
#include <QtTest>

using namespace shoal;
using namespace shoal::ui;

namespace {

struct Fixture
{
    explicit Fixture(const SceneDesc& scene)
    {
        document.resetScene(scene, {});
        dock.resize(1000, 300);
        dock.show();
    }
    /// Plays `seconds` of simulated time the way the timer does, one tick a step.
    void play(double seconds)
    {
        const int ticks = static_cast<int>(std::lround(seconds * 60.0));
        for (int k = 0; k < ticks; ++k)
            controller.advance(1.0 / 60.0);
        dock.refresh();
    }
    QStringList column(int c) const
    {
        QStringList out;
        for (int i = 0; i < dock.list()->topLevelItemCount(); ++i)
            out.append(dock.list()->topLevelItem(i)->text(c));
        return out;
    }
    int count(CheckState state) const
    {
        const std::vector<CheckState> states = dock.states();
        return static_cast<int>(std::count(states.begin(), states.end(), state));
    }

    Document document;
    SimulationController controller{&document};
    ChecksDock dock{&document, &controller};
};

/// The open check dialog of `parent`, accepted.
void acceptDialog(QWidget* parent)
{
    auto* dialog = parent->findChild<CheckDialog*>();
    QVERIFY(dialog);
    QVERIFY2(dialog->refusal().isEmpty(), qPrintable(dialog->refusal()));
    dialog->accept();
    QCoreApplication::processEvents();
}

} // namespace

class TestChecksDock : public QObject
{
    Q_OBJECT

private slots:
    void listsTheDemosChecks();
    void statesFollowTheWorldUntilAllEightPass();
    void decideNowEndsTheWatch();
    void addingFromAPlotIsOneUndoStep();
    void theDialogRefusesWhatTheValidatorRefuses();
    void editAndRemoveAreOneStepEach();
    void aGroupRenameRenamesTheChecks();
    void removingAGroupRemovesItsChecks();
    void savingAndReopeningKeepsTheChecks();
};

void TestChecksDock::listsTheDemosChecks()
{
    const SceneDesc demo = test::demoScene();
    QCOMPARE(demo.checks.size(), std::size_t(8));
    Fixture f(demo);
    QCOMPARE(f.dock.list()->topLevelItemCount(), 8);
    QStringList names, conditions;
    for (const CheckDesc& check : demo.checks) {
        names.append(QString::fromStdString(check.name));
        conditions.append(QString::fromStdString(describeCheck(check)));
    }
    QCOMPARE(f.column(ChecksDock::NameColumn), names);
    QCOMPARE(f.column(ChecksDock::ConditionColumn), conditions);
    // Nothing has run yet: every one waits.
    QCOMPARE(f.count(CheckState::Pending), 8);
}

void TestChecksDock::statesFollowTheWorldUntilAllEightPass()
{
    Fixture f(test::demoScene());
    QVERIFY(f.controller.checkRunner());
    // A check decides on every step: the world measures each one (no metrics dock asks here).
    QVERIFY(f.controller.world()->metricsEnabled());
    QCOMPARE(f.controller.world()->metricsEvery(), 1);
    f.play(1.0);
    // A second in: what holds at every step holds so far; "after 5 s" and "by 20 s" wait.
    QVERIFY(f.count(CheckState::Holding) >= 4);
    QCOMPARE(f.dock.states()[0], CheckState::Pending); // within [1.5, 2.1] after 5 s
    QVERIFY2(f.dock.summary()->text().contains(QStringLiteral("of 8 holding")),
             qPrintable(f.dock.summary()->text()));
    QVERIFY(!f.column(ChecksDock::MeasuredColumn)[5].isEmpty());

    // As long as shoal-cli check runs the demo (2 s past its latest window, 20 s): decided.
    const double needed = CheckRunner::secondsNeeded(f.document.scene().checks);
    f.play(needed);
    QVERIFY(f.controller.checksDecided());
    QVERIFY2(f.count(CheckState::Passed) == 8,
             qPrintable(f.column(ChecksDock::StateColumn).join(QLatin1Char(',')) +
                        QLatin1Char(' ') +
                        f.column(ChecksDock::MeasuredColumn).join(QLatin1Char('|'))));
    QVERIFY2(f.dock.summary()->text().startsWith(QStringLiteral("8 of 8 passed")),
             qPrintable(f.dock.summary()->text()));
    QVERIFY(!f.dock.decideButton()->isEnabled());
    QVERIFY(!f.controller.world()->metricsEnabled()); // decided: nobody asks for them now

    // A restart watches the new run from its start.
    f.controller.restart();
    QCOMPARE(f.count(CheckState::Pending), 8);
    QVERIFY(!f.controller.checksDecided());
    QVERIFY(f.dock.decideButton()->isEnabled());
}

void TestChecksDock::decideNowEndsTheWatch()
{
    Fixture f(test::demoScene());
    f.play(3.0);
    QSignalSpy restarted(&f.controller, &SimulationController::checksRestarted);
    QTest::mouseClick(f.dock.decideButton(), Qt::LeftButton);
    QCOMPARE(restarted.count(), 1);
    QVERIFY(f.controller.checksDecided());
    // At 3 s: "after 5 s" never opened and "by 20 s" has not held: both fail; the rest held.
    QCOMPARE(f.dock.states()[0], CheckState::Failed);
    QCOMPARE(f.count(CheckState::Pending) + f.count(CheckState::Holding), 0);
    QVERIFY(f.dock.summary()->text().contains(QStringLiteral("decided at 3.0 s")));
    // Decided, it stays so while the world plays on, and says when it was decided.
    const std::vector<CheckState> before = f.dock.states();
    f.play(1.0);
    QVERIFY(f.dock.states() == before);
    QVERIFY2(f.dock.summary()->text().contains(QStringLiteral("decided at 3.0 s")),
             qPrintable(f.dock.summary()->text()));
}

void TestChecksDock::addingFromAPlotIsOneUndoStep()
{
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    window.document()->resetScene(test::demoScene(), QString());
    auto* metrics = window.findChild<MetricsDock*>();
    QVERIFY(metrics);
    SimulationController* simulation = window.simulation();
    for (int k = 0; k < 6 * 60; ++k)
        simulation->advance(1.0 / 60.0);
    metrics->redraw();
    QUndoStack* stack = window.document()->undoStack();
    const int steps = stack->count();
    const std::vector<CheckDesc> before = window.document()->scene().checks;

    // The school's median spacing, prefilled with the range the plot shows.
    const std::optional<CheckDesc> proposed =
        metrics->proposedCheck(QStringLiteral("spacing"), 0, 0);
    QVERIFY(proposed);
    QCOMPARE(proposed->metric, std::string("school.nearestMedian"));
    QCOMPARE(proposed->compare, CheckCompare::Within);
    QVERIFY(proposed->value >= 0.0 && proposed->value < proposed->high);
    // The plot shows the run from its start: no window to open first.
    QCOMPARE(proposed->window, CheckWindow::Always);
    // A dragged range is taken as it is (rounded outward).
    metrics->setDraggedRange(QStringLiteral("spacing"), 1.23, 1.97);
    const std::optional<CheckDesc> dragged =
        metrics->proposedCheck(QStringLiteral("spacing"), 0, 0);
    QVERIFY(dragged);
    QCOMPARE(dragged->value, 1.2);
    QCOMPARE(dragged->high, 2.0);

    metrics->proposeCheck(QStringLiteral("spacing"), 0, 0);
    acceptDialog(window.checksDock());
    QCOMPARE(stack->count(), steps + 1);
    const std::vector<CheckDesc>& after = window.document()->scene().checks;
    QCOMPARE(after.size(), before.size() + 1);
    QCOMPARE(after.back(), *dragged);
    QCOMPARE(window.checksDock()->list()->topLevelItemCount(), 9);
    // The new check is watched at once.
    QVERIFY(simulation->checkRunner());
    QCOMPARE(simulation->checkRunner()->checks().size(), std::size_t(9));
    // Watched from the middle of the run, it is never decided on its own: its windows count
    // from a start it did not see.
    QVERIFY(std::abs(simulation->checksSince() - 6.0) < 0.01);
    QVERIFY(window.checksDock()->summary()->text().contains(QStringLiteral("watched from 6.0 s")));
    for (int k = 0; k < 20 * 60; ++k)
        simulation->advance(1.0 / 60.0);
    QVERIFY(!simulation->checksDecided());

    stack->undo();
    QVERIFY(window.document()->scene().checks == before);
    QCOMPARE(window.checksDock()->list()->topLevelItemCount(), 8);
}

void TestChecksDock::theDialogRefusesWhatTheValidatorRefuses()
{
    Fixture f(test::demoScene());
    CheckDesc check;
    check.metric = "school.nearestMin";
    check.compare = CheckCompare::Within;
    check.value = 1.0;
    check.high = 2.0;
    CheckDialog* dialog = f.dock.addCheck(check);
    QVERIFY(dialog->refusal().isEmpty());
    auto* ok = dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    QVERIFY(ok->isEnabled());

    // Low above high: the validator's own message, and no way to accept.
    dialog->valueField()->setText(QStringLiteral("3"));
    QCOMPARE(dialog->refusal(), QStringLiteral("checks[8].within: [3, 2] must be [low, high] "
                                               "with low <= high"));
    QVERIFY(!ok->isEnabled());
    auto* message = dialog->findChild<QLabel*>(QStringLiteral("checkRefusal"));
    QCOMPARE(message->text(), dialog->refusal());
    dialog->accept();
    QVERIFY(dialog->isVisible());

    // A metric no group has, and a window past a day: refused, not clamped.
    dialog->valueField()->setText(QStringLiteral("1"));
    dialog->metricField()->setCurrentText(QStringLiteral("school.speediness"));
    QVERIFY(dialog->refusal().startsWith(QStringLiteral("checks[8].metric: no metric")));
    dialog->metricField()->setCurrentText(QStringLiteral("school.nearestMin"));
    dialog->windowField()->setCurrentIndex(1); // after
    dialog->secondsField()->setText(QStringLiteral("100000"));
    QVERIFY(dialog->refusal().contains(QStringLiteral("must be in [0, 86400] s")));
    dialog->secondsField()->setText(QStringLiteral("soon"));
    QVERIFY(!dialog->refusal().isEmpty());
    dialog->reject();
    QCOMPARE(f.document.scene().checks.size(), std::size_t(8));
    QCOMPARE(f.document.undoStack()->count(), 0);
}

void TestChecksDock::editAndRemoveAreOneStepEach()
{
    Fixture f(test::demoScene());
    const std::vector<CheckDesc> demo = f.document.scene().checks;
    QUndoStack* stack = f.document.undoStack();
    CheckDialog* dialog = f.dock.editCheck(3);
    QVERIFY(dialog);
    QCOMPARE(dialog->metricField()->currentText(), QStringLiteral("swarm.nearestMin"));
    dialog->valueField()->setText(QStringLiteral("0.5"));
    dialog->accept();
    QCOMPARE(stack->count(), 1);
    QCOMPARE(f.document.scene().checks[3].value, 0.5);
    QCOMPARE(f.dock.list()->topLevelItem(3)->text(ChecksDock::ConditionColumn),
             QStringLiteral("swarm.nearestMin at least 0.5"));

    f.dock.removeCheck(0);
    QCOMPARE(stack->count(), 2);
    QCOMPARE(f.document.scene().checks.size(), std::size_t(7));
    QCOMPARE(f.dock.list()->topLevelItemCount(), 7);
    stack->undo();
    stack->undo();
    QVERIFY(f.document.scene().checks == demo);
}

void TestChecksDock::aGroupRenameRenamesTheChecks()
{
    MainWindow window;
    window.show();
    window.document()->resetScene(test::demoScene(), QString());
    Document* document = window.document();
    const std::vector<CheckDesc> demo = document->scene().checks;
    SimulationController* simulation = window.simulation();
    for (int k = 0; k < 60; ++k)
        simulation->advance(1.0 / 60.0);
    const CheckRunner* runner = simulation->checkRunner();
    QVERIFY(runner);

    // The squad is named twice in one check: "squad.atGoal equals squad.agents".
    const int squad = document->scene().groupIndex("squad");
    QVERIFY(squad >= 0);
    auto* groups = window.findChild<GroupListPanel*>();
    QVERIFY(groups);
    groups->tree()->editItem(groups->tree()->topLevelItem(squad), GroupListPanel::NameColumn);
    auto* editor = groups->tree()->viewport()->findChild<QLineEdit*>();
    QVERIFY(editor);
    editor->selectAll();
    QTest::keyClicks(editor, QStringLiteral("tanks"));
    QTest::keyClick(editor, Qt::Key_Return);
    QCoreApplication::processEvents();
    QCOMPARE(document->scene().groups[std::size_t(squad)].name, std::string("tanks"));
    QCOMPARE(document->undoStack()->count(), 1);
    QCOMPARE(document->scene().checks[1].metric, std::string("tanks.atGoal"));
    QCOMPARE(document->scene().checks[1].valueMetric, std::string("tanks.agents"));
    QCOMPARE(document->scene().checks[2].metric, std::string("tanks.maxSpeed"));
    QCOMPARE(window.checksDock()->list()->topLevelItem(1)->text(ChecksDock::ConditionColumn),
             QStringLiteral("tanks.atGoal equal to tanks.agents by 20 s"));
    // The running world kept its names: the watch goes on, with what it saw so far.
    QCOMPARE(simulation->checkRunner(), runner);
    QVERIFY(simulation->checksError().isEmpty());
    QVERIFY(window.checksDock()->states()[5] == CheckState::Holding);

    document->undoStack()->undo();
    QCOMPARE(document->scene().groups[std::size_t(squad)].name, std::string("squad"));
    QVERIFY(document->scene().checks == demo);
}

void TestChecksDock::removingAGroupRemovesItsChecks()
{
    MainWindow window;
    window.show();
    window.document()->resetScene(test::demoScene(), QString());
    Document* document = window.document();
    const SceneDesc demo = document->scene();
    auto watches = [](const CheckDesc& check, const std::string& group) {
        return check.metric.rfind(group + ".", 0) == 0 ||
               check.valueMetric.rfind(group + ".", 0) == 0;
    };
    const auto squadChecks = std::count_if(demo.checks.begin(), demo.checks.end(),
                                           [&](const CheckDesc& c) { return watches(c, "squad"); });
    QVERIFY(squadChecks >= 2); // "squad.atGoal equals squad.agents", "squad.maxSpeed"

    // The squad removed with the group list's Remove button, as a designer does.
    const int squad = demo.groupIndex("squad");
    auto* groups = window.findChild<GroupListPanel*>();
    QVERIFY(groups);
    QTreeWidgetItem* row = groups->tree()->topLevelItem(squad);
    QTest::mouseClick(groups->tree()->viewport(), Qt::LeftButton, Qt::NoModifier,
                      groups->tree()->visualItemRect(row).center());
    QTest::mouseClick(groups->removeButton(), Qt::LeftButton);
    QCOMPARE(document->scene().groupIndex("squad"), -1);
    QCOMPARE(document->undoStack()->count(), 1);
    const std::vector<CheckDesc>& left = document->scene().checks;
    QCOMPARE(left.size(), demo.checks.size() - static_cast<std::size_t>(squadChecks));
    for (const CheckDesc& check : left)
        QVERIFY2(!watches(check, "squad"), check.metric.c_str());
    QCOMPARE(window.checksDock()->list()->topLevelItemCount(), static_cast<int>(left.size()));
    QVERIFY(!validateScene(document->scene()));

    // One undo brings back the group and its checks, in their places.
    document->undoStack()->undo();
    QVERIFY(document->scene() == demo);
    QCOMPARE(window.checksDock()->list()->topLevelItemCount(),
             static_cast<int>(demo.checks.size()));
}

void TestChecksDock::savingAndReopeningKeepsTheChecks()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("checks.json"));
    Fixture f(test::demoScene());
    CheckDesc added;
    added.name = "the school keeps moving";
    added.metric = "school.meanSpeed";
    added.compare = CheckCompare::Above;
    added.value = 0.2;
    added.window = CheckWindow::Last;
    added.seconds = 3.0;
    f.dock.addCheck(added);
    acceptDialog(&f.dock);
    QCOMPARE(f.document.scene().checks.size(), std::size_t(9));
    QVERIFY(writeSceneFile(f.document.scene(), path).isEmpty());
    const Expected<SceneDesc> reopened = loadSceneFile(path.toStdString());
    QVERIFY(reopened);
    QVERIFY(reopened->checks == f.document.scene().checks);
    QCOMPARE(reopened->checks.back(), added);
}

QTEST_MAIN(TestChecksDock)
#include "test_checksdock.moc"
