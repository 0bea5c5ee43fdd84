#pragma once
/// Quits the editor when the process is told to stop: SIGTERM (a logout, `kill`, a service
/// manager), SIGHUP (its terminal went away) and SIGINT (Ctrl+C). Every editor window writes
/// its unsaved edits to its recovery copy (MainWindow::keepEditsForQuit()), and the
/// application leaves all its event loops, an open dialog's among them, so no question holds
/// the quit up; the next start offers the copies. A signal handler may not call Qt: it only
/// writes the signal's number to a socketpair, and a QSocketNotifier reads it in the event
/// loop. If a copy cannot be written the editor keeps running (quitting would lose the edits)
/// and says so; the next signal quits regardless.

#include <QObject>

class QSocketNotifier;

namespace shoal::ui {

/// Turns the stop signals into a quit that keeps the edits (see the file comment). One at a
/// time per process; it restores the default handlers when it goes.
class QuitOnSignals : public QObject
{
    Q_OBJECT

public:
    explicit QuitOnSignals(QObject* parent = nullptr);
    ~QuitOnSignals() override;

    /// False when the handlers could not be installed (another QuitOnSignals, no socketpair):
    /// the signals then end the process as by default.
    bool isInstalled() const { return m_notifier != nullptr; }

signals:
    /// A stop signal arrived; the copies are written (or `kept` is false) and the quit is
    /// under way unless `kept` is false for the first time.
    void received(int signalNumber, bool kept);

private:
    void onSignal();

    QSocketNotifier* m_notifier = nullptr;
    bool m_refusedOnce = false; ///< a copy could not be written at the last signal
};

} // namespace shoal::ui
