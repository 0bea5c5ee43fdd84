#include "problems/problemsdock.h"

#include "document/document.h"
#include "document/qtstrings.h"
#include "problems/problemkinds.h"
#include "problems/problemmarkers.h"
#include "simulation/simulationcontroller.h"
#include "viewport/editorscene.h"

#include <shoal/world.h>

#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QSettings>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QWidgetAction>

#include <map>

namespace shoal::ui {

namespace {

enum Column
{
    KindColumn,
    GroupColumn,
    AgentColumn,
    SinceColumn,
    DetailColumn,
};

/// Item data: the problem's index in problems().
constexpr int kIndexRole = Qt::UserRole;

QIcon kindIcon(ProblemKind kind)
{
    QPixmap pixmap(12, 12);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QPen(problemKindColor(kind), 2.0));
    painter.setBrush(problemKindColor(kind).darker(180));
    painter.drawEllipse(QRectF(1.5, 1.5, 9, 9));
    return QIcon(pixmap);
}

/// A row that sorts its numbers as numbers (agent #9 before #10, 9.5 s before 10 s).
class ProblemItem : public QTreeWidgetItem
{
public:
    ProblemItem(int agent, double since, double value)
        : m_agent(agent), m_since(since), m_value(value)
    {
    }
    bool operator<(const QTreeWidgetItem& other) const override
    {
        const auto& o = static_cast<const ProblemItem&>(other);
        switch (treeWidget() ? treeWidget()->sortColumn() : KindColumn) {
        case AgentColumn:
            return m_agent < o.m_agent;
        case SinceColumn:
            return m_since < o.m_since;
        case DetailColumn:
            return m_value < o.m_value;
        default:
            return QTreeWidgetItem::operator<(other);
        }
    }

private:
    int m_agent;
    double m_since;
    double m_value;
};

/// One threshold as the menu edits it.
struct ThresholdField
{
    const char* key; ///< QSettings key under "problems/"
    const char* label;
    const char* unit;
    double min, max, step;
    int decimals;
    float ProblemThresholds::*member;
    double scale; ///< shown value = member * scale (depths in cm)
};

const std::vector<ThresholdField>& thresholdFields()
{
    static const std::vector<ThresholdField> fields = {
        {"stuckSeconds", QT_TRANSLATE_NOOP("Problems", "Stuck after"), "s", 0.5, 60.0, 0.5, 1,
         &ProblemThresholds::stuckSeconds, 1.0},
        {"reversalsPerSecond", QT_TRANSLATE_NOOP("Problems", "Oscillating at"), "reversals/s", 2.0,
         30.0, 1.0, 0, &ProblemThresholds::reversalsPerSecond, 1.0},
        {"overlapDepth", QT_TRANSLATE_NOOP("Problems", "Body overlap over"), "cm", 0.0, 100.0, 1.0,
         0, &ProblemThresholds::overlapDepth, 100.0},
        {"wallDepth", QT_TRANSLATE_NOOP("Problems", "Wall overlap over"), "cm", 0.0, 100.0, 1.0, 0,
         &ProblemThresholds::wallDepth, 100.0},
        {"goalSeconds", QT_TRANSLATE_NOOP("Problems", "No progress after"), "s", 2.0, 600.0, 1.0, 0,
         &ProblemThresholds::goalSeconds, 1.0},
    };
    return fields;
}

} // namespace

