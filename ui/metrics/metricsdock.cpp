#include "metrics/metricsdock.h"

#include "document/checkcommands.h"
#include "document/document.h"
#include "document/groupselection.h"
#include "simulation/simulationcontroller.h"
#include "viewport/viewportstyle.h"

#include <shoal/paramspec.h>
#include <shoal/world.h>
#include <shoal/worldstate.h>

#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QMenu>
#include <QMouseEvent>
#include <QResizeEvent>
#include <QScrollArea>
#include <QSpinBox>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace shoal::ui {

namespace {

/// World B's lines: its groups' colours, this transparent and wider, so they read as the
/// other run, not as other groups.
constexpr int kCompareAlpha = 110;

/// Points a line keeps at most: beyond, each bucket of samples keeps its lowest and highest
/// (a spike stays visible, the line stays cheap to draw).
constexpr int kMaxPlottedPoints = 600;
/// With this many groups or fewer and none selected, each gets lines of its own.
constexpr int kGroupsDrawnEach = 6;
constexpr int kPlotHeight = 130;
/// Plots side by side when the dock is at least this wide per plot (px).
constexpr int kPlotWidth = 380;

const Qt::PenStyle kFieldStyles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine};
/// The same three, as a title writes them.
const QString kFieldDashes[] = {QStringLiteral("\u2014"), QStringLiteral("- -"),
                                QStringLiteral("\u00b7\u00b7\u00b7")};

/// A round upper bound for an axis showing values up to `top`.
double niceTop(double top, bool counts)
{
    if (!(top > 0.0))
        return counts ? 1.0 : 0.1;
    const double magnitude = std::pow(10.0, std::floor(std::log10(top)));
    for (double step : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (top <= step * magnitude)
            return counts ? std::max(1.0, std::ceil(step * magnitude)) : step * magnitude;
    return top;
}

/// `low` and `high` rounded outward to the first significant digit of the range (whole numbers
/// for counts), so a proposed bound reads like one a person would write: 1.62 to 1.87 is
/// [1.6, 1.9].
std::pair<double, double> roundedOutward(double low, double high, bool counts)
{
    if (counts)
        return {std::floor(low), std::ceil(high)};
    const double span = std::max({high - low, 0.01 * std::fabs(high), 1e-6});
    // Divided by a power of ten above 1, not multiplied by one below: 12 / 10 is the double
    // nearest 1.2, 12 * 0.1 is not.
    const double digits = std::floor(std::log10(span));
    const double scale = std::pow(10.0, std::fabs(digits));
    if (digits < 0.0)
        return {std::floor(low * scale) / scale, std::ceil(high * scale) / scale};
    return {std::floor(low / scale) * scale, std::ceil(high / scale) * scale};
}

} // namespace

const char* checkKeyOf(MetricField field)
{
    switch (field) {
    case MetricField::NearestMin:
        return "nearestMin";
    case MetricField::NearestMedian:
        return "nearestMedian";
    case MetricField::Polarization:
        return "polarization";
    case MetricField::MeanSpeed:
        return "meanSpeed";
    case MetricField::InsideKeep:
        return "insideKeep";
    case MetricField::OutsideBand:
        return "outsideBand";
    case MetricField::Penetrations:
        return "penetrations";
    case MetricField::CrossPenetrations:
        return "crossPenetrations";
    case MetricField::WallOverlaps:
        return "wallOverlaps";
    case MetricField::DeepestWallOverlap:
        return "wallOverlapMax";
    case MetricField::Stuck:
        return "stuck";
    case MetricField::Blocked:
        return "blocked";
    case MetricField::GoalDistance:
        return "goalDistanceMean";
    case MetricField::AtGoal:
        return "atGoal";
    case MetricField::DeepestOverlap:
    case MetricField::Count:
        break;
    }
    return nullptr;
}

