#include "panels/presetbar.h"

#include "document/commands.h"
#include "document/document.h"
#include "document/groupcommands.h"
#include "document/qtstrings.h"
#include "panels/paramlabels.h"

#include <presetshelf.h>

#include <QComboBox>
#include <QCoreApplication>
#include <QGridLayout>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QToolButton>
#include <QUndoCommand>

#include <cstdio>

namespace shoal::ui {

namespace {

/// How long a refusal stays under the bar, as under a parameter row.
constexpr int kMessageMs = 6000;

QString numberText(double value)
{
    return qs(formatNumber(value));
}

} // namespace

PresetBar::PresetBar(Document* document, QWidget* parent) : QWidget(parent), m_document(document)
{
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 2, 0, 4);
    grid->setHorizontalSpacing(4);
    grid->setVerticalSpacing(2);

    m_combo = new QComboBox(this);
    m_combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_combo->setMinimumContentsLength(10);
    m_combo->setToolTip(tr("Apply a preset to the selected groups: it sets the parameters it "
                           "lists and keeps the others. One undo step."));
    connect(m_combo, &QComboBox::activated, this, &PresetBar::onActivated);

    m_save = new QToolButton(this);
    m_save->setText(tr("Save\u2026"));
    m_save->setToolTip(tr("Save this group's parameters as a preset of your own (kept in %1, "
                          "shared with shoal-cli)")
                           .arg(presets::userFolder()));
    connect(m_save, &QToolButton::clicked, this, &PresetBar::askAndSave);

    m_differences = new QToolButton(this);
    m_differences->setPopupMode(QToolButton::InstantPopup);
    m_differencesMenu = new QMenu(m_differences);
    m_differences->setMenu(m_differencesMenu);
    connect(m_differencesMenu, &QMenu::aboutToShow, this, &PresetBar::fillDifferencesMenu);

    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    QPalette red = m_message->palette();
    red.setColor(QPalette::WindowText, QColor(0xc6, 0x28, 0x28));
    m_message->setPalette(red);
    m_message->hide();
    m_messageTimer.setSingleShot(true);
    m_messageTimer.setInterval(kMessageMs);
    connect(&m_messageTimer, &QTimer::timeout, m_message, &QLabel::hide);

    grid->addWidget(m_combo, 0, 0);
    grid->addWidget(m_save, 0, 1);
    grid->addWidget(m_differences, 0, 2);
    grid->addWidget(m_message, 1, 0, 1, 3);
    grid->setColumnStretch(0, 1);

    reloadPresets();
}

void PresetBar::setGroups(const QList<int>& groups, BehaviourKind kind)
{
    const bool newKind = kind != m_kind || m_offered.empty();
    m_groups = groups;
    m_kind = kind;
    if (newKind)
        fillCombo();
    refresh();
}

void PresetBar::reloadPresets()
{
    const presets::Shelf shelf = presets::load();
    for (const std::string& problem : shelf.problems)
        std::fprintf(stderr, "shoal: preset not loaded: %s\n", problem.c_str());
    m_all = shelf.presets;
    fillCombo();
}

void PresetBar::fillCombo()
{
    m_offered.clear();
    for (const Preset& preset : m_all)
        if (preset.kind == m_kind)
            m_offered.push_back(preset);
    m_combo->clear();
    m_combo->addItem(tr("Apply a preset\u2026"));
    bool ownStarted = false;
    for (std::size_t i = 0; i < m_offered.size(); ++i) {
        const Preset& preset = m_offered[i];
        if (!preset.builtIn && !ownStarted) {
            m_combo->insertSeparator(m_combo->count());
            ownStarted = true;
        }
        QString tip = qs(preset.description);
        QStringList values;
        for (const PresetValue& value : preset.values)
            values.append(QStringLiteral("%1 = %2").arg(qs(value.key), numberText(value.value)));
        tip +=
            (tip.isEmpty() ? QString() : QStringLiteral("\n")) + values.join(QStringLiteral(", "));
        m_combo->addItem(preset.builtIn ? qs(preset.name) : tr("%1 (yours)").arg(qs(preset.name)),
                         qs(preset.name));
        m_combo->setItemData(m_combo->count() - 1, tip, Qt::ToolTipRole);
    }
    m_combo->setCurrentIndex(0);
}

void PresetBar::refresh()
{
    const QStringList changed = differences();
    const int count = static_cast<int>(changed.size());
    m_differences->setText(count == 0 ? tr("Defaults") : tr("%n changed", nullptr, count));
    m_differences->setToolTip(
        count == 0 ? tr("Every parameter is at its default")
                   : tr("Differences from default: %1 (click to list and reset them)")
                         .arg(changed.join(QStringLiteral("; "))));
    m_differences->setEnabled(count > 0);
    m_save->setEnabled(m_groups.size() == 1);
}

QString PresetBar::differenceLine(std::size_t p) const
{
    const SceneDesc& scene = m_document->scene();
    const ParamSpec& spec = paramSpecs(m_kind)[p];
    bool differs = false;
    bool mixed = false;
    const double first = scene.groups[std::size_t(m_groups.first())].params[p];
    for (int g : m_groups) {
        const double value = scene.groups[std::size_t(g)].params[p];
        differs = differs || value != spec.defaultValue;
        mixed = mixed || value != first;
    }
    if (!differs)
        return {};
    const QString unit = spec.unit.empty() ? QString() : QStringLiteral(" ") + qs(spec.unit);
    return tr("%1: %2 (default %3)")
        .arg(qs(spec.label), mixed ? tr("mixed") : numberText(first) + unit,
             numberText(spec.defaultValue) + unit);
}

