#include "files/autosaveschedule.h"

namespace shoal::ui {

AutosaveSchedule::AutosaveSchedule(QObject* parent) : QObject(parent)
{
    for (QTimer* timer : {&m_quiet, &m_longest}) {
        timer->setSingleShot(true);
        connect(timer, &QTimer::timeout, this, &AutosaveSchedule::fire);
    }
    setDelays(kQuietMs, kLongestMs);
}

void AutosaveSchedule::setDelays(int quietMs, int longestMs)
{
    m_quiet.setInterval(quietMs);
    m_longest.setInterval(longestMs);
}

void AutosaveSchedule::noteChange()
{
    m_quiet.start();
    if (!m_longest.isActive())
        m_longest.start();
}

void AutosaveSchedule::retryLater()
{
    if (!m_longest.isActive())
        m_longest.start();
}

void AutosaveSchedule::cancel()
{
    m_quiet.stop();
    m_longest.stop();
}

void AutosaveSchedule::fire()
{
    cancel();
    emit due();
}

} // namespace shoal::ui
