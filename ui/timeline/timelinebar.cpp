#include "timeline/timelinebar.h"

#include "simulation/simulationcontroller.h"
#include "window/toolicons.h"

#include <shoal/world.h>

#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolButton>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace shoal::ui {

namespace {

constexpr int kStripHeight = 22;
constexpr double kMarkHalfWidth = 3.0;

QString secondsText(double seconds)
{
    return QLocale().toString(seconds, 'f', 2) + QStringLiteral(" s");
}

QString megabytes(std::size_t bytes)
{
    return QLocale().toString(static_cast<double>(bytes) / (1024.0 * 1024.0), 'f', 1) +
           QStringLiteral(" MB");
}

} // namespace

TimelineStrip::TimelineStrip(SimulationController* simulation, QWidget* parent)
    : QWidget(parent), m_simulation(simulation)
{
    setMouseTracking(true);
    setCursor(Qt::PointingHandCursor);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setAccessibleName(tr("Timeline"));
}

QSize TimelineStrip::sizeHint() const
{
    return {600, kStripHeight};
}

QSize TimelineStrip::minimumSizeHint() const
{
    return {120, kStripHeight};
}

QRectF TimelineStrip::track() const
{
    return QRectF(rect()).adjusted(6.0, 4.0, -6.0, -4.0);
}

void TimelineStrip::takeState()
{
    const World* world = m_simulation->world();
    const Timeline& timeline = m_simulation->timeline();
    m_shown.any = world && !timeline.isEmpty();
    m_shown.now = world ? world->stepCount() : 0;
    m_shown.base = timeline.base();
    m_shown.head = timeline.head();
    m_shown.firstKept = timeline.firstKept();
    m_shown.edits = timeline.editSteps();
    update();
}

double TimelineStrip::xOf(std::uint64_t step) const
{
    const QRectF t = track();
    const std::uint64_t base = m_shown.base, head = m_shown.head;
    if (head <= base)
        return t.left();
    const double f =
        static_cast<double>(std::clamp(step, base, head) - base) / static_cast<double>(head - base);
    return t.left() + f * t.width();
}

std::uint64_t TimelineStrip::stepAt(int x) const
{
    const QRectF t = track();
    const std::uint64_t base = m_shown.base, head = m_shown.head;
    if (head <= base || t.width() <= 0.0)
        return head;
    const double f = std::clamp((x - t.left()) / t.width(), 0.0, 1.0);
    return base + static_cast<std::uint64_t>(std::llround(f * static_cast<double>(head - base)));
}

void TimelineStrip::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = palette();
    const QRectF t = track();
    painter.setPen(QPen(pal.color(QPalette::Mid), 1.0));
    painter.setBrush(pal.color(QPalette::Base));
    painter.drawRoundedRect(t, 3.0, 3.0);
    if (!m_shown.any)
        return;

    QPainterPath clip;
    clip.addRoundedRect(t, 3.0, 3.0);
    painter.setClipPath(clip);
    painter.setPen(Qt::NoPen);
    // Where the world has been: the played part; after it the logged future it can follow.
    const double now = xOf(m_shown.now);
    QColor played = pal.color(QPalette::Highlight);
    played.setAlpha(220);
    painter.setBrush(played);
    painter.drawRect(QRectF(QPointF(t.left(), t.top()), QPointF(now, t.bottom())));
    QColor future = pal.color(QPalette::Highlight);
    future.setAlpha(70);
    painter.setBrush(future);
    painter.drawRect(QRectF(QPointF(now, t.top()), QPointF(xOf(m_shown.head), t.bottom())));
    // Steps no snapshot covers any more (the memory budget dropped them): out of reach.
    if (m_shown.firstKept > m_shown.base) {
        painter.setBrush(QBrush(pal.color(QPalette::Mid), Qt::BDiagPattern));
        painter.drawRect(
            QRectF(QPointF(t.left(), t.top()), QPointF(xOf(m_shown.firstKept), t.bottom())));
    }
    painter.setClipping(false);

    // Edits: orange ticks over the strip.
    const QColor markColor(230, 140, 30);
    painter.setPen(QPen(markColor, 2.0));
    for (const std::uint64_t step : m_shown.edits) {
        const double x = xOf(step);
        painter.drawLine(QPointF(x, t.top() - 2.0), QPointF(x, t.bottom() + 2.0));
    }

    // The cursor: a line with a knob.
    const QColor cursor = pal.color(QPalette::Text);
    painter.setPen(QPen(cursor, 2.0));
    painter.drawLine(QPointF(now, 1.0), QPointF(now, height() - 1.0));
    painter.setPen(QPen(pal.color(QPalette::Base), 1.0));
    painter.setBrush(cursor);
    painter.drawEllipse(QPointF(now, height() / 2.0), 4.5, 4.5);
}

