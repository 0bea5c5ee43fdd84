#include "checks/checksdock.h"

#include "checks/checkdialog.h"
#include "document/checkcommands.h"
#include "document/document.h"
#include "document/qtstrings.h"
#include "simulation/simulationcontroller.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QIcon>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <array>

namespace shoal::ui {

namespace {

/// A disc in the state's colour: filled once decided, a ring while it may still change.
QIcon stateIcon(CheckState state)
{
    QPixmap pixmap(14, 14);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    const QColor color = ChecksDock::stateColor(state);
    painter.setPen(QPen(color, 2.0));
    const bool decided = state == CheckState::Passed || state == CheckState::Failed;
    painter.setBrush(decided ? color : color.darker(250));
    painter.drawEllipse(QRectF(2, 2, 10, 10));
    if (decided) {
        // A tick or a cross, so the state reads without its colour too.
        painter.setPen(QPen(QColor(20, 20, 20), 1.8, Qt::SolidLine, Qt::RoundCap));
        if (state == CheckState::Passed) {
            painter.drawLine(QPointF(4.5, 7.2), QPointF(6.4, 9.2));
            painter.drawLine(QPointF(6.4, 9.2), QPointF(9.8, 4.8));
        } else {
            painter.drawLine(QPointF(5, 5), QPointF(9, 9));
            painter.drawLine(QPointF(9, 5), QPointF(5, 9));
        }
    }
    return QIcon(pixmap);
}

} // namespace

QString ChecksDock::stateName(CheckState state)
{
    switch (state) {
    case CheckState::Pending:
        return tr("pending");
    case CheckState::Holding:
        return tr("holding");
    case CheckState::Passed:
        return tr("passed");
    case CheckState::Failed:
        break;
    }
    return tr("failed");
}

QColor ChecksDock::stateColor(CheckState state)
{
    switch (state) {
    case CheckState::Pending:
        return QColor(150, 150, 150);
    case CheckState::Holding:
        return QColor(90, 160, 230);
    case CheckState::Passed:
        return QColor(90, 190, 100);
    case CheckState::Failed:
        break;
    }
    return QColor(225, 90, 80);
}

ChecksDock::ChecksDock(Document* document, SimulationController* simulation, QWidget* parent)
    : QWidget(parent), m_document(document), m_simulation(simulation)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->setSpacing(4);
    auto* bar = new QHBoxLayout;
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("checksSummary"));
    // Long messages elide instead of widening the dock; the full text is the tooltip.
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_summary->setMinimumWidth(60);
    bar->addWidget(m_summary, 1);
    m_add = new QPushButton(tr("Add…"), this);
    m_add->setToolTip(tr("Add a check to the scene (or right-click a metrics plot: Keep this "
                         "between these values…)"));
    m_edit = new QPushButton(tr("Edit…"), this);
    m_edit->setToolTip(tr("Change the selected check (or double-click it)"));
    m_remove = new QPushButton(tr("Remove"), this);
    m_remove->setToolTip(tr("Remove the selected check from the scene"));
    m_decide = new QPushButton(tr("Decide now"), this);
    m_decide->setToolTip(tr("End the watch at the world's time: what holds passes, what is "
                            "pending fails (the run decides on its own once it is as long as "
                            "shoal-cli check runs it)"));
    for (QPushButton* button : {m_add, m_edit, m_remove, m_decide})
        bar->addWidget(button);
    layout->addLayout(bar);

    m_list = new QTreeWidget(this);
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setHeaderLabels({tr("State"), tr("Check"), tr("Condition"), tr("Measured")});
    m_list->header()->setStretchLastSection(true);
    m_list->setColumnWidth(StateColumn, 90);
    m_list->setColumnWidth(NameColumn, 230);
    m_list->setColumnWidth(ConditionColumn, 330);
    m_list->setMinimumWidth(160);
    layout->addWidget(m_list, 1);

    connect(m_add, &QPushButton::clicked, this, [this] {
        CheckDesc check;
        const auto& groups = m_document->scene().groups;
        check.metric = checkMetricName(groups.empty() ? "all" : groups.front().name, "nearestMin");
        check.compare = CheckCompare::AtLeast;
        addCheck(check);
    });
    connect(m_edit, &QPushButton::clicked, this, [this] { editCheck(currentIndex()); });
    connect(m_remove, &QPushButton::clicked, this, [this] { removeCheck(currentIndex()); });
    connect(m_decide, &QPushButton::clicked, m_simulation, &SimulationController::decideChecks);
    connect(m_list, &QTreeWidget::itemActivated, this,
            [this](QTreeWidgetItem* item) { editCheck(m_list->indexOfTopLevelItem(item)); });
    connect(m_list, &QTreeWidget::currentItemChanged, this, [this] {
        m_edit->setEnabled(currentIndex() >= 0);
        m_remove->setEnabled(currentIndex() >= 0);
    });

    connect(m_simulation, &SimulationController::stepped, this, &ChecksDock::onStepped);
    connect(m_simulation, &SimulationController::checksRestarted, this, &ChecksDock::refresh);
    connect(m_simulation, &SimulationController::worldRebuilt, this, &ChecksDock::refresh);
    connect(m_document, &Document::changed, this, &ChecksDock::onDocumentChanged);
    refresh();
}

std::vector<CheckState> ChecksDock::states() const
{
    std::vector<CheckState> states(m_document->scene().checks.size(), CheckState::Pending);
    if (const CheckRunner* runner = m_simulation->checkRunner())
        for (std::size_t k = 0; k < states.size() && k < runner->results().size(); ++k)
            states[k] = runner->results()[k].state;
    return states;
}

