#include "panels/propertypanel.h"

#include "document/agentcount.h"
#include "document/commands.h"
#include "document/document.h"
#include "document/groupcommands.h"
#include "document/groupselection.h"
#include "document/qtstrings.h"
#include "panels/collisionsection.h"
#include "panels/grouplistpanel.h"
#include "panels/paramlabels.h"
#include "panels/paramrow.h"
#include "panels/presetbar.h"
#include "simulation/simulationcontroller.h"

#include <QComboBox>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QRegularExpressionValidator>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace shoal::ui {

namespace {

/// A section title: bold text over a thin rule.
QLabel* makeSectionTitle(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(text, parent);
    QFont font = label->font();
    font.setBold(true);
    font.setPointSizeF(font.pointSizeF() * 1.05);
    label->setFont(font);
    label->setContentsMargins(0, 8, 0, 2);
    return label;
}

QFrame* makeRule(QWidget* parent)
{
    auto* rule = new QFrame(parent);
    rule->setFrameShape(QFrame::HLine);
    rule->setFrameShadow(QFrame::Plain);
    QPalette pal = rule->palette();
    pal.setColor(QPalette::WindowText, pal.color(QPalette::Mid));
    rule->setPalette(pal);
    return rule;
}

/// A smaller grey heading inside a section.
QLabel* makeSubTitle(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(text.toUpper(), parent);
    QFont font = label->font();
    font.setBold(true);
    font.setPointSizeF(font.pointSizeF() * 0.8);
    font.setLetterSpacing(QFont::PercentageSpacing, 108);
    label->setFont(font);
    QPalette pal = label->palette();
    pal.setColor(QPalette::WindowText, pal.color(QPalette::PlaceholderText));
    label->setPalette(pal);
    label->setContentsMargins(0, 6, 0, 1);
    return label;
}

ParamSpec timeStepSpec()
{
    return ParamSpec("dt", PropertyPanel::tr("Time step").toStdString(), "s", kMinStep, kMaxStep,
                     0.001, 1.0 / 60.0,
                     PropertyPanel::tr("The simulation's fixed step. Smaller steps are smoother "
                                       "and more exact but cost more per simulated second; "
                                       "larger steps can let fast agents tunnel through thin "
                                       "gaps. A change restarts the simulation.")
                         .toStdString());
}

ParamSpec speedSpec()
{
    return ParamSpec("speed", PropertyPanel::tr("Speed").toStdString(), "\u00d7", 0.25, 4.0, 0.25,
                     1.0,
                     PropertyPanel::tr("How fast the editor runs the simulation, as a multiple of "
                                       "real time. Not saved with the level; it never changes "
                                       "the result of a step.")
                         .toStdString());
}

ParamSpec headingSpec()
{
    return ParamSpec("heading", PropertyPanel::tr("Heading").toStdString(), "deg", -180.0, 180.0,
                     1.0, 0.0,
                     PropertyPanel::tr("Which way the player faces at the start, in degrees "
                                       "counter-clockwise from +x: 0 is right, 90 up, 180 "
                                       "left. The view's arrow on the player start shows it. "
                                       "A change restarts the simulation.")
                         .toStdString());
}

/// The selected groups' swatches, fanned out (up to three) in one square of `size` px.
QPixmap selectionSwatch(const SceneDesc& scene, const QList<int>& groups, int size)
{
    const int shown = std::min<int>(3, static_cast<int>(groups.size()));
    if (shown == 1) {
        const GroupDesc& group = scene.groups[static_cast<std::size_t>(groups.first())];
        return groupSwatchPixmap(group.color, group.accent, size);
    }
    const int small = size * 2 / 3;
    const int offset = (size - small) / (shown - 1);
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    for (int i = shown - 1; i >= 0; --i) {
        const GroupDesc& group = scene.groups[static_cast<std::size_t>(groups[i])];
        painter.drawPixmap(i * offset, i * offset,
                           groupSwatchPixmap(group.color, group.accent, small));
    }
    return pixmap;
}

/// The Leads row's tooltip, laid out as a ParamRow's.
QString leadsToolTip()
{
    return PropertyPanel::tr(
        "<p><b>Leads</b> <span style=\"color:gray\">player.group</span></p><p>The group the "
        "player leads: the player becomes the group's agent 0. A fish school swims round the "
        "player, and a free fish joins the school when the player touches it. A "
        "leader-following group follows the player instead of its wandering leader.</p><p><i>"
        "None, or a fish school or leader-following group of the level. A change restarts the "
        "simulation.</i></p>");
}

} // namespace

