#include "window/statusline.h"

#include <QResizeEvent>

namespace shoal::ui {

StatusLine::StatusLine(QWidget* parent) : QLabel(parent)
{
    setObjectName(QStringLiteral("statusLine"));
    setTextFormat(Qt::PlainText);
    // It takes what the permanent fields leave, and never asks for more.
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_messageTimer.setSingleShot(true);
    connect(&m_messageTimer, &QTimer::timeout, this, [this] { show(m_hint); });
}

void StatusLine::setHint(const QString& hint)
{
    m_hint = hint;
    if (!m_messageTimer.isActive())
        show(hint);
}

void StatusLine::showMessage(const QString& message, int timeoutMs)
{
    if (message.isEmpty()) {
        m_messageTimer.stop();
        show(m_hint);
        return;
    }
    show(message);
    if (timeoutMs > 0)
        m_messageTimer.start(timeoutMs);
    else
        m_messageTimer.stop();
}

QSize StatusLine::minimumSizeHint() const
{
    return {0, QLabel::minimumSizeHint().height()};
}

void StatusLine::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    elide();
}

void StatusLine::show(const QString& text)
{
    m_full = text;
    elide();
}

void StatusLine::elide()
{
    const QString shown =
        fontMetrics().elidedText(m_full, Qt::ElideRight, std::max(0, contentsRect().width()));
    QLabel::setText(shown);
    setToolTip(shown == m_full ? QString() : m_full);
}

} // namespace shoal::ui