int ChecksDock::currentIndex() const
{
    return m_list->currentItem() ? m_list->indexOfTopLevelItem(m_list->currentItem()) : -1;
}

void ChecksDock::onStepped()
{
    // Paused, every step shows; playing, five times a second is plenty to read.
    if (m_simulation->isPlaying() && m_sinceRefresh.isValid() &&
        m_sinceRefresh.elapsed() < kRefreshMs)
        return;
    refresh();
}

void ChecksDock::onDocumentChanged(const Change& change)
{
    // The controller restarts the runner for changed checks (checksRestarted); a rename
    // keeps it, and the rows show the new names.
    if (change.kind == ChangeKind::Checks || change.kind == ChangeKind::Groups ||
        change.kind == ChangeKind::SceneReset)
        refresh();
}

void ChecksDock::refresh()
{
    m_sinceRefresh.restart();
    fillRows();
}

void ChecksDock::fillRows()
{
    const std::vector<CheckDesc>& checks = m_document->scene().checks;
    const CheckRunner* runner = m_simulation->checkRunner();
    const bool running = runner && runner->results().size() == checks.size();
    const int current = currentIndex();
    m_list->setUpdatesEnabled(false);
    while (m_list->topLevelItemCount() > static_cast<int>(checks.size()))
        delete m_list->takeTopLevelItem(m_list->topLevelItemCount() - 1);
    std::array<int, 4> counts{};
    for (std::size_t k = 0; k < checks.size(); ++k) {
        QTreeWidgetItem* item = m_list->topLevelItem(static_cast<int>(k));
        if (!item)
            item = new QTreeWidgetItem(m_list);
        const CheckDesc& check = checks[k];
        const CheckState state = running ? runner->results()[k].state : CheckState::Pending;
        ++counts[static_cast<std::size_t>(state)];
        item->setIcon(StateColumn, stateIcon(state));
        item->setText(StateColumn, running ? stateName(state) : QStringLiteral("\u2014"));
        item->setForeground(StateColumn, stateColor(state));
        item->setText(NameColumn, check.name.empty() ? qs(check.metric) : qs(check.name));
        item->setText(ConditionColumn, qs(describeCheck(check)));
        item->setToolTip(ConditionColumn, item->text(ConditionColumn));
        item->setText(MeasuredColumn,
                      running ? qs(describeResult(runner->checks()[k], runner->results()[k]))
                              : QString());
        item->setToolTip(MeasuredColumn, item->text(MeasuredColumn));
    }
    if (current >= 0 && current < m_list->topLevelItemCount())
        m_list->setCurrentItem(m_list->topLevelItem(current));
    m_list->setUpdatesEnabled(true);
    m_edit->setEnabled(currentIndex() >= 0);
    m_remove->setEnabled(currentIndex() >= 0);
    m_decide->setEnabled(running && !m_simulation->checksDecided());

    const World* world = m_simulation->world();
    QString text;
    if (checks.empty()) {
        text = tr("The scene has no checks: Add… one, or right-click a metrics plot.");
    } else if (!m_simulation->checksError().isEmpty()) {
        text = tr("Not watched: %1").arg(m_simulation->checksError());
    } else if (!running || !world) {
        text = tr("%n check(s); they are watched while the world runs.", nullptr,
                  static_cast<int>(checks.size()));
    } else {
        // "5 of 8 holding, 1 failed": the first state counted against all, the rest after it.
        QStringList parts;
        for (CheckState state :
             {CheckState::Passed, CheckState::Holding, CheckState::Pending, CheckState::Failed}) {
            const int count = counts[static_cast<std::size_t>(state)];
            if (count == 0)
                continue;
            parts.append(parts.isEmpty()
                             ? tr("%1 of %2 %3").arg(count).arg(checks.size()).arg(stateName(state))
                             : tr("%1 %2").arg(count).arg(stateName(state)));
        }
        text = parts.join(QStringLiteral(", "));
        text += m_simulation->checksDecided()
                    ? tr(" \u2014 decided at %1 s").arg(m_simulation->checksDecidedAt(), 0, 'f', 1)
                    : tr(" at %1 s").arg(world->time(), 0, 'f', 1);
        if (m_simulation->checksSince() > 0.0)
            text += tr(" (watched from %1 s: Restart for a whole run)")
                        .arg(m_simulation->checksSince(), 0, 'f', 1);
    }
    m_summary->setText(text);
    m_summary->setToolTip(text);
}

CheckDialog* ChecksDock::addCheck(const CheckDesc& check)
{
    const SceneDesc& scene = m_document->scene();
    auto* dialog = new CheckDialog(scene, static_cast<int>(scene.checks.size()), check, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (const std::optional<CheckDesc> made = dialog->check())
            if (QUndoCommand* command = makeAddCheckCommand(m_document, *made))
                m_document->undoStack()->push(command);
    });
    dialog->open();
    return dialog;
}

CheckDialog* ChecksDock::editCheck(int index)
{
    const SceneDesc& scene = m_document->scene();
    if (index < 0 || static_cast<std::size_t>(index) >= scene.checks.size())
        return nullptr;
    auto* dialog =
        new CheckDialog(scene, index, scene.checks[static_cast<std::size_t>(index)], this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog, index] {
        if (const std::optional<CheckDesc> made = dialog->check())
            if (QUndoCommand* command = makeEditCheckCommand(m_document, index, *made))
                m_document->undoStack()->push(command);
    });
    dialog->open();
    return dialog;
}

void ChecksDock::removeCheck(int index)
{
    if (QUndoCommand* command = makeRemoveCheckCommand(m_document, index))
        m_document->undoStack()->push(command);
}

} // namespace shoal::ui
