#pragma once
/// The Sweep dialog (docs/user-guide.md, "Sweeps and tuning"): runs the document's scene for
/// every combination of one or two parameters of a group (FROM:TO:STEP each, the spec's range
/// by default) times a few seeds, on worker threads with a progress bar and Cancel, and paints
/// the runs as a heatmap of a chosen measure (checks passed, score or any group's metric).
/// Clicking a cell sets its values on the document in one undo step, so Play tries them;
/// Apply Best does the same for the best cell. The runs are those of shoal-cli sweep
/// (experiments::runSweep), so the heatmap matches its CSV.

#include "experiments/sweepcells.h"

#include <sweeprunner.h>

#include <QDialog>
#include <QFuture>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace shoal::ui {

class Document;
class HeatmapWidget;

/// The Sweep dialog of the Experiments menu; modeless, one per main window.
class SweepDialog : public QDialog
{
    Q_OBJECT

public:
    explicit SweepDialog(Document* document, QWidget* parent = nullptr);
    /// Cancels a sweep under way and waits for its threads: they read the dialog's plan.
    ~SweepDialog() override;

    QComboBox* groupField() const { return m_group; }
    QComboBox* firstParamField() const { return m_param[0]; }
    QComboBox* secondParamField() const { return m_param[1]; }
    QLineEdit* firstRangeField() const { return m_range[0]; }
    QLineEdit* secondRangeField() const { return m_range[1]; }
    QSpinBox* seedsField() const { return m_seeds; }
    QSpinBox* stepsField() const { return m_steps; }
    QComboBox* measureField() const { return m_measure; }
    QComboBox* bestField() const { return m_bestIs; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* applyBestButton() const { return m_applyBest; }
    QProgressBar* progressBar() const { return m_progress; }
    HeatmapWidget* heatmap() const { return m_heatmap; }
    /// What the dialog says under the heatmap (a refusal, the sweep's summary, an applied cell).
    QString message() const;

    bool isRunning() const;
    /// The runs delivered so far, in run order.
    const std::vector<experiments::SweepRun>& runs() const { return m_runs; }
    /// The plan of the last sweep started.
    const experiments::SweepPlan& plan() const { return m_plan; }
    /// The cells of the runs so far by the chosen measure.
    SweepCells cells() const;
    SweepMeasure measure() const;

    /// Starts a sweep with the fields' values; false (and the message says why) when they do
    /// not make one.
    bool start();
    void cancel();
    /// Sets cell `cell`'s values on the document's group in one undo step.
    void applyCell(std::size_t cell);
    void applyBest();

signals:
    /// The sweep ended: done or cancelled.
    void sweepFinished();

private:
    /// The groups again after a new scene or a group added, removed or renamed (the one
    /// shown stays when it is still there).
    void refillGroups();
    void fillParams();
    void fillMeasures();
    void resetRange(int axis);
    void setRunning(bool running);
    /// Runs arrived from the worker (queued onto the dialog's thread).
    void takeRuns(std::vector<experiments::SweepRun> runs);
    void onFinished();
    void refreshHeatmap();
    void setMessage(const QString& text, bool error = false);

    Document* m_document;
    QComboBox* m_group = nullptr;
    QComboBox* m_param[2] = {};
    QLineEdit* m_range[2] = {};
    QSpinBox* m_seeds = nullptr;
    QSpinBox* m_steps = nullptr;
    QComboBox* m_measure = nullptr;
    QComboBox* m_bestIs = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_applyBest = nullptr;
    QProgressBar* m_progress = nullptr;
    HeatmapWidget* m_heatmap = nullptr;
    QLabel* m_message = nullptr;

    experiments::SweepPlan m_plan;
    int m_planGroup = -1; ///< the group the plan varies, by index in the document's scene
    std::vector<experiments::SweepRun> m_runs;
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
    QFuture<void> m_future;
};

} // namespace shoal::ui