const std::vector<MetricPlot>& metricPlots()
{
    static const std::vector<MetricPlot> plots = {
        {QStringLiteral("spacing"),
         QObject::tr("Spacing"),
         QStringLiteral("m"),
         {MetricField::NearestMedian, MetricField::NearestMin},
         {QObject::tr("median"), QObject::tr("min")},
         false,
         true},
        {QStringLiteral("order"),
         QObject::tr("Polarization"),
         QString(),
         {MetricField::Polarization},
         {QObject::tr("mean")},
         false,
         true},
        {QStringLiteral("speed"),
         QObject::tr("Mean speed"),
         QStringLiteral("m/s"),
         {MetricField::MeanSpeed},
         {QObject::tr("mean")},
         false,
         true},
        {QStringLiteral("outOfPlace"),
         QObject::tr("Out of place"),
         QObject::tr("agents"),
         {MetricField::InsideKeep, MetricField::OutsideBand},
         {QObject::tr("inside keep"), QObject::tr("outside band")},
         true,
         false},
        {QStringLiteral("collisions"),
         QObject::tr("Overlaps over 5 cm"),
         QObject::tr("count"),
         {MetricField::Penetrations, MetricField::CrossPenetrations, MetricField::WallOverlaps},
         {QObject::tr("in group"), QObject::tr("other groups"), QObject::tr("walls")},
         true,
         true},
        {QStringLiteral("depth"),
         QObject::tr("Deepest overlap"),
         QStringLiteral("m"),
         {MetricField::DeepestOverlap, MetricField::DeepestWallOverlap},
         {QObject::tr("bodies"), QObject::tr("walls")},
         false,
         false},
        {QStringLiteral("stuck"),
         QObject::tr("Stuck and blocked"),
         QObject::tr("agents"),
         {MetricField::Stuck, MetricField::Blocked},
         {QObject::tr("stuck"), QObject::tr("blocked")},
         true,
         true},
        {QStringLiteral("goal"),
         QObject::tr("Goal"),
         QStringLiteral("m"),
         {MetricField::GoalDistance},
         {QObject::tr("mean distance")},
         false,
         false},
    };
    return plots;
}

