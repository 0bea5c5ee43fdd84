#pragma once
/// The editor's thread for the world's steps: while it steps, the GUI thread paints the frame
/// of the step before (SimulationController double-buffers the frames). One job at a time,
/// handed over by start() and collected by wait(); both are called from one thread only.

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace shoal::ui {

class SteppingThread
{
public:
    SteppingThread();
    ~SteppingThread();
    SteppingThread(const SteppingThread&) = delete;
    SteppingThread& operator=(const SteppingThread&) = delete;

    /// Runs `job` on the thread. Not while busy().
    void start(std::function<void()> job);
    /// A job was started and not yet collected by wait().
    bool busy() const { return m_busy; }
    /// Returns once the job started last has finished (at once when none runs).
    void wait();

private:
    void loop();

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::function<void()> m_job; ///< the job to run, empty once taken
    bool m_finished = true;      ///< the job taken last has returned
    bool m_quit = false;
    bool m_busy = false; ///< the caller's side: started, not collected
    std::thread m_thread;
};

} // namespace shoal::ui
