#include "panels/paramrow.h"

#include "document/qtstrings.h"

#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QToolButton>

#include <algorithm>
#include <cmath>

namespace shoal::ui {

namespace {

/// A range whose ends are this far apart (three decades: 0.1 to 100) gets a logarithmic slider.
constexpr double kLogarithmicRatio = 1000.0;
/// Positions of a logarithmic slider: finer than a pixel on any panel.
constexpr int kLogarithmicPositions = 1000;
/// Room for a slider that moves a 0 to 30 range in steps a user can aim at.
constexpr int kSliderMinimumWidth = 150;

QString tooltipFor(const ParamSpec& spec)
{
    QString range;
    if (spec.type == ParamType::Choice) {
        QStringList choices;
        for (const std::string& choice : spec.choices)
            choices.append(qs(choice));
        range = ParamRow::tr("One of: %1").arg(choices.join(QStringLiteral(", ")));
    } else {
        const QString unit = spec.unit.empty() ? QString() : QStringLiteral(" ") + qs(spec.unit);
        range = ParamRow::tr("Range %1 to %2%3, default %4")
                    .arg(qs(formatNumber(spec.minValue)), qs(formatNumber(spec.maxValue)), unit,
                         qs(formatNumber(spec.defaultValue)));
    }
    const QString defaultText =
        spec.type == ParamType::Choice
            ? ParamRow::tr(", default %1")
                  .arg(qs(spec.choices[static_cast<std::size_t>(spec.defaultValue)]))
            : QString();
    const QString dragHint =
        spec.type == ParamType::Choice
            ? QString()
            : ParamRow::tr("<p><i>Drag the slider or this label sideways; hold Shift for fine "
                           "steps.</i></p>");
    return QStringLiteral(
               "<p><b>%1</b> <span style=\"color:gray\">%2</span></p><p>%3</p><p><i>%4%5</"
               "i></p>%6")
        .arg(qs(spec.label).toHtmlEscaped(), qs(spec.key).toHtmlEscaped(),
             qs(spec.tooltip).toHtmlEscaped(), range.toHtmlEscaped(), defaultText.toHtmlEscaped(),
             dragHint);
}

} // namespace

QIcon resetIcon(const QColor& color)
{
    QIcon icon;
    for (int size : {16, 32}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.scale(size / 16.0, size / 16.0);
        QPen pen(color, 1.6);
        pen.setCapStyle(Qt::RoundCap);
        painter.setPen(pen);
        const QRectF circle(3.0, 3.0, 10.0, 10.0);
        painter.drawArc(circle, 100 * 16, 280 * 16);
        // Arrow head at the arc's start (top, pointing left).
        QPainterPath head;
        head.moveTo(8.9, 0.9);
        head.lineTo(5.6, 3.0);
        head.lineTo(8.9, 5.1);
        painter.setPen(Qt::NoPen);
        painter.setBrush(color);
        painter.drawPath(head);
        painter.end();
        icon.addPixmap(pixmap);
    }
    return icon;
}

int decimalsFor(double value, int maxDecimals)
{
    double scale = 1.0;
    for (int decimals = 0; decimals < maxDecimals; ++decimals, scale *= 10.0) {
        const double scaled = value * scale;
        if (std::fabs(scaled - std::round(scaled)) <= 1e-9 * std::max(1.0, std::fabs(scaled)))
            return decimals;
    }
    return maxDecimals;
}

ParamRow::ParamRow(ParamSpec spec, QWidget* parent)
    : QWidget(parent), m_spec(std::move(spec)), m_value(m_spec.defaultValue)
{
    m_stepDecimals = std::max(decimalsFor(m_spec.step), decimalsFor(m_spec.minValue));
    const QString tooltip = tooltipFor(m_spec);

    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setHorizontalSpacing(6);
    layout->setVerticalSpacing(0);

    m_label = new QLabel(qs(m_spec.label), this);
    m_label->setToolTip(tooltip);
    layout->addWidget(m_label, 0, 0);
    if (m_spec.type == ParamType::Choice)
        addChoice(layout, tooltip);
    else
        addSliderAndSpin(layout, tooltip);

    m_unit = new QLabel(qs(m_spec.unit), this);
    QPalette unitPalette = m_unit->palette();
    unitPalette.setColor(QPalette::WindowText, palette().color(QPalette::PlaceholderText));
    m_unit->setPalette(unitPalette);
    layout->addWidget(m_unit, 0, 3);
    addResetButton(layout);
    addErrorLine(layout);

    layout->setColumnStretch(1, 1);
    showValue(m_value);
    updateResetButton();
}

void ParamRow::addChoice(QGridLayout* layout, const QString& tooltip)
{
    m_combo = new FocusWheel<QComboBox>(this);
    m_combo->setFocusPolicy(Qt::StrongFocus);
    for (const std::string& choice : m_spec.choices)
        m_combo->addItem(qs(choice));
    m_combo->setToolTip(tooltip);
    layout->addWidget(m_combo, 0, 1, 1, 2);
    connect(m_combo, &QComboBox::currentIndexChanged, this,
            [this](int index) { userEdit(index, true); });
}

void ParamRow::addSliderAndSpin(QGridLayout* layout, const QString& tooltip)
{
    m_slider = new FocusWheel<QSlider>(Qt::Horizontal, this);
    m_slider->setFocusPolicy(Qt::StrongFocus);
    m_logarithmic = m_spec.type == ParamType::Real && m_spec.minValue > 0.0 &&
                    m_spec.maxValue / m_spec.minValue >= kLogarithmicRatio;
    m_positions = m_logarithmic
                      ? kLogarithmicPositions
                      : std::max(1, static_cast<int>(std::lround(
                                        (m_spec.maxValue - m_spec.minValue) / m_spec.step)));
    m_slider->setRange(0, m_positions);
    m_slider->setPageStep(std::max(1, m_positions / 10));
    m_slider->setMinimumWidth(kSliderMinimumWidth);
    m_slider->setToolTip(tooltip);
    m_slider->installEventFilter(this);
    m_label->installEventFilter(this);
    m_label->setCursor(Qt::SizeHorCursor);
    layout->addWidget(m_slider, 0, 1);
    connect(m_slider, &QSlider::sliderPressed, this, [this] { m_dragEdited = false; });
    connect(m_slider, &QSlider::valueChanged, this, &ParamRow::onSliderMoved);
    connect(m_slider, &QSlider::sliderReleased, this, &ParamRow::onSliderReleased);

    QAbstractSpinBox* spin = nullptr;
    if (m_spec.type == ParamType::Integer) {
        m_intSpin = new FocusWheel<QSpinBox>(this);
        m_intSpin->setRange(static_cast<int>(m_spec.minValue), static_cast<int>(m_spec.maxValue));
        m_intSpin->setSingleStep(std::max(1, static_cast<int>(m_spec.step)));
        connect(m_intSpin, &QSpinBox::valueChanged, this, [this](int value) {
            if (m_slider) {
                const QSignalBlocker blocker(m_slider);
                m_slider->setValue(sliderPosition(value));
            }
            userEdit(value, true);
        });
        spin = m_intSpin;
    } else {
        m_doubleSpin = new FocusWheel<QDoubleSpinBox>(this);
        m_doubleSpin->setDecimals(m_stepDecimals);
        m_doubleSpin->setRange(m_spec.minValue, m_spec.maxValue);
        m_doubleSpin->setSingleStep(m_spec.step);
        connect(m_doubleSpin, &QDoubleSpinBox::valueChanged, this, [this](double value) {
            {
                const QSignalBlocker blocker(m_slider);
                m_slider->setValue(sliderPosition(value));
            }
            userEdit(value, true);
        });
        spin = m_doubleSpin;
    }
    // One undo step per finished entry, not per keystroke.
    spin->setKeyboardTracking(false);
    spin->setFocusPolicy(Qt::StrongFocus);
    spin->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    // No arrow buttons: the keys and the wheel still step it, and the slider gets the room.
    spin->setButtonSymbols(QAbstractSpinBox::NoButtons);
    spin->setFixedWidth(fontMetrics().horizontalAdvance(QStringLiteral("8888.888")) + 12);
    spin->setToolTip(tooltip);
    layout->addWidget(spin, 0, 2);
}

void ParamRow::addResetButton(QGridLayout* layout)
{
    m_reset = new QToolButton(this);
    m_reset->setAutoRaise(true);
    m_reset->setIcon(resetIcon(palette().color(QPalette::ButtonText)));
    m_reset->setIconSize(QSize(12, 12));
    m_reset->setFocusPolicy(Qt::NoFocus);
    const QString defaultText =
        m_spec.type == ParamType::Choice
            ? qs(m_spec.choices[static_cast<std::size_t>(m_spec.defaultValue)])
            : qs(formatNumber(m_spec.defaultValue)) +
                  (m_spec.unit.empty() ? QString() : QStringLiteral(" ") + qs(m_spec.unit));
    m_reset->setToolTip(tr("Reset to the default (%1)").arg(defaultText));
    layout->addWidget(m_reset, 0, 4);
    connect(m_reset, &QToolButton::clicked, this, [this] { userEdit(m_spec.defaultValue, true); });
}

void ParamRow::addErrorLine(QGridLayout* layout)
{
    m_error = new QLabel(this);
    m_error->setWordWrap(true);
    QPalette errorPalette = m_error->palette();
    errorPalette.setColor(QPalette::WindowText, QColor(0xc6, 0x28, 0x28));
    m_error->setPalette(errorPalette);
    QFont errorFont = m_error->font();
    errorFont.setPointSizeF(errorFont.pointSizeF() * 0.9);
    m_error->setFont(errorFont);
    m_error->setContentsMargins(0, 1, 0, 3);
    m_error->hide();
    layout->addWidget(m_error, 1, 0, 1, 5);
    m_errorTimer.setSingleShot(true);
    connect(&m_errorTimer, &QTimer::timeout, m_error, &QLabel::hide);
}

void ParamRow::setValue(double value, bool mixed)
{
    m_value = value;
    m_mixed = mixed;
    QFont font = m_label->font();
    font.setItalic(mixed);
    m_label->setFont(font);
    m_label->setText(mixed ? qs(m_spec.label) + QStringLiteral(" *") : qs(m_spec.label));
    if (mixed)
        m_label->setToolTip(
            tooltipFor(m_spec) +
            tr("<p>* The selected groups have different values; an edit sets them all.</p>"));
    else
        m_label->setToolTip(tooltipFor(m_spec));
    showValue(value);
    updateResetButton();
}

void ParamRow::setError(const QString& message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
    // The value went back at once; the reason stays long enough to read, then goes, so a
    // message never outlives what it explained.
    if (message.isEmpty())
        m_errorTimer.stop();
    else
        m_errorTimer.start(kErrorMs);
}

QString ParamRow::error() const
{
    return m_error->isVisible() ? m_error->text() : QString();
}

void ParamRow::setColumnWidths(int labelWidth, int unitWidth)
{
    m_label->setFixedWidth(labelWidth);
    m_unit->setFixedWidth(unitWidth);
}

int ParamRow::labelWidthHint() const
{
    return labelWidthFor(m_spec, m_label->font());
}

int ParamRow::unitWidthHint() const
{
    return unitWidthFor(m_spec, m_unit->font());
}

int ParamRow::labelWidthFor(const ParamSpec& spec, const QFont& font)
{
    // Room for the mixed-values form, which is the widest.
    QFont italic = font;
    italic.setItalic(true);
    return QFontMetrics(italic).horizontalAdvance(qs(spec.label) + QStringLiteral(" *")) + 4;
}

int ParamRow::unitWidthFor(const ParamSpec& spec, const QFont& font)
{
    return QFontMetrics(font).horizontalAdvance(qs(spec.unit)) + 2;
}

int ParamRow::sliderPosition(double value) const
{
    if (m_logarithmic) {
        const double clamped = std::clamp(value, m_spec.minValue, m_spec.maxValue);
        return static_cast<int>(std::lround(m_positions * std::log(clamped / m_spec.minValue) /
                                            std::log(m_spec.maxValue / m_spec.minValue)));
    }
    return static_cast<int>(std::lround((value - m_spec.minValue) / m_spec.step));
}

double ParamRow::sliderValue(int position) const
{
    double raw = m_spec.minValue + position * m_spec.step;
    if (m_logarithmic) {
        // On the step grid, as the spin box would enter it.
        const double curve = m_spec.minValue * std::pow(m_spec.maxValue / m_spec.minValue,
                                                        double(position) / m_positions);
        raw = m_spec.minValue + std::round((curve - m_spec.minValue) / m_spec.step) * m_spec.step;
    }
    const double scale = std::pow(10.0, m_stepDecimals);
    return std::clamp(std::round(raw * scale) / scale, m_spec.minValue, m_spec.maxValue);
}

void ParamRow::showValue(double value)
{
    if (m_combo) {
        const QSignalBlocker blocker(m_combo);
        m_combo->setCurrentIndex(static_cast<int>(value));
        return;
    }
    {
        const QSignalBlocker blocker(m_slider);
        m_slider->setValue(sliderPosition(value));
    }
    if (m_intSpin) {
        const QSignalBlocker blocker(m_intSpin);
        m_intSpin->setValue(static_cast<int>(value));
    } else {
        const QSignalBlocker blocker(m_doubleSpin);
        // Show a value from a file exactly, even when it is finer than the step.
        m_doubleSpin->setDecimals(std::max(m_stepDecimals, decimalsFor(value)));
        m_doubleSpin->setRange(m_spec.minValue, m_spec.maxValue);
        m_doubleSpin->setValue(value);
    }
}

void ParamRow::updateResetButton()
{
    m_reset->setEnabled(m_mixed || m_value != m_spec.defaultValue);
}

void ParamRow::onSliderMoved(int position)
{
    const double value = sliderValue(position);
    const bool dragging = m_slider->isSliderDown() || m_scrubbing;
    if (dragging)
        m_dragEdited = true;
    m_value = value;
    if (m_intSpin) {
        const QSignalBlocker blocker(m_intSpin);
        m_intSpin->setValue(static_cast<int>(value));
    } else {
        const QSignalBlocker blocker(m_doubleSpin);
        m_doubleSpin->setDecimals(m_stepDecimals);
        m_doubleSpin->setValue(value);
    }
    updateResetButton();
    emit edited(value, !dragging);
}

void ParamRow::onSliderReleased()
{
    if (!m_dragEdited)
        return;
    m_dragEdited = false;
    emit edited(m_value, true);
}

double ParamRow::positionsPerPixel(bool fine) const
{
    // The handle's travel, as the style maps pixels to positions: an unshifted drag keeps
    // the handle under the pointer.
    const int travel = m_slider->width() -
                       m_slider->style()->pixelMetric(QStyle::PM_SliderLength, nullptr, m_slider);
    const double perPixel = double(m_positions) / std::max(1, travel);
    return fine ? perPixel / kFineFactor : perPixel;
}

void ParamRow::anchorDrag(int x, bool fine)
{
    m_anchorX = x;
    m_anchorPosition = m_slider->sliderPosition();
    m_anchorFine = fine;
}

int ParamRow::draggedPosition(int x, bool fine)
{
    if (fine != m_anchorFine) {
        // Shift pressed or let go mid-drag: go on from here at the other speed, no jump.
        m_anchorPosition += (x - m_anchorX) * positionsPerPixel(m_anchorFine);
        m_anchorX = x;
        m_anchorFine = fine;
    }
    const double position = m_anchorPosition + (x - m_anchorX) * positionsPerPixel(fine);
    return static_cast<int>(std::lround(std::clamp(position, 0.0, double(m_positions))));
}

bool ParamRow::eventFilter(QObject* watched, QEvent* event)
{
    if (m_slider && watched == m_slider)
        return sliderEvent(event);
    if (m_slider && watched == m_label)
        return labelEvent(event);
    return QWidget::eventFilter(watched, event);
}

bool ParamRow::sliderEvent(QEvent* event)
{
    auto* mouse = dynamic_cast<QMouseEvent*>(event);
    if (!mouse)
        return false;
    const int x = int(std::lround(mouse->position().x()));
    const bool fine = mouse->modifiers().testFlag(Qt::ShiftModifier);
    if (event->type() == QEvent::MouseButtonPress) {
        // The slider decides whether the handle was hit; the drag is measured from here.
        m_anchorX = x;
        m_anchorFine = fine;
        m_anchorPosition = -1.0;
        return false;
    }
    if (event->type() == QEvent::MouseMove && m_slider->isSliderDown()) {
        if (m_anchorPosition < 0.0)
            m_anchorPosition = m_slider->sliderPosition();
        m_slider->setSliderPosition(draggedPosition(x, fine));
        return true;
    }
    return false;
}

bool ParamRow::labelEvent(QEvent* event)
{
    auto* mouse = dynamic_cast<QMouseEvent*>(event);
    if (!mouse)
        return false;
    const int x = int(std::lround(mouse->globalPosition().x()));
    const bool fine = mouse->modifiers().testFlag(Qt::ShiftModifier);
    switch (event->type()) {
    case QEvent::MouseButtonPress:
        if (mouse->button() != Qt::LeftButton || !isEnabled())
            return false;
        m_labelPressed = true;
        m_dragEdited = false;
        anchorDrag(x, fine);
        return true;
    case QEvent::MouseMove:
        if (!m_labelPressed)
            return false;
        // A click on the label is not a scrub: only a move past the drag distance is.
        if (!m_scrubbing && std::abs(x - m_anchorX) < QApplication::startDragDistance())
            return true;
        m_scrubbing = true;
        m_slider->setValue(draggedPosition(x, fine));
        return true;
    case QEvent::MouseButtonRelease:
        if (!m_labelPressed || mouse->button() != Qt::LeftButton)
            return false;
        m_labelPressed = false;
        m_scrubbing = false;
        if (m_dragEdited) {
            m_dragEdited = false;
            emit edited(m_value, true);
        }
        return true;
    default:
        return false;
    }
}

void ParamRow::userEdit(double value, bool commit)
{
    m_value = value;
    showValue(value);
    updateResetButton();
    emit edited(value, commit);
}

} // namespace shoal::ui
