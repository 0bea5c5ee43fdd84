#include "compare/comparedock.h"

#include "document/commands.h"
#include "document/document.h"
#include "document/qtstrings.h"
#include "panels/groupchoice.h"
#include "panels/paramrow.h"

#include <shoal/paramspec.h>
#include <shoal/world.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <QUndoCommand>
#include <QVBoxLayout>

namespace shoal::ui {

namespace {

/// The metrics set side by side: what tells two settings of a group apart at a glance.
struct ComparedMetric
{
    const char* title;
    float (*read)(const GroupMetrics&);
    int decimals;
};
const ComparedMetric kCompared[] = {
    {QT_TRANSLATE_NOOP("CompareDock", "spacing (m)"),
     [](const GroupMetrics& m) { return m.nearestMedian; }, 2},
    {QT_TRANSLATE_NOOP("CompareDock", "speed (m/s)"),
     [](const GroupMetrics& m) { return m.meanSpeed; }, 2},
    {QT_TRANSLATE_NOOP("CompareDock", "order"),
     [](const GroupMetrics& m) { return m.polarization; }, 2},
    {QT_TRANSLATE_NOOP("CompareDock", "at goal"),
     [](const GroupMetrics& m) { return static_cast<float>(m.atGoal); }, 0},
    {QT_TRANSLATE_NOOP("CompareDock", "overlaps"),
     [](const GroupMetrics& m) { return static_cast<float>(m.penetrations + m.crossPenetrations); },
     0},
};

/// The decimals the property panel shows a parameter with (ParamRow's rule).
int decimalsOf(const ParamSpec& spec)
{
    return std::max(decimalsFor(spec.step), decimalsFor(spec.minValue));
}

} // namespace

CompareDock::CompareDock(Document* document, SimulationController* simulation, QWidget* parent)
    : QWidget(parent), m_document(document), m_simulation(simulation)
{
    m_group = new QComboBox(this);
    m_group->setToolTip(tr("The group whose parameters B sets"));
    m_params = new QTableWidget(0, 3, this);
    m_params->setHorizontalHeaderLabels({tr("Parameter"), tr("A (the level)"), tr("B")});
    m_params->verticalHeader()->hide();
    m_params->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_params->setSelectionMode(QAbstractItemView::NoSelection);
    m_metrics = new QTableWidget(0, 1, this);
    m_metrics->verticalHeader()->hide();
    m_metrics->setSelectionMode(QAbstractItemView::NoSelection);
    m_metrics->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_run = new QPushButton(tr("Run B from Here"), this);
    m_run->setToolTip(tr("B starts as the world is now, with B's values, and runs beside it"));
    m_stop = new QPushButton(tr("Stop"), this);
    m_adopt = new QPushButton(tr("Adopt B"), this);
    m_adopt->setToolTip(tr("The level takes B's values (one undo step); A runs with them from "
                           "now on and B stops"));
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Group"), this));
    top->addWidget(m_group, 1);
    top->addWidget(m_run);
    top->addWidget(m_stop);
    top->addWidget(m_adopt);
    auto* tables = new QHBoxLayout;
    tables->addWidget(m_params, 3);
    tables->addWidget(m_metrics, 4);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_summary);
    layout->addLayout(tables, 1);

    connect(m_group, &QComboBox::currentIndexChanged, this, &CompareDock::fillParams);
    connect(m_run, &QPushButton::clicked, this, &CompareDock::runB);
    connect(m_stop, &QPushButton::clicked, m_simulation, &SimulationController::stopCompare);
    connect(m_adopt, &QPushButton::clicked, this, &CompareDock::adoptB);
    connect(m_document, &Document::changed, this, &CompareDock::onDocumentChanged);
    connect(m_simulation, &SimulationController::compareChanged, this, [this] {
        refreshState();
        refreshMetrics();
    });
    connect(m_simulation, &SimulationController::worldRebuilt, this, [this] {
        refreshState();
        refreshMetrics();
    });
    // The figures follow the world, at most every kRefreshMs while it plays.
    m_sinceRefresh.start();
    connect(m_simulation, &SimulationController::stepped, this, [this] {
        if (isVisible() && (!m_simulation->isPlaying() || m_sinceRefresh.elapsed() >= kRefreshMs))
            refreshMetrics();
    });
    onDocumentChanged(Change{ChangeKind::SceneReset});
    refreshMetrics();
}

