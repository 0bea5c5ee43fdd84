#pragma once
/// The presets row of the property panel (docs/presets.md): apply a preset to the selected
/// groups of one family as one undo step, save the first group's values as a preset of the
/// designer's own, and list the parameters that differ from their defaults (each resettable,
/// or all at once). The presets come from presets::load() (built-in and the user's folder).

#include <shoal/preset.h>

#include <QList>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QMenu;
class QToolButton;

namespace shoal::ui {

class Document;

class PresetBar : public QWidget
{
    Q_OBJECT

public:
    explicit PresetBar(Document* document, QWidget* parent = nullptr);

    /// The groups the bar works on (all of family `kind`); refreshes the list and the count.
    void setGroups(const QList<int>& groups, BehaviourKind kind);
    /// Re-reads the groups' values (after any document change).
    void refresh();
    /// Reads the presets again (after a save, or when the user's folder may have changed).
    void reloadPresets();

    /// The presets the combo offers for the family, built-ins first.
    const std::vector<Preset>& offered() const { return m_offered; }
    /// Applies the offered preset `name` to the groups: one undo step "Apply Preset 'name'".
    /// False (and the reason shown under the bar) when a group refuses it.
    bool applyPreset(const QString& name);
    /// Saves the first group's values as the user's preset `name` (replacing one of that
    /// name); false and the reason shown when the name or the write is refused.
    bool savePreset(const QString& name);
    /// "Label: value (default d)" for each parameter that differs, in table order.
    QStringList differences() const;
    /// Sets every parameter of the groups back to its default: one undo step.
    void resetAll();

    QComboBox* presetCombo() const { return m_combo; }
    QToolButton* saveButton() const { return m_save; }
    QToolButton* differencesButton() const { return m_differences; }
    /// The refusal shown under the bar (empty when none).
    QString message() const;

private:
    void fillCombo();
    void onActivated(int index);
    void askAndSave();
    void fillDifferencesMenu();
    /// differences()'s line of parameter `p`, or empty when every group has its default.
    QString differenceLine(std::size_t p) const;
    void resetOne(int paramIndex);
    void showMessage(const QString& text);

    Document* m_document;
    QList<int> m_groups;
    BehaviourKind m_kind = BehaviourKind::FishSchool;
    std::vector<Preset> m_all;     ///< every preset loaded
    std::vector<Preset> m_offered; ///< those of m_kind
    QComboBox* m_combo = nullptr;
    QToolButton* m_save = nullptr;
    QToolButton* m_differences = nullptr;
    QMenu* m_differencesMenu = nullptr;
    QLabel* m_message = nullptr;
    QTimer m_messageTimer;
};

} // namespace shoal::ui
