#include "experiments/sweepdialog.h"

#include "document/checkedpush.h"
#include "document/document.h"
#include "document/groupcommands.h"
#include "document/qtstrings.h"
#include "experiments/heatmapwidget.h"
#include "panels/groupchoice.h"

#include <shoal/checks.h>

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QThread>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

namespace shoal::ui {

namespace {

/// The most combinations the dialog sweeps: a heatmap of more cells is unreadable, and a
/// larger sweep belongs to shoal-cli sweep (shards, CSV).
constexpr std::size_t kMaxCombinations = 2500;
constexpr int kMaxSeeds = 100;
constexpr int kMaxSteps = 1000000;
/// The values a parameter's default range gives: enough to see a trend, few enough to run.
constexpr double kDefaultValueCount = 9.0;

/// "Label (unit)".
QString paramTitle(const ParamSpec& spec)
{
    return spec.unit.empty() ? qs(spec.label)
                             : QStringLiteral("%1 (%2)").arg(qs(spec.label), qs(spec.unit));
}

/// The smallest of 1, 2, 2.5 and 5 times a power of ten that is at least `raw`: a step
/// whose values read at a glance on the heatmap's axis.
double niceStep(double raw)
{
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * power >= raw * (1.0 - 1e-9))
            return m * power;
    return 10.0 * power;
}

/// FROM:TO:STEP over the spec's whole range in at most nine round values (the multiples of a
/// round step inside the range), whole numbers for whole parameters.
QString defaultRange(const ParamSpec& spec)
{
    double low = spec.minValue, high = spec.maxValue;
    if (spec.type == ParamType::Choice) {
        low = 0.0;
        high = static_cast<double>(spec.choices.size()) - 1.0;
    }
    double step = niceStep(std::max((high - low) / (kDefaultValueCount - 1.0), 1e-9));
    if (spec.type != ParamType::Real)
        step = std::max(1.0, std::round(step));
    // + 0.0: a range from 0 reads "0", not "-0" (ceil of a hair below zero).
    double from = std::ceil(low / step - 1e-9) * step + 0.0;
    double to = std::floor(high / step + 1e-9) * step + 0.0;
    if (from >= to) {
        from = low;
        to = high;
        step = high > low ? high - low : 1.0;
    }
    return QStringLiteral("%1:%2:%3")
        .arg(qs(formatNumber(from, 12)), qs(formatNumber(to, 12)), qs(formatNumber(step, 12)));
}

} // namespace