ProblemsDock::ProblemsDock(SimulationController* simulation, EditorScene* scene, QWidget* parent)
    : QWidget(parent), m_simulation(simulation), m_scene(scene)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->setSpacing(4);
    auto* bar = new QHBoxLayout;
    m_summary = new QLabel(this);
    // The summary grows with the problems: it must never widen the dock and squeeze the
    // others (it elides instead; the full text is its tooltip).
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_summary->setMinimumWidth(60);
    bar->addWidget(m_summary, 1);
    m_kindFilter = new QComboBox(this);
    m_kindFilter->addItem(tr("All kinds"), -1);
    for (ProblemKind kind : {ProblemKind::Stuck, ProblemKind::Oscillating, ProblemKind::Overlap,
                             ProblemKind::InWall, ProblemKind::GoalNotReached}) {
        m_kindIcons[kind] = kindIcon(kind);
        m_kindFilter->addItem(m_kindIcons[kind], problemKindName(kind), int(kind));
    }
    m_kindFilter->setToolTip(tr("List only one kind of problem (the view marks every kind)"));
    connect(m_kindFilter, &QComboBox::currentIndexChanged, this, &ProblemsDock::fillList);
    bar->addWidget(m_kindFilter);
    m_markersButton = new QToolButton(this);
    m_markersButton->setText(tr("Mark in view"));
    m_markersButton->setCheckable(true);
    m_markersButton->setChecked(true);
    m_markersButton->setToolTip(tr("Ring each agent with a problem in the view"));
    bar->addWidget(m_markersButton);
    m_thresholdsButton = new QToolButton(this);
    m_thresholdsButton->setText(tr("Thresholds"));
    m_thresholdsButton->setPopupMode(QToolButton::InstantPopup);
    m_thresholdsMenu = new QMenu(m_thresholdsButton);
    m_thresholdsButton->setMenu(m_thresholdsMenu);
    bar->addWidget(m_thresholdsButton);
    layout->addLayout(bar);

    m_list = new QTreeWidget(this);
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setHeaderLabels({tr("Problem"), tr("Group"), tr("Agent"), tr("Since"), tr("Measured")});
    m_list->header()->setStretchLastSection(true);
    m_list->setColumnWidth(KindColumn, 110);
    m_list->setColumnWidth(GroupColumn, 90);
    m_list->setColumnWidth(AgentColumn, 50);
    m_list->setColumnWidth(SinceColumn, 70);
    m_list->setToolTip(tr("Click a problem to select its group and bring the view to it"));
    m_list->setMinimumWidth(160);
    m_list->setSortingEnabled(true);
    m_list->sortByColumn(GroupColumn, Qt::AscendingOrder);
    layout->addWidget(m_list, 1);
    connect(m_list, &QTreeWidget::itemClicked, this,
            [this](QTreeWidgetItem* item) { activate(item); });
    connect(m_list, &QTreeWidget::itemActivated, this,
            [this](QTreeWidgetItem* item) { activate(item); });

    m_markers = new ProblemMarkersItem;
    m_markers->setVisible(false);
    m_scene->addItem(m_markers);
    connect(m_markersButton, &QToolButton::toggled, this,
            [this](bool on) { m_markers->setVisible(on && isVisible()); });

    QSettings settings;
    ProblemThresholds thresholds;
    for (const ThresholdField& field : thresholdFields())
        thresholds.*field.member =
            settings
                .value(QStringLiteral("problems/") + QLatin1String(field.key),
                       thresholds.*field.member)
                .toFloat();
    m_simulation->problemWatch().setThresholds(thresholds);
    buildThresholdsMenu();

    connect(m_simulation, &SimulationController::stepped, this, &ProblemsDock::onStepped);
    connect(m_simulation, &SimulationController::worldRebuilt, this, &ProblemsDock::refresh);
    refresh();
}

ProblemsDock::~ProblemsDock()
{
    // The markers belong to the scene: gone with it when the scene went first, else they
    // leave it with the dock.
    if (m_scene)
        delete m_markers;
}

ProblemThresholds ProblemsDock::thresholds() const
{
    return m_simulation->problemWatch().thresholds();
}

void ProblemsDock::setThresholds(const ProblemThresholds& thresholds)
{
    m_simulation->problemWatch().setThresholds(thresholds);
    QSettings settings;
    for (const ThresholdField& field : thresholdFields())
        settings.setValue(QStringLiteral("problems/") + QLatin1String(field.key),
                          double(thresholds.*field.member));
    refresh();
}

void ProblemsDock::buildThresholdsMenu()
{
    auto* panel = new QWidget(m_thresholdsMenu);
    auto* form = new QFormLayout(panel);
    form->setContentsMargins(10, 8, 10, 8);
    for (const ThresholdField& field : thresholdFields()) {
        auto* spin = new QDoubleSpinBox(panel);
        spin->setRange(field.min, field.max);
        spin->setSingleStep(field.step);
        spin->setDecimals(field.decimals);
        spin->setSuffix(QStringLiteral(" ") + QLatin1String(field.unit));
        spin->setValue(double(thresholds().*field.member) * field.scale);
        spin->setObjectName(QLatin1String(field.key));
        const ThresholdField* f = &field;
        connect(spin, &QDoubleSpinBox::valueChanged, this, [this, f](double value) {
            ProblemThresholds t = thresholds();
            t.*f->member = float(value / f->scale);
            setThresholds(t);
        });
        form->addRow(QCoreApplication::translate("Problems", field.label), spin);
    }
    auto* action = new QWidgetAction(m_thresholdsMenu);
    action->setDefaultWidget(panel);
    m_thresholdsMenu->addAction(action);
}

void ProblemsDock::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    m_simulation->setProblemsWanted(true);
    m_markers->setVisible(m_markersButton->isChecked());
    refresh();
}

void ProblemsDock::hideEvent(QHideEvent* event)
{
    QWidget::hideEvent(event);
    m_simulation->setProblemsWanted(false);
    m_markers->setVisible(false);
}

