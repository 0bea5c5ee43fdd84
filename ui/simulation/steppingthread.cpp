#include "simulation/steppingthread.h"

#include <utility>

namespace shoal::ui {

SteppingThread::SteppingThread() : m_thread([this] { loop(); }) {}

SteppingThread::~SteppingThread()
{
    wait();
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_quit = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

void SteppingThread::start(std::function<void()> job)
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_job = std::move(job);
        m_finished = false;
    }
    m_busy = true;
    m_wake.notify_all();
}

void SteppingThread::wait()
{
    if (!m_busy)
        return;
    std::unique_lock<std::mutex> lock(m_mutex);
    m_wake.wait(lock, [this] { return m_finished; });
    m_busy = false;
}

void SteppingThread::loop()
{
    std::unique_lock<std::mutex> lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [this] { return m_quit || m_job; });
        if (m_quit)
            return;
        std::function<void()> job = std::move(m_job);
        m_job = nullptr;
        lock.unlock();
        job();
        lock.lock();
        m_finished = true;
        m_wake.notify_all();
    }
}

} // namespace shoal::ui
