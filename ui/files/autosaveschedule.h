#pragma once
/// When the editor autosaves: a short while after the last change (kQuietMs), so a burst of
/// edits is written once, when the user pauses; and at most kLongestMs after the first change
/// not yet written, so edits that never pause (a slider dragged back and forth) are not
/// postponed for ever. With the write itself, no edit is more than about ten seconds from its
/// recovery copy.

#include <QObject>
#include <QTimer>

namespace shoal::ui {

/// Says when the recovery copy is due (see the file comment).
class AutosaveSchedule : public QObject
{
    Q_OBJECT

public:
    static constexpr int kQuietMs = 2500;
    static constexpr int kLongestMs = 8000;

    explicit AutosaveSchedule(QObject* parent = nullptr);

    /// Other delays (tests); the defaults are kQuietMs and kLongestMs.
    void setDelays(int quietMs, int longestMs);
    int quietMs() const { return m_quiet.interval(); }
    int longestMs() const { return m_longest.interval(); }

    /// Something changed: due once nothing has changed for quietMs(), or longestMs() after
    /// the first change since the last due(), whichever comes first.
    void noteChange();
    /// A write failed: due again longestMs() from now, unless a change makes it sooner.
    void retryLater();
    /// The copy is current (or autosave is off): nothing is due.
    void cancel();
    bool isPending() const { return m_longest.isActive(); }

signals:
    void due();

private:
    void fire();

    QTimer m_quiet;   ///< restarted by every change
    QTimer m_longest; ///< started by the first change after a due(), never restarted
};

} // namespace shoal::ui
