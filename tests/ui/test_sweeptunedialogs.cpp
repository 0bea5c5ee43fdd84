// The Sweep and Tune dialogs on the demo, through their widgets: a sweep paints one cell per
// combination with the values shoal-cli sweep writes and outlines the cell its CSV makes best;
// Cancel stops a sweep early; clicking a cell and Apply Best each set the cell's values in one
// undo step that undo takes back exactly; the Tune dialog's Apply does the same for the best
// point of a small search.
#include "document/document.h"
#include "experiments/heatmapwidget.h"
#include "experiments/sweepdialog.h"
#include "experiments/tunedialog.h"
#include "experiments/tuneplot.h"
#include "uitestsupport.h"
#include "window/mainwindow.h"

#include <shoal/checks.h>

#include <QComboBox>
#include <QLineEdit>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <cmath>

using namespace shoal;
using namespace shoal::ui;

namespace {

constexpr int kSchool = 0; // the demo's groups, in file order
constexpr int kWaitMs = 120000;

/// The sweep the tests run: school.keepWeight 0.5, 1, 1.5 (up) x school.moveSpeed 2, 3, 4
/// (across), one seed, 40 steps.
const QStringList kVary = {
    QStringLiteral("--vary"),  QStringLiteral("school.keepWeight=0.5:1.5:0.5"),
    QStringLiteral("--vary"),  QStringLiteral("school.moveSpeed=2:4:1"),
    QStringLiteral("--steps"), QStringLiteral("40")};

void setUpSweep(SweepDialog& dialog)
{
    dialog.groupField()->setCurrentIndex(kSchool);
    dialog.firstParamField()->setCurrentIndex(
        dialog.firstParamField()->findData(QStringLiteral("keepWeight")));
    dialog.firstRangeField()->setText(QStringLiteral("0.5:1.5:0.5"));
    dialog.secondParamField()->setCurrentIndex(
        dialog.secondParamField()->findData(QStringLiteral("moveSpeed")));
    dialog.secondRangeField()->setText(QStringLiteral("2:4:1"));
    dialog.seedsField()->setValue(1);
    dialog.stepsField()->setValue(40);
}

bool runSweep(SweepDialog& dialog)
{
    QSignalSpy finished(&dialog, &SweepDialog::sweepFinished);
    if (!dialog.start())
        return false;
    return finished.wait(kWaitMs);
}

/// Column `name` of shoal-cli sweep's CSV, one value per row (run order).
std::vector<double> cliColumn(const QString& csv, const QString& name)
{
    QStringList lines = csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const int column = lines.takeFirst().split(QLatin1Char(',')).indexOf(name);
    std::vector<double> values;
    for (const QString& line : lines)
        values.push_back(column < 0 ? std::nan("")
                                    : line.split(QLatin1Char(',')).at(column).toDouble());
    return values;
}

/// The best of `values`: the highest or lowest, the first among equals.
std::size_t bestOf(const std::vector<double>& values, bool highest)
{
    std::size_t best = 0;
    for (std::size_t i = 1; i < values.size(); ++i)
        if (highest ? values[i] > values[best] : values[i] < values[best])
            best = i;
    return best;
}

ParamValues schoolParams(const Document& document)
{
    return document.scene().groups[kSchool].params;
}

double schoolParam(const Document& document, const char* key)
{
    return schoolParams(
        document)[std::size_t(paramIndex(paramSpecs(BehaviourKind::FishSchool), key))];
}

} // namespace