double CompareDock::valueB(int group, int param) const
{
    const auto it = m_b.find({group, param});
    if (it != m_b.end())
        return it->second;
    const auto& groups = m_document->scene().groups;
    if (group < 0 || static_cast<std::size_t>(group) >= groups.size())
        return 0.0;
    const ParamValues& values = groups[static_cast<std::size_t>(group)].params;
    return param >= 0 && static_cast<std::size_t>(param) < values.size()
               ? values[static_cast<std::size_t>(param)]
               : 0.0;
}

void CompareDock::setValueB(int group, int param, double value)
{
    m_b[{group, param}] = value;
    if (m_simulation->isComparing()) {
        if (auto error = m_simulation->setCompareParam(group, param, value))
            m_summary->setText(tr("B refused it: %1").arg(qs(error->message)));
        else
            refreshState();
    } else {
        refreshState();
    }
    if (group == m_group->currentIndex())
        for (int row = 0; row < m_params->rowCount(); ++row)
            if (row == param)
                if (auto* box = qobject_cast<QDoubleSpinBox*>(m_params->cellWidget(row, 2))) {
                    const QSignalBlocker blocker(box);
                    box->setValue(value);
                }
}

std::vector<SimulationController::CompareParam> CompareDock::differences() const
{
    std::vector<SimulationController::CompareParam> out;
    const auto& groups = m_document->scene().groups;
    for (const auto& [key, value] : m_b) {
        const auto [group, param] = key;
        if (group < 0 || static_cast<std::size_t>(group) >= groups.size())
            continue;
        const ParamValues& values = groups[static_cast<std::size_t>(group)].params;
        if (param >= 0 && static_cast<std::size_t>(param) < values.size() &&
            values[static_cast<std::size_t>(param)] != value)
            out.push_back({group, param, value});
    }
    return out;
}

void CompareDock::runB()
{
    if (auto error = m_simulation->startCompare(differences())) {
        m_summary->setText(tr("B cannot run: %1").arg(qs(error->message)));
        return;
    }
    m_startedAt = m_simulation->world() ? m_simulation->world()->time() : 0.0;
    refreshState();
    refreshMetrics();
}

void CompareDock::adoptB()
{
    const std::vector<SimulationController::CompareParam> changes = differences();
    if (changes.empty())
        return;
    auto* adopt =
        new QUndoCommand(tr("Adopt B (%n parameters)", nullptr, static_cast<int>(changes.size())));
    for (const SimulationController::CompareParam& change : changes)
        new SetGroupParamCommand(m_document, change.group, change.param, change.value, true, adopt);
    m_simulation->stopCompare();
    m_document->undoStack()->push(adopt);
    m_b.clear();
    fillParams();
}

void CompareDock::fillParams()
{
    const int group = m_group->currentIndex();
    const auto& groups = m_document->scene().groups;
    m_params->setRowCount(0);
    if (group < 0 || static_cast<std::size_t>(group) >= groups.size())
        return;
    const GroupDesc& desc = groups[static_cast<std::size_t>(group)];
    const std::vector<ParamSpec>& specs = paramSpecs(desc.kind);
    m_params->setRowCount(static_cast<int>(specs.size()));
    for (std::size_t p = 0; p < specs.size() && p < desc.params.size(); ++p) {
        const ParamSpec& spec = specs[p];
        const int row = static_cast<int>(p);
        const QString unit =
            spec.unit.empty() ? QString() : QStringLiteral(" (%1)").arg(qs(spec.unit));
        auto* name = new QTableWidgetItem(qs(spec.label) + unit);
        name->setToolTip(qs(spec.tooltip));
        name->setFlags(Qt::ItemIsEnabled);
        m_params->setItem(row, 0, name);
        auto* a = new QTableWidgetItem(QLocale().toString(desc.params[p], 'f', decimalsOf(spec)));
        a->setFlags(Qt::ItemIsEnabled);
        a->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_params->setItem(row, 1, a);
        auto* b = new QDoubleSpinBox(m_params);
        b->setRange(spec.minValue, spec.maxValue);
        b->setSingleStep(spec.step);
        b->setDecimals(decimalsOf(spec));
        b->setValue(valueB(group, row));
        b->setFrame(false);
        b->setAccessibleName(tr("B's %1").arg(qs(spec.label)));
        connect(b, &QDoubleSpinBox::valueChanged, this,
                [this, group, row](double value) { setValueB(group, row, value); });
        m_params->setCellWidget(row, 2, b);
    }
    m_params->resizeColumnToContents(1);
    m_params->resizeColumnToContents(2);
}

