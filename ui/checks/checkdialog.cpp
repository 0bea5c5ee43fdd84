#include "checks/checkdialog.h"

#include "document/checkcommands.h"
#include "document/qtstrings.h"

#include <shoal/checks.h>
#include <shoal/paramspec.h>

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>

namespace shoal::ui {

namespace {

/// A number as the fields show it: the shortest text that reads back the same.
QString numberText(double value)
{
    return qs(formatNumber(value));
}

/// The text of a field as a number: C locale, as the scene file writes them.
std::optional<double> numberOf(const QString& text)
{
    bool ok = false;
    const double value = text.trimmed().toDouble(&ok);
    return ok ? std::optional<double>(value) : std::nullopt;
}

} // namespace

CheckDialog::CheckDialog(const SceneDesc& scene, int index, const CheckDesc& check, QWidget* parent)
    : QDialog(parent), m_index(index)
{
    m_scene.groups = scene.groups;
    m_scene.checks = scene.checks;
    setWindowTitle(index < static_cast<int>(scene.checks.size()) ? tr("Edit Check")
                                                                 : tr("Add Check"));
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    layout->addLayout(form);

    m_name = new QLineEdit(qs(check.name), this);
    m_name->setPlaceholderText(tr("what it means, for people (may be empty)"));
    form->addRow(tr("&Name"), m_name);

    m_metric = new QComboBox(this);
    m_metric->setEditable(true);
    m_metric->setInsertPolicy(QComboBox::NoInsert);
    m_metric->setMinimumContentsLength(28);
    for (const GroupDesc& group : scene.groups)
        for (const std::string& key : checkMetricKeys())
            m_metric->addItem(qs(checkMetricName(group.name, key)));
    for (const std::string& key : checkMetricKeys())
        m_metric->addItem(qs(checkMetricName("all", key)));
    m_metric->setCurrentText(qs(check.metric));
    m_metric->setToolTip(tr("GROUP.KEY, or all.KEY for every group combined"));
    form->addRow(tr("&Metric"), m_metric);

    m_compare = new QComboBox(this);
    const std::pair<CheckCompare, QString> compares[] = {
        {CheckCompare::Within, tr("within")},    {CheckCompare::Below, tr("below")},
        {CheckCompare::AtMost, tr("at most")},   {CheckCompare::Above, tr("above")},
        {CheckCompare::AtLeast, tr("at least")}, {CheckCompare::Equals, tr("equal to")},
    };
    for (const auto& [compare, text] : compares)
        m_compare->addItem(text, static_cast<int>(compare));
    m_compare->setCurrentIndex(m_compare->findData(static_cast<int>(check.compare)));
    auto* bounds = new QHBoxLayout;
    m_value = new QLineEdit(
        check.valueMetric.empty() ? numberText(check.value) : qs(check.valueMetric), this);
    m_value->setToolTip(tr("A number, or (not for within) another metric such as squad.agents"));
    m_andLabel = new QLabel(tr("and"), this);
    m_high = new QLineEdit(numberText(check.high), this);
    bounds->addWidget(m_compare);
    bounds->addWidget(m_value, 1);
    bounds->addWidget(m_andLabel);
    bounds->addWidget(m_high, 1);
    form->addRow(tr("Is"), bounds);

    auto* when = new QHBoxLayout;
    m_window = new QComboBox(this);
    const std::pair<CheckWindow, QString> windows[] = {
        {CheckWindow::Always, tr("at every step")},
        {CheckWindow::After, tr("at every step after")},
        {CheckWindow::Last, tr("during the last")},
        {CheckWindow::By, tr("at some step by")},
    };
    for (const auto& [window, text] : windows)
        m_window->addItem(text, static_cast<int>(window));
    m_window->setCurrentIndex(m_window->findData(static_cast<int>(check.window)));
    m_seconds = new QLineEdit(numberText(check.seconds), this);
    when->addWidget(m_window);
    when->addWidget(m_seconds, 1);
    when->addWidget(new QLabel(tr("s of simulated time"), this));
    form->addRow(tr("When"), when);

    m_preview = new QLabel(this);
    m_preview->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(tr("Reads"), m_preview);
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("checkRefusal"));
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("color: #e0605a"));
    layout->addWidget(m_message);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(m_buttons);

    for (QLineEdit* field : {m_name, m_value, m_high, m_seconds})
        connect(field, &QLineEdit::textChanged, this, &CheckDialog::update);
    connect(m_metric, &QComboBox::currentTextChanged, this, &CheckDialog::update);
    for (QComboBox* box : {m_compare, m_window})
        connect(box, &QComboBox::currentIndexChanged, this, &CheckDialog::update);
    update();
}

std::optional<CheckDesc> CheckDialog::check() const
{
    CheckDesc check;
    check.name = m_name->text().trimmed().toStdString();
    check.metric = m_metric->currentText().trimmed().toStdString();
    check.compare = static_cast<CheckCompare>(m_compare->currentData().toInt());
    check.window = static_cast<CheckWindow>(m_window->currentData().toInt());
    if (const auto value = numberOf(m_value->text())) {
        check.value = *value;
    } else if (check.compare != CheckCompare::Within && !m_value->text().trimmed().isEmpty() &&
               !m_value->text().trimmed().front().isDigit()) {
        check.valueMetric = m_value->text().trimmed().toStdString();
    } else {
        return std::nullopt;
    }
    if (check.compare == CheckCompare::Within) {
        const auto high = numberOf(m_high->text());
        if (!high)
            return std::nullopt;
        check.high = *high;
    }
    if (check.window != CheckWindow::Always) {
        const auto seconds = numberOf(m_seconds->text());
        if (!seconds)
            return std::nullopt;
        check.seconds = *seconds;
    }
    return check;
}

QString CheckDialog::refusal() const
{
    const std::optional<CheckDesc> made = check();
    if (!made)
        return tr("Each bound and the window's seconds must be a number (such as 1.5).");
    if (const std::optional<Error> error = checkRefusal(m_scene, m_index, *made))
        return qs(error->message);
    return QString();
}

void CheckDialog::update()
{
    const bool within = m_compare->currentData().toInt() == static_cast<int>(CheckCompare::Within);
    m_andLabel->setVisible(within);
    m_high->setVisible(within);
    m_seconds->setEnabled(m_window->currentData().toInt() != static_cast<int>(CheckWindow::Always));
    const QString message = refusal();
    m_message->setText(message);
    m_message->setVisible(!message.isEmpty());
    const std::optional<CheckDesc> made = check();
    m_preview->setText(made ? qs(describeCheck(*made)) : QString());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(message.isEmpty());
}

void CheckDialog::done(int result)
{
    // Enter in a field accepts: a refused check stays open with its message.
    if (result == QDialog::Accepted && !refusal().isEmpty())
        return;
    QDialog::done(result);
}

} // namespace shoal::ui
