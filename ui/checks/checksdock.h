#pragma once
/// The Checks dock: one row per check of the scene (docs/user-guide.md, "Checks"): its name,
/// its condition, its state on the running world (pending, holding, passed, failed) and what
/// it measured, with a summary ("5 of 8 holding, 1 failed"). It follows the controller's
/// CheckRunner; Add, Edit and Remove change the scene's checks, each as one undo step, and
/// "Decide now" ends the watch at the world's time.

#include <shoal/checks.h>

#include <QElapsedTimer>
#include <QWidget>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace shoal::ui {

class CheckDialog;
class Document;
class SimulationController;
struct Change;

class ChecksDock : public QWidget
{
    Q_OBJECT

public:
    /// How often the rows follow a playing world, ms.
    static constexpr int kRefreshMs = 200;

    enum Column
    {
        StateColumn,
        NameColumn,
        ConditionColumn,
        MeasuredColumn,
    };

    ChecksDock(Document* document, SimulationController* simulation, QWidget* parent = nullptr);

    QTreeWidget* list() const { return m_list; }
    QLabel* summary() const { return m_summary; }
    QPushButton* decideButton() const { return m_decide; }
    /// The state each row shows, in the scene's order (Pending for all while nothing runs).
    std::vector<CheckState> states() const;

    /// Reads the runner now (the dock does this on its own).
    void refresh();
    /// Opens the dialog for a new check (prefilled with `check`) or for check `index`; its
    /// OK pushes the one undo step. Returns the dialog (open, not modal for the caller).
    CheckDialog* addCheck(const CheckDesc& check);
    CheckDialog* editCheck(int index);
    void removeCheck(int index);

    static QString stateName(CheckState state);
    static QColor stateColor(CheckState state);

private:
    void onStepped();
    void onDocumentChanged(const Change& change);
    void fillRows();
    int currentIndex() const;

    Document* m_document;
    SimulationController* m_simulation;
    QLabel* m_summary = nullptr;
    QPushButton* m_add = nullptr;
    QPushButton* m_edit = nullptr;
    QPushButton* m_remove = nullptr;
    QPushButton* m_decide = nullptr;
    QTreeWidget* m_list = nullptr;
    QElapsedTimer m_sinceRefresh;
};

} // namespace shoal::ui