void CompareDock::refreshState()
{
    const bool comparing = m_simulation->isComparing();
    const std::size_t differing = differences().size();
    m_run->setEnabled(m_simulation->world() != nullptr);
    m_run->setText(comparing ? tr("Run B Again from Here") : tr("Run B from Here"));
    m_stop->setEnabled(comparing);
    m_adopt->setEnabled(differing > 0);
    QStringList changes;
    const auto& groups = m_document->scene().groups;
    for (const SimulationController::CompareParam& change : differences()) {
        const GroupDesc& desc = groups[static_cast<std::size_t>(change.group)];
        const ParamSpec& spec = paramSpecs(desc.kind)[static_cast<std::size_t>(change.param)];
        changes << tr("%1 %2 %3 \u2192 %4")
                       .arg(qs(desc.name), qs(spec.key),
                            QLocale().toString(desc.params[static_cast<std::size_t>(change.param)]),
                            QLocale().toString(change.value));
    }
    const QString what =
        changes.isEmpty() ? tr("B is the level as it is") : changes.join(QStringLiteral(", "));
    m_summary->setText(comparing ? tr("B runs from %1 s beside A: %2. The view draws B as a ghost, "
                                      "the plots draw B's lines lighter.")
                                       .arg(QLocale().toString(m_startedAt, 'f', 2), what)
                                 : tr("B: %1. Set B's values, then Run B from Here.").arg(what));
}

void CompareDock::refreshMetrics()
{
    m_sinceRefresh.restart();
    const World* a = m_simulation->world();
    const World* b = m_simulation->compareWorld();
    const int groups = a ? a->groupCount() : 0;
    constexpr int kMetrics = static_cast<int>(sizeof(kCompared) / sizeof(kCompared[0]));
    m_metrics->setColumnCount(1 + 2 * kMetrics);
    QStringList headers{tr("Group")};
    for (const ComparedMetric& metric : kCompared)
        headers << tr("%1 A").arg(tr(metric.title)) << tr("B");
    m_metrics->setHorizontalHeaderLabels(headers);
    m_metrics->setRowCount(groups);
    const QLocale locale;
    for (int g = 0; g < groups; ++g) {
        auto set = [&](int column, const QString& text) {
            QTableWidgetItem* item = m_metrics->item(g, column);
            if (!item) {
                item = new QTableWidgetItem;
                item->setTextAlignment(column == 0 ? Qt::AlignLeft | Qt::AlignVCenter
                                                   : Qt::AlignRight | Qt::AlignVCenter);
                m_metrics->setItem(g, column, item);
            }
            item->setText(text);
        };
        set(0, qs(a->group(g).name));
        for (int k = 0; k < kMetrics; ++k) {
            const ComparedMetric& metric = kCompared[k];
            const double valueA = metric.read(a->group(g).metrics);
            set(1 + 2 * k, locale.toString(valueA, 'f', metric.decimals));
            set(2 + 2 * k,
                b && g < b->groupCount()
                    ? locale.toString(metric.read(b->group(g).metrics), 'f', metric.decimals)
                    : QStringLiteral("\u2013"));
        }
    }
    m_metrics->resizeColumnsToContents();
}

void CompareDock::onDocumentChanged(const Change& change)
{
    if (change.kind == ChangeKind::SceneReset || change.kind == ChangeKind::Groups) {
        const int before = m_group->count();
        refillGroupChoice(m_group, m_document->scene());
        // B's values are kept by group index: a group added or removed shifts them.
        if (change.kind == ChangeKind::SceneReset || m_group->count() != before)
            m_b.clear();
    }
    if (change.kind == ChangeKind::SceneReset || change.kind == ChangeKind::Groups ||
        change.kind == ChangeKind::GroupParams)
        fillParams();
    refreshState();
}

} // namespace shoal::ui
