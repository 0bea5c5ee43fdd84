#pragma once
/// The metrics dock: live plots of what the runtime measures every step (spacing, order,
/// speed, agents out of place, collisions, stuck agents, distance to the goal) for the
/// selected groups, or every group when none is selected, over the last 10 to 120 s of
/// simulated time. It scrolls while the world plays and holds still when it is paused;
/// hovering a line shows the values at that moment. Every parameter edit is a labelled
/// vertical mark on the plots, so a change and its effect sit side by side.

#include "metrics/metricshistory.h"

#include <shoal/scenedesc.h>

#include <QElapsedTimer>
#include <QHash>
#include <QWidget>

#include <cstdint>
#include <optional>
#include <vector>

class QChart;
class QChartView;
class QGraphicsLineItem;
class QGraphicsSimpleTextItem;
class QLabel;
class QLineSeries;
class QSpinBox;
class QToolButton;
class QValueAxis;
class QGridLayout;
class QGraphicsRectItem;

namespace shoal::ui {

class Document;
class GroupSelection;
class SimulationController;
struct Change;

/// One plot of the dock: a title, a unit and the fields it draws (solid, then dashed...).
struct MetricPlot
{
    QString id; ///< stable name (settings, tests)
    QString title;
    QString unit;
    std::vector<MetricField> fields;
    std::vector<QString> fieldNames;
    bool counts = false; ///< whole numbers of agents or pairs
    bool shownByDefault = true;
};
const std::vector<MetricPlot>& metricPlots();
/// The key a check names the field by (checkMetricKeys()), or null for a field no one metric
/// of the runtime is (the deepest overlap of bodies within or across groups).
const char* checkKeyOf(MetricField field);

class MetricsDock : public QWidget
{
    Q_OBJECT

public:
    MetricsDock(Document* document, GroupSelection* selection, SimulationController* simulation,
                QWidget* parent = nullptr);
    ~MetricsDock() override;

    const MetricsHistory& history() const { return m_history; }
    /// World B's metrics while an A/B compare runs (empty otherwise): drawn beside A's, each
    /// line in its group's colour, lighter.
    const MetricsHistory& compareHistory() const { return m_compareHistory; }
    /// Seconds of simulated time the plots show (10 to 120).
    double windowSeconds() const;
    void setWindowSeconds(double seconds);
    /// Shows or hides the plot with this id (metricPlots()).
    void setPlotShown(const QString& id, bool shown);
    bool isPlotShown(const QString& id) const;
    /// The chart of the plot with this id (null when unknown): tests read its series.
    QChart* chart(const QString& id) const;
    /// The groups the plots draw: the selected ones, else every group when there are few,
    /// else MetricsHistory::kAllGroups.
    QList<int> shownGroups() const;
    /// Redraws now (the dock redraws at most every kRedrawMs while the world plays).
    void redraw();
    static constexpr int kRedrawMs = 100;

    /// The check "Keep this between these values…" proposes for line `field` (an index into
    /// the plot's fields) of `group` (or MetricsHistory::kAllGroups) on plot `plotId`: within
    /// the range dragged on that plot, else the lowest to the highest value the line shows,
    /// rounded outward. Nothing for a field no check can name.
    std::optional<CheckDesc> proposedCheck(const QString& plotId, int group, int field) const;
    /// Proposes that check (checkProposed()).
    void proposeCheck(const QString& plotId, int group, int field);
    /// The value range dragged on plot `plotId` (tests set it as a drag would).
    void setDraggedRange(const QString& plotId, double low, double high);

signals:
    /// "Keep this between these values…": the Checks dock opens its dialog with `check`.
    void checkProposed(const shoal::CheckDesc& check);

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void layOutPlots();
    struct PlotView
    {
        const MetricPlot* plot = nullptr;
        QChartView* view = nullptr;
        QChart* chart = nullptr;
        QValueAxis* time = nullptr;
        QValueAxis* value = nullptr;
        std::vector<QLineSeries*> series;        ///< shown group x field, in that order
        std::vector<QLineSeries*> compareSeries; ///< the same of world B, while comparing
        std::vector<QGraphicsLineItem*> markLines;
        std::vector<QGraphicsSimpleTextItem*> markLabels;
        /// The value range dragged on the plot (a band), for the check it proposes.
        QGraphicsRectItem* band = nullptr;
        std::optional<std::pair<double, double>> dragged;
        std::optional<double> dragFrom; ///< the value where a drag began
    };
    void showPlotMenu(std::size_t plot, const QPoint& at);
    void placeBand(PlotView& plot);
    void onStepped();
    /// An A/B compare started or stopped: B's lines come or go.
    void onCompareChanged();
    void onWorldRebuilt();
    /// Asks the world to measure every kSampleSeconds while the dock shows (and not at all
    /// while it is hidden).
    void measureWhileShown();
    void onDocumentChanged(const Change& change);
    void rememberParams();
    void buildSeries(PlotView& plot, const QList<int>& groups);
    void fillSeries(PlotView& plot, const QList<int>& groups, double from, double to);
    void placeMarks(PlotView& plot, const QList<int>& groups, double from, double to);
    void showValuesAt(const PlotView& plot, double time);
    QString groupName(int group) const;
    QColor groupColor(int group) const;

    Document* m_document;
    GroupSelection* m_selection;
    SimulationController* m_simulation;
    MetricsHistory m_history;
    MetricsHistory m_compareHistory; ///< world B's, while comparing
    /// Each group's parameters as last seen, so an edit's mark says what it was before.
    std::vector<std::vector<double>> m_params;
    std::vector<PlotView> m_plots;
    QList<int> m_seriesGroups; ///< the groups the series were built for
    QSpinBox* m_window = nullptr;
    QToolButton* m_plotMenu = nullptr;
    QLabel* m_caption = nullptr;
    QGridLayout* m_plotLayout = nullptr;
    int m_columns = 0;
    QElapsedTimer m_sinceRedraw;
    std::uint64_t m_observedStep = ~std::uint64_t(0); ///< the world's metricsStep() last read
};

} // namespace shoal::ui