QStringList PresetBar::differences() const
{
    QStringList out;
    if (m_groups.isEmpty())
        return out;
    for (std::size_t p = 0; p < paramSpecs(m_kind).size(); ++p)
        if (const QString line = differenceLine(p); !line.isEmpty())
            out.append(line);
    return out;
}

bool PresetBar::applyPreset(const QString& name)
{
    const Preset* preset = findPreset(m_offered, m_kind, name.toStdString());
    if (!preset || m_groups.isEmpty())
        return false;
    const SceneDesc& scene = m_document->scene();
    std::vector<ParamValues> values;
    for (int g : m_groups) {
        const GroupDesc& group = scene.groups[std::size_t(g)];
        Expected<ParamValues> applied = shoal::applyPreset(*preset, group.kind, group.params);
        if (!applied) {
            const QString reason = withLabels(applied.error().message, paramSpecs(group.kind));
            showMessage(m_groups.size() == 1
                            ? reason
                            : QStringLiteral("%1: %2").arg(qs(group.name), reason));
            return false;
        }
        values.push_back(std::move(*applied));
    }
    m_message->hide();
    // All of a group's values at once: the world checks the rules on the new set, never on a
    // half-applied one (loose-school raises the band's minimum past the old maximum).
    if (QUndoCommand* command = makeSetGroupParamsCommand(
            m_document, m_groups, values,
            QCoreApplication::translate("UndoCommands", "Apply Preset \u201c%1\u201d").arg(name)))
        m_document->undoStack()->push(command);
    return true;
}

bool PresetBar::savePreset(const QString& name)
{
    if (m_groups.size() != 1)
        return false;
    const GroupDesc& group = m_document->scene().groups[std::size_t(m_groups.first())];
    const Preset preset =
        presetFromValues(name.trimmed().toStdString(), group.kind, group.params,
                         tr("saved from group %1").arg(qs(group.name)).toStdString());
    if (std::optional<Error> error = presets::saveUserPreset(preset)) {
        showMessage(qs(error->message));
        return false;
    }
    reloadPresets();
    m_message->hide();
    return true;
}

void PresetBar::resetAll()
{
    if (m_groups.isEmpty())
        return;
    const std::vector<ParamValues> defaults(std::size_t(m_groups.size()),
                                            defaultParamValues(paramSpecs(m_kind)));
    if (QUndoCommand* command = makeSetGroupParamsCommand(
            m_document, m_groups, defaults,
            QCoreApplication::translate("UndoCommands", "Reset Parameters to Defaults")))
        m_document->undoStack()->push(command);
}

void PresetBar::resetOne(int paramIndex)
{
    const std::vector<ParamSpec>& specs = paramSpecs(m_kind);
    const double value = specs[std::size_t(paramIndex)].defaultValue;
    for (int g : m_groups) {
        const GroupDesc& group = m_document->scene().groups[std::size_t(g)];
        if (auto error = checkParamEdit(group.kind, group.params, paramIndex, value)) {
            showMessage(withLabels(error->message, specs));
            return;
        }
    }
    m_document->undoStack()->push(
        new SetGroupParamCommand(m_document, m_groups, paramIndex, value, true));
}

QString PresetBar::message() const
{
    return m_message->isVisible() ? m_message->text() : QString();
}

void PresetBar::onActivated(int index)
{
    const QString name = m_combo->itemData(index).toString();
    m_combo->setCurrentIndex(0);
    if (!name.isEmpty())
        applyPreset(name);
}

void PresetBar::askAndSave()
{
    if (m_groups.size() != 1)
        return;
    const GroupDesc& group = m_document->scene().groups[std::size_t(m_groups.first())];
    bool ok = false;
    const QString name =
        QInputDialog::getText(this, tr("Save as Preset"),
                              tr("A name for the %1 preset (letters, digits, spaces, - _ .):")
                                  .arg(qs(std::string(behaviourLabel(group.kind))).toLower()),
                              QLineEdit::Normal, qs(group.name), &ok);
    if (!ok)
        return;
    const Preset* existing = findPreset(m_offered, m_kind, name.trimmed().toStdString());
    if (existing && !existing->builtIn &&
        QMessageBox::question(this, tr("Replace Preset"),
                              tr("You already have a preset called \u201c%1\u201d. Replace it?")
                                  .arg(name.trimmed())) != QMessageBox::Yes)
        return;
    savePreset(name);
}

void PresetBar::fillDifferencesMenu()
{
    m_differencesMenu->clear();
    if (m_groups.isEmpty())
        return;
    for (std::size_t p = 0; p < paramSpecs(m_kind).size(); ++p) {
        const QString line = differenceLine(p);
        if (line.isEmpty())
            continue;
        const int index = int(p);
        QAction* action =
            m_differencesMenu->addAction(line, this, [this, index] { resetOne(index); });
        action->setToolTip(tr("Click to reset it to its default"));
    }
    m_differencesMenu->setToolTipsVisible(true);
    if (!m_differencesMenu->isEmpty()) {
        m_differencesMenu->addSeparator();
        m_differencesMenu->addAction(tr("Reset All to Defaults"), this, &PresetBar::resetAll);
    }
}

void PresetBar::showMessage(const QString& text)
{
    m_message->setText(text);
    m_message->show();
    m_messageTimer.start();
}

} // namespace shoal::ui
