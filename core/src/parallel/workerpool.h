#pragma once
/// The step's own small team of threads. A job is a number of blocks; the caller and the
/// workers take blocks in turn until none is left, and run() returns once every block is
/// done. Which thread runs which block varies from run to run, so a job must not care:
/// every block writes only what is its own (its agents' next state, its partial sums, the
/// scratch of the worker index it is handed), and whatever is combined afterwards is
/// combined in block order. Blocks are cut from the work alone, never from the number of
/// threads, which is how a step gives the same bits on one thread as on many.
///
/// Our own rather than a library's: Debian's choices (TBB, OpenMP) bring a scheduler that
/// steals work and splits ranges by thread count, and a runtime a game must ship; the step
/// needs a fixed cut, a worker index for scratch and nothing else, in ~150 lines.

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace shoal {

class WorkerPool
{
public:
    /// A team of `threads` (the caller included; at least 1). 1 starts no thread.
    explicit WorkerPool(int threads);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    /// The caller and the workers.
    int threads() const { return static_cast<int>(m_workers.size()) + 1; }

    /// Runs job(block, worker) for every block in [0, blocks), worker being the index
    /// (0 = the caller, below threads()) of the thread that runs it, and returns when all
    /// are done. A job of one block, or a team of one, runs on the caller alone. Not
    /// reentrant: a job never calls run() of its own pool.
    template <class Job> void run(std::size_t blocks, Job&& job)
    {
        if (blocks == 0)
            return;
        if (blocks == 1 || m_workers.empty()) {
            for (std::size_t b = 0; b < blocks; ++b)
                job(b, 0);
            return;
        }
        using Callable = std::remove_reference_t<Job>;
        runShared(
            blocks,
            [](void* context, std::size_t block, int worker) {
                (*static_cast<Callable*>(context))(block, worker);
            },
            const_cast<void*>(static_cast<const void*>(&job)));
    }

    /// The threads this machine runs at once (at least 1).
    static int hardwareThreads();

private:
    using Trampoline = void (*)(void* context, std::size_t block, int worker);
    void runShared(std::size_t blocks, Trampoline call, void* context);
    void workerLoop(int worker);
    /// Takes blocks until none is left; the blocks this thread finished.
    std::size_t takeBlocks(int worker);

    std::vector<std::thread> m_workers;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_done;
    // The job in hand, published under m_mutex with a new generation.
    Trampoline m_call = nullptr;
    void* m_context = nullptr;
    std::size_t m_blocks = 0;
    std::uint64_t m_generation = 0;
    /// Workers inside the job in hand (each joins under m_mutex, and leaves without it).
    std::atomic<int> m_active{0};
    bool m_stopping = false;
    std::atomic<std::size_t> m_next{0};     ///< the next block to take
    std::atomic<std::size_t> m_finished{0}; ///< blocks done of the job in hand
    std::atomic<std::uint64_t> m_posted{0}; ///< m_generation, readable without the lock
};

} // namespace shoal