MetricsDock::MetricsDock(Document* document, GroupSelection* selection,
                         SimulationController* simulation, QWidget* parent)
    : QWidget(parent), m_document(document), m_selection(selection), m_simulation(simulation)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);

    auto* bar = new QHBoxLayout;
    m_caption = new QLabel(this);
    m_caption->setObjectName(QStringLiteral("metricsCaption"));
    m_caption->setTextFormat(Qt::PlainText);
    // A plot's own tooltip would fight the values shown on hover: the hint lives here.
    m_caption->setToolTip(tr("Drag up or down on a plot to pick a range; right-click a plot to "
                             "keep one of its lines in a range with a check"));
    bar->addWidget(m_caption, 1);
    m_window = new QSpinBox(this);
    m_window->setObjectName(QStringLiteral("metricsWindow"));
    m_window->setRange(10, static_cast<int>(MetricsHistory::kKeepSeconds));
    m_window->setSingleStep(10);
    m_window->setValue(30);
    m_window->setSuffix(tr(" s"));
    m_window->setPrefix(tr("last "));
    m_window->setToolTip(tr("How much simulated time the plots show (10 to 120 s)"));
    connect(m_window, &QSpinBox::valueChanged, this, [this] { redraw(); });
    bar->addWidget(m_window);
    m_plotMenu = new QToolButton(this);
    m_plotMenu->setObjectName(QStringLiteral("metricsPlots"));
    m_plotMenu->setText(tr("Plots"));
    m_plotMenu->setToolTip(tr("Choose the plots to show"));
    m_plotMenu->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(m_plotMenu);
    m_plotMenu->setMenu(menu);
    bar->addWidget(m_plotMenu);
    layout->addLayout(bar);

    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* plots = new QWidget(scroll);
    m_plotLayout = new QGridLayout(plots);
    m_plotLayout->setContentsMargins(0, 0, 0, 0);
    m_plotLayout->setSpacing(2);
    scroll->setWidget(plots);
    layout->addWidget(scroll, 1);

    const QPalette palette = this->palette();
    for (const MetricPlot& plot : metricPlots()) {
        PlotView view;
        view.plot = &plot;
        view.chart = new QChart;
        view.chart->setObjectName(plot.id);
        view.chart->setBackgroundRoundness(0);
        view.chart->setMargins(QMargins(2, 2, 2, 2));
        view.chart->setBackgroundBrush(palette.color(QPalette::Base));
        view.chart->setTitleBrush(palette.color(QPalette::Text));
        QFont title = font();
        title.setPointSizeF(title.pointSizeF() * 0.9);
        view.chart->setTitleFont(title);
        view.chart->legend()->setAlignment(Qt::AlignTop);
        view.chart->legend()->setFont(title);
        view.chart->legend()->setLabelColor(palette.color(QPalette::Text));
        view.time = new QValueAxis(view.chart);
        view.time->setLabelFormat(QStringLiteral("%.0f s"));
        view.time->setTickType(QValueAxis::TicksDynamic);
        view.time->setTickAnchor(0.0);
        view.value = new QValueAxis(view.chart);
        view.value->setLabelFormat(plot.counts ? QStringLiteral("%.0f") : QStringLiteral("%.2f"));
        view.value->setTickType(QValueAxis::TicksDynamic);
        view.value->setTickAnchor(0.0);
        for (QValueAxis* axis : {view.time, view.value}) {
            axis->setLabelsFont(title);
            axis->setLabelsColor(palette.color(QPalette::Text));
            axis->setGridLineColor(palette.color(QPalette::Mid));
        }
        view.chart->addAxis(view.time, Qt::AlignBottom);
        view.chart->addAxis(view.value, Qt::AlignLeft);
        view.view = new QChartView(view.chart, plots);
        view.view->setObjectName(plot.id + QStringLiteral("Plot"));
        view.view->setRenderHint(QPainter::Antialiasing);
        view.view->setMinimumHeight(kPlotHeight);
        view.view->setVisible(plot.shownByDefault);
        const std::size_t index = m_plots.size();
        view.view->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(view.view, &QWidget::customContextMenuRequested, this,
                [this, index](const QPoint& at) { showPlotMenu(index, at); });
        view.view->viewport()->installEventFilter(this);
        view.band = new QGraphicsRectItem(view.chart);
        QColor bandColor = palette.color(QPalette::Highlight);
        bandColor.setAlpha(60);
        view.band->setBrush(bandColor);
        view.band->setPen(QPen(palette.color(QPalette::Highlight), 1.0, Qt::DashLine));
        view.band->setZValue(9);
        view.band->setVisible(false);
        connect(view.chart, &QChart::plotAreaChanged, this, [this, index] {
            PlotView& plot = m_plots[index];
            const double latest = m_history.latestTime(), window = windowSeconds();
            placeMarks(plot, m_seriesGroups, latest > window ? latest - window : 0.0,
                       std::max(window, latest));
            placeBand(plot);
        });

        QAction* toggle = menu->addAction(plot.title);
        toggle->setCheckable(true);
        toggle->setChecked(plot.shownByDefault);
        toggle->setData(plot.id);
        connect(toggle, &QAction::toggled, this,
                [this, id = plot.id](bool on) { setPlotShown(id, on); });
        m_plots.push_back(view);
    }
    layOutPlots();

    connect(m_simulation, &SimulationController::stepped, this, &MetricsDock::onStepped);
    // Scrubbing the timeline: back to a snapshot drops the plots' later samples, and the
    // steps replayed from there are sampled as played ones are.
    connect(m_simulation, &SimulationController::rewound, this, [this] {
        // The world's last measure is of the step it left (metrics are not restored).
        if (const World* world = m_simulation->world()) {
            m_history.rewindTo(world->time());
            m_observedStep = world->metricsStep();
        }
    });
    connect(m_simulation, &SimulationController::replayedStep, this, &MetricsDock::onStepped);
    connect(m_simulation, &SimulationController::compareChanged, this,
            &MetricsDock::onCompareChanged);
    connect(m_simulation, &SimulationController::worldRebuilt, this, &MetricsDock::onWorldRebuilt);
    connect(m_document, &Document::changed, this, &MetricsDock::onDocumentChanged);
    connect(m_selection, &GroupSelection::selectionChanged, this, [this] { redraw(); });
    rememberParams();
    m_sinceRedraw.start();
    redraw();
}

MetricsDock::~MetricsDock() = default;

double MetricsDock::windowSeconds() const
{
    return m_window->value();
}

void MetricsDock::setWindowSeconds(double seconds)
{
    m_window->setValue(static_cast<int>(std::lround(seconds)));
}

void MetricsDock::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (event->size().width() != event->oldSize().width())
        layOutPlots();
}

void MetricsDock::layOutPlots()
{
    // The shown plots in rows of as many as the width takes (a wide dock under the view
    // shows them side by side, a narrow one in a column).
    const int columns = std::clamp(width() / kPlotWidth, 1, 3);
    if (columns == m_columns && m_plotLayout->count() > 0)
        return;
    m_columns = columns;
    for (const PlotView& plot : m_plots)
        m_plotLayout->removeWidget(plot.view);
    int k = 0;
    for (const PlotView& plot : m_plots) {
        if (plot.view->isHidden())
            continue;
        m_plotLayout->addWidget(plot.view, k / columns, k % columns);
        ++k;
    }
    for (int c = 0; c < 3; ++c)
        m_plotLayout->setColumnStretch(c, c < columns ? 1 : 0);
    m_plotLayout->setRowStretch(m_plotLayout->rowCount(), 1);
}

