// The metrics dock as a designer uses it: its plots grow while the world plays and hold
// still while it is paused, they show what the runtime measured for that group, a parameter
// edit made in the property panel is a labelled mark on them, and the world measures only
// while the dock is shown, as often as it samples, without changing the movement.

#include "document/document.h"
#include "document/groupselection.h"
#include "metrics/metricsdock.h"
#include "panels/paramrow.h"
#include "panels/propertypanel.h"
#include "simulation/simulationcontroller.h"
#include "uitestsupport.h"

#include <shoal/paramspec.h>
#include <shoal/world.h>
#include <shoal/worldstate.h>

#include <QAbstractSpinBox>
#include <QChart>
#include <QDoubleSpinBox>
#include <QGraphicsSimpleTextItem>
#include <QLineSeries>
#include <QtTest>

using namespace shoal;
using namespace shoal::ui;

namespace {

constexpr int kSchool = 0; // the demo's groups, in file order

struct Fixture
{
    explicit Fixture(const SceneDesc& scene)
    {
        document.resetScene(scene, {});
        panel.resize(460, 1100);
        panel.show();
        dock.resize(900, 700);
        dock.show();
    }
    /// Plays `seconds` of simulated time the way the timer does, one tick a step.
    void play(double seconds)
    {
        const int ticks = static_cast<int>(std::lround(seconds * 60.0));
        for (int k = 0; k < ticks; ++k)
            controller.advance(1.0 / 60.0);
        dock.redraw();
    }
    QLineSeries* line(const char* plot, int index) const
    {
        const QList<QAbstractSeries*> series = dock.chart(QString::fromLatin1(plot))->series();
        return index < series.size() ? qobject_cast<QLineSeries*>(series[index]) : nullptr;
    }
    /// The texts of the edit marks shown on a plot.
    QStringList marks(const char* plot) const
    {
        QStringList texts;
        for (QGraphicsItem* item : dock.chart(QString::fromLatin1(plot))->childItems())
            if (auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item);
                text && text->isVisible())
                texts.push_back(text->text());
        return texts;
    }

    Document document;
    GroupSelection selection{&document};
    SimulationController controller{&document};
    PropertyPanel panel{&document, &selection, &controller};
    MetricsDock dock{&document, &selection, &controller};
};

/// The demo without its checks: while a check is undecided the world measures every step
/// (test_checksdock), and these tests are about the rate the plots ask for.
SceneDesc demoWithoutChecks()
{
    SceneDesc scene = test::demoScene();
    scene.checks.clear();
    return scene;
}

void typeInto(QAbstractSpinBox* spin, const QString& text)
{
    spin->setFocus();
    QTest::keyClick(spin, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(spin, text);
    QTest::keyClick(spin, Qt::Key_Return);
}

} // namespace

class TestMetricsDock : public QObject
{
    Q_OBJECT

private slots:
    void plotsGrowWhilePlayingAndHoldWhilePaused();
    void plotsShowWhatTheRuntimeMeasured();
    void anEditIsAMarkOnThePlots();
    void aDragIsOneMark();
    void theWorldMeasuresOnlyWhileShown();
    void measuringNeverChangesTheMovement();
    void aSampleKeepsTheWorstStepOfItsInterval();
};

void TestMetricsDock::plotsGrowWhilePlayingAndHoldWhilePaused()
{
    Fixture f(test::demoScene());
    f.selection.select(kSchool);
    f.dock.redraw();
    // One group selected: a line per field (median and min spacing).
    QCOMPARE(f.dock.chart(QStringLiteral("spacing"))->series().size(), 2);
    f.play(2.0);
    const int after2 = static_cast<int>(f.line("spacing", 0)->count());
    QVERIFY2(after2 >= 8 && after2 <= 12, qPrintable(QString::number(after2))); // 5 a second
    f.play(2.0);
    const int after4 = static_cast<int>(f.line("spacing", 0)->count());
    QVERIFY(after4 >= after2 + 8);
    QVERIFY(f.line("speed", 0)->count() == after4);
    // Paused (no steps), the plots hold still however often they are drawn.
    f.dock.redraw();
    f.dock.redraw();
    QCOMPARE(static_cast<int>(f.line("spacing", 0)->count()), after4);
    // The time axis follows the newest sample once the window is full.
    f.dock.setWindowSeconds(10);
    f.play(12.0);
    const QList<QPointF> points = f.line("spacing", 0)->points();
    QVERIFY(points.first().x() >= f.dock.history().latestTime() - 10.0 - 1e-6);
    QVERIFY(points.size() <= 55);
}

void TestMetricsDock::plotsShowWhatTheRuntimeMeasured()
{
    Fixture f(demoWithoutChecks());
    f.selection.select(kSchool);
    f.play(3.0);
    const World* world = f.controller.world();
    QVERIFY(world->metricsEnabled());
    // The newest point is the world's last measure (an interval's latest value for the
    // median and the speed).
    const GroupMetrics& m = world->group(kSchool).metrics;
    const QPointF median = f.line("spacing", 0)->points().last();
    QCOMPARE(median.x(), static_cast<double>(world->metricsStep()) * world->dt());
    QCOMPARE(static_cast<float>(median.y()), m.nearestMedian);
    QCOMPARE(static_cast<float>(f.line("speed", 0)->points().last().y()), m.meanSpeed);
    QVERIFY(m.nearestMedian > 0.5f); // a school, spaced
    // The chart's title reads the value now.
    QVERIFY2(f.dock.chart(QStringLiteral("spacing"))
                 ->title()
                 .contains(QLocale().toString(m.nearestMedian, 'f', 2)),
             qPrintable(f.dock.chart(QStringLiteral("spacing"))->title()));
}

