#include "panels/paramrow.h"

#include "document/qtstrings.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
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
    return QStringLiteral(
               "<p><b>%1</b> <span style=\"color:gray\">%2</span></p><p>%3</p><p><i>%4%5</i></p>")
        .arg(qs(spec.label).toHtmlEscaped(), qs(spec.key).toHtmlEscaped(),
             qs(spec.tooltip).toHtmlEscaped(), range.toHtmlEscaped(), defaultText.toHtmlEscaped());
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
    const int positions =
        static_cast<int>(std::lround((m_spec.maxValue - m_spec.minValue) / m_spec.step));
    m_slider->setRange(0, std::max(1, positions));
    m_slider->setPageStep(std::max(1, positions / 10));
    m_slider->setMinimumWidth(50);
    m_slider->setToolTip(tooltip);
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
    spin->setFixedWidth(fontMetrics().horizontalAdvance(QStringLiteral("8888.888")) + 30);
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
    return static_cast<int>(std::lround((value - m_spec.minValue) / m_spec.step));
}

double ParamRow::sliderValue(int position) const
{
    const double raw = m_spec.minValue + position * m_spec.step;
    const double scale = std::pow(10.0, m_stepDecimals);
    return std::min(m_spec.maxValue, std::round(raw * scale) / scale);
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
    const bool dragging = m_slider->isSliderDown();
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

void ParamRow::userEdit(double value, bool commit)
{
    m_value = value;
    showValue(value);
    updateResetButton();
    emit edited(value, commit);
}

} // namespace shoal::ui