void MetricsDock::setPlotShown(const QString& id, bool shown)
{
    for (PlotView& plot : m_plots)
        if (plot.plot->id == id)
            plot.view->setVisible(shown);
    m_columns = 0; // lay them out again
    layOutPlots();
    for (QAction* action : m_plotMenu->menu()->actions())
        if (action->data().toString() == id && action->isChecked() != shown)
            action->setChecked(shown);
    redraw();
}

bool MetricsDock::isPlotShown(const QString& id) const
{
    for (const PlotView& plot : m_plots)
        if (plot.plot->id == id)
            return !plot.view->isHidden();
    return false;
}

QChart* MetricsDock::chart(const QString& id) const
{
    for (const PlotView& plot : m_plots)
        if (plot.plot->id == id)
            return plot.chart;
    return nullptr;
}

QList<int> MetricsDock::shownGroups() const
{
    const int groups = static_cast<int>(m_document->scene().groups.size());
    QList<int> shown;
    for (int g : m_selection->groups())
        if (g >= 0 && g < groups && g < MetricsHistory::kMaxGroups)
            shown.push_back(g);
    if (!shown.isEmpty())
        return shown;
    if (groups > 0 && groups <= kGroupsDrawnEach) {
        for (int g = 0; g < groups; ++g)
            shown.push_back(g);
        return shown;
    }
    return {MetricsHistory::kAllGroups};
}

QString MetricsDock::groupName(int group) const
{
    const auto& groups = m_document->scene().groups;
    if (group >= 0 && static_cast<std::size_t>(group) < groups.size())
        return QString::fromStdString(groups[static_cast<std::size_t>(group)].name);
    return tr("all groups");
}

QColor MetricsDock::groupColor(int group) const
{
    const auto& groups = m_document->scene().groups;
    if (group >= 0 && static_cast<std::size_t>(group) < groups.size()) {
        QColor c = style::toQColor(groups[static_cast<std::size_t>(group)].color);
        c.setAlpha(255);
        return c;
    }
    return palette().color(QPalette::Text);
}

void MetricsDock::rememberParams()
{
    const auto& groups = m_document->scene().groups;
    m_params.resize(groups.size());
    for (std::size_t g = 0; g < groups.size(); ++g)
        m_params[g] = groups[g].params;
}

void MetricsDock::onStepped()
{
    const World* world = m_simulation->world();
    if (!world || !world->metricsEnabled() || world->metricsStep() == m_observedStep)
        return;
    m_observedStep = world->metricsStep();
    auto observe = [](MetricsHistory& history, const World& from) {
        std::vector<const GroupState*> groups;
        groups.reserve(static_cast<std::size_t>(from.groupCount()));
        for (int g = 0; g < from.groupCount(); ++g)
            groups.push_back(&from.group(g));
        history.observe(static_cast<double>(from.metricsStep()) * from.dt(), groups);
    };
    observe(m_history, *world);
    // B steps with A and measures when A does.
    if (const World* b = m_simulation->compareWorld(); b && b->metricsEnabled())
        observe(m_compareHistory, *b);
    // Drawing is the expensive part: at most every kRedrawMs, and only when someone looks.
    if (isVisible() && m_sinceRedraw.elapsed() >= kRedrawMs)
        redraw();
}

void MetricsDock::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    measureWhileShown();
    redraw();
}

void MetricsDock::hideEvent(QHideEvent* event)
{
    QWidget::hideEvent(event);
    m_simulation->setMetricsWanted(false);
}

void MetricsDock::measureWhileShown()
{
    // The world measures as often as the plots sample, not every step.
    const World* world = m_simulation->world();
    const double dt = world && world->dt() > 0.0f ? world->dt() : 1.0 / 60.0;
    const int every =
        std::max(1, static_cast<int>(std::lround(MetricsHistory::kSampleSeconds / dt)));
    m_simulation->setMetricsWanted(isVisible(), every);
}

void MetricsDock::onCompareChanged()
{
    m_compareHistory.clear();
    m_seriesGroups.clear(); // the next redraw builds the lines again, with or without B's
    redraw();
}

void MetricsDock::onWorldRebuilt()
{
    m_history.clear();
    m_observedStep = ~std::uint64_t(0);
    if (isVisible())
        measureWhileShown();
    rememberParams();
    redraw();
}

