#pragma once
/// One parameter in the property panel, built from its ParamSpec: label (the spec's tooltip),
/// a slider and a spin box limited to the spec's range and step (a combo box for a Choice),
/// the unit, a reset-to-default button and an inline error line. It owns no value: it emits
/// edited() and the panel decides (push an undo command, or show why not); setValue() shows
/// the model's value without emitting.
///
/// The slider is logarithmic where the range spans three decades or more (0.1 to 100 m), so
/// small values get as much travel as large ones. A drag moves the value by how far the mouse
/// moved (the handle never jumps to the pointer), ten times finer while Shift is held; the
/// label scrubs the same way when dragged sideways. A drag of either is one edit.

#include <shoal/paramspec.h>

#include <QIcon>
#include <QTimer>
#include <QWheelEvent>
#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QSlider;
class QSpinBox;
class QToolButton;

namespace shoal::ui {

/// A value widget that takes the mouse wheel only when it has focus: scrolling the panel over
/// a row must not change the row's value.
template <class Widget> class FocusWheel : public Widget
{
public:
    using Widget::Widget;

protected:
    void wheelEvent(QWheelEvent* event) override
    {
        if (this->hasFocus())
            Widget::wheelEvent(event);
        else
            event->ignore(); // goes on to the scroll area
    }
};

class ParamRow : public QWidget
{
    Q_OBJECT

public:
    explicit ParamRow(ParamSpec spec, QWidget* parent = nullptr);

    const ParamSpec& spec() const { return m_spec; }
    /// The value shown (the model's, or the one being edited).
    double value() const { return m_value; }
    bool isMixed() const { return m_mixed; }

    /// Shows `value` without emitting edited(). `mixed`: several groups are edited and their
    /// values differ (the label is set in italics and reset stays enabled).
    void setValue(double value, bool mixed = false);

    /// Shows `message` in red under the row; an empty message hides it.
    /// Shows why an edit was refused under the row, for kErrorMs (empty: hides it now).
    void setError(const QString& message);
    static constexpr int kErrorMs = 6000;
    QString error() const;

    /// Aligns this row's columns with its neighbours' (the panel passes the widest).
    void setColumnWidths(int labelWidth, int unitWidth);
    int labelWidthHint() const;
    int unitWidthHint() const;
    /// The label and unit widths a row of `spec` needs in `font`, for a panel that sizes its
    /// columns for every family at once (so selecting another family moves nothing).
    static int labelWidthFor(const ParamSpec& spec, const QFont& font);
    static int unitWidthFor(const ParamSpec& spec, const QFont& font);

    QLabel* label() const { return m_label; }
    /// Null for a Choice.
    QSlider* slider() const { return m_slider; }
    /// Set for a Real parameter.
    QDoubleSpinBox* doubleSpinBox() const { return m_doubleSpin; }
    /// Set for an Integer parameter.
    QSpinBox* intSpinBox() const { return m_intSpin; }
    /// Set for a Choice.
    QComboBox* comboBox() const { return m_combo; }
    QToolButton* resetButton() const { return m_reset; }
    /// True when the slider maps its travel to the range logarithmically.
    bool isLogarithmic() const { return m_logarithmic; }
    /// Shift held during a drag divides its speed by this.
    static constexpr double kFineFactor = 10.0;

protected:
    /// The slider's drags and the label's scrub (see the class comment).
    bool eventFilter(QObject* watched, QEvent* event) override;

signals:
    /// The user changed the value. `commit` is false while a slider drag goes on; the drag's
    /// release (and every other edit) comes with commit = true.
    void edited(double value, bool commit);

private:
    // The row's widgets, built once by the constructor.
    void addChoice(QGridLayout* layout, const QString& tooltip);
    void addSliderAndSpin(QGridLayout* layout, const QString& tooltip);
    void addResetButton(QGridLayout* layout);
    void addErrorLine(QGridLayout* layout);
    int sliderPosition(double value) const;
    double sliderValue(int position) const;
    void showValue(double value);
    void updateResetButton();
    void onSliderMoved(int position);
    void onSliderReleased();
    void userEdit(double value, bool commit);
    /// Slider positions per pixel of mouse travel (Shift: kFineFactor times fewer).
    double positionsPerPixel(bool fine) const;
    /// Starts measuring a drag from `x` (px) at the slider's current position.
    void anchorDrag(int x, bool fine);
    /// The slider position a drag has reached at `x`.
    int draggedPosition(int x, bool fine);
    bool sliderEvent(QEvent* event);
    bool labelEvent(QEvent* event);

    ParamSpec m_spec;
    double m_value = 0.0;
    bool m_mixed = false;
    bool m_dragEdited = false;
    int m_stepDecimals = 0;
    bool m_logarithmic = false;
    int m_positions = 1; ///< the slider's range is 0 to this
    // A drag in progress, of the slider's handle or of the label: where it was anchored (the
    // mouse x and the slider position then) and whether Shift was held since.
    bool m_scrubbing = false;
    bool m_labelPressed = false;
    int m_anchorX = 0;
    double m_anchorPosition = 0.0;
    bool m_anchorFine = false;
    QLabel* m_label = nullptr;
    QSlider* m_slider = nullptr;
    QDoubleSpinBox* m_doubleSpin = nullptr;
    QSpinBox* m_intSpin = nullptr;
    QComboBox* m_combo = nullptr;
    QLabel* m_unit = nullptr;
    QToolButton* m_reset = nullptr;
    QLabel* m_error = nullptr;
    QTimer m_errorTimer; ///< hides the message a while after it was shown
};

/// The reset-to-default button's icon: a small counter-clockwise arrow, drawn so it looks the
/// same on every platform theme.
QIcon resetIcon(const QColor& color);

/// Decimals needed to show `value` exactly (to 1e-9), at most `maxDecimals`.
int decimalsFor(double value, int maxDecimals = 6);

} // namespace shoal::ui