void ProblemsDock::onStepped()
{
    // Hidden, nothing is watched and nothing is shown: showEvent refreshes on the way back.
    if (!isVisible())
        return;
    // Paused, every step shows; playing, five times a second is plenty to read.
    if (m_simulation->isPlaying() && m_sinceRefresh.isValid() &&
        m_sinceRefresh.elapsed() < kRefreshMs)
        return;
    refresh();
}

void ProblemsDock::refresh()
{
    m_sinceRefresh.restart();
    const World* world = m_simulation->world();
    m_problems = world ? m_simulation->problems() : std::vector<Problem>{};
    std::vector<float> radii;
    if (world)
        for (int g = 0; g < world->groupCount(); ++g)
            radii.push_back(world->bodyRadius(g));
    m_markers->setProblems(m_problems, radii);
    fillList();
}

void ProblemsDock::fillList()
{
    // Keep the row the user picked, by what it is (the list is rebuilt).
    struct Key
    {
        int kind = -1, group = -1, agent = -1;
    } picked;
    if (QTreeWidgetItem* current = m_list->currentItem()) {
        picked.kind = current->data(KindColumn, kIndexRole + 1).toInt();
        picked.group = current->data(KindColumn, kIndexRole + 2).toInt();
        picked.agent = current->data(KindColumn, kIndexRole + 3).toInt();
    }
    const World* world = m_simulation->world();
    const auto& groups = m_scene->document()->scene().groups;
    const int only = m_kindFilter->currentData().toInt();
    m_list->setUpdatesEnabled(false);
    m_list->setSortingEnabled(false); // re-sorted once, after the rows are in
    m_list->clear();
    std::map<ProblemKind, int> counts;
    QTreeWidgetItem* again = nullptr;
    QList<QTreeWidgetItem*> rows; // added in one go: one by one, each insertion is announced
    rows.reserve(int(m_problems.size()));
    for (std::size_t i = 0; i < m_problems.size(); ++i) {
        const Problem& p = m_problems[i];
        ++counts[p.kind];
        if (only >= 0 && int(p.kind) != only)
            continue;
        auto* item = new ProblemItem(p.agent, p.since, double(p.value));
        item->setIcon(KindColumn, m_kindIcons[p.kind]);
        item->setText(KindColumn, problemKindName(p.kind));
        item->setText(GroupColumn, std::size_t(p.group) < groups.size()
                                       ? qs(groups[std::size_t(p.group)].name)
                                       : QString::number(p.group));
        item->setText(AgentColumn, p.agent < 0 ? tr("all") : QStringLiteral("#%1").arg(p.agent));
        item->setText(SinceColumn, tr("%1 s").arg(p.since, 0, 'f', 1));
        item->setToolTip(SinceColumn, tr("Since %1 s of simulated time (%2 s ago)")
                                          .arg(p.since, 0, 'f', 1)
                                          .arg((world ? world->time() : 0.0) - p.since, 0, 'f', 1));
        item->setText(DetailColumn, problemDetail(p));
        item->setData(KindColumn, kIndexRole, int(i));
        item->setData(KindColumn, kIndexRole + 1, int(p.kind));
        item->setData(KindColumn, kIndexRole + 2, p.group);
        item->setData(KindColumn, kIndexRole + 3, p.agent);
        rows.append(item);
        if (int(p.kind) == picked.kind && p.group == picked.group && p.agent == picked.agent)
            again = item;
    }
    m_list->addTopLevelItems(rows);
    m_list->setSortingEnabled(true);
    if (again)
        m_list->setCurrentItem(again);
    m_list->setUpdatesEnabled(true);

    if (!world) {
        m_summary->setText(tr("Problems show while the world runs."));
        return;
    }
    if (m_problems.empty()) {
        m_summary->setText(tr("No problems at %1 s.").arg(world->time(), 0, 'f', 1));
        return;
    }
    QStringList parts;
    for (const auto& [kind, count] : counts)
        parts.append(QStringLiteral("%1 %2").arg(count).arg(problemKindName(kind).toLower()));
    m_summary->setText(tr("%n problem(s): %1", nullptr, int(m_problems.size()))
                           .arg(parts.join(QStringLiteral(", "))));
    m_summary->setToolTip(m_summary->text());
}

void ProblemsDock::activate(QTreeWidgetItem* item)
{
    const int index = item ? item->data(KindColumn, kIndexRole).toInt() : -1;
    if (index < 0 || std::size_t(index) >= m_problems.size())
        return;
    const Problem& p = m_problems[std::size_t(index)];
    emit focusRequested(p.group, p.agent, QPointF(p.at.x, p.at.y));
}

} // namespace shoal::ui