void MetricsDock::onDocumentChanged(const Change& change)
{
    const auto& groups = m_document->scene().groups;
    if (change.kind != ChangeKind::GroupParams || change.index < 0 ||
        static_cast<std::size_t>(change.index) >= groups.size() ||
        static_cast<std::size_t>(change.index) >= m_params.size()) {
        if (change.kind == ChangeKind::Groups || change.kind == ChangeKind::SceneReset)
            rememberParams();
        return;
    }
    const GroupDesc& group = groups[static_cast<std::size_t>(change.index)];
    std::vector<double>& before = m_params[static_cast<std::size_t>(change.index)];
    if (before.size() != group.params.size()) {
        before = group.params;
        return;
    }
    const auto& specs = paramSpecs(group.kind);
    for (std::size_t p = 0; p < group.params.size() && p < specs.size(); ++p) {
        if (before[p] == group.params[p])
            continue;
        const World* world = m_simulation->world();
        m_history.addEdit(world ? world->time() : 0.0, change.index, static_cast<int>(p),
                          QString::fromStdString(group.name), QString::fromStdString(specs[p].key),
                          before[p], group.params[p]);
        before[p] = group.params[p];
    }
    redraw();
}

void MetricsDock::redraw()
{
    m_sinceRedraw.restart();
    const QList<int> groups = shownGroups();
    const double latest = m_history.latestTime();
    const double window = windowSeconds();
    const double from = std::max(0.0, latest - window);
    const double to = std::max(window, latest);
    const double start = latest > window ? from : 0.0;

    QStringList names;
    for (int g : groups)
        names.push_back(groupName(g));
    m_caption->setText(groups.size() == 1 && groups.first() == MetricsHistory::kAllGroups
                           ? tr("All groups together")
                           : names.join(QStringLiteral(", ")));

    const bool rebuild = groups != m_seriesGroups;
    m_seriesGroups = groups;
    for (PlotView& plot : m_plots) {
        if (rebuild)
            buildSeries(plot, groups);
        if (plot.view->isHidden())
            continue;
        fillSeries(plot, groups, start, to);
        placeMarks(plot, groups, start, to);
        placeBand(plot);
    }
}

bool MetricsDock::eventFilter(QObject* watched, QEvent* event)
{
    const QEvent::Type type = event->type();
    if (type != QEvent::MouseButtonPress && type != QEvent::MouseMove &&
        type != QEvent::MouseButtonRelease)
        return QWidget::eventFilter(watched, event);
    for (PlotView& plot : m_plots) {
        if (plot.view->viewport() != watched || plot.series.empty())
            continue;
        const auto* mouse = static_cast<QMouseEvent*>(event);
        const QPointF at =
            plot.chart->mapFromScene(plot.view->mapToScene(mouse->position().toPoint()));
        const double value = plot.chart->mapToValue(at, plot.series.front()).y();
        if (type == QEvent::MouseButtonPress && mouse->button() == Qt::LeftButton) {
            plot.dragFrom =
                plot.chart->plotArea().contains(at) ? std::optional<double>(value) : std::nullopt;
            plot.dragged.reset();
            placeBand(plot);
        } else if (type == QEvent::MouseMove && plot.dragFrom &&
                   (mouse->buttons() & Qt::LeftButton)) {
            plot.dragged =
                std::make_pair(std::min(*plot.dragFrom, value), std::max(*plot.dragFrom, value));
            placeBand(plot);
        } else if (type == QEvent::MouseButtonRelease && mouse->button() == Qt::LeftButton) {
            plot.dragFrom.reset();
        }
        break;
    }
    return QWidget::eventFilter(watched, event);
}

void MetricsDock::placeBand(PlotView& plot)
{
    plot.band->setVisible(plot.dragged.has_value() && !plot.series.empty());
    if (!plot.band->isVisible())
        return;
    const QRectF area = plot.chart->plotArea();
    const qreal top =
        plot.chart->mapToPosition(QPointF(0.0, plot.dragged->second), plot.series.front()).y();
    const qreal bottom =
        plot.chart->mapToPosition(QPointF(0.0, plot.dragged->first), plot.series.front()).y();
    plot.band->setRect(QRectF(QPointF(area.left(), std::max(top, area.top())),
                              QPointF(area.right(), std::min(bottom, area.bottom())))
                           .normalized());
}

void MetricsDock::setDraggedRange(const QString& plotId, double low, double high)
{
    for (PlotView& plot : m_plots)
        if (plot.plot->id == plotId) {
            plot.dragged = std::make_pair(std::min(low, high), std::max(low, high));
            placeBand(plot);
        }
}

