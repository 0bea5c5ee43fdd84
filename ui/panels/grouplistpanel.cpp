#include "panels/grouplistpanel.h"

#include "document/agentcount.h"
#include "document/commands.h"
#include "document/document.h"
#include "document/groupcommands.h"
#include "document/groupselection.h"
#include "document/qtstrings.h"
#include "simulation/simulationcontroller.h"

#include <QColorDialog>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QSignalBlocker>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace shoal::ui {

namespace {

QColor toQColor(const Color& c)
{
    return QColor(c.r, c.g, c.b, c.a);
}

Color fromQColor(const QColor& c)
{
    return Color{static_cast<std::uint8_t>(c.red()), static_cast<std::uint8_t>(c.green()),
                 static_cast<std::uint8_t>(c.blue()), static_cast<std::uint8_t>(c.alpha())};
}

QColor defaultPicker(const QColor& initial, const QString& title, QWidget* parent)
{
    return QColorDialog::getColor(initial, parent, title);
}

} // namespace

QPixmap groupSwatchPixmap(const Color& body, const Color& accent, int size)
{
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QPen(QColor(0, 0, 0, 90), 1.0));
    painter.setBrush(toQColor(body));
    const double radius = size * 0.18;
    painter.drawRoundedRect(QRectF(0.5, 0.5, size - 1.0, size - 1.0), radius, radius);
    painter.setPen(QPen(QColor(0, 0, 0, 60), 0.8));
    painter.setBrush(toQColor(accent));
    const double dot = size * 0.36;
    painter.drawEllipse(QRectF(size - dot - size * 0.14, size * 0.14, dot, dot));
    return pixmap;
}

