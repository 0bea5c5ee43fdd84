// The experiments library the editor's dialogs and shoal-cli share: a sweep's runs are the
// same for one thread and two (each run a pure function of its index); a cancelled sweep
// stops early, delivers only whole blocks and does not crash; a cancelled search stops after
// the point it is at and keeps its best so far.
#include "uitestsupport.h"

#include <sweeprunner.h>
#include <tuner.h>

#include <QElapsedTimer>
#include <QThread>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <thread>

using namespace shoal;
using namespace shoal::experiments;

namespace {

/// The demo over school.keepWeight (3 values) x swarm.speed (2), two seeds, 40 steps.
SweepPlan smallPlan()
{
    SweepPlan plan;
    plan.scene = ui::test::demoScene();
    for (const auto& [target, range] :
         {std::pair<const char*, const char*>{"school.keepWeight", "0.5:1.5:0.5"},
          {"swarm.speed", "2:3:1"}}) {
        SweepAxis axis;
        if (auto error = makeSweepAxis(plan.scene, target, range, target, axis))
            qFatal("%s", error->message.c_str());
        plan.axes.push_back(axis);
    }
    plan.seeds = 2;
    plan.steps = 40;
    return plan;
}

std::vector<SweepRun> runAll(const SweepPlan& plan, int jobs, std::size_t block)
{
    std::vector<SweepRun> runs;
    const std::size_t done = runSweep(
        plan, 0, 1, plan.runs(), jobs, block, [&](SweepRun&& run) { runs.push_back(run); }, {},
        nullptr);
    if (done != plan.runs())
        qFatal("runSweep delivered %zu of %zu runs", done, plan.runs());
    return runs;
}

/// Bit for bit, NaN equal to NaN.
bool sameNumber(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

} // namespace

class TestSweepRunner : public QObject
{
    Q_OBJECT

private slots:
    void theRunsAreTheSameForOneAndTwoThreads()
    {
        const SweepPlan plan = smallPlan();
        QCOMPARE(plan.combinations(), std::size_t(6));
        QCOMPARE(plan.runs(), std::size_t(12));
        const std::vector<SweepRun> one = runAll(plan, 1, 0);
        // Two threads and a block of 5: blocks that do not divide the runs.
        const std::vector<SweepRun> two = runAll(plan, 2, 5);
        QCOMPARE(one.size(), two.size());
        std::size_t hashes = 0;
        for (std::size_t i = 0; i < one.size(); ++i) {
            QCOMPARE(one[i].run, i);
            QCOMPARE(two[i].run, i);
            QCOMPARE(two[i].seed, one[i].seed);
            QCOMPARE(two[i].values, one[i].values);
            QCOMPARE(two[i].passed, one[i].passed);
            QCOMPARE(two[i].checks, one[i].checks);
            QCOMPARE(two[i].error, one[i].error);
            QCOMPARE(two[i].hash, one[i].hash);
            QVERIFY(!one[i].refused());
            QCOMPARE(two[i].metrics.size(), one[i].metrics.size());
            for (std::size_t m = 0; m < one[i].metrics.size(); ++m)
                QVERIFY2(sameNumber(two[i].metrics[m], one[i].metrics[m]),
                         qPrintable(QStringLiteral("run %1 metric %2").arg(i).arg(m)));
            hashes += i > 0 && one[i].hash != one[i - 1].hash ? 1 : 0;
        }
        // The runs differ (values and seeds change the world): the comparison means something.
        QVERIFY(hashes >= one.size() - 2);
        // The last axis changes fastest; seeds are the scene's, then the next one.
        QCOMPARE(one[2].values, (std::vector<double>{0.5, 3.0}));
        QCOMPARE(one[3].seed, plan.scene.simulation.seed + 1);
    }

    void aCancelledSweepStopsEarly()
    {
        SweepPlan plan = smallPlan();
        plan.seeds = 20; // 120 runs
        std::atomic<bool> cancel{false};
        std::size_t delivered = 0, heard = 0;
        const std::size_t done = runSweep(
            plan, 0, 1, plan.runs(), 2, 4, [&](SweepRun&&) { ++delivered; },
            [&](std::size_t soFar) {
                heard = soFar;
                if (soFar >= 8)
                    cancel = true;
            },
            &cancel);
        QCOMPARE(done, std::size_t(8));
        QCOMPARE(delivered, done);
        QCOMPARE(heard, done);

        // Cancelled before it starts: nothing runs.
        delivered = 0;
        QCOMPARE(runSweep(
                     plan, 0, 1, plan.runs(), 2, 0, [&](SweepRun&&) { ++delivered; }, {}, &cancel),
                 std::size_t(0));
        QCOMPARE(delivered, std::size_t(0));
    }

    void aCancelStopsARunUnderWay()
    {
        // One run far too long to wait for: a cancel must end it within a few steps.
        SweepPlan plan = smallPlan();
        plan.axes.resize(1);
        plan.axes[0].values.resize(1);
        plan.seeds = 1;
        plan.steps = 100000000;
        std::atomic<bool> cancel{false};
        std::size_t done = 1;
        QElapsedTimer timer;
        timer.start();
        std::thread sweep([&]() {
            done = runSweep(
                plan, 0, 1, plan.runs(), 1, 0, [](SweepRun&&) {}, {}, &cancel);
        });
        QThread::msleep(200);
        cancel = true;
        sweep.join();
        QCOMPARE(done, std::size_t(0));
        QVERIFY2(timer.elapsed() < 10000, qPrintable(QString::number(timer.elapsed())));

        // The same for a search: the point under way does not count.
        TunePlan tune;
        tune.scene = plan.scene;
        TuneParam param;
        QVERIFY(!makeTuneParam(tune.scene, "school.keepWeight", 0.2, 3.0, "test", param));
        tune.params.push_back(param);
        QVERIFY(!parseObjective(tune.scene, QStringLiteral("school.meanSpeed"), "test",
                                tune.objective));
        tune.seeds = 1;
        tune.steps = 100000000;
        cancel = false;
        TuneResult result;
        timer.restart();
        std::thread search([&]() { result = runTune(tune, {}, &cancel); });
        QThread::msleep(200);
        cancel = true;
        search.join();
        QVERIFY(result.cancelled);
        QCOMPARE(result.evaluations, 0);
        QVERIFY(result.best.empty());
        QVERIFY2(timer.elapsed() < 10000, qPrintable(QString::number(timer.elapsed())));
    }

    void aCancelledSearchKeepsItsBestSoFar()
    {
        TunePlan plan;
        plan.scene = ui::test::demoScene();
        TuneParam param;
        QVERIFY(!makeTuneParam(plan.scene, "school.keepWeight", 0.2, 3.0, "test", param));
        plan.params.push_back(param);
        QVERIFY(!parseObjective(plan.scene, QStringLiteral("school.nearestMedian=1.8"), "test",
                                plan.objective));
        plan.seeds = 1;
        plan.steps = 30;
        plan.budget = 40;
        std::atomic<bool> cancel{false};
        int heard = 0;
        const TuneResult result = runTune(
            plan,
            [&](const TuneStep& step) {
                heard = step.evaluation;
                QCOMPARE(step.budget, 40);
                if (step.evaluation == 3)
                    cancel = true;
            },
            &cancel);
        QVERIFY(result.cancelled);
        QCOMPARE(result.evaluations, 3);
        QCOMPARE(heard, 3);
        QCOMPARE(result.best.size(), std::size_t(1));
        QVERIFY(result.bestScore.objective < kRefusedObjective);
    }
};

QTEST_GUILESS_MAIN(TestSweepRunner)
#include "test_sweeprunner.moc"