PropertyPanel::PropertyPanel(Document* document, GroupSelection* selection,
                             SimulationController* controller, QWidget* parent)
    : QWidget(parent), m_document(document), m_selection(selection), m_controller(controller)
{
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    outer->addWidget(scroll);

    auto* content = new QWidget(scroll);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(10, 6, 8, 10);
    layout->setSpacing(3);
    scroll->setWidget(content);

    // The selected group: swatch, name, family and size.
    m_header = new QWidget(content);
    auto* headerLayout = new QHBoxLayout(m_header);
    headerLayout->setContentsMargins(0, 2, 0, 2);
    headerLayout->setSpacing(8);
    m_swatch = new QLabel(m_header);
    m_swatch->setFixedSize(22, 22);
    headerLayout->addWidget(m_swatch, 0, Qt::AlignTop);
    auto* titles = new QVBoxLayout;
    titles->setSpacing(0);
    m_title = new QLabel(m_header);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.2);
    m_title->setFont(titleFont);
    m_title->setTextFormat(Qt::PlainText);
    m_subtitle = new QLabel(m_header);
    QPalette subtle = m_subtitle->palette();
    subtle.setColor(QPalette::WindowText, subtle.color(QPalette::PlaceholderText));
    m_subtitle->setPalette(subtle);
    m_subtitle->setWordWrap(true);
    titles->addWidget(m_title);
    titles->addWidget(m_subtitle);
    headerLayout->addLayout(titles, 1);
    layout->addWidget(m_header);

    m_groupSectionTitle = makeSectionTitle(QString(), content);
    layout->addWidget(m_groupSectionTitle);
    layout->addWidget(makeRule(content));
    m_presetBar = new PresetBar(m_document, content);
    layout->addWidget(m_presetBar);
    m_message = new QLabel(content);
    m_message->setWordWrap(true);
    m_message->setContentsMargins(0, 4, 0, 4);
    m_message->setPalette(subtle);
    layout->addWidget(m_message);
    m_rowsWidget = new QWidget(content);
    m_rowsLayout = new QVBoxLayout(m_rowsWidget);
    m_rowsLayout->setContentsMargins(0, 0, 0, 0);
    m_rowsLayout->setSpacing(2);
    layout->addWidget(m_rowsWidget);

    m_collisionTitle = makeSectionTitle(tr("Collision"), content);
    layout->addWidget(m_collisionTitle);
    m_collisionRule = makeRule(content);
    layout->addWidget(m_collisionRule);
    m_collision = new CollisionSection(m_document, content);
    m_collision->setContentsMargins(0, 3, 0, 0);
    layout->addWidget(m_collision);

    buildSceneSection(layout);
    layout->addStretch(1);

    connect(m_selection, &GroupSelection::selectionChanged, this,
            &PropertyPanel::onSelectionChanged);
    connect(m_document, &Document::changed, this, &PropertyPanel::onDocumentChanged);
    connect(m_controller, &SimulationController::stateChanged, this,
            [this] { m_speedRow->setValue(m_controller->speed()); });
    connect(m_controller, &SimulationController::stepped, this, &PropertyPanel::refreshHeaderCount);
    connect(m_controller, &SimulationController::worldRebuilt, this,
            &PropertyPanel::refreshHeaderCount);

    rebuildGroupRows();
    refreshSceneSection();
}