GroupListPanel::GroupListPanel(Document* document, GroupSelection* selection, QWidget* parent)
    : QWidget(parent), m_document(document), m_selection(selection), m_colorPicker(defaultPicker)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);

    m_tree = new QTreeWidget(this);
    m_tree->setColumnCount(3);
    m_tree->setHeaderLabels({tr("Group"), tr("Family"), tr("Agents")});
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_tree->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_tree->setIconSize(QSize(14, 14));
    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(NameColumn, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(FamilyColumn, QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(AgentsColumn, QHeaderView::ResizeToContents);
    m_tree->headerItem()->setTextAlignment(AgentsColumn, Qt::AlignRight | Qt::AlignVCenter);
    m_tree->installEventFilter(this);
    layout->addWidget(m_tree, 1);

    auto* buttons = new QHBoxLayout;
    buttons->setSpacing(2);
    m_addButton = new QToolButton(this);
    m_addButton->setText(tr("Add"));
    m_addButton->setToolTip(tr("Add a group of a family, with default parameters, at the "
                               "centre of the level"));
    m_addButton->setPopupMode(QToolButton::InstantPopup);
    m_addButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_addMenu = new QMenu(m_addButton);
    for (BehaviourKind kind : kAllBehaviourKinds) {
        QAction* action = m_addMenu->addAction(qs(std::string(behaviourLabel(kind))));
        const GroupDesc look = makeDefaultGroup(kind, std::string());
        action->setIcon(QIcon(groupSwatchPixmap(look.color, look.accent, 14)));
        action->setData(static_cast<int>(kind));
        connect(action, &QAction::triggered, this, [this, kind] { addGroup(kind); });
    }
    m_addButton->setMenu(m_addMenu);
    m_removeButton = new QToolButton(this);
    m_removeButton->setText(tr("Remove"));
    m_removeButton->setToolTip(tr("Remove the selected groups (Delete)"));
    m_colorButton = new QToolButton(this);
    m_colorButton->setText(tr("Colour\u2026"));
    m_colorButton->setToolTip(tr("Choose the body colour of the selected groups"));
    buttons->addWidget(m_addButton);
    buttons->addWidget(m_removeButton);
    buttons->addWidget(m_colorButton);
    buttons->addStretch(1);
    layout->addLayout(buttons);

    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    QPalette errorPalette = m_message->palette();
    errorPalette.setColor(QPalette::WindowText, QColor(0xc6, 0x28, 0x28));
    m_message->setPalette(errorPalette);
    m_message->hide();
    layout->addWidget(m_message);

    connect(m_removeButton, &QToolButton::clicked, this, &GroupListPanel::removeSelected);
    connect(m_colorButton, &QToolButton::clicked, this, [this] { recolorSelected(false); });
    connect(m_tree, &QTreeWidget::itemChanged, this, &GroupListPanel::onItemChanged);
    connect(m_tree, &QTreeWidget::itemSelectionChanged, this,
            &GroupListPanel::onTreeSelectionChanged);
    connect(m_tree, &QTreeWidget::customContextMenuRequested, this,
            &GroupListPanel::showContextMenu);
    connect(m_document, &Document::changed, this, &GroupListPanel::onDocumentChanged);
    connect(m_selection, &GroupSelection::selectionChanged, this,
            &GroupListPanel::onGroupSelectionChanged);

    rebuild();
}

void GroupListPanel::setSimulation(SimulationController* controller)
{
    if (m_controller)
        disconnect(m_controller, nullptr, this, nullptr);
    m_controller = controller;
    if (m_controller) {
        connect(m_controller, &SimulationController::stepped, this, &GroupListPanel::refreshCounts);
        connect(m_controller, &SimulationController::worldRebuilt, this,
                &GroupListPanel::refreshCounts);
    }
    refreshCounts();
}

QString GroupListPanel::countText(int group) const
{
    const GroupState* running = m_controller ? m_controller->runningGroup(group) : nullptr;
    // A spawn that fell short shows what the world placed, marked; the tooltip says why.
    if (m_controller && !m_controller->spawnWarning(group).isEmpty()) {
        if (!running)
            running = &m_controller->world()->group(group);
        return QStringLiteral("\u26a0 ") +
               QString::number(groupAgentCount(m_document->scene(), group, running));
    }
    return QString::number(groupAgentCount(m_document->scene(), group, running));
}

void GroupListPanel::refreshCounts()
{
    if (m_tree->topLevelItemCount() != static_cast<int>(m_document->scene().groups.size()))
        return; // a rebuild is on its way
    bool changed = false;
    {
        const QSignalBlocker blocker(m_tree);
        for (int group = 0; group < m_tree->topLevelItemCount(); ++group) {
            QTreeWidgetItem* item = m_tree->topLevelItem(group);
            const QString text = countText(group);
            if (item->text(AgentsColumn) != text) {
                item->setText(AgentsColumn, text);
                item->setToolTip(AgentsColumn,
                                 m_controller ? m_controller->spawnWarning(group) : QString());
                changed = true;
            }
        }
    }
    if (changed)
        m_tree->viewport()->update();
}

bool GroupListPanel::isGroupVisible(int group) const
{
    const auto& groups = m_document->scene().groups;
    if (group < 0 || group >= static_cast<int>(groups.size()))
        return false;
    return !m_hidden.contains(qs(groups[static_cast<std::size_t>(group)].name));
}

void GroupListPanel::setGroupVisible(int group, bool visible)
{
    const auto& groups = m_document->scene().groups;
    if (group < 0 || group >= static_cast<int>(groups.size()) || isGroupVisible(group) == visible)
        return;
    const QString name = qs(groups[static_cast<std::size_t>(group)].name);
    if (visible)
        m_hidden.remove(name);
    else
        m_hidden.insert(name);
    updateItem(group);
    emit groupVisibilityChanged(group, visible);
}

QString GroupListPanel::message() const
{
    return m_message->isVisible() ? m_message->text() : QString();
}

void GroupListPanel::showMessage(const QString& message)
{
    m_message->setText(message);
    m_message->setVisible(!message.isEmpty());
}

void GroupListPanel::rebuild()
{
    const auto& groups = m_document->scene().groups;
    m_updating = true;
    {
        const QSignalBlocker blocker(m_tree);
        m_tree->clear();
        m_names.clear();
        for (std::size_t i = 0; i < groups.size(); ++i) {
            auto* item = new QTreeWidgetItem(m_tree);
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsEditable |
                           Qt::ItemIsUserCheckable);
            item->setTextAlignment(AgentsColumn, Qt::AlignRight | Qt::AlignVCenter);
            m_names.append(qs(groups[i].name));
            updateItem(static_cast<int>(i));
        }
    }
    m_updating = false;
    onGroupSelectionChanged();
}

