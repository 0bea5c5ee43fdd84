// The step's WorkerPool: every block of a job runs exactly once, and run() returns only once
// all of them are done, whether the jobs come back to back (workers spinning), after the
// workers fell asleep, or with the pool torn down right after; a worker index is below the
// team's size. A run that returned early, a block run twice and a wake-up lost (a hang the
// test's time limit ends) all fail here.

#include "math/random.h"
#include "parallel/workerpool.h"

#include <QtTest>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

using namespace shoal;

class TestWorkerPool : public QObject
{
    Q_OBJECT

private slots:
    void everyBlockRunsOnceBeforeRunReturns_data();
    void everyBlockRunsOnceBeforeRunReturns();
    void aSlowBlockIsWaitedFor();
    void jobsAfterTheWorkersFellAsleep();
    void poolTornDownRightAfterAJob();
};

namespace {

/// Spins for about `iterations` loop turns: a block that takes a little while, so the other
/// threads take blocks too.
void work(std::uint64_t iterations)
{
    volatile std::uint64_t sink = 0;
    for (std::uint64_t i = 0; i < iterations; ++i)
        sink = sink + i;
}

/// Runs a job of `blocks` blocks on `pool` and checks each ran once, on a worker index below
/// the team's size, all before run() returned. False (and a QWARN) at the first fault.
bool runAndCheck(WorkerPool& pool, std::size_t blocks, std::uint64_t iterations,
                 std::vector<std::atomic<int>>& ran)
{
    for (std::size_t b = 0; b < blocks; ++b)
        ran[b].store(0, std::memory_order_relaxed);
    std::atomic<bool> badWorker{false};
    pool.run(blocks, [&](std::size_t block, int worker) {
        if (worker < 0 || worker >= pool.threads())
            badWorker.store(true);
        work(iterations);
        ran[block].fetch_add(1, std::memory_order_release);
    });
    if (badWorker.load()) {
        qWarning("a block ran on a worker index outside the team");
        return false;
    }
    for (std::size_t b = 0; b < blocks; ++b) {
        const int times = ran[b].load(std::memory_order_acquire);
        if (times != 1) {
            qWarning("block %zu of %zu ran %d times by the time run() returned", b, blocks, times);
            return false;
        }
    }
    return true;
}

} // namespace

void TestWorkerPool::everyBlockRunsOnceBeforeRunReturns_data()
{
    QTest::addColumn<int>("threads");
    for (int threads : {1, 2, 3, 4})
        QTest::addRow("%d threads", threads) << threads;
}

void TestWorkerPool::everyBlockRunsOnceBeforeRunReturns()
{
    QFETCH(int, threads);
    WorkerPool pool(threads);
    QCOMPARE(pool.threads(), threads);
    std::vector<std::atomic<int>> ran(16);
    Random random(7);
    // Jobs back to back, as a step posts them: 1 to 16 blocks of uneven length, some with a
    // moment of the caller's own work between them.
    for (int job = 0; job < 20000; ++job) {
        const auto blocks = static_cast<std::size_t>(1 + random.nextU64() % 16);
        const std::uint64_t iterations = random.nextU64() % 400;
        QVERIFY2(runAndCheck(pool, blocks, iterations, ran), qPrintable(QString::number(job)));
        if (job % 3 == 0)
            work(random.nextU64() % 200);
    }
}

void TestWorkerPool::aSlowBlockIsWaitedFor()
{
    // One block far longer than the caller spins for once its own are done: run() must wait
    // for it asleep, not return when the spin runs out.
    WorkerPool pool(2);
    std::vector<std::atomic<int>> ran(4);
    for (int job = 0; job < 24; ++job) {
        for (auto& times : ran)
            times.store(0);
        const std::size_t slow = static_cast<std::size_t>(job % 4);
        pool.run(4, [&](std::size_t block, int) {
            if (block == slow)
                std::this_thread::sleep_for(std::chrono::milliseconds(3));
            ran[block].fetch_add(1, std::memory_order_release);
        });
        for (std::size_t b = 0; b < ran.size(); ++b)
            QCOMPARE(ran[b].load(std::memory_order_acquire), 1);
    }
}

void TestWorkerPool::jobsAfterTheWorkersFellAsleep()
{
    // Workers spin a while after a job, then sleep: jobs a few milliseconds apart find them
    // asleep and must wake them (or run every block on the caller), never hang.
    WorkerPool pool(3);
    std::vector<std::atomic<int>> ran(8);
    for (int job = 0; job < 60; ++job) {
        QVERIFY(runAndCheck(pool, 8, 2000, ran));
        std::this_thread::sleep_for(std::chrono::milliseconds(job % 4));
    }
}

void TestWorkerPool::poolTornDownRightAfterAJob()
{
    // A pool destroyed as soon as run() returns: a worker may still be leaving the job (it
    // touches only the pool then), and the destructor must still join every thread.
    std::vector<std::atomic<int>> ran(6);
    for (int round = 0; round < 300; ++round) {
        auto pool = std::make_unique<WorkerPool>(2 + round % 3);
        QVERIFY(runAndCheck(*pool, 1 + static_cast<std::size_t>(round % 6), 100, ran));
        pool.reset();
    }
}

QTEST_GUILESS_MAIN(TestWorkerPool)
#include "test_workerpool.moc"