void PropertyPanel::buildSceneSection(QVBoxLayout* layout)
{
    QWidget* content = layout->parentWidget();
    layout->addWidget(makeSectionTitle(tr("Scene"), content));
    layout->addWidget(makeRule(content));
    layout->addWidget(makeSubTitle(tr("Simulation"), content));

    m_timeStepRow = new ParamRow(timeStepSpec(), content);
    connect(m_timeStepRow, &ParamRow::edited, this, &PropertyPanel::editTimeStep);
    layout->addWidget(m_timeStepRow);

    m_seedRow = new QWidget(content);
    auto* seedLayout = new QGridLayout(m_seedRow);
    seedLayout->setContentsMargins(0, 0, 0, 0);
    seedLayout->setHorizontalSpacing(6);
    m_seedLabel = new QLabel(tr("Seed"), m_seedRow);
    const QString seedTip = tr("<p><b>Seed</b> <span style=\"color:gray\">seed</span></p><p>Every "
                               "spawn position and random draw derives from it: the same seed "
                               "gives the same run. A change restarts the simulation.</p>");
    m_seedLabel->setToolTip(seedTip);
    m_seedEdit = new QLineEdit(m_seedRow);
    m_seedEdit->setValidator(new QRegularExpressionValidator(
        QRegularExpression(QStringLiteral("[0-9]{1,20}")), m_seedEdit));
    m_seedEdit->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_seedEdit->setToolTip(seedTip);
    m_newSeedButton = new QToolButton(m_seedRow);
    m_newSeedButton->setAutoRaise(true);
    m_newSeedButton->setFocusPolicy(Qt::NoFocus);
    m_newSeedButton->setText(QStringLiteral("\u2684"));
    m_newSeedButton->setToolTip(tr("Pick a new random seed"));
    seedLayout->addWidget(m_seedLabel, 0, 0);
    seedLayout->addWidget(m_seedEdit, 0, 1, 1, 3);
    seedLayout->addWidget(m_newSeedButton, 0, 4);
    seedLayout->setColumnStretch(1, 1);
    connect(m_seedEdit, &QLineEdit::editingFinished, this, &PropertyPanel::applySeed);
    connect(m_newSeedButton, &QToolButton::clicked, this, &PropertyPanel::newSeed);
    layout->addWidget(m_seedRow);

    m_speedRow = new ParamRow(speedSpec(), content);
    connect(m_speedRow, &ParamRow::edited, this,
            [this](double value, bool) { m_controller->setSpeed(value); });
    layout->addWidget(m_speedRow);

    layout->addWidget(makeSubTitle(tr("Player"), content));
    m_playerNote = new QLabel(tr("This level has no player."), content);
    QPalette subtle = m_playerNote->palette();
    subtle.setColor(QPalette::WindowText, subtle.color(QPalette::PlaceholderText));
    m_playerNote->setPalette(subtle);
    layout->addWidget(m_playerNote);
    layout->addWidget(buildLeadsRow(content));
    m_headingRow = new ParamRow(headingSpec(), content);
    connect(m_headingRow, &ParamRow::edited, this, &PropertyPanel::editPlayerHeading);
    layout->addWidget(m_headingRow);
    const auto& specs = playerParamSpecs();
    for (std::size_t i = 0; i < specs.size(); ++i) {
        auto* row = new ParamRow(specs[i], content);
        const int index = static_cast<int>(i);
        connect(row, &ParamRow::edited, this, [this, row, index](double value, bool commit) {
            editPlayerParam(row, index, value, commit);
        });
        layout->addWidget(row);
        m_playerRows.append(row);
    }
}