bool TimelineStrip::event(QEvent* event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    // The edits under the pointer, else the step there.
    auto* help = static_cast<QHelpEvent*>(event);
    const Timeline& timeline = m_simulation->timeline();
    const World* world = m_simulation->world();
    if (!world || timeline.isEmpty()) {
        QToolTip::hideText();
        return true;
    }
    QStringList lines;
    for (const InputEvent& input : timeline.input().events) {
        if (input.kind == InputEventKind::Pointer ||
            std::abs(xOf(input.step) - help->pos().x()) > kMarkHalfWidth)
            continue;
        const QString at = tr("step %1").arg(QLocale().toString(qulonglong(input.step)));
        if (input.kind == InputEventKind::Target)
            lines << tr("%1: %2 target to (%3, %4)")
                         .arg(at, QString::fromStdString(input.group))
                         .arg(input.position.x, 0, 'f', 1)
                         .arg(input.position.y, 0, 'f', 1);
        else
            lines << tr("%1: %2 %3 = %4")
                         .arg(at,
                              input.kind == InputEventKind::PlayerSet
                                  ? tr("player")
                                  : QString::fromStdString(input.group),
                              QString::fromStdString(input.key), QLocale().toString(input.value));
    }
    if (lines.isEmpty()) {
        const std::uint64_t step = stepAt(help->pos().x());
        lines << tr("step %1 (%2)")
                     .arg(QLocale().toString(qulonglong(step)))
                     .arg(secondsText(static_cast<double>(step) * world->dt()));
        if (step < timeline.firstKept())
            lines << tr("No snapshot is kept this far back (the timeline's memory budget)");
    }
    QToolTip::showText(help->globalPos(), lines.join(QLatin1Char('\n')), this);
    return true;
}

void TimelineStrip::scrubTo(int x)
{
    const World* world = m_simulation->world();
    if (!world || m_simulation->timeline().isEmpty())
        return;
    const std::uint64_t step = stepAt(x);
    if (step != world->stepCount())
        m_simulation->seek(step);
}

void TimelineStrip::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    m_dragging = true;
    scrubTo(qRound(event->position().x()));
}

void TimelineStrip::mouseMoveEvent(QMouseEvent* event)
{
    if (m_dragging)
        scrubTo(qRound(event->position().x()));
}

void TimelineStrip::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_dragging && event->button() == Qt::LeftButton) {
        m_dragging = false;
        scrubTo(qRound(event->position().x()));
    }
}

TimelineBar::TimelineBar(SimulationController* simulation, QWidget* parent)
    : QWidget(parent), m_simulation(simulation)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(4);
    m_back = new QToolButton(this);
    m_back->setIcon(toolIcon(ToolIcon::StepBack));
    m_back->setToolTip(tr("Step Back (,): the world one step earlier"));
    m_back->setAutoRaise(true);
    m_forward = new QToolButton(this);
    m_forward->setIcon(toolIcon(ToolIcon::Step));
    m_forward->setToolTip(tr("Step (.): one step on, along the timeline while behind its end"));
    m_forward->setAutoRaise(true);
    m_strip = new TimelineStrip(simulation, this);
    m_position = new QLabel(this);
    m_position->setMinimumWidth(m_position->fontMetrics().horizontalAdvance(
        QStringLiteral("step 000,000 \u00b7 0,000.00 s of 0,000.00 s")));
    m_branch = new QToolButton(this);
    m_branch->setText(tr("Branch Here"));
    m_branch->setToolTip(tr("Drop what came after this step and play on from here: the mouse "
                            "steers again, and the panels' values apply"));
    layout->addWidget(m_back);
    layout->addWidget(m_forward);
    layout->addWidget(m_strip, 1);
    layout->addWidget(m_position);
    layout->addWidget(m_branch);

    connect(m_back, &QToolButton::clicked, m_simulation, &SimulationController::stepBack);
    connect(m_forward, &QToolButton::clicked, m_simulation, &SimulationController::stepOnce);
    connect(m_branch, &QToolButton::clicked, m_simulation, &SimulationController::branchHere);
    for (auto signal : {&SimulationController::stepped, &SimulationController::timelineChanged,
                        &SimulationController::worldRebuilt, &SimulationController::stateChanged})
        connect(m_simulation, signal, this, &TimelineBar::refresh);
    refresh();
}

QString TimelineBar::positionText() const
{
    const World* world = m_simulation->world();
    if (!world)
        return tr("no world");
    const std::uint64_t head = m_simulation->timeline().head();
    return tr("step %1 \u00b7 %2 of %3")
        .arg(QLocale().toString(qulonglong(world->stepCount())), secondsText(world->time()),
             secondsText(static_cast<double>(head) * world->dt()));
}

void TimelineBar::refresh()
{
    m_strip->takeState();
    const World* world = m_simulation->world();
    const Timeline& timeline = m_simulation->timeline();
    const bool paused = world && !m_simulation->isPlaying();
    m_back->setEnabled(paused && world->stepCount() > timeline.firstKept());
    m_forward->setEnabled(paused);
    m_branch->setEnabled(world && m_simulation->isReplaying());
    m_position->setText(positionText());
    const double kept =
        world ? static_cast<double>(timeline.head() - timeline.firstKept()) * world->dt() : 0.0;
    QString tip = tr("%1 snapshots, %2 of %3 (the last %4 can be shown again)")
                      .arg(timeline.snapshotCount())
                      .arg(megabytes(timeline.memoryBytes()), megabytes(timeline.budgetBytes()),
                           secondsText(kept));
    if (world && !timeline.recordable())
        tip += QLatin1Char('\n') +
               tr("The walls or collision rules changed while it ran: the timeline starts "
                  "there, and cannot be saved as a recording");
    m_position->setToolTip(tip);
    m_strip->update();
}

} // namespace shoal::ui