void GroupListPanel::updateItem(int group)
{
    QTreeWidgetItem* item = m_tree->topLevelItem(group);
    if (!item)
        return;
    const GroupDesc& desc = m_document->scene().groups[static_cast<std::size_t>(group)];
    const bool updating = m_updating;
    m_updating = true;
    {
        const QSignalBlocker blocker(m_tree);
        item->setText(NameColumn, qs(desc.name));
        item->setIcon(NameColumn, QIcon(groupSwatchPixmap(desc.color, desc.accent, 14)));
        item->setCheckState(NameColumn, isGroupVisible(group) ? Qt::Checked : Qt::Unchecked);
        item->setToolTip(NameColumn, tr("Tick to show the group in the view; double-click the "
                                        "name to rename it"));
        item->setText(FamilyColumn, qs(std::string(behaviourLabel(desc.kind))));
        item->setText(AgentsColumn, countText(group));
        const QColor text = m_tree->palette().color(
            isGroupVisible(group) ? QPalette::Text : QPalette::PlaceholderText);
        for (int column = 0; column < m_tree->columnCount(); ++column)
            item->setForeground(column, text);
    }
    m_updating = updating;
    // QSignalBlocker kept the view from hearing about the new texts.
    m_tree->viewport()->update();
}

void GroupListPanel::onDocumentChanged(const Change& change)
{
    const auto& groups = m_document->scene().groups;
    if (change.kind == ChangeKind::SceneReset) {
        m_hidden.clear();
        rebuild();
        return;
    }
    if (change.kind == ChangeKind::Player) {
        refreshCounts(); // the group the player leads counts it
        return;
    }
    if (change.kind != ChangeKind::Groups)
        return;
    if (change.index >= 0 && change.index < static_cast<int>(groups.size()) &&
        m_tree->topLevelItemCount() == static_cast<int>(groups.size())) {
        // Carry a hidden flag across a rename.
        const QString name = qs(groups[static_cast<std::size_t>(change.index)].name);
        QString& shown = m_names[change.index];
        if (shown != name) {
            if (m_hidden.remove(shown))
                m_hidden.insert(name);
            shown = name;
        }
        updateItem(change.index);
        return;
    }
    rebuild();
}

void GroupListPanel::onItemChanged(QTreeWidgetItem* item, int column)
{
    if (m_updating || column != NameColumn)
        return;
    const int group = m_tree->indexOfTopLevelItem(item);
    const auto& groups = m_document->scene().groups;
    if (group < 0 || group >= static_cast<int>(groups.size()))
        return;

    const bool visible = item->checkState(NameColumn) == Qt::Checked;
    if (visible != isGroupVisible(group)) {
        setGroupVisible(group, visible);
        return;
    }

    const QString oldName = qs(groups[static_cast<std::size_t>(group)].name);
    const QString name = item->text(NameColumn).trimmed();
    if (name == oldName) {
        updateItem(group);
        return;
    }
    QString refusal;
    if (name.isEmpty())
        refusal = tr("A group needs a name.");
    else if (m_document->scene().groupIndex(name.toStdString()) >= 0)
        refusal = tr("There is already a group named \u201c%1\u201d; group names must be unique.")
                      .arg(name);
    if (!refusal.isEmpty()) {
        showMessage(refusal);
        updateItem(group);
        return;
    }
    showMessage(QString());
    if (QUndoCommand* command = makeRenameGroupCommand(m_document, group, name.toStdString()))
        m_document->undoStack()->push(command);
}

QList<int> GroupListPanel::selectedRows() const
{
    QList<int> rows;
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i)
        if (m_tree->topLevelItem(i)->isSelected())
            rows.append(i);
    return rows;
}

void GroupListPanel::onTreeSelectionChanged()
{
    updateButtons();
    if (m_updating)
        return;
    m_updating = true;
    m_selection->setGroups(selectedRows());
    m_updating = false;
}