QWidget* PropertyPanel::buildLeadsRow(QWidget* parent)
{
    // The columns of a ParamRow with a choice: label, the combo over slider and spin box, the
    // unit and the reset button (both empty here), so the row lines up with the ones below.
    auto* row = new QWidget(parent);
    auto* grid = new QGridLayout(row);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(6);
    m_leadsLabel = new QLabel(tr("Leads"), row);
    m_leadsLabel->setToolTip(leadsToolTip());
    m_leadsCombo = new FocusWheel<QComboBox>(row);
    m_leadsCombo->setFocusPolicy(Qt::StrongFocus);
    m_leadsCombo->setIconSize(QSize(14, 14));
    m_leadsCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_leadsCombo->setMinimumContentsLength(8);
    m_leadsCombo->setToolTip(leadsToolTip());
    m_leadsUnitSpace = new QWidget(row);
    m_leadsResetSpace = new QWidget(row);
    grid->addWidget(m_leadsLabel, 0, 0);
    grid->addWidget(m_leadsCombo, 0, 1, 1, 2);
    grid->addWidget(m_leadsUnitSpace, 0, 3);
    grid->addWidget(m_leadsResetSpace, 0, 4);
    grid->setColumnStretch(1, 1);
    connect(m_leadsCombo, &QComboBox::activated, this, &PropertyPanel::chooseLead);
    return row;
}

ParamRow* PropertyPanel::groupRow(const QString& key) const
{
    for (ParamRow* row : m_groupRows)
        if (qs(row->spec().key) == key)
            return row;
    return nullptr;
}

ParamRow* PropertyPanel::playerRow(const QString& key) const
{
    for (ParamRow* row : m_playerRows)
        if (qs(row->spec().key) == key)
            return row;
    return nullptr;
}

QString PropertyPanel::groupMessage() const
{
    return m_message->isVisible() ? m_message->text() : QString();
}

bool PropertyPanel::selectedFamily(QList<int>* groups, int* kind) const
{
    const auto& sceneGroups = m_document->scene().groups;
    groups->clear();
    *kind = -1;
    bool mixed = false;
    for (int g : m_selection->groups()) {
        if (g < 0 || g >= static_cast<int>(sceneGroups.size()))
            continue;
        const int k = static_cast<int>(sceneGroups[static_cast<std::size_t>(g)].kind);
        if (*kind >= 0 && k != *kind)
            mixed = true;
        *kind = k;
        groups->append(g);
    }
    return !groups->isEmpty() && !mixed;
}

void PropertyPanel::onSelectionChanged()
{
    rebuildGroupRows();
}

void PropertyPanel::onDocumentChanged(const Change& change)
{
    if (change.kind == ChangeKind::SceneReset || change.kind == ChangeKind::Groups) {
        QList<int> groups;
        int kind = -1;
        const bool one = selectedFamily(&groups, &kind);
        if ((one ? kind : -1) != m_rowsKind) {
            rebuildGroupRows();
            return;
        }
    }
    refreshGroupSection();
    refreshSceneSection();
}

void PropertyPanel::rebuildGroupRows()
{
    QList<int> groups;
    int kind = -1;
    const bool one = selectedFamily(&groups, &kind);
    const int rowsKind = one ? kind : -1;
    if (rowsKind != m_rowsKind) {
        qDeleteAll(m_groupRows);
        m_groupRows.clear();
        m_rowsKind = rowsKind;
        if (one) {
            const auto& specs = paramSpecs(static_cast<BehaviourKind>(kind));
            for (std::size_t i = 0; i < specs.size(); ++i) {
                auto* row = new ParamRow(specs[i], m_rowsWidget);
                const int index = static_cast<int>(i);
                connect(row, &ParamRow::edited, this,
                        [this, row, index](double value, bool commit) {
                            editGroupParam(row, index, value, commit);
                        });
                m_rowsLayout->addWidget(row);
                m_groupRows.append(row);
            }
        }
        m_chainRow = nullptr;
    }
    clearGroupErrors();
    alignColumns();
    refreshGroupSection();
}

