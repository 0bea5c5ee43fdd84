#include "parallel/workerpool.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace shoal {

namespace {

/// How many times a thread looks for news before it sleeps: a step posts several jobs a few
/// hundred microseconds apart, and a worker woken from sleep each time loses tens of them.
constexpr int kSpins = 4000;

inline void relax()
{
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#else
    std::this_thread::yield();
#endif
}

} // namespace

WorkerPool::WorkerPool(int threads)
{
    const int workers = threads > 1 ? threads - 1 : 0;
    m_workers.reserve(static_cast<std::size_t>(workers));
    for (int w = 1; w <= workers; ++w)
        m_workers.emplace_back([this, w] { workerLoop(w); });
}

WorkerPool::~WorkerPool()
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    for (std::thread& t : m_workers)
        t.join();
}

int WorkerPool::hardwareThreads()
{
    const unsigned n = std::thread::hardware_concurrency();
    return n > 0 ? static_cast<int>(n) : 1;
}

std::size_t WorkerPool::takeBlocks(int worker)
{
    std::size_t done = 0;
    for (;;) {
        const std::size_t block = m_next.fetch_add(1, std::memory_order_relaxed);
        if (block >= m_blocks)
            break;
        m_call(m_context, block, worker);
        ++done;
    }
    return done;
}

void WorkerPool::runShared(std::size_t blocks, Trampoline call, void* context)
{
    // A worker that joined the last job late may still be looking for a block of it, or
    // still be leaving it: the counters are not reset under it. It is on its way out, so a
    // spin most often sees it go.
    for (int spin = 0; spin < kSpins && m_active.load(std::memory_order_acquire) != 0; ++spin)
        relax();
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_done.wait(lock, [&] { return m_active.load(std::memory_order_acquire) == 0; });
        m_call = call;
        m_context = context;
        m_blocks = blocks;
        m_next.store(0, std::memory_order_relaxed);
        m_finished.store(0, std::memory_order_relaxed);
        ++m_generation;
    }
    // Told once the lock is free: a spinning worker that sees it takes the lock at once,
    // where one that saw it inside would wait on the lock in the kernel.
    m_posted.store(m_generation, std::memory_order_release);
    m_wake.notify_all();

    const std::size_t mine = takeBlocks(0);
    std::size_t finished = m_finished.fetch_add(mine, std::memory_order_acq_rel) + mine;
    for (int spin = 0; finished < blocks && spin < kSpins; ++spin) {
        relax();
        finished = m_finished.load(std::memory_order_acquire);
    }
    if (finished == blocks)
        return; // every block done: a worker still leaving it touches only the pool
    std::unique_lock<std::mutex> lock(m_mutex);
    m_done.wait(lock, [&] { return m_finished.load(std::memory_order_acquire) == blocks; });
}

void WorkerPool::workerLoop(int worker)
{
    std::uint64_t seen = 0;
    for (;;) {
        for (int spin = 0; spin < kSpins && m_posted.load(std::memory_order_acquire) == seen;
             ++spin)
            relax();
        std::unique_lock<std::mutex> lock(m_mutex);
        m_wake.wait(lock, [&] { return m_stopping || m_generation != seen; });
        if (m_stopping)
            return;
        seen = m_generation;
        m_active.fetch_add(1, std::memory_order_acq_rel);
        lock.unlock();
        const std::size_t done = takeBlocks(worker);
        m_finished.fetch_add(done, std::memory_order_acq_rel);
        // The last one out tells a caller that sleeps on it (under the lock, so a caller
        // that has just found it inside is asleep before it is told).
        if (m_active.fetch_sub(1, std::memory_order_acq_rel) == 1) {
            std::lock_guard<std::mutex> told(m_mutex);
            m_done.notify_all();
        }
    }
}

} // namespace shoal
