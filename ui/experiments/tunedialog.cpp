#include "experiments/tunedialog.h"

#include "document/checkedpush.h"
#include "document/document.h"
#include "document/groupcommands.h"
#include "document/qtstrings.h"
#include "experiments/tuneplot.h"
#include "panels/groupchoice.h"

#include <shoal/checks.h>

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

namespace shoal::ui {

namespace {

constexpr int kMaxBudget = 100000;
constexpr int kDefaultBudget = 60;
constexpr int kMaxSeeds = 1000;
constexpr int kDefaultSeeds = 3;
constexpr int kMaxSteps = 1000000;
/// The parameters ticked to start with: the first few of the family's table.
constexpr int kDefaultTicked = 2;

QTableWidgetItem* numberItem(double value)
{
    auto* item = new QTableWidgetItem(qs(formatNumber(value)));
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

TuneDialog::TuneDialog(Document* document, QWidget* parent) : QDialog(parent), m_document(document)
{
    setWindowTitle(tr("Tune Parameters"));
    const SceneDesc& scene = m_document->scene();
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    layout->addLayout(top);

    auto* what = new QGroupBox(tr("Search"), this);
    auto* whatLayout = new QVBoxLayout(what);
    auto* groupRow = new QFormLayout;
    m_group = new QComboBox(what);
    for (const GroupDesc& group : scene.groups)
        m_group->addItem(qs(group.name));
    groupRow->addRow(tr("&Group"), m_group);
    whatLayout->addLayout(groupRow);
    m_params = new QTableWidget(0, 4, what);
    m_params->setHorizontalHeaderLabels({tr("Parameter"), tr("Min"), tr("Max"), tr("Value")});
    m_params->horizontalHeader()->setSectionResizeMode(kParamColumn, QHeaderView::Stretch);
    m_params->verticalHeader()->hide();
    m_params->setToolTip(tr("Tick the parameters to search and the box each may take"));
    whatLayout->addWidget(m_params);
    top->addWidget(what, 3);

    auto* how = new QGroupBox(tr("Objective"), this);
    auto* howForm = new QFormLayout(how);
    m_objective = new QComboBox(how);
    m_objective->setEditable(true);
    m_objective->setInsertPolicy(QComboBox::NoInsert);
    m_objective->setMinimumContentsLength(22);
    m_objective->setToolTip(
        tr("checks: make the scene's checks pass; GROUP.KEY: make the metric small; -GROUP.KEY: "
           "large; GROUP.KEY=TARGET: near TARGET (averaged over each run's last quarter)"));
    howForm->addRow(tr("&Make"), m_objective);
    m_budget = new QSpinBox(how);
    m_budget->setRange(2, kMaxBudget);
    m_budget->setValue(kDefaultBudget);
    m_budget->setToolTip(tr("Points to try at most"));
    howForm->addRow(tr("B&udget"), m_budget);
    m_seeds = new QSpinBox(how);
    m_seeds->setRange(1, kMaxSeeds);
    m_seeds->setValue(kDefaultSeeds);
    m_seeds->setToolTip(tr("Runs per point: the objective is their mean"));
    howForm->addRow(tr("S&eeds"), m_seeds);
    m_steps = new QSpinBox(how);
    m_steps->setRange(1, kMaxSteps);
    m_steps->setValue(
        static_cast<int>(std::min<std::int64_t>(kMaxSteps, experiments::defaultRunSteps(scene))));
    m_steps->setToolTip(tr("Steps per run; by default what the scene's checks need, or 600"));
    howForm->addRow(tr("S&teps"), m_steps);
    top->addWidget(how, 2);

    auto* controls = new QHBoxLayout;
    m_run = new QPushButton(tr("&Run"), this);
    m_run->setDefault(true);
    m_cancel = new QPushButton(tr("C&ancel"), this);
    m_progress = new QProgressBar(this);
    m_progress->setFormat(tr("%v of %m evaluations"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setTextVisible(false); // "0 of 1" until there is a count to show
    controls->addWidget(m_run);
    controls->addWidget(m_cancel);
    controls->addWidget(m_progress, 1);
    layout->addLayout(controls);

    m_best = new QLabel(this);
    m_best->setWordWrap(true);
    m_best->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_best);
    m_plot = new TunePlot(this);
    layout->addWidget(m_plot);
    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    layout->addWidget(m_message);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_apply = buttons->addButton(tr("A&pply"), QDialogButtonBox::ActionRole);
    m_apply->setToolTip(tr("Set the best values found on the group, in one undo step"));
    layout->addWidget(buttons);

    connect(m_group, &QComboBox::currentIndexChanged, this, &TuneDialog::fillParams);
    connect(m_document, &Document::changed, this, [this](const Change& change) {
        if (change.kind == ChangeKind::SceneReset || change.kind == ChangeKind::Groups)
            refillGroups();
    });
    connect(m_run, &QPushButton::clicked, this, &TuneDialog::start);
    connect(m_cancel, &QPushButton::clicked, this, &TuneDialog::cancel);
    connect(m_apply, &QPushButton::clicked, this, &TuneDialog::apply);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    m_plot->reset(m_budget->value());
    connect(m_budget, &QSpinBox::valueChanged, this, [this](int budget) {
        if (!isRunning() && !m_result)
            m_plot->reset(budget);
    });
    fillObjectives();
    fillParams();
    setRunning(false);
    if (m_group->count() == 0)
        setMessage(tr("The scene has no groups to tune."), true);
    resize(760, 620);
}

TuneDialog::~TuneDialog()
{
    if (m_cancelFlag)
        m_cancelFlag->store(true);
    m_future.waitForFinished();
}

void TuneDialog::refillGroups()
{
    if (!refillGroupChoice(m_group, m_document->scene()))
        return;
    m_plot->reset(m_budget->value());
    connect(m_budget, &QSpinBox::valueChanged, this, [this](int budget) {
        if (!isRunning() && !m_result)
            m_plot->reset(budget);
    });
    fillObjectives();
    fillParams();
    setRunning(isRunning());
}

void TuneDialog::fillParams()
{
    m_params->setRowCount(0);
    const int g = m_group->currentIndex();
    if (g < 0)
        return;
    const GroupDesc& group = m_document->scene().groups[static_cast<std::size_t>(g)];
    const auto& specs = paramSpecs(group.kind);
    int ticked = 0;
    for (std::size_t p = 0; p < specs.size(); ++p) {
        const ParamSpec& spec = specs[p];
        if (spec.type == ParamType::Choice)
            continue; // tune searches numbers
        const int row = m_params->rowCount();
        m_params->insertRow(row);
        auto* name = new QTableWidgetItem(
            spec.unit.empty() ? qs(spec.label)
                              : QStringLiteral("%1 (%2)").arg(qs(spec.label), qs(spec.unit)));
        name->setData(Qt::UserRole, qs(spec.key));
        name->setToolTip(qs(spec.tooltip));
        name->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        name->setCheckState(ticked++ < kDefaultTicked ? Qt::Checked : Qt::Unchecked);
        m_params->setItem(row, kParamColumn, name);
        m_params->setItem(row, kMinColumn, numberItem(spec.minValue));
        m_params->setItem(row, kMaxColumn, numberItem(spec.maxValue));
        QTableWidgetItem* value = numberItem(group.params[p]);
        value->setFlags(Qt::ItemIsEnabled);
        m_params->setItem(row, kValueColumn, value);
    }
    m_params->resizeColumnsToContents();
}

void TuneDialog::fillObjectives()
{
    const SceneDesc& scene = m_document->scene();
    const QString shown = m_objective->currentText();
    m_objective->clear();
    if (!scene.checks.empty())
        m_objective->addItem(QStringLiteral("checks"));
    for (const GroupDesc& group : scene.groups)
        for (const std::string& key : checkMetricKeys())
            m_objective->addItem(qs(group.name + "." + key));
    if (!shown.isEmpty())
        m_objective->setCurrentText(shown);
}

QString TuneDialog::message() const
{
    return m_message->text();
}

void TuneDialog::setMessage(const QString& text, bool error)
{
    m_message->setText(text);
    m_message->setStyleSheet(error ? QStringLiteral("color: #c0392b;") : QString());
}

bool TuneDialog::isRunning() const
{
    return m_future.isRunning();
}

bool TuneDialog::start()
{
    if (isRunning())
        return false;
    const int g = m_group->currentIndex();
    if (g < 0) {
        setMessage(tr("The scene has no groups to tune."), true);
        return false;
    }
    const SceneDesc& scene = m_document->scene();
    const GroupDesc& group = scene.groups[static_cast<std::size_t>(g)];
    experiments::TunePlan plan;
    plan.scene = scene;
    for (int row = 0; row < m_params->rowCount(); ++row) {
        const QTableWidgetItem* name = m_params->item(row, kParamColumn);
        if (name->checkState() != Qt::Checked)
            continue;
        bool lowOk = false, highOk = false;
        const double low = m_params->item(row, kMinColumn)->text().trimmed().toDouble(&lowOk);
        const double high = m_params->item(row, kMaxColumn)->text().trimmed().toDouble(&highOk);
        const std::string where = name->text().toStdString();
        if (!lowOk || !highOk) {
            setMessage(tr("%1: Min and Max must be numbers.").arg(name->text()), true);
            return false;
        }
        experiments::TuneParam param;
        if (auto error = experiments::makeTuneParam(
                scene, group.name + "." + name->data(Qt::UserRole).toString().toStdString(), low,
                high, where, param)) {
            setMessage(qs(error->message), true);
            return false;
        }
        plan.params.push_back(param);
    }
    if (plan.params.empty()) {
        setMessage(tr("Tick at least one parameter to search."), true);
        return false;
    }
    const QString objective = m_objective->currentText().trimmed();
    if (auto error = experiments::parseObjective(scene, objective, tr("Make").toStdString(),
                                                 plan.objective)) {
        setMessage(qs(error->message), true);
        return false;
    }
    plan.budget = m_budget->value();
    plan.seeds = m_seeds->value();
    plan.steps = m_steps->value();
    m_plan = std::move(plan);
    m_planGroup = g;
    m_result.reset();
    m_plot->reset(m_plan.budget);
    m_progress->setRange(0, m_plan.budget);
    m_progress->setValue(0);
    m_progress->setTextVisible(true);
    m_best->clear();
    setMessage(tr("Searching..."));

    m_cancelFlag = std::make_shared<std::atomic<bool>>(false);
    const experiments::TunePlan* planOfRun = &m_plan; // unchanged while the search runs
    const std::shared_ptr<std::atomic<bool>> flag = m_cancelFlag;
    m_future = QtConcurrent::run([this, planOfRun, flag]() {
        const experiments::TuneResult result = experiments::runTune(
            *planOfRun,
            [this](const experiments::TuneStep& step) {
                QMetaObject::invokeMethod(
                    this, [this, step]() { takeStep(step); }, Qt::QueuedConnection);
            },
            flag.get());
        QMetaObject::invokeMethod(
            this, [this, result]() { finish(result); }, Qt::QueuedConnection);
    });
    setRunning(true);
    return true;
}

void TuneDialog::cancel()
{
    if (m_cancelFlag)
        m_cancelFlag->store(true);
}

void TuneDialog::setRunning(bool running)
{
    m_run->setEnabled(!running && m_group->count() > 0);
    m_cancel->setEnabled(running);
    for (QWidget* field : std::initializer_list<QWidget*>{m_group, m_params, m_objective, m_budget,
                                                          m_seeds, m_steps})
        field->setEnabled(!running);
    m_apply->setEnabled(!running && m_result && !m_result->best.empty() &&
                        m_result->bestScore.refused.empty());
}

void TuneDialog::takeStep(const experiments::TuneStep& step)
{
    m_progress->setValue(step.evaluation);
    m_plot->addBest(step.bestScore.objective);
    if (step.improved)
        m_best->setText(tr("Best after %1 of %2: %3\n%4")
                            .arg(step.evaluation)
                            .arg(step.budget)
                            .arg(qs(experiments::describePoint(m_plan, step.best)),
                                 qs(experiments::describeScore(m_plan, step.bestScore))));
}

void TuneDialog::finish(const experiments::TuneResult& result)
{
    // The future reports finished only after this lambda returns; wait for it so the
    // buttons below see the search as over.
    m_future.waitForFinished();
    m_result = result;
    const auto g = static_cast<std::size_t>(m_planGroup);
    for (std::size_t i = 0; i < m_plan.params.size() && !result.best.empty(); ++i) {
        const experiments::TuneParam& p = m_plan.params[i];
        for (int row = 0; row < m_params->rowCount(); ++row)
            if (m_params->item(row, kParamColumn)->data(Qt::UserRole).toString() ==
                qs(p.param.key)) {
                // Four digits as the best line shows them; the whole value in the tooltip.
                const double value = p.whole ? std::round(result.best[i]) : result.best[i];
                QTableWidgetItem* item = m_params->item(row, kValueColumn);
                item->setText(qs(formatNumber(value, 4)));
                item->setToolTip(qs(formatNumber(value)));
            }
    }
    m_params->resizeColumnToContents(kValueColumn);
    const QString summary =
        result.best.empty()
            ? tr("Cancelled before the first point.")
            : tr("%1 after %2: %3.")
                  .arg(result.cancelled ? tr("Cancelled") : tr("Done"),
                       result.evaluations == 1 ? tr("1 point")
                                               : tr("%1 points").arg(result.evaluations),
                       qs(experiments::describeScore(m_plan, result.bestScore)));
    setMessage(summary + (m_result->best.empty()
                              ? QString()
                              : QLatin1Char(' ') + tr("Apply sets the best values on '%1'.")
                                                       .arg(qs(m_plan.scene.groups[g].name))));
    setRunning(false);
    emit tuneFinished();
}

void TuneDialog::apply()
{
    if (!m_result || m_result->best.empty())
        return;
    const SceneDesc& scene = m_document->scene();
    const auto g = static_cast<std::size_t>(m_planGroup);
    const GroupDesc& planned = m_plan.scene.groups[g];
    if (g >= scene.groups.size() || scene.groups[g].name != planned.name ||
        scene.groups[g].kind != planned.kind) {
        setMessage(
            tr("The group '%1' has changed since the search; run it again.").arg(qs(planned.name)),
            true);
        return;
    }
    // The best point as the tuned scene has it (whole parameters rounded).
    const SceneDesc tuned =
        experiments::sceneWith(m_plan, m_result->best, m_plan.scene.simulation.seed);
    ParamValues values = scene.groups[g].params;
    for (const experiments::TuneParam& p : m_plan.params)
        values[static_cast<std::size_t>(p.param.paramIndex)] = p.param.in(tuned);
    QUndoCommand* command = makeSetGroupParamsCommand(
        m_document, {m_planGroup}, {values},
        tr("Tune: Set %1 Parameters of %2").arg(m_plan.params.size()).arg(qs(planned.name)));
    if (!command) {
        setMessage(tr("'%1' has the best values already.").arg(qs(planned.name)));
        return;
    }
    if (auto refusal = pushChecked(m_document, command)) {
        setMessage(*refusal, true);
        return;
    }
    setMessage(tr("Set %1 on '%2' (one undo step). Press Play to try them.")
                   .arg(qs(experiments::describePoint(m_plan, m_result->best)), qs(planned.name)));
}

} // namespace shoal::ui
