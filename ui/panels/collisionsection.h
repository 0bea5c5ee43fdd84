#pragma once
/// The property panel's Collision section: the selected groups' CollisionDesc, the scene
/// file's `collision`. Layers and Mask as a LayerGrid each, Priority as a spin box, each with
/// a reset-to-default button (every group goes back to its family's default), laid out in the
/// columns of the ParamRows above; then, for one group, what its bodies do to every other
/// body of the level in plain words (gives way to, pushes aside, both give way, passes
/// through). Every edit is one undo step on all the selected groups (any families); the
/// running world is rebuilt with the new rule (SimulationController).

#include <shoal/scenedesc.h>

#include <QList>
#include <QWidget>

#include <cstdint>

class QGridLayout;
class QLabel;
class QSpinBox;
class QToolButton;

namespace shoal::ui {

class Document;
class LayerGrid;

class CollisionSection : public QWidget
{
    Q_OBJECT

public:
    explicit CollisionSection(Document* document, QWidget* parent = nullptr);

    /// The groups edited (indices into the document's groups) and shows their values.
    void setGroups(const QList<int>& groups);
    const QList<int>& groups() const { return m_groups; }
    /// Shows the document's values of the groups again (after a change).
    void refresh();

    LayerGrid* layersGrid() const { return m_layers; }
    LayerGrid* maskGrid() const { return m_mask; }
    QSpinBox* prioritySpin() const { return m_priority; }
    QToolButton* layersReset() const { return m_layersReset; }
    QToolButton* maskReset() const { return m_maskReset; }
    QToolButton* priorityReset() const { return m_priorityReset; }
    QLabel* layersLabel() const { return m_layersLabel; }
    QLabel* maskLabel() const { return m_maskLabel; }
    QLabel* priorityLabel() const { return m_priorityLabel; }
    /// The plain-words lines for one group ("Gives way to: squad, the player"), in order;
    /// empty with several groups selected.
    QStringList summary() const;

    /// Aligns the columns with the ParamRows' (the panel passes the widest).
    void setColumnWidths(int labelWidth, int unitWidth);
    int labelWidthHint() const;

private:
    enum class Field
    {
        Layers,
        Mask,
        Priority
    };
    struct SummaryRow
    {
        QLabel* title = nullptr;
        QLabel* names = nullptr;
    };

    QLabel* addLabel(const QString& text, const QString& tooltip, int row);
    QToolButton* addReset(Field field, int row);
    void editLayers(Field field, std::uint32_t set, std::uint32_t cleared);
    void editPriority(int value);
    void reset(Field field);
    /// Pushes one step giving every edited group `edit(its collision)`; nothing when no group
    /// changes.
    template <class Edit> void apply(const char* text, Edit edit);
    void refreshSummary();
    static void setMixed(QLabel* label, const QString& text, const QString& tooltip, bool mixed);

    Document* m_document;
    QList<int> m_groups;
    QGridLayout* m_grid = nullptr;
    QLabel* m_layersLabel = nullptr;
    QLabel* m_maskLabel = nullptr;
    QLabel* m_priorityLabel = nullptr;
    LayerGrid* m_layers = nullptr;
    LayerGrid* m_mask = nullptr;
    QSpinBox* m_priority = nullptr;
    QToolButton* m_layersReset = nullptr;
    QToolButton* m_maskReset = nullptr;
    QToolButton* m_priorityReset = nullptr;
    QList<QWidget*> m_unitSpaces; ///< as wide as the ParamRows' unit column
    QList<SummaryRow> m_summary;
};

} // namespace shoal::ui