void PropertyPanel::refreshGroupSection()
{
    const SceneDesc& scene = m_document->scene();
    QList<int> groups;
    int kind = -1;
    const bool one = selectedFamily(&groups, &kind);
    m_editGroups = one ? groups : QList<int>();
    // Collision is the same for every family: it is shown for any selection.
    for (QWidget* widget : {static_cast<QWidget*>(m_collisionTitle), m_collisionRule,
                            static_cast<QWidget*>(m_collision)})
        widget->setVisible(!groups.isEmpty());
    if (!groups.isEmpty())
        m_collision->setGroups(groups);

    if (groups.isEmpty()) {
        m_header->hide();
        m_groupSectionTitle->setText(tr("Group"));
        m_message->setText(scene.groups.empty()
                               ? tr("This level has no groups yet. Add one in the group list or "
                                    "draw a spawn area.")
                               : tr("No group selected. Select a group in the group list or "
                                    "click its spawn area."));
        m_message->show();
        m_rowsWidget->hide();
        m_presetBar->hide();
        return;
    }

    m_header->show();
    const GroupDesc& first = scene.groups[static_cast<std::size_t>(groups.first())];
    m_swatch->setPixmap(selectionSwatch(scene, groups, m_swatch->width()));
    QStringList families;
    for (int g : groups) {
        const QString family =
            qs(std::string(behaviourLabel(scene.groups[static_cast<std::size_t>(g)].kind)));
        if (!families.contains(family))
            families.append(family);
    }
    m_title->setText(groups.size() == 1 ? qs(first.name)
                                        : tr("%n groups", nullptr, int(groups.size())));
    refreshHeaderCount();

    if (!one) {
        m_groupSectionTitle->setText(tr("Parameters"));
        m_message->setText(tr("The selected groups are of different families (%1). Select "
                              "groups of one family to edit their parameters together.")
                               .arg(families.join(QStringLiteral(", "))));
        m_message->show();
        m_rowsWidget->hide();
        m_presetBar->hide();
        return;
    }
    m_groupSectionTitle->setText(
        tr("%1 parameters").arg(qs(std::string(behaviourLabel(first.kind)))));
    m_message->hide();
    m_rowsWidget->show();
    m_presetBar->setGroups(groups, first.kind);
    m_presetBar->show();
    for (int i = 0; i < m_groupRows.size(); ++i) {
        const auto p = static_cast<std::size_t>(i);
        const double value = first.params[p];
        bool mixed = false;
        bool changed = false;
        for (int g : groups) {
            const double own = scene.groups[static_cast<std::size_t>(g)].params[p];
            mixed = mixed || own != value;
            changed = changed || own != m_groupRows[i]->spec().defaultValue;
        }
        m_groupRows[i]->setValue(value, mixed);
        markChanged(m_groupRows[i], changed);
    }
}

void PropertyPanel::refreshHeaderCount()
{
    const SceneDesc& scene = m_document->scene();
    QList<int> groups;
    int kind = -1;
    selectedFamily(&groups, &kind);
    if (groups.isEmpty())
        return;
    int agents = 0;
    QStringList names;
    QStringList families;
    for (int g : groups) {
        const GroupDesc& group = scene.groups[static_cast<std::size_t>(g)];
        agents += groupAgentCount(scene, g, m_controller->runningGroup(g));
        names.append(qs(group.name));
        const QString family = qs(std::string(behaviourLabel(group.kind)));
        if (!families.contains(family))
            families.append(family);
    }
    const QString agentText = agents == 1 ? tr("1 agent") : tr("%1 agents").arg(agents);
    if (groups.size() == 1)
        m_subtitle->setText(QStringLiteral("%1 \u00b7 %2").arg(families.first(), agentText));
    else
        m_subtitle->setText(QStringLiteral("%1 \u00b7 %2 \u00b7 %3")
                                .arg(families.join(QStringLiteral(", ")), agentText,
                                     names.join(QStringLiteral(", "))));
}