std::optional<CheckDesc> MetricsDock::proposedCheck(const QString& plotId, int group,
                                                    int field) const
{
    const PlotView* plot = nullptr;
    for (const PlotView& p : m_plots)
        if (p.plot->id == plotId)
            plot = &p;
    if (!plot || field < 0 || static_cast<std::size_t>(field) >= plot->plot->fields.size())
        return std::nullopt;
    const MetricField metric = plot->plot->fields[static_cast<std::size_t>(field)];
    const char* key = checkKeyOf(metric);
    const auto& groups = m_document->scene().groups;
    if (!key || (group != MetricsHistory::kAllGroups &&
                 (group < 0 || static_cast<std::size_t>(group) >= groups.size())))
        return std::nullopt;
    const double latest = m_history.latestTime();
    const double from = std::max(0.0, latest - windowSeconds());
    std::pair<double, double> range{0.0, 0.0};
    if (plot->dragged) {
        range = *plot->dragged;
    } else {
        bool any = false;
        for (const MetricSample& sample : m_history.samples(group)) {
            if (sample.time < from || std::isnan(sample.value(metric)))
                continue;
            const double v = sample.value(metric);
            range = any ? std::make_pair(std::min(range.first, v), std::max(range.second, v))
                        : std::make_pair(v, v);
            any = true;
        }
    }
    range = roundedOutward(range.first, range.second, plot->plot->counts);
    range.first = std::max(range.first, 0.0); // no metric a plot shows goes below 0
    CheckDesc check;
    const QString groupText =
        group == MetricsHistory::kAllGroups
            ? tr("all groups")
            : QString::fromStdString(groups[static_cast<std::size_t>(group)].name);
    check.name = tr("%1: %2 %3 stays in range")
                     .arg(groupText, plot->plot->title.toLower(),
                          plot->plot->fieldNames[static_cast<std::size_t>(field)])
                     .toStdString();
    check.metric = checkMetricName(group == MetricsHistory::kAllGroups
                                       ? std::string("all")
                                       : groups[static_cast<std::size_t>(group)].name,
                                   key);
    check.compare = CheckCompare::Within;
    check.value = range.first;
    check.high = range.second;
    // What the plot shows began at `from`: the settling before it was not looked at.
    if (from >= 1.0) {
        check.window = CheckWindow::After;
        check.seconds = std::floor(from);
    }
    return check;
}

void MetricsDock::proposeCheck(const QString& plotId, int group, int field)
{
    if (const std::optional<CheckDesc> check = proposedCheck(plotId, group, field))
        emit checkProposed(*check);
}

void MetricsDock::showPlotMenu(std::size_t index, const QPoint& at)
{
    const PlotView& plot = m_plots[index];
    QMenu menu(this);
    // One group shown: its lines at the top; several: a submenu each.
    const bool several = m_seriesGroups.size() > 1;
    for (int group : m_seriesGroups) {
        QMenu* into = several ? menu.addMenu(groupName(group)) : &menu;
        for (std::size_t f = 0; f < plot.plot->fields.size(); ++f) {
            if (!checkKeyOf(plot.plot->fields[f]))
                continue;
            into->addAction(tr("Keep %1 between these values…").arg(plot.plot->fieldNames[f]), this,
                            [this, id = plot.plot->id, group, f] {
                                proposeCheck(id, group, static_cast<int>(f));
                            });
        }
    }
    if (menu.isEmpty()) {
        menu.addAction(tr("No check can name this plot's lines"))->setEnabled(false);
    }
    if (plot.dragged) {
        menu.addSeparator();
        menu.addAction(tr("Clear the range"), this, [this, index] {
            m_plots[index].dragged.reset();
            placeBand(m_plots[index]);
        });
    }
    menu.exec(plot.view->mapToGlobal(at));
}