void TestMetricsDock::anEditIsAMarkOnThePlots()
{
    Fixture f(test::demoScene());
    f.selection.select(kSchool);
    f.play(2.0);
    const double editTime = f.controller.world()->time();
    ParamRow* row = f.panel.groupRow(QStringLiteral("keepWeight"));
    QVERIFY(row && row->doubleSpinBox());
    const double before = row->value();
    typeInto(row->doubleSpinBox(), QStringLiteral("1.4"));
    QCOMPARE(f.controller.world()->param(kSchool, "keepWeight"), 1.4);
    f.play(2.0);
    QCOMPARE(f.dock.history().edits().size(), std::size_t(1));
    const EditMark& mark = f.dock.history().edits().front();
    QCOMPARE(mark.key, QStringLiteral("keepWeight"));
    QCOMPARE(mark.from, before);
    QCOMPARE(mark.to, 1.4);
    QVERIFY(std::fabs(mark.time - editTime) < 1e-9);
    // Written on every plot shown, with the value before and after.
    const QString expected =
        QStringLiteral("keepWeight %1 \u2192 1.4").arg(QLocale().toString(before, 'g', 4));
    for (const char* plot : {"spacing", "order", "speed"})
        QVERIFY2(f.marks(plot).contains(expected),
                 qPrintable(f.marks(plot).join(QLatin1Char('|'))));
    // Another group's edit is not a mark on the school's plots.
    f.selection.select(2);
    f.dock.redraw();
    QVERIFY(!f.marks("spacing").contains(expected));
}

void TestMetricsDock::aDragIsOneMark()
{
    Fixture f(test::demoScene());
    f.selection.select(kSchool);
    f.play(1.0);
    ParamRow* row = f.panel.groupRow(QStringLiteral("keepWeight"));
    const double before = row->value();
    // Several edits in a row, as a slider's drag makes them: one mark from first to last.
    for (const char* value : {"1.1", "1.2", "1.3", "1.5"}) {
        typeInto(row->doubleSpinBox(), QString::fromLatin1(value));
        f.play(0.1);
    }
    QCOMPARE(f.dock.history().edits().size(), std::size_t(1));
    QCOMPARE(f.dock.history().edits().front().from, before);
    QCOMPARE(f.dock.history().edits().front().to, 1.5);
    // Later, another change is a mark of its own.
    f.play(2.0);
    typeInto(row->doubleSpinBox(), QStringLiteral("0.8"));
    QCOMPARE(f.dock.history().edits().size(), std::size_t(2));
    QCOMPARE(f.dock.history().edits().back().from, 1.5);
}

void TestMetricsDock::theWorldMeasuresOnlyWhileShown()
{
    Fixture f(demoWithoutChecks());
    QVERIFY(f.controller.world()->metricsEnabled());
    QCOMPARE(f.controller.world()->metricsEvery(), 12); // five samples a second at 60 Hz
    f.dock.hide();
    QVERIFY(!f.controller.world()->metricsEnabled());
    f.controller.restart();
    QVERIFY(!f.controller.world()->metricsEnabled()); // a new world asks again
    f.dock.show();
    QVERIFY(f.controller.world()->metricsEnabled());
}

void TestMetricsDock::measuringNeverChangesTheMovement()
{
    // The same demo stepped with metrics every step, every 12th and never: the same hash.
    std::vector<std::uint64_t> hashes;
    for (int every : {0, 1, 12}) {
        auto world = World::create(test::demoScene());
        QVERIFY(world.ok());
        (*world)->setMetricsEnabled(every > 0);
        (*world)->setMetricsEvery(every);
        (*world)->step(300);
        hashes.push_back((*world)->stateHash());
        if (every == 12)
            QCOMPARE((*world)->metricsStep(), std::uint64_t(300));
    }
    QCOMPARE(hashes[1], hashes[0]);
    QCOMPARE(hashes[2], hashes[0]);
}

void TestMetricsDock::aSampleKeepsTheWorstStepOfItsInterval()
{
    // Steps of one sample interval: the most agents in trouble and the smallest spacing of
    // any of them, the latest of the rest.
    MetricsHistory history;
    GroupState group;
    std::vector<const GroupState*> groups{&group};
    // One step a sample of its own (the first), then one interval's worth of steps.
    const int steps = 1 + static_cast<int>(std::lround(MetricsHistory::kSampleSeconds * 60.0));
    for (int k = 0; k < steps; ++k) {
        group.metrics.penetrations = k == 2 ? 7 : (k == 5 ? 1 : 0);
        group.metrics.nearestMin = k == 3 ? 0.4f : 1.0f + 0.01f * static_cast<float>(k);
        group.metrics.meanSpeed = static_cast<float>(k);
        history.observe((k + 1) / 60.0, groups);
    }
    const std::deque<MetricSample>& samples = history.samples(0);
    QCOMPARE(samples.size(), std::size_t(2)); // the first step is a sample of its own
    const MetricSample& sample = samples.back();
    QCOMPARE(sample.value(MetricField::Penetrations), 7.0f);
    QCOMPARE(sample.value(MetricField::NearestMin), 0.4f);
    QCOMPARE(sample.value(MetricField::MeanSpeed), static_cast<float>(steps - 1));
    QCOMPARE(history.samples(MetricsHistory::kAllGroups).back().value(MetricField::Penetrations),
             7.0f);
}

QTEST_MAIN(TestMetricsDock)
#include "test_metricsdock.moc"