void PropertyPanel::refreshSceneSection()
{
    const SceneDesc& scene = m_document->scene();
    m_timeStepRow->setValue(scene.simulation.dt);
    if (!m_seedEdit->hasFocus() || !m_seedEdit->isModified()) {
        const QSignalBlocker blocker(m_seedEdit);
        m_seedEdit->setText(QString::number(scene.simulation.seed));
    }
    m_speedRow->setValue(m_controller->speed());
    const bool hasParams = scene.player.params.size() == playerParamSpecs().size();
    m_playerNote->setVisible(!scene.player.enabled);
    refreshLeads();
    m_headingRow->setEnabled(scene.player.enabled);
    // A file may say 270; the row shows the same direction as -90.
    m_headingRow->setValue(std::remainder(scene.player.heading, 360.0));
    for (int i = 0; i < m_playerRows.size(); ++i) {
        m_playerRows[i]->setEnabled(scene.player.enabled && hasParams);
        if (hasParams)
            m_playerRows[i]->setValue(scene.player.params[static_cast<std::size_t>(i)]);
    }
}

void PropertyPanel::refreshLeads()
{
    const SceneDesc& scene = m_document->scene();
    const PlayerDesc& player = scene.player;
    std::vector<LeadChoice> choices;
    for (const GroupDesc& group : scene.groups)
        if (playerCanLead(group.kind))
            choices.push_back({group.name, group.color, group.accent, true});
    const bool listed =
        std::any_of(choices.begin(), choices.end(),
                    [&player](const LeadChoice& choice) { return choice.name == player.group; });
    // A scene that names a group the player cannot lead (it says so on the status bar) shows
    // that name rather than pretending the player leads none.
    if (!player.group.empty() && !listed)
        choices.push_back({player.group, {}, {}, false});

    const QSignalBlocker blocker(m_leadsCombo);
    if (choices != m_leadsListed || m_leadsCombo->count() == 0) {
        m_leadsCombo->clear();
        // A blank swatch, so "None" lines up with the groups' names.
        QPixmap blank(14, 14);
        blank.fill(Qt::transparent);
        m_leadsCombo->addItem(QIcon(blank), tr("None"), QString());
        m_leadsCombo->setItemData(0, tr("The player swims alone"), Qt::ToolTipRole);
        for (const LeadChoice& choice : choices) {
            const int at = m_leadsCombo->count();
            if (!choice.usable) {
                m_leadsCombo->addItem(tr("%1 (cannot be led)").arg(qs(choice.name)),
                                      qs(choice.name));
                continue;
            }
            const GroupDesc& group =
                scene.groups[static_cast<std::size_t>(scene.groupIndex(choice.name))];
            m_leadsCombo->addItem(QIcon(groupSwatchPixmap(choice.color, choice.accent, 14)),
                                  qs(choice.name), qs(choice.name));
            m_leadsCombo->setItemData(at, qs(std::string(behaviourLabel(group.kind))),
                                      Qt::ToolTipRole);
        }
        m_leadsListed = choices;
    }
    m_leadsCombo->setCurrentIndex(std::max(0, m_leadsCombo->findData(qs(player.group))));
    m_leadsCombo->setEnabled(player.enabled);
    m_leadsLabel->setEnabled(player.enabled);
}

void PropertyPanel::chooseLead(int index)
{
    const std::string name = m_leadsCombo->itemData(index).toString().toStdString();
    const int group = m_document->scene().groupIndex(name);
    if (!name.empty() &&
        (group < 0 || !playerCanLead(m_document->scene().groups[std::size_t(group)].kind))) {
        refreshLeads(); // the "cannot be led" entry: nothing to choose
        return;
    }
    if (QUndoCommand* command = makeLeadGroupCommand(m_document, name))
        m_document->undoStack()->push(command);
}