void MetricsDock::buildSeries(PlotView& plot, const QList<int>& groups)
{
    plot.chart->removeAllSeries(); // deletes them
    plot.series.clear();
    const bool oneGroup = groups.size() == 1;
    for (int g : groups) {
        for (std::size_t f = 0; f < plot.plot->fields.size(); ++f) {
            auto* series = new QLineSeries;
            series->setName(
                oneGroup
                    ? plot.plot->fieldNames[f]
                    : QStringLiteral("%1 \u00b7 %2").arg(groupName(g), plot.plot->fieldNames[f]));
            QPen pen(groupColor(g));
            pen.setWidthF(1.6);
            pen.setStyle(kFieldStyles[std::min<std::size_t>(f, 2)]);
            series->setPen(pen);
            plot.chart->addSeries(series);
            series->attachAxis(plot.time);
            series->attachAxis(plot.value);
            const std::size_t index = static_cast<std::size_t>(&plot - m_plots.data());
            connect(series, &QLineSeries::hovered, this,
                    [this, index](const QPointF& point, bool state) {
                        if (state)
                            showValuesAt(m_plots[index], point.x());
                        else
                            QToolTip::hideText();
                    });
            plot.series.push_back(series);
        }
    }
    plot.compareSeries.clear();
    if (m_simulation->isComparing()) {
        for (int g : groups) {
            for (std::size_t f = 0; f < plot.plot->fields.size(); ++f) {
                auto* series = new QLineSeries;
                series->setName(QStringLiteral("B \u00b7 %1 \u00b7 %2")
                                    .arg(groupName(g), plot.plot->fieldNames[f]));
                QColor color = groupColor(g);
                color.setAlpha(kCompareAlpha);
                QPen pen(color);
                pen.setWidthF(3.0);
                pen.setStyle(kFieldStyles[std::min<std::size_t>(f, 2)]);
                series->setPen(pen);
                plot.chart->addSeries(series);
                series->attachAxis(plot.time);
                series->attachAxis(plot.value);
                plot.compareSeries.push_back(series);
            }
        }
    }
    // The title names the lines and the caption the groups: a legend would take the room
    // of the plot itself.
    plot.chart->legend()->setVisible(false);
}

void MetricsDock::fillSeries(PlotView& plot, const QList<int>& groups, double from, double to)
{
    double top = 0.0;
    std::size_t s = 0;
    QStringList now;
    // A series' points from `from` on, at most kMaxPlottedPoints (each bucket's lowest and
    // highest, so a spike survives the thinning).
    auto pointsOf = [&](const std::deque<MetricSample>& samples, MetricField field) {
        auto first =
            std::lower_bound(samples.begin(), samples.end(), from,
                             [](const MetricSample& sample, double t) { return sample.time < t; });
        const std::size_t count = static_cast<std::size_t>(samples.end() - first);
        const std::size_t bucket =
            std::max<std::size_t>(1, (count + kMaxPlottedPoints / 2 - 1) / (kMaxPlottedPoints / 2));
        QList<QPointF> points;
        points.reserve(static_cast<qsizetype>(bucket == 1 ? count : 2 * (count / bucket + 1)));
        for (auto it = first; it != samples.end();) {
            const auto end =
                it + static_cast<std::ptrdiff_t>(std::min<std::size_t>(bucket, samples.end() - it));
            if (bucket == 1) {
                points.append(QPointF(it->time, it->value(field)));
            } else {
                auto [lo, hi] = std::minmax_element(it, end, [&](const auto& a, const auto& b) {
                    return a.value(field) < b.value(field);
                });
                if (lo > hi)
                    std::swap(lo, hi);
                points.append(QPointF(lo->time, lo->value(field)));
                if (hi != lo)
                    points.append(QPointF(hi->time, hi->value(field)));
            }
            it = end;
        }
        for (const QPointF& p : points)
            top = std::max(top, p.y());
        return points;
    };
    for (int g : groups) {
        const std::deque<MetricSample>& samples = m_history.samples(g);
        for (std::size_t f = 0; f < plot.plot->fields.size(); ++f, ++s) {
            const MetricField field = plot.plot->fields[f];
            plot.series[s]->replace(pointsOf(samples, field));
            if (s < plot.compareSeries.size())
                plot.compareSeries[s]->replace(pointsOf(m_compareHistory.samples(g), field));
            if (groups.size() == 1 && !samples.empty())
                now.push_back(QStringLiteral("%1 %2").arg(
                    plot.plot->fieldNames[f], QLocale().toString(samples.back().value(field), 'f',
                                                                 plot.plot->counts ? 0 : 2)));
        }
    }
    plot.time->setRange(from, to);
    plot.time->setTickInterval(niceTop((to - from) / 6.0, true));
    // Order reads against its whole range; anything else against a round top above it.
    const double valueTop = plot.plot->fields.front() == MetricField::Polarization
                                ? 1.0
                                : niceTop(top * 1.05, plot.plot->counts);
    plot.value->setRange(0.0, valueTop);
    plot.value->setTickInterval(niceTop(valueTop / 4.0, plot.plot->counts));
    // The title says which line is which (by its dash) and, for one group, its value now.
    QStringList keys;
    for (std::size_t f = 0; f < plot.plot->fields.size(); ++f) {
        const QString dash = kFieldDashes[std::min<std::size_t>(f, 2)];
        keys.push_back(QStringLiteral("%1 %2").arg(dash, f < static_cast<std::size_t>(now.size())
                                                             ? now[static_cast<qsizetype>(f)]
                                                             : plot.plot->fieldNames[f]));
    }
    const QString unit =
        plot.plot->unit.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(plot.plot->unit);
    plot.chart->setTitle(
        QStringLiteral("%1%2    %3").arg(plot.plot->title, unit, keys.join(QStringLiteral("   "))));
}

