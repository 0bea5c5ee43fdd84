#pragma once
/// The Tune dialog's small plot: the best objective so far against the evaluations, painted
/// as a step line (a search only ever improves it), with the budget as the x axis's end.

#include <QWidget>

#include <vector>

namespace shoal::ui {

/// The painted best-so-far plot of the Tune dialog.
class TunePlot : public QWidget
{
    Q_OBJECT

public:
    explicit TunePlot(QWidget* parent = nullptr);

    /// Starts over with `budget` evaluations on the x axis.
    void reset(int budget);
    /// The best objective after the next evaluation.
    void addBest(double best);
    const std::vector<double>& bests() const { return m_bests; }

    QSize sizeHint() const override { return {320, 110}; }
    QSize minimumSizeHint() const override { return {160, 80}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    int m_budget = 1;
    std::vector<double> m_bests;
};

} // namespace shoal::ui
