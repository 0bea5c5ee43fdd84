#pragma once
/// The status bar's message line: the active tool's hint, and for a while a message (an edit
/// refused, a file saved) in its place. Text wider than the line is cut with an ellipsis and
/// the whole of it goes to the tooltip, so a long hint is never silently clipped by the
/// permanent fields on the right (pointer, time, agents, zoom).

#include <QLabel>
#include <QTimer>

namespace shoal::ui {

class StatusLine : public QLabel
{
    Q_OBJECT

public:
    explicit StatusLine(QWidget* parent = nullptr);

    /// The text shown when there is no message: the active tool's hint.
    void setHint(const QString& hint);
    QString hint() const { return m_hint; }
    /// Shows `message` instead of the hint for `timeoutMs` (0: until the next one).
    void showMessage(const QString& message, int timeoutMs = 0);
    /// The whole text shown now (hint or message), before any eliding.
    QString fullText() const { return m_full; }

    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void show(const QString& text);
    void elide();

    QString m_hint;
    QString m_full;
    QTimer m_messageTimer; ///< brings the hint back after a message
};

} // namespace shoal::ui
