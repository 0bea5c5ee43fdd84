#pragma once
/// The Problems dock: what the ProblemWatch finds in the running world (stuck, oscillating,
/// overlapping, in a wall, no progress to the goal), listed by group, agent, kind, since when
/// and what was measured, and marked in the view. A click on a row selects the group and
/// brings the view to the agent. Watching runs only while the dock is shown; the thresholds
/// are adjustable (Thresholds…) and kept between sessions (docs/user-guide.md, "Problems").

#include <shoal/problems.h>

#include <QElapsedTimer>
#include <QIcon>
#include <QPointer>
#include <QWidget>

#include <map>
#include <vector>

class QComboBox;
class QLabel;
class QMenu;
class QToolButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace shoal::ui {

class EditorScene;
class ProblemMarkersItem;
class SimulationController;

class ProblemsDock : public QWidget
{
    Q_OBJECT

public:
    /// How often the list and the markers follow a playing world, ms.
    static constexpr int kRefreshMs = 200;

    ProblemsDock(SimulationController* simulation, EditorScene* scene, QWidget* parent = nullptr);
    ~ProblemsDock() override;

    /// What the list shows now.
    const std::vector<Problem>& problems() const { return m_problems; }
    QTreeWidget* list() const { return m_list; }
    ProblemMarkersItem* markers() const { return m_markers; }
    QToolButton* markersButton() const { return m_markersButton; }
    QLabel* summary() const { return m_summary; }
    /// "All kinds" or one kind: what the list shows.
    QComboBox* kindFilter() const { return m_kindFilter; }

    ProblemThresholds thresholds() const;
    /// Applies and keeps `thresholds` (the Thresholds… menu does this).
    void setThresholds(const ProblemThresholds& thresholds);

    /// Reads the world's problems now (the dock does this on its own while shown).
    void refresh();

signals:
    /// A row was clicked: show the agent (id `agent`, -1 for the whole group) at `at`.
    void focusRequested(int group, int agent, QPointF at);

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void onStepped();
    void fillList();
    void buildThresholdsMenu();
    void activate(QTreeWidgetItem* item);

    SimulationController* m_simulation;
    QPointer<EditorScene> m_scene;
    std::vector<Problem> m_problems;
    QLabel* m_summary = nullptr;
    QComboBox* m_kindFilter = nullptr;
    QToolButton* m_markersButton = nullptr;
    QToolButton* m_thresholdsButton = nullptr;
    QMenu* m_thresholdsMenu = nullptr;
    QTreeWidget* m_list = nullptr;
    ProblemMarkersItem* m_markers = nullptr;
    QElapsedTimer m_sinceRefresh;
    std::map<ProblemKind, QIcon> m_kindIcons; ///< made once: the list shows one per row
};

} // namespace shoal::ui
