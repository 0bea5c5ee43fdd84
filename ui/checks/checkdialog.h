#pragma once
/// The dialog that writes one check of the scene (docs/user-guide.md, "Checks"): its name, the
/// metric (GROUP.KEY or all.KEY), the comparison with a number, a range or another metric,
/// and the window of the run it looks at. What the scene validator refuses (validateChecks)
/// is shown with its message and the dialog cannot be accepted: nothing is clamped.

#include <shoal/scenedesc.h>

#include <QDialog>

#include <optional>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace shoal::ui {

class CheckDialog : public QDialog
{
    Q_OBJECT

public:
    /// Edits `check`, which is (or becomes, for index == scene.checks.size()) check `index`
    /// of `scene`: the validator's message names it so.
    CheckDialog(const SceneDesc& scene, int index, const CheckDesc& check,
                QWidget* parent = nullptr);

    /// The check as the fields say now; nothing while a field does not read as a number.
    std::optional<CheckDesc> check() const;
    /// Why the check cannot be accepted, or empty.
    QString refusal() const;

    QLineEdit* nameField() const { return m_name; }
    QComboBox* metricField() const { return m_metric; }
    QComboBox* compareField() const { return m_compare; }
    QLineEdit* valueField() const { return m_value; }
    QLineEdit* highField() const { return m_high; }
    QComboBox* windowField() const { return m_window; }
    QLineEdit* secondsField() const { return m_seconds; }

    void done(int result) override;

private:
    void update();

    SceneDesc m_scene; ///< groups and checks only: what the fields offer and the validator reads
    int m_index;
    QLineEdit* m_name = nullptr;
    QComboBox* m_metric = nullptr;
    QComboBox* m_compare = nullptr;
    QLineEdit* m_value = nullptr;
    QLabel* m_andLabel = nullptr;
    QLineEdit* m_high = nullptr;
    QComboBox* m_window = nullptr;
    QLineEdit* m_seconds = nullptr;
    QLabel* m_preview = nullptr;
    QLabel* m_message = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

} // namespace shoal::ui
