#pragma once
/// The property panel (a dock's widget), generated from the core's ParamSpec tables: every
/// parameter of the selected groups' family as a ParamRow, their collision (CollisionSection,
/// for groups of any families), then the scene's settings (time step, seed, simulation speed) and
/// the player: the group it leads, its start heading and its parameters. A preset bar over the
/// rows applies presets and lists what differs from the defaults (changed rows have bold
/// labels). Edits go through undo commands (a slider drag is one step); the running world
/// follows through the SimulationController. A value that breaks a rule between parameters is
/// refused with a message under its row.

#include <shoal/scenedesc.h>

#include <QList>
#include <QWidget>

#include <string>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QToolButton;
class QUndoCommand;
class QVBoxLayout;

namespace shoal::ui {

class CollisionSection;
class Document;
class GroupSelection;
class ParamRow;
class PresetBar;
class SimulationController;
struct Change;

class PropertyPanel : public QWidget
{
    Q_OBJECT

public:
    PropertyPanel(Document* document, GroupSelection* selection, SimulationController* controller,
                  QWidget* parent = nullptr);

    /// The rows of the selected groups' family, in table order (empty with no selection or
    /// with groups of several families).
    const QList<ParamRow*>& groupRows() const { return m_groupRows; }
    /// The group row, player row of that key, or null.
    ParamRow* groupRow(const QString& key) const;
    ParamRow* playerRow(const QString& key) const;
    /// The player's start heading (degrees), under Leads.
    ParamRow* playerHeadingRow() const { return m_headingRow; }
    /// The selected groups' collision (hidden with no group selected).
    CollisionSection* collisionSection() const { return m_collision; }
    /// The selected groups' presets and differences from default (hidden unless the
    /// selection is of one family).
    PresetBar* presetBar() const { return m_presetBar; }
    ParamRow* timeStepRow() const { return m_timeStepRow; }
    ParamRow* speedRow() const { return m_speedRow; }
    QLineEdit* seedEdit() const { return m_seedEdit; }
    /// The player's "Leads" choice: "None", then every group the player can lead (fish
    /// schools and leader-following groups, in scene order; the item data is the name).
    QComboBox* leadsCombo() const { return m_leadsCombo; }
    /// What the group section says instead of rows ("No group selected", mixed families), or
    /// empty when it shows rows.
    QString groupMessage() const;

private:
    /// A group as the Leads combo shows it.
    struct LeadChoice
    {
        std::string name;
        Color color;
        Color accent;
        bool usable = true; ///< false: the scene names a group the player cannot lead
        bool operator==(const LeadChoice& o) const
        {
            return name == o.name && color == o.color && accent == o.accent && usable == o.usable;
        }
    };

    void buildSceneSection(QVBoxLayout* layout);
    QWidget* buildLeadsRow(QWidget* parent);
    void onSelectionChanged();
    void onDocumentChanged(const Change& change);
    /// The selected groups that exist, and the family they share (false when mixed or none).
    bool selectedFamily(QList<int>* groups, int* kind) const;
    void rebuildGroupRows();
    void refreshGroupSection();
    void refreshSceneSection();
    /// Lists the groups the player can lead again when they changed, and shows its choice.
    void refreshLeads();
    /// The header's agent count, from the running world once it has stepped.
    void refreshHeaderCount();
    void alignColumns();
    void clearGroupErrors();
    /// Shows `row`'s label in bold when a selected group's value differs from the default.
    static void markChanged(ParamRow* row, bool changed);

    void editGroupParam(ParamRow* row, int paramIndex, double value, bool commit);
    void editPlayerParam(ParamRow* row, int paramIndex, double value, bool commit);
    void editPlayerHeading(double value, bool commit);
    void editTimeStep(double value, bool commit);
    void chooseLead(int index);
    void applySeed();
    void newSeed();

    /// Pushes a command of a live edit: an uncommitted one opens (or continues) `row`'s chain,
    /// a committed one closes it.
    void pushLive(QUndoCommand* command, ParamRow* row, bool commit);
    /// True while `row`'s last uncommitted command is still the top of the undo stack.
    bool chainOpen(const ParamRow* row) const;

    Document* m_document;
    GroupSelection* m_selection;
    SimulationController* m_controller;

    QWidget* m_header = nullptr;
    QLabel* m_swatch = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_subtitle = nullptr;
    QLabel* m_groupSectionTitle = nullptr;
    QLabel* m_message = nullptr;
    PresetBar* m_presetBar = nullptr;
    QWidget* m_rowsWidget = nullptr;
    QVBoxLayout* m_rowsLayout = nullptr;
    QList<ParamRow*> m_groupRows;
    int m_rowsKind = -1;
    QLabel* m_collisionTitle = nullptr;
    QWidget* m_collisionRule = nullptr;
    CollisionSection* m_collision = nullptr;
    QList<int> m_editGroups;

    ParamRow* m_timeStepRow = nullptr;
    QWidget* m_seedRow = nullptr;
    QLabel* m_seedLabel = nullptr;
    QLineEdit* m_seedEdit = nullptr;
    QToolButton* m_newSeedButton = nullptr;
    ParamRow* m_speedRow = nullptr;
    QLabel* m_playerNote = nullptr;
    QLabel* m_leadsLabel = nullptr;
    QComboBox* m_leadsCombo = nullptr;
    QWidget* m_leadsUnitSpace = nullptr;  ///< as wide as the rows' unit column
    QWidget* m_leadsResetSpace = nullptr; ///< as wide as the rows' reset button
    /// What the Leads combo lists after "None" (and, last, a name it cannot lead).
    std::vector<LeadChoice> m_leadsListed;
    ParamRow* m_headingRow = nullptr;
    QList<ParamRow*> m_playerRows;

    const ParamRow* m_chainRow = nullptr;
    int m_chainIndex = -1;
};

} // namespace shoal::ui