void MetricsDock::placeMarks(PlotView& plot, const QList<int>& groups, double from, double to)
{
    // Marks of the edits made to the groups shown (all of them when all are shown): a
    // vertical line through the plot and the change written at its top.
    std::vector<const EditMark*> marks;
    const bool all = groups.size() == 1 && groups.first() == MetricsHistory::kAllGroups;
    for (const EditMark& mark : m_history.edits())
        if (mark.time >= from && mark.time <= to && (all || groups.contains(mark.group)))
            marks.push_back(&mark);
    while (plot.markLines.size() < marks.size()) {
        auto* line = new QGraphicsLineItem(plot.chart);
        QPen pen(palette().color(QPalette::Highlight));
        pen.setStyle(Qt::DashLine);
        pen.setWidthF(1.2);
        line->setPen(pen);
        line->setZValue(10);
        auto* label = new QGraphicsSimpleTextItem(plot.chart);
        QFont small = font();
        small.setPointSizeF(small.pointSizeF() * 0.85);
        label->setFont(small);
        label->setBrush(palette().color(QPalette::Highlight));
        label->setZValue(11);
        plot.markLines.push_back(line);
        plot.markLabels.push_back(label);
    }
    const QRectF area = plot.chart->plotArea();
    const bool several = groups.size() > 1 || all;
    qreal lastRight = -1e9;
    int row = 0;
    for (std::size_t k = 0; k < plot.markLines.size(); ++k) {
        const bool used = k < marks.size() && !plot.series.empty();
        plot.markLines[k]->setVisible(used);
        plot.markLabels[k]->setVisible(used);
        if (!used)
            continue;
        const EditMark& mark = *marks[k];
        const qreal x = plot.chart->mapToPosition(QPointF(mark.time, 0.0), plot.series.front()).x();
        plot.markLines[k]->setLine(x, area.top(), x, area.bottom());
        plot.markLabels[k]->setText(mark.label(several));
        // Labels that would run into the one before drop a line.
        row = x < lastRight + 4 ? (row + 1) % 3 : 0;
        const qreal width = plot.markLabels[k]->boundingRect().width();
        const qreal left = std::min(x + 3, area.right() - width);
        plot.markLabels[k]->setPos(left, area.top() + 1 +
                                             row * plot.markLabels[k]->boundingRect().height());
        lastRight = left + width;
    }
}

void MetricsDock::showValuesAt(const PlotView& plot, double time)
{
    // The sample nearest the pointer's time, for every line of the plot.
    const QList<int> groups = m_seriesGroups;
    QStringList lines;
    lines.push_back(tr("t = %1 s").arg(QLocale().toString(time, 'f', 1)));
    for (int g : groups) {
        const std::deque<MetricSample>& samples = m_history.samples(g);
        if (samples.empty())
            continue;
        auto it = std::lower_bound(samples.begin(), samples.end(), time,
                                   [](const MetricSample& s, double t) { return s.time < t; });
        if (it == samples.end())
            --it;
        else if (it != samples.begin() && time - (it - 1)->time < it->time - time)
            --it;
        for (std::size_t f = 0; f < plot.plot->fields.size(); ++f)
            lines.push_back(
                QStringLiteral("%1%2: %3")
                    .arg(groups.size() > 1 ? groupName(g) + QStringLiteral(" \u00b7 ") : QString(),
                         plot.plot->fieldNames[f],
                         QLocale().toString(it->value(plot.plot->fields[f]), 'f',
                                            plot.plot->counts ? 0 : 3)));
    }
    for (const EditMark& mark : m_history.edits())
        if (std::fabs(mark.time - time) < 0.5)
            lines.push_back(tr("edit: %1").arg(mark.label(true)));
    QToolTip::showText(QCursor::pos(), lines.join(QLatin1Char('\n')), plot.view);
}

} // namespace shoal::ui
