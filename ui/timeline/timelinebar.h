#pragma once
/// The timeline under the viewport: a strip from the first step the run's history keeps to
/// the furthest it reached, with the world's step as a cursor, the parameter and target
/// edits as marks and the part a snapshot no longer covers shaded. Press or drag on it to
/// show the world at that step; Step Back and Step Forward move one step; Branch Here drops
/// the future after the shown step and the run goes on live from it. The label says where
/// the world is and what the history costs.

#include <QWidget>

#include <cstdint>
#include <vector>

class QLabel;
class QToolButton;

namespace shoal::ui {

class SimulationController;

/// The painted strip of the bar: maps steps to x and back, and scrubs on press and drag.
class TimelineStrip : public QWidget
{
    Q_OBJECT

public:
    explicit TimelineStrip(SimulationController* simulation, QWidget* parent = nullptr);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    /// The step shown at x (widget coordinates), within the history.
    std::uint64_t stepAt(int x) const;
    /// The x of a step.
    double xOf(std::uint64_t step) const;
    /// Takes what it draws from the timeline and the world now (TimelineBar::refresh(), on
    /// every announced step): painted from this copy, the strip never waits for steps under
    /// way on the stepping thread.
    void takeState();

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    QRectF track() const;
    void scrubTo(int x);

    SimulationController* m_simulation;
    bool m_dragging = false;
    /// What the strip shows, as takeState() last found it.
    struct Shown
    {
        bool any = false; ///< a world with a timeline
        std::uint64_t now = 0, base = 0, head = 0, firstKept = 0;
        std::vector<std::uint64_t> edits;
    } m_shown;
};

class TimelineBar : public QWidget
{
    Q_OBJECT

public:
    explicit TimelineBar(SimulationController* simulation, QWidget* parent = nullptr);
    TimelineStrip* strip() const { return m_strip; }
    /// "step 1,234 · 20.57 s of 45.00 s", as the label shows it.
    QString positionText() const;

private:
    void refresh();

    SimulationController* m_simulation;
    QToolButton* m_back;
    QToolButton* m_forward;
    TimelineStrip* m_strip;
    QLabel* m_position;
    QToolButton* m_branch;
};

} // namespace shoal::ui