void PropertyPanel::alignColumns()
{
    QList<ParamRow*> rows = m_groupRows;
    rows << m_timeStepRow << m_speedRow << m_headingRow << m_playerRows;
    int labelWidth = m_seedLabel->fontMetrics().horizontalAdvance(m_seedLabel->text()) + 4;
    int unitWidth = 0;
    for (ParamRow* row : rows) {
        labelWidth = std::max(labelWidth, row->labelWidthHint());
        unitWidth = std::max(unitWidth, row->unitWidthHint());
    }
    // Every family's rows, not only the shown ones: the columns, and so the dock, keep their
    // width when another family is selected.
    for (BehaviourKind kind : kAllBehaviourKinds)
        for (const ParamSpec& spec : paramSpecs(kind)) {
            labelWidth = std::max(labelWidth, ParamRow::labelWidthFor(spec, font()));
            unitWidth = std::max(unitWidth, ParamRow::unitWidthFor(spec, font()));
        }
    labelWidth = std::max(labelWidth,
                          m_leadsLabel->fontMetrics().horizontalAdvance(m_leadsLabel->text()) + 4);
    labelWidth = std::max(labelWidth, m_collision->labelWidthHint());
    for (ParamRow* row : rows)
        row->setColumnWidths(labelWidth, unitWidth);
    m_collision->setColumnWidths(labelWidth, unitWidth);
    m_seedLabel->setFixedWidth(labelWidth);
    m_leadsLabel->setFixedWidth(labelWidth);
    m_leadsUnitSpace->setFixedWidth(unitWidth);
    m_leadsResetSpace->setFixedWidth(m_timeStepRow->resetButton()->sizeHint().width());
    m_newSeedButton->setFixedWidth(m_timeStepRow->resetButton()->sizeHint().width());
    // A dock narrower than the rows would clip them (there is no horizontal scroll bar).
    const QMargins margins = m_rowsWidget->parentWidget()->layout()->contentsMargins();
    setMinimumWidth(m_speedRow->minimumSizeHint().width() + margins.left() + margins.right() +
                    style()->pixelMetric(QStyle::PM_ScrollBarExtent));
}

void PropertyPanel::markChanged(ParamRow* row, bool changed)
{
    // A parameter away from its default reads in bold, as in Qt Designer's property editor,
    // so "what did I change here?" is answered by looking (the preset bar lists them).
    QFont font = row->label()->font();
    if (font.bold() != changed) {
        font.setBold(changed);
        row->label()->setFont(font);
    }
}

void PropertyPanel::clearGroupErrors()
{
    for (ParamRow* row : m_groupRows)
        row->setError(QString());
}

bool PropertyPanel::chainOpen(const ParamRow* row) const
{
    return m_chainRow == row && m_chainIndex == m_document->undoStack()->index();
}

void PropertyPanel::pushLive(QUndoCommand* command, ParamRow* row, bool commit)
{
    QUndoStack* stack = m_document->undoStack();
    const int before = stack->index();
    stack->push(command);
    const int after = stack->index();
    // A merge that returned to the original value removes the chain's command.
    if (commit || after < before) {
        m_chainRow = nullptr;
        return;
    }
    m_chainRow = row;
    m_chainIndex = after;
}

