#pragma once
/// A/B compare, a tab beside the metrics: the designer sets some parameters to other values
/// (B) and runs B from the world's moment now, beside the running world (A): the view draws
/// B as a ghost over A, the plots draw B's lines beside A's, and a table sets their metrics
/// side by side. B's values can change while it runs; **Adopt B** gives the level B's values
/// in one undo step (A then runs with them from that moment, and B stops).

#include "simulation/simulationcontroller.h"

#include <QElapsedTimer>
#include <QWidget>

#include <map>
#include <utility>

class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace shoal::ui {

class Document;
struct Change;

class CompareDock : public QWidget
{
    Q_OBJECT

public:
    /// How often the metrics table follows a playing world, ms (the world measures its metrics
    /// only while the plots are shown: the figures then are those of its last measure).
    static constexpr int kRefreshMs = 250;

    CompareDock(Document* document, SimulationController* simulation, QWidget* parent = nullptr);

    QComboBox* groupChoice() const { return m_group; }
    /// The parameters of the chosen group: name, A's value, B's (a spin box).
    QTableWidget* params() const { return m_params; }
    /// Per group: a few metrics of A and of B.
    QTableWidget* metrics() const { return m_metrics; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* stopButton() const { return m_stop; }
    QPushButton* adoptButton() const { return m_adopt; }
    QLabel* summary() const { return m_summary; }

    /// B's value of a parameter (A's, the document's, unless set otherwise).
    double valueB(int group, int param) const;
    /// Sets B's value of a parameter, as its spin box does (live while B runs).
    void setValueB(int group, int param, double value);
    /// The B values that differ from the level's, as the controller takes them.
    std::vector<SimulationController::CompareParam> differences() const;

    /// Runs B from the world's step now with differences().
    void runB();
    /// Gives the level B's values in one undo step and stops B.
    void adoptB();

private:
    void fillParams();
    void refreshMetrics();
    void refreshState();
    void onDocumentChanged(const Change& change);

    Document* m_document;
    SimulationController* m_simulation;
    QComboBox* m_group;
    QTableWidget* m_params;
    QTableWidget* m_metrics;
    QPushButton* m_run;
    QPushButton* m_stop;
    QPushButton* m_adopt;
    QLabel* m_summary;
    /// B's values set otherwise than the level's, by (group, parameter).
    std::map<std::pair<int, int>, double> m_b;
    double m_startedAt = 0.0;
    QElapsedTimer m_sinceRefresh;
};

} // namespace shoal::ui