SweepDialog::SweepDialog(Document* document, QWidget* parent)
    : QDialog(parent), m_document(document)
{
    setWindowTitle(tr("Sweep Parameters"));
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    layout->addLayout(top);

    auto* what = new QGroupBox(tr("Vary"), this);
    auto* whatForm = new QFormLayout(what);
    m_group = new QComboBox(what);
    for (const GroupDesc& group : m_document->scene().groups)
        m_group->addItem(qs(group.name));
    whatForm->addRow(tr("&Group"), m_group);
    for (int axis = 0; axis < 2; ++axis) {
        m_param[axis] = new QComboBox(what);
        m_range[axis] = new QLineEdit(what);
        m_range[axis]->setPlaceholderText(tr("FROM:TO:STEP"));
        m_range[axis]->setToolTip(
            tr("The values: FROM, FROM + STEP, ... up to TO, in the parameter's units"));
        auto* row = new QHBoxLayout;
        row->addWidget(m_param[axis], 3);
        row->addWidget(m_range[axis], 2);
        // A row of two widgets has no buddy of its own: the label names the parameter's.
        auto* label = new QLabel(axis == 0 ? tr("&First") : tr("&Second"), what);
        label->setBuddy(m_param[axis]);
        whatForm->addRow(label, row);
        connect(m_param[axis], &QComboBox::currentIndexChanged, this,
                [this, axis]() { resetRange(axis); });
    }
    top->addWidget(what, 3);

    auto* how = new QGroupBox(tr("Run"), this);
    auto* howForm = new QFormLayout(how);
    m_seeds = new QSpinBox(how);
    m_seeds->setRange(1, kMaxSeeds);
    m_seeds->setToolTip(tr("Runs per combination: the scene's seed, then the next ones; the "
                           "cell shows their mean"));
    howForm->addRow(tr("S&eeds"), m_seeds);
    m_steps = new QSpinBox(how);
    m_steps->setRange(1, kMaxSteps);
    m_steps->setValue(static_cast<int>(
        std::min<std::int64_t>(kMaxSteps, experiments::defaultRunSteps(m_document->scene()))));
    m_steps->setToolTip(tr("Steps per run; by default what the scene's checks need, or 600"));
    howForm->addRow(tr("S&teps"), m_steps);
    m_measure = new QComboBox(how);
    howForm->addRow(tr("&Colour by"), m_measure);
    m_bestIs = new QComboBox(how);
    m_bestIs->addItem(tr("highest"), true);
    m_bestIs->addItem(tr("lowest"), false);
    howForm->addRow(tr("&Best is"), m_bestIs);
    top->addWidget(how, 2);

    auto* controls = new QHBoxLayout;
    m_run = new QPushButton(tr("&Run"), this);
    m_run->setDefault(true);
    m_cancel = new QPushButton(tr("C&ancel"), this);
    m_progress = new QProgressBar(this);
    m_progress->setFormat(tr("%v of %m runs"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setTextVisible(false); // "0 of 1" until there is a count to show
    controls->addWidget(m_run);
    controls->addWidget(m_cancel);
    controls->addWidget(m_progress, 1);
    layout->addLayout(controls);

    m_heatmap = new HeatmapWidget(this);
    layout->addWidget(m_heatmap, 1);
    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_message);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_applyBest = buttons->addButton(tr("Apply &Best"), QDialogButtonBox::ActionRole);
    m_applyBest->setToolTip(tr("Set the best cell's values on the group, in one undo step"));
    m_applyBest->setEnabled(false);
    layout->addWidget(buttons);

    connect(m_group, &QComboBox::currentIndexChanged, this, &SweepDialog::fillParams);
    connect(m_document, &Document::changed, this, [this](const Change& change) {
        if (change.kind == ChangeKind::SceneReset || change.kind == ChangeKind::Groups)
            refillGroups();
    });
    connect(m_measure, &QComboBox::currentIndexChanged, this, [this]() {
        // Checks are better the more pass; a metric's good end depends on it: lowest first.
        const bool checks = m_measure->currentData().toInt() < 0;
        m_bestIs->setCurrentIndex(checks ? 0 : 1);
        refreshHeatmap();
    });
    connect(m_bestIs, &QComboBox::currentIndexChanged, this, &SweepDialog::refreshHeatmap);
    connect(m_run, &QPushButton::clicked, this, &SweepDialog::start);
    connect(m_cancel, &QPushButton::clicked, this, &SweepDialog::cancel);
    connect(m_applyBest, &QPushButton::clicked, this, &SweepDialog::applyBest);
    connect(m_heatmap, &HeatmapWidget::cellClicked, this, &SweepDialog::applyCell);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    fillMeasures();
    fillParams();
    setRunning(false);
    if (m_group->count() == 0)
        setMessage(tr("The scene has no groups to sweep."), true);
    resize(900, 640);
}

SweepDialog::~SweepDialog()
{
    if (m_cancelFlag)
        m_cancelFlag->store(true);
    m_future.waitForFinished();
}

void SweepDialog::refillGroups()
{
    if (!refillGroupChoice(m_group, m_document->scene()))
        return;
    fillMeasures();
    fillParams();
    setRunning(isRunning());
}

void SweepDialog::fillParams()
{
    const int g = m_group->currentIndex();
    for (int axis = 0; axis < 2; ++axis) {
        const QSignalBlocker blocker(m_param[axis]);
        m_param[axis]->clear();
        if (axis == 1)
            m_param[axis]->addItem(tr("(none: a strip)"), QString());
        if (g < 0)
            continue;
        const GroupDesc& group = m_document->scene().groups[static_cast<std::size_t>(g)];
        for (const ParamSpec& spec : paramSpecs(group.kind))
            m_param[axis]->addItem(paramTitle(spec), qs(spec.key));
    }
    // Two different parameters to start with: the first and the second of the family's table.
    if (m_param[1]->count() > 2)
        m_param[1]->setCurrentIndex(2);
    resetRange(0);
    resetRange(1);
}

void SweepDialog::fillMeasures()
{
    const QSignalBlocker blocker(m_measure);
    m_measure->clear();
    m_measure->addItem(tr("checks passed"), -1);
    m_measure->addItem(tr("score (share of checks passed)"), -2);
    const auto& keys = checkMetricKeys();
    int index = 0;
    for (const GroupDesc& group : m_document->scene().groups)
        for (const std::string& key : keys)
            m_measure->addItem(qs(group.name + "." + key), index++);
    m_bestIs->setCurrentIndex(0); // checks passed: highest
}

void SweepDialog::resetRange(int axis)
{
    const int g = m_group->currentIndex();
    const QString key = m_param[axis]->currentData().toString();
    m_range[axis]->setEnabled(!key.isEmpty());
    if (g < 0 || key.isEmpty()) {
        m_range[axis]->clear();
        return;
    }
    const GroupDesc& group = m_document->scene().groups[static_cast<std::size_t>(g)];
    const auto& specs = paramSpecs(group.kind);
    const int p = paramIndex(specs, key.toStdString());
    if (p >= 0)
        m_range[axis]->setText(defaultRange(specs[static_cast<std::size_t>(p)]));
}

QString SweepDialog::message() const
{
    return m_message->text();
}

void SweepDialog::setMessage(const QString& text, bool error)
{
    m_message->setText(text);
    m_message->setStyleSheet(error ? QStringLiteral("color: #c0392b;") : QString());
}

bool SweepDialog::isRunning() const
{
    return m_future.isRunning();
}

SweepMeasure SweepDialog::measure() const
{
    SweepMeasure measure;
    const int data = m_measure->currentData().toInt();
    measure.kind = data == -1   ? SweepMeasure::Kind::ChecksPassed
                   : data == -2 ? SweepMeasure::Kind::Score
                                : SweepMeasure::Kind::Metric;
    measure.metricIndex = data;
    measure.higherIsBetter = m_bestIs->currentData().toBool();
    return measure;
}

SweepCells SweepDialog::cells() const
{
    return makeSweepCells(m_runs, m_plan.combinations(), m_plan.seeds, measure());
}

bool SweepDialog::start()
{
    if (isRunning())
        return false;
    const int g = m_group->currentIndex();
    if (g < 0) {
        setMessage(tr("The scene has no groups to sweep."), true);
        return false;
    }
    const SceneDesc& scene = m_document->scene();
    const GroupDesc& group = scene.groups[static_cast<std::size_t>(g)];
    experiments::SweepPlan plan;
    plan.scene = scene;
    for (int axis = 0; axis < 2; ++axis) {
        const QString key = m_param[axis]->currentData().toString();
        if (key.isEmpty())
            continue;
        experiments::SweepAxis sweepAxis;
        const std::string where = m_param[axis]->currentText().toStdString();
        if (auto error = experiments::makeSweepAxis(scene, group.name + "." + key.toStdString(),
                                                    m_range[axis]->text().trimmed().toStdString(),
                                                    where, sweepAxis)) {
            setMessage(qs(error->message), true);
            return false;
        }
        if (!plan.axes.empty() && plan.axes.front().param.key == sweepAxis.param.key) {
            setMessage(tr("Pick two different parameters (or none as the second)."), true);
            return false;
        }
        plan.axes.push_back(std::move(sweepAxis));
    }
    if (plan.combinations() > kMaxCombinations) {
        setMessage(tr("%1 combinations; the dialog sweeps at most %2 (shoal-cli sweep runs more).")
                       .arg(plan.combinations())
                       .arg(kMaxCombinations),
                   true);
        return false;
    }
    plan.seeds = m_seeds->value();
    plan.steps = m_steps->value();
    m_plan = std::move(plan);
    m_planGroup = g;
    m_runs.clear();

    // The last axis changes fastest: it runs along x, the first (if two) up y.
    const auto axisOf = [](const experiments::SweepAxis& axis) {
        return HeatmapAxis{paramTitle(*axis.param.spec), axis.values};
    };
    m_heatmap->setAxes(axisOf(m_plan.axes.back()),
                       m_plan.axes.size() > 1 ? axisOf(m_plan.axes.front()) : HeatmapAxis{});
    refreshHeatmap();
    m_progress->setRange(0, static_cast<int>(m_plan.runs()));
    m_progress->setValue(0);
    m_progress->setTextVisible(true);
    setMessage(tr("Running %1 combinations x %2 seeds, %3 steps each...")
                   .arg(m_plan.combinations())
                   .arg(m_plan.seeds)
                   .arg(m_plan.steps));

    m_cancelFlag = std::make_shared<std::atomic<bool>>(false);
    const experiments::SweepPlan* planOfRun = &m_plan; // unchanged while the sweep runs
    const std::shared_ptr<std::atomic<bool>> flag = m_cancelFlag;
    const int jobs = std::max(1, QThread::idealThreadCount());
    m_future = QtConcurrent::run([this, planOfRun, flag, jobs]() {
        std::vector<experiments::SweepRun> batch;
        // Blocks of one run per thread: the heatmap fills in as the runs come.
        experiments::runSweep(
            *planOfRun, 0, 1, planOfRun->runs(), jobs, static_cast<std::size_t>(jobs),
            [&batch](experiments::SweepRun&& run) { batch.push_back(std::move(run)); },
            [this, &batch](std::size_t) {
                QMetaObject::invokeMethod(
                    this, [this, runs = batch]() { takeRuns(runs); }, Qt::QueuedConnection);
                batch.clear();
            },
            flag.get());
    });
    auto* watcher = new QFutureWatcher<void>(this);
    connect(watcher, &QFutureWatcher<void>::finished, this, [this, watcher]() {
        watcher->deleteLater();
        onFinished();
    });
    watcher->setFuture(m_future);
    setRunning(true);
    return true;
}

void SweepDialog::cancel()
{
    if (m_cancelFlag)
        m_cancelFlag->store(true);
}

void SweepDialog::setRunning(bool running)
{
    m_run->setEnabled(!running && m_group->count() > 0);
    m_cancel->setEnabled(running);
    for (QWidget* field : std::initializer_list<QWidget*>{m_group, m_param[0], m_param[1],
                                                          m_range[0], m_range[1], m_seeds, m_steps})
        field->setEnabled(!running);
    if (!running)
        m_range[1]->setEnabled(!m_param[1]->currentData().toString().isEmpty());
    m_applyBest->setEnabled(!running && cells().best(measure().higherIsBetter).has_value());
}

void SweepDialog::takeRuns(std::vector<experiments::SweepRun> runs)
{
    for (experiments::SweepRun& run : runs)
        m_runs.push_back(std::move(run));
    m_progress->setValue(static_cast<int>(m_runs.size()));
    refreshHeatmap();
}

void SweepDialog::onFinished()
{
    const bool cancelled = m_runs.size() < m_plan.runs();
    std::size_t refused = 0;
    for (const experiments::SweepRun& run : m_runs)
        refused += run.refused() ? 1 : 0;
    QString text = cancelled
                       ? tr("Cancelled after %1 of %2 runs.").arg(m_runs.size()).arg(m_plan.runs())
                       : tr("%1 runs done.").arg(m_runs.size());
    if (refused > 0)
        text += QLatin1Char(' ') + tr("The scene refused %1 of them (hatched cells).").arg(refused);
    text += QLatin1Char(' ') + tr("Hover a cell for its values; click one to set them on the "
                                  "group, then press Play to watch.");
    setMessage(text);
    setRunning(false);
    emit sweepFinished();
}

void SweepDialog::refreshHeatmap()
{
    if (m_plan.axes.empty())
        return;
    const SweepMeasure measure = this->measure();
    const SweepCells cells = this->cells();
    const auto best = cells.best(measure.higherIsBetter);
    m_heatmap->setValues(cells.values, m_measure->currentText(), measure.higherIsBetter, best);
    m_applyBest->setEnabled(!isRunning() && best.has_value());
}

void SweepDialog::applyCell(std::size_t cell)
{
    if (m_plan.axes.empty() || cell >= m_plan.combinations())
        return;
    const SceneDesc& scene = m_document->scene();
    const auto g = static_cast<std::size_t>(m_planGroup);
    const GroupDesc& planned = m_plan.scene.groups[g];
    if (g >= scene.groups.size() || scene.groups[g].name != planned.name ||
        scene.groups[g].kind != planned.kind) {
        setMessage(
            tr("The group '%1' has changed since the sweep; run it again.").arg(qs(planned.name)),
            true);
        return;
    }
    const SweepCells cells = this->cells();
    if (cells.refused[cell] > 0) {
        setMessage(tr("The scene refuses these values; nothing was set."), true);
        return;
    }
    // The cell's values, as sceneOfRun() sets them for its first seed.
    const SceneDesc tried =
        experiments::sceneOfRun(m_plan, cell * static_cast<std::size_t>(m_plan.seeds));
    ParamValues values = scene.groups[g].params;
    QStringList set;
    for (const experiments::SweepAxis& axis : m_plan.axes) {
        const double value = axis.param.in(tried);
        values[static_cast<std::size_t>(axis.param.paramIndex)] = value;
        set << QStringLiteral("%1 = %2").arg(qs(axis.param.spec->label), qs(formatNumber(value)));
    }
    QUndoCommand* command = makeSetGroupParamsCommand(
        m_document, {m_planGroup}, {values},
        tr("Sweep: Set %1 of %2").arg(set.join(QStringLiteral(", ")), qs(planned.name)));
    if (!command) {
        setMessage(tr("'%1' has these values already: %2.")
                       .arg(qs(planned.name), set.join(QStringLiteral(", "))));
        return;
    }
    if (auto refusal = pushChecked(m_document, command)) {
        setMessage(*refusal, true);
        return;
    }
    setMessage(tr("Set %1 on '%2' (one undo step). Press Play to try them.")
                   .arg(set.join(QStringLiteral(", ")), qs(planned.name)));
}

void SweepDialog::applyBest()
{
    if (const auto best = cells().best(measure().higherIsBetter))
        applyCell(*best);
}

} // namespace shoal::ui