class TestSweepTuneDialogs : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        // What shoal-cli sweep writes for the same sweep: the heatmap must agree with it.
        QProcess cli;
        cli.start(
            QStringLiteral(SHOAL_CLI),
            QStringList{QStringLiteral("sweep"), QStringLiteral("demo")} + kVary +
                QStringList{QStringLiteral("--out"), m_dir.filePath(QStringLiteral("s.csv"))});
        QVERIFY(cli.waitForFinished(kWaitMs));
        QCOMPARE(cli.exitCode(), 0);
        QFile file(m_dir.filePath(QStringLiteral("s.csv")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        m_csv = QString::fromUtf8(file.readAll());
    }

    void theExperimentsMenuOpensOneDialogOfEach()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* sweepAction = window.findChild<QAction*>(QStringLiteral("sweepAction"));
        auto* tuneAction = window.findChild<QAction*>(QStringLiteral("tuneAction"));
        QVERIFY(sweepAction && tuneAction);
        sweepAction->trigger();
        sweepAction->trigger();
        tuneAction->trigger();
        QCOMPARE(window.findChildren<SweepDialog*>().size(), 1);
        QCOMPARE(window.findChildren<TuneDialog*>().size(), 1);
        auto* sweep = window.findChild<SweepDialog*>();
        QVERIFY(sweep->isVisible());
        QCOMPARE(sweep->groupField()->count(),
                 static_cast<int>(window.document()->scene().groups.size()));
        // Closed, it is gone; the menu makes a new one.
        sweep->close();
        QTRY_COMPARE(window.findChildren<SweepDialog*>().size(), 0);
        sweepAction->trigger();
        QCOMPARE(window.findChildren<SweepDialog*>().size(), 1);
    }

    void theHeatmapIsTheCliSweep()
    {
        Document document;
        document.resetScene(test::demoScene(), {});
        SweepDialog dialog(&document);
        dialog.show();
        setUpSweep(dialog);
        QVERIFY(runSweep(dialog));
        QCOMPARE(dialog.heatmap()->cellCount(), 9);
        QCOMPARE(dialog.progressBar()->value(), 9);
        QVERIFY(dialog.applyBestButton()->isEnabled());

        for (const QString& measure :
             {QStringLiteral("school.nearestMedian"), QStringLiteral("school.meanSpeed")}) {
            const int index = dialog.measureField()->findText(measure);
            QVERIFY2(index >= 0, qPrintable(measure));
            dialog.measureField()->setCurrentIndex(index);
            QCOMPARE(dialog.bestField()->currentData().toBool(), false); // a metric: lowest
            const std::vector<double> cli = cliColumn(m_csv, measure);
            QCOMPARE(cli.size(), std::size_t(9));
            const SweepCells cells = dialog.cells();
            for (std::size_t i = 0; i < cli.size(); ++i)
                QCOMPARE(cells.values[i], cli[i]);
            QCOMPARE(dialog.heatmap()->bestCell(), std::optional<std::size_t>(bestOf(cli, false)));
            dialog.bestField()->setCurrentIndex(0); // highest
            QCOMPARE(dialog.heatmap()->bestCell(), std::optional<std::size_t>(bestOf(cli, true)));
        }
        dialog.measureField()->setCurrentIndex(dialog.measureField()->findData(-1));
        QCOMPARE(dialog.bestField()->currentData().toBool(), true); // checks: highest
        QCOMPARE(dialog.heatmap()->bestCell(),
                 std::optional<std::size_t>(
                     bestOf(cliColumn(m_csv, QStringLiteral("checksPassed")), true)));
        // The hover text names the cell's values: y (first axis) then x.
        QVERIFY(dialog.heatmap()->cellText(5).contains(QStringLiteral("= 1\n")));
        QVERIFY(dialog.heatmap()->cellText(5).contains(QStringLiteral("= 4\n")));
    }

    void clickingACellSetsItsValuesInOneStep()
    {
        Document document;
        document.resetScene(test::demoScene(), {});
        SweepDialog dialog(&document);
        dialog.resize(900, 640);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        setUpSweep(dialog);
        QVERIFY(runSweep(dialog));
        const ParamValues before = schoolParams(document);
        const int steps = document.undoStack()->count();

        // Cell 7: keepWeight 1.5 (row 2), moveSpeed 3 (column 1).
        HeatmapWidget* heatmap = dialog.heatmap();
        QCOMPARE(heatmap->cellAt(heatmap->cellCentre(7)), std::optional<std::size_t>(7));
        QTest::mouseClick(heatmap, Qt::LeftButton, {}, heatmap->cellCentre(7));
        QCOMPARE(document.undoStack()->count(), steps + 1);
        QCOMPARE(schoolParam(document, "keepWeight"), 1.5);
        QCOMPARE(schoolParam(document, "moveSpeed"), 3.0);
        ParamValues expected = before;
        expected[std::size_t(paramIndex(paramSpecs(BehaviourKind::FishSchool), "keepWeight"))] =
            1.5;
        expected[std::size_t(paramIndex(paramSpecs(BehaviourKind::FishSchool), "moveSpeed"))] = 3.0;
        QCOMPARE(schoolParams(document), expected);
        document.undoStack()->undo();
        QCOMPARE(schoolParams(document), before);

        // Apply Best: the outlined cell's values, one step, undone exactly.
        dialog.measureField()->setCurrentIndex(
            dialog.measureField()->findText(QStringLiteral("school.nearestMedian")));
        const std::size_t best = *heatmap->bestCell();
        QTest::mouseClick(dialog.applyBestButton(), Qt::LeftButton);
        QCOMPARE(document.undoStack()->count(), steps + 1);
        QCOMPARE(schoolParam(document, "keepWeight"), 0.5 + 0.5 * double(best / 3));
        QCOMPARE(schoolParam(document, "moveSpeed"), 2.0 + double(best % 3));
        document.undoStack()->undo();
        QCOMPARE(schoolParams(document), before);
    }

    void oneParameterIsAStrip()
    {
        Document document;
        document.resetScene(test::demoScene(), {});
        SweepDialog dialog(&document);
        dialog.resize(900, 640);
        dialog.show();
        setUpSweep(dialog);
        dialog.secondParamField()->setCurrentIndex(0); // none
        QVERIFY(!dialog.secondRangeField()->isEnabled());
        QVERIFY(runSweep(dialog));
        HeatmapWidget* heatmap = dialog.heatmap();
        QCOMPARE(heatmap->cellCount(), 3);
        // One row: the cells side by side, left to right in value order.
        QCOMPARE(heatmap->cellCentre(0).y(), heatmap->cellCentre(2).y());
        QVERIFY(heatmap->cellCentre(0).x() < heatmap->cellCentre(1).x());
        QVERIFY(heatmap->cellText(1).startsWith(QStringLiteral("Keep weight = 1\n")));
    }

    void cancelStopsASweepEarly()
    {
        Document document;
        document.resetScene(test::demoScene(), {});
        SweepDialog dialog(&document);
        setUpSweep(dialog);
        dialog.seedsField()->setValue(40); // 360 runs
        dialog.stepsField()->setValue(200);
        QSignalSpy finished(&dialog, &SweepDialog::sweepFinished);
        QVERIFY(dialog.start());
        QVERIFY(dialog.cancelButton()->isEnabled());
        QTest::mouseClick(dialog.cancelButton(), Qt::LeftButton);
        QVERIFY(finished.wait(kWaitMs));
        QVERIFY(dialog.runs().size() < dialog.plan().runs());
        QVERIFY(dialog.message().startsWith(QStringLiteral("Cancelled after")));
        QVERIFY(dialog.runButton()->isEnabled());
        QVERIFY(!dialog.cancelButton()->isEnabled());
    }

    void closingARunningSweepWaitsForIt()
    {
        Document document;
        document.resetScene(test::demoScene(), {});
        auto* dialog = new SweepDialog(&document);
        setUpSweep(*dialog);
        dialog->seedsField()->setValue(40);
        QVERIFY(dialog->start());
        delete dialog; // cancels and joins: no thread outlives the plan it reads
        QCOMPARE(document.undoStack()->count(), 0);
    }

    void theDefaultRangesAreRoundValuesInTheSpec()
    {
        Document document;
        document.resetScene(test::demoScene(), {});
        SweepDialog dialog(&document);
        dialog.groupField()->setCurrentIndex(kSchool);
        const auto rangeOf = [&](const char* key) {
            dialog.firstParamField()->setCurrentIndex(
                dialog.firstParamField()->findData(QString::fromLatin1(key)));
            return dialog.firstRangeField()->text();
        };
        QCOMPARE(rangeOf("moveSpeed"), QStringLiteral("5:30:5"));     // 0.1 to 30 m/s
        QCOMPARE(rangeOf("keepWeight"), QStringLiteral("0:5:1"));     // 0 to 5
        QCOMPARE(rangeOf("neighborCount"), QStringLiteral("2:16:2")); // whole, 1 to 16
        QCOMPARE(rangeOf("turnSlowdown"), QStringLiteral("0:1:0.2")); // 0 to 1
        QCOMPARE(dialog.secondParamField()->currentData().toString(),
                 QStringLiteral("rotateSpeed"));
        QCOMPARE(dialog.secondRangeField()->text(), QStringLiteral("200:1400:200"));
    }

    void aBadRangeIsRefused()
    {
        Document document;
        document.resetScene(test::demoScene(), {});
        SweepDialog dialog(&document);
        setUpSweep(dialog);
        dialog.firstRangeField()->setText(QStringLiteral("1.5:0.5:0.5"));
        QVERIFY(!dialog.start());
        QVERIFY(dialog.message().contains(QStringLiteral("TO at least FROM")));
        dialog.firstRangeField()->setText(QStringLiteral("0:99:1"));
        QVERIFY(!dialog.start());
        QVERIFY(!dialog.isRunning());
    }

    void aNewSceneRefillsTheGroups()
    {
        Document document;
        document.resetScene(test::demoScene(), {});
        SweepDialog sweep(&document);
        TuneDialog tune(&document);
        sweep.groupField()->setCurrentIndex(2);
        QCOMPARE(sweep.groupField()->currentText(), QStringLiteral("swarm"));
        document.resetScene(test::emptyScene(), {});
        for (QComboBox* groups : {sweep.groupField(), tune.groupField()})
            QCOMPARE(groups->count(), 0);
        QVERIFY(!sweep.runButton()->isEnabled());
        QVERIFY(!sweep.start());
        QVERIFY(!tune.start());
        QCOMPARE(tune.paramTable()->rowCount(), 0);
        document.resetScene(test::demoScene(), {});
        QCOMPARE(sweep.groupField()->count(), 5);
        QCOMPARE(tune.groupField()->count(), 5);
        QVERIFY(sweep.runButton()->isEnabled());
        QCOMPARE(sweep.measureField()->findText(QStringLiteral("worms.meanSpeed")) > 0, true);
        QVERIFY(tune.paramTable()->rowCount() > 0);
    }

    void tuneAppliesTheBestPointInOneStep()
    {
        Document document;
        document.resetScene(test::demoScene(), {});
        TuneDialog dialog(&document);
        dialog.groupField()->setCurrentIndex(kSchool);
        QTableWidget* table = dialog.paramTable();
        int keepRow = -1;
        for (int row = 0; row < table->rowCount(); ++row) {
            QTableWidgetItem* name = table->item(row, TuneDialog::kParamColumn);
            const bool keep = name->data(Qt::UserRole).toString() == QLatin1String("keepWeight");
            name->setCheckState(keep ? Qt::Checked : Qt::Unchecked);
            keepRow = keep ? row : keepRow;
        }
        QVERIFY(keepRow >= 0);
        table->item(keepRow, TuneDialog::kMinColumn)->setText(QStringLiteral("0.5"));
        table->item(keepRow, TuneDialog::kMaxColumn)->setText(QStringLiteral("2"));
        dialog.objectiveField()->setCurrentText(QStringLiteral("school.nearestMedian=1.8"));
        dialog.budgetField()->setValue(5);
        dialog.seedsField()->setValue(1);
        dialog.stepsField()->setValue(30);
        QVERIFY(!dialog.applyButton()->isEnabled());

        QSignalSpy finished(&dialog, &TuneDialog::tuneFinished);
        QVERIFY(dialog.start());
        QVERIFY(finished.wait(kWaitMs));
        QVERIFY(dialog.result().has_value());
        const experiments::TuneResult result = *dialog.result();
        QVERIFY(!result.cancelled);
        QCOMPARE(result.evaluations, 5);
        QCOMPARE(dialog.progressBar()->value(), 5);
        QCOMPARE(dialog.plot()->bests().size(), std::size_t(5));
        QCOMPARE(dialog.plot()->bests().back(), result.bestScore.objective);
        QVERIFY(dialog.applyButton()->isEnabled());
        QVERIFY2(dialog.message().startsWith(QStringLiteral("Done after 5 points: objective ")),
                 qPrintable(dialog.message()));

        const ParamValues before = schoolParams(document);
        const int steps = document.undoStack()->count();
        QTest::mouseClick(dialog.applyButton(), Qt::LeftButton);
        QCOMPARE(document.undoStack()->count(), steps + 1);
        ParamValues expected = before;
        expected[std::size_t(paramIndex(paramSpecs(BehaviourKind::FishSchool), "keepWeight"))] =
            result.best[0];
        QCOMPARE(schoolParams(document), expected);
        QVERIFY(
            result.best[0] !=
            before[std::size_t(paramIndex(paramSpecs(BehaviourKind::FishSchool), "keepWeight"))]);
        document.undoStack()->undo();
        QCOMPARE(schoolParams(document), before);
    }

    void tuneCancelStopsTheSearch()
    {
        Document document;
        document.resetScene(test::demoScene(), {});
        TuneDialog dialog(&document);
        dialog.objectiveField()->setCurrentText(QStringLiteral("-school.polarization"));
        dialog.stepsField()->setValue(dialog.stepsField()->maximum());
        dialog.seedsField()->setValue(1);
        QSignalSpy finished(&dialog, &TuneDialog::tuneFinished);
        QVERIFY(dialog.start());
        QVERIFY(dialog.cancelButton()->isEnabled());
        QTest::mouseClick(dialog.cancelButton(), Qt::LeftButton);
        QVERIFY(finished.wait(kWaitMs));
        QVERIFY(dialog.result()->cancelled);
        QCOMPARE(dialog.result()->evaluations, 0);
        QCOMPARE(dialog.message(), QStringLiteral("Cancelled before the first point."));
        QVERIFY(!dialog.applyButton()->isEnabled());
        QVERIFY(dialog.runButton()->isEnabled());
    }

    void tuneRefusesAnUnknownObjective()
    {
        Document document;
        document.resetScene(test::demoScene(), {});
        TuneDialog dialog(&document);
        dialog.objectiveField()->setCurrentText(QStringLiteral("school.nosuchkey"));
        QVERIFY(!dialog.start());
        QVERIFY(dialog.message().contains(QStringLiteral("not GROUP.KEY")));
    }

private:
    QTemporaryDir m_dir;
    QString m_csv;
};

QTEST_MAIN(TestSweepTuneDialogs)
#include "test_sweeptunedialogs.moc"
