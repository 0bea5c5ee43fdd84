#include "window/quitonsignals.h"

#include "window/mainwindow.h"

#include <QApplication>
#include <QSocketNotifier>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace shoal::ui {

namespace {

constexpr int kStopSignals[] = {SIGTERM, SIGHUP, SIGINT};

/// [0] the handler writes, [1] the notifier reads; -1 while no QuitOnSignals is installed.
int g_signalSocket[2] = {-1, -1};

/// Async-signal-safe: one write(), errno left as it was.
void onStopSignal(int signalNumber)
{
    const int savedErrno = errno;
    const char byte = char(signalNumber);
    [[maybe_unused]] const auto written = ::write(g_signalSocket[0], &byte, 1);
    errno = savedErrno;
}

} // namespace

QuitOnSignals::QuitOnSignals(QObject* parent) : QObject(parent)
{
    if (g_signalSocket[0] >= 0 ||
        ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, g_signalSocket) != 0)
        return;
    // Non-blocking both ways: the handler never waits, and onSignal() drains what is there.
    for (int fd : g_signalSocket)
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    m_notifier = new QSocketNotifier(g_signalSocket[1], QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &QuitOnSignals::onSignal);
    struct sigaction action = {};
    action.sa_handler = onStopSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (int signalNumber : kStopSignals)
        ::sigaction(signalNumber, &action, nullptr);
}

QuitOnSignals::~QuitOnSignals()
{
    if (!m_notifier)
        return;
    for (int signalNumber : kStopSignals)
        std::signal(signalNumber, SIG_DFL);
    delete m_notifier;
    for (int& fd : g_signalSocket) {
        ::close(fd);
        fd = -1;
    }
}

void QuitOnSignals::onSignal()
{
    int signalNumber = 0;
    char byte = 0;
    while (::read(g_signalSocket[1], &byte, 1) == 1)
        signalNumber = byte;
    if (signalNumber == 0)
        return;
    bool kept = true;
    for (QWidget* widget : QApplication::topLevelWidgets()) {
        auto* window = qobject_cast<MainWindow*>(widget);
        if (window && window->isVisible()) // a closed window has nothing left to keep
            kept = window->keepEditsForQuit() && kept;
    }
    emit received(signalNumber, kept);
    if (!kept && !m_refusedOnce) {
        m_refusedOnce = true;
        std::fprintf(stderr,
                     "shoal: %s: the unsaved changes could not be written to the recovery copy, "
                     "so Shoal keeps running; send the signal again to quit anyway\n",
                     strsignal(signalNumber));
        return;
    }
    // exit(), not quit(): quit() would close the windows, and closing asks about unsaved
    // changes. exit() ends every event loop, a dialog's too, without asking anything.
    QCoreApplication::exit(0);
}

} // namespace shoal::ui