void PropertyPanel::editGroupParam(ParamRow* row, int paramIndex, double value, bool commit)
{
    if (m_editGroups.isEmpty())
        return;
    const SceneDesc& scene = m_document->scene();
    const auto p = static_cast<std::size_t>(paramIndex);
    const GroupDesc& first = scene.groups[static_cast<std::size_t>(m_editGroups.first())];

    QString refusal;
    bool unchanged = true;
    for (int g : m_editGroups) {
        const GroupDesc& group = scene.groups[static_cast<std::size_t>(g)];
        unchanged = unchanged && group.params[p] == value;
        if (auto error = checkParamEdit(group.kind, group.params, paramIndex, value)) {
            const QString message = withLabels(error->message, paramSpecs(group.kind));
            refusal = m_editGroups.size() == 1
                          ? message
                          : QStringLiteral("%1: %2").arg(qs(group.name), message);
            break;
        }
    }
    if (!refusal.isEmpty()) {
        // Nothing changes: the row goes back to the document's value and says why.
        row->setError(refusal);
        if (commit && chainOpen(row))
            pushLive(new SetGroupParamCommand(m_document, m_editGroups, paramIndex, first.params[p],
                                              true),
                     row, true);
        refreshGroupSection();
        return;
    }
    if (unchanged) {
        // Nothing to change (a reset at the default, the end of a drag that was refused on
        // the way): only close the drag's chain, and keep any message up.
        if (chainOpen(row))
            pushLive(new SetGroupParamCommand(m_document, m_editGroups, paramIndex, value, commit),
                     row, commit);
        refreshGroupSection();
        return;
    }
    clearGroupErrors();
    pushLive(new SetGroupParamCommand(m_document, m_editGroups, paramIndex, value, commit), row,
             commit);
}

void PropertyPanel::editPlayerParam(ParamRow* row, int paramIndex, double value, bool commit)
{
    const PlayerDesc& player = m_document->scene().player;
    const auto p = static_cast<std::size_t>(paramIndex);
    if (p >= player.params.size())
        return;
    if (auto error = checkPlayerParamEdit(paramIndex, value)) {
        row->setError(withLabels(error->message, playerParamSpecs()));
        row->setValue(player.params[p]);
        return;
    }
    row->setError(QString());
    if (player.params[p] == value && !chainOpen(row))
        return;
    auto* command = new SetPlayerParamCommand(m_document, paramIndex, value, commit);
    command->setText(tr("Change %1 of Player").arg(qs(playerParamSpecs()[p].label)));
    pushLive(command, row, commit);
}

void PropertyPanel::editPlayerHeading(double value, bool commit)
{
    // A new heading restarts the world, so only the end of a drag is applied.
    if (!commit)
        return;
    PlayerDesc player = m_document->scene().player;
    if (std::remainder(player.heading - value, 360.0) == 0.0)
        return;
    player.heading = value;
    auto* command = new SetPlayerCommand(m_document, 0, player, true);
    command->setText(tr("Change Heading of Player"));
    m_document->undoStack()->push(command);
}

void PropertyPanel::editTimeStep(double value, bool commit)
{
    // A new step restarts the world, so only the end of a drag is applied.
    if (!commit)
        return;
    SimulationDesc simulation = m_document->scene().simulation;
    if (simulation.dt == value)
        return;
    simulation.dt = value;
    auto* command = new SetSimulationCommand(m_document, 0, simulation, true);
    command->setText(tr("Change Time Step"));
    m_document->undoStack()->push(command);
}

void PropertyPanel::applySeed()
{
    bool ok = false;
    const quint64 seed = m_seedEdit->text().toULongLong(&ok);
    SimulationDesc simulation = m_document->scene().simulation;
    if (!ok || seed == simulation.seed) {
        const QSignalBlocker blocker(m_seedEdit);
        m_seedEdit->setText(QString::number(simulation.seed));
        return;
    }
    simulation.seed = seed;
    auto* command = new SetSimulationCommand(m_document, 0, simulation, true);
    command->setText(tr("Change Seed"));
    m_document->undoStack()->push(command);
}

void PropertyPanel::newSeed()
{
    SimulationDesc simulation = m_document->scene().simulation;
    // Seeds people can read and type back: up to nine digits.
    simulation.seed = QRandomGenerator::global()->bounded(1u, 1000000000u);
    auto* command = new SetSimulationCommand(m_document, 0, simulation, true);
    command->setText(tr("New Seed"));
    m_document->undoStack()->push(command);
}

} // namespace shoal::ui
