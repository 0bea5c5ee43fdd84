#pragma once
/// The Tune dialog (docs/user-guide.md, "Sweeps and tuning"): searches boxes of a group's
/// parameters for the values that make the scene's checks pass, or a metric small, large or
/// near a target (the objectives shoal-cli tune accepts), with the same search
/// (experiments::runTune: DIRECT-L, then BOBYQA) on a worker thread: progress in evaluations
/// of the budget, the best so far and a plot of it, Cancel, and Apply of the best values in
/// one undo step.

#include <tuner.h>

#include <QDialog>
#include <QFuture>

#include <atomic>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace shoal::ui {

class Document;
class TunePlot;

/// The Tune dialog of the Experiments menu; modeless, one per main window.
class TuneDialog : public QDialog
{
    Q_OBJECT

public:
    /// The table's columns.
    enum Column
    {
        kParamColumn, ///< checkable: tune this parameter
        kMinColumn,
        kMaxColumn,
        kValueColumn, ///< the document's value, then the best found
    };

    explicit TuneDialog(Document* document, QWidget* parent = nullptr);
    /// Cancels a search under way and waits for it: it reads the dialog's plan.
    ~TuneDialog() override;

    QComboBox* groupField() const { return m_group; }
    QTableWidget* paramTable() const { return m_params; }
    QComboBox* objectiveField() const { return m_objective; }
    QSpinBox* budgetField() const { return m_budget; }
    QSpinBox* seedsField() const { return m_seeds; }
    QSpinBox* stepsField() const { return m_steps; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* applyButton() const { return m_apply; }
    QProgressBar* progressBar() const { return m_progress; }
    TunePlot* plot() const { return m_plot; }
    QString message() const;

    bool isRunning() const;
    const experiments::TunePlan& plan() const { return m_plan; }
    /// The search's result once it ended (done or cancelled).
    const std::optional<experiments::TuneResult>& result() const { return m_result; }

    /// Starts a search with the fields' values; false (and the message says why) when they do
    /// not make one.
    bool start();
    void cancel();
    /// Sets the best values found on the group in one undo step.
    void apply();

signals:
    void tuneFinished();

private:
    /// The groups again after a new scene or a group added, removed or renamed (the one
    /// shown stays when it is still there).
    void refillGroups();
    void fillParams();
    /// "checks" when the scene has checks, then every group's metrics.
    void fillObjectives();
    void setRunning(bool running);
    void takeStep(const experiments::TuneStep& step);
    void finish(const experiments::TuneResult& result);
    void setMessage(const QString& text, bool error = false);

    Document* m_document;
    QComboBox* m_group = nullptr;
    QTableWidget* m_params = nullptr;
    QComboBox* m_objective = nullptr;
    QSpinBox* m_budget = nullptr;
    QSpinBox* m_seeds = nullptr;
    QSpinBox* m_steps = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_apply = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_best = nullptr;
    TunePlot* m_plot = nullptr;
    QLabel* m_message = nullptr;

    experiments::TunePlan m_plan;
    int m_planGroup = -1;
    std::optional<experiments::TuneResult> m_result;
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
    QFuture<void> m_future;
};

} // namespace shoal::ui