void GroupListPanel::onGroupSelectionChanged()
{
    if (!m_updating) {
        m_updating = true;
        {
            const QSignalBlocker blocker(m_tree);
            for (int i = 0; i < m_tree->topLevelItemCount(); ++i)
                m_tree->topLevelItem(i)->setSelected(m_selection->contains(i));
            if (m_selection->current() >= 0) {
                QTreeWidgetItem* current = m_tree->topLevelItem(m_selection->current());
                m_tree->setCurrentItem(current, NameColumn, QItemSelectionModel::NoUpdate);
                m_tree->scrollToItem(current);
            }
        }
        m_updating = false;
        m_tree->viewport()->update();
    }
    updateButtons();
}

void GroupListPanel::updateButtons()
{
    const bool any = !selectedRows().isEmpty();
    m_removeButton->setEnabled(any);
    m_colorButton->setEnabled(any);
}

void GroupListPanel::addGroup(BehaviourKind kind)
{
    const SceneDesc& scene = m_document->scene();
    const GroupDesc group = makeCentredGroup(scene, kind);
    const int index = static_cast<int>(scene.groups.size());
    showMessage(QString());
    m_document->undoStack()->push(makeAddGroupCommand(m_document, index, group));
    m_selection->select(index);
}

void GroupListPanel::removeSelected()
{
    if (QUndoCommand* command = makeRemoveGroupsCommand(m_document, selectedRows())) {
        showMessage(QString());
        m_document->undoStack()->push(command);
    }
}

void GroupListPanel::recolorSelected(bool accent)
{
    const QList<int> rows = selectedRows();
    if (rows.isEmpty())
        return;
    const auto& groups = m_document->scene().groups;
    const GroupDesc& first = groups[static_cast<std::size_t>(rows.first())];
    const QColor initial = toQColor(accent ? first.accent : first.color);
    const QString title = accent ? tr("Accent Colour of %1").arg(qs(first.name))
                                 : tr("Colour of %1").arg(qs(first.name));
    const QColor chosen = m_colorPicker(initial, title, this);
    if (!chosen.isValid())
        return;
    auto* command =
        new QUndoCommand(accent ? tr("Change Group Accent Colour") : tr("Change Group Colour"));
    for (int row : rows) {
        GroupDesc group = groups[static_cast<std::size_t>(row)];
        (accent ? group.accent : group.color) = fromQColor(chosen);
        new SetGroupCommand(m_document, row, group, true, command);
    }
    m_document->undoStack()->push(command);
}

bool GroupListPanel::eventFilter(QObject* watched, QEvent* event)
{
    // Only the tree itself: while a name is edited, its line editor has the key events.
    if (watched == m_tree &&
        (event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress)) {
        auto* key = static_cast<QKeyEvent*>(event);
        if ((key->key() == Qt::Key_Delete || key->key() == Qt::Key_Backspace) &&
            key->modifiers() == Qt::NoModifier) {
            event->accept();
            if (event->type() == QEvent::KeyPress)
                removeSelected();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void GroupListPanel::showContextMenu(const QPoint& position)
{
    QMenu menu(this);
    const QList<int> rows = selectedRows();
    if (rows.size() == 1) {
        QTreeWidgetItem* item = m_tree->topLevelItem(rows.first());
        menu.addAction(tr("Rename"), this, [this, item] { m_tree->editItem(item, NameColumn); });
    }
    if (!rows.isEmpty()) {
        const bool anyHidden =
            std::any_of(rows.begin(), rows.end(), [this](int row) { return !isGroupVisible(row); });
        menu.addAction(anyHidden ? tr("Show") : tr("Hide"), this, [this, rows, anyHidden] {
            for (int row : rows)
                setGroupVisible(row, anyHidden);
        });
        menu.addAction(tr("Colour\u2026"), this, [this] { recolorSelected(false); });
        menu.addAction(tr("Accent Colour\u2026"), this, [this] { recolorSelected(true); });
        menu.addSeparator();
        menu.addAction(tr("Remove"), this, &GroupListPanel::removeSelected);
        menu.addSeparator();
    }
    menu.addMenu(m_addMenu)->setText(tr("Add Group"));
    menu.exec(m_tree->viewport()->mapToGlobal(position));
}

} // namespace shoal::ui
