// The property panel's sliders as a user drags them in the real window: wide enough that a
// short drag is a small change, logarithmic over ranges of decades, finer with Shift, and a
// label that scrubs the value when dragged sideways, each drag one undo step.

#include "document/document.h"
#include "document/groupselection.h"
#include "files/scenefiles.h"
#include "panels/paramrow.h"
#include "panels/propertypanel.h"
#include "window/mainwindow.h"

#include <QDoubleSpinBox>
#include <QLabel>
#include <QSlider>
#include <QStandardPaths>
#include <QStyleOptionSlider>
#include <QTest>
#include <QUndoStack>

using namespace shoal;
using namespace shoal::ui;

namespace {

constexpr int kSquad = 1; // the demo's tank squad

QPoint handleCentre(QSlider* slider)
{
    QStyleOptionSlider option;
    option.initFrom(slider);
    option.orientation = slider->orientation();
    option.minimum = slider->minimum();
    option.maximum = slider->maximum();
    option.sliderPosition = slider->sliderPosition();
    option.sliderValue = slider->value();
    option.subControls = QStyle::SC_SliderHandle;
    return slider->style()
        ->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderHandle, slider)
        .center();
}

/// A press at `from`, moves of `dx` px in steps of 2 px, a release, all with `modifiers`.
void drag(QWidget* widget, QPoint from, int dx, Qt::KeyboardModifiers modifiers = {})
{
    QTest::mousePress(widget, Qt::LeftButton, modifiers, from);
    QPoint at = from;
    const int stepX = dx > 0 ? 2 : -2;
    for (int moved = 0; std::abs(moved) < std::abs(dx); moved += stepX) {
        at.rx() += (std::abs(dx - moved) < 2) ? dx - moved : stepX;
        QMouseEvent move(QEvent::MouseMove, QPointF(at), widget->mapToGlobal(QPointF(at)),
                         Qt::NoButton, Qt::LeftButton, modifiers);
        QApplication::sendEvent(widget, &move);
    }
    QTest::mouseRelease(widget, Qt::LeftButton, modifiers, at);
}

/// The editor window at the size a designer uses, the demo open and the squad selected.
struct Window
{
    Window()
    {
        window.resize(1440, 900);
        window.show();
        if (!QTest::qWaitForWindowExposed(&window))
            qFatal("the window was not shown");
        if (!window.files()->openDemo())
            qFatal("the demo did not open");
        window.groupSelection()->select(kSquad);
        QCoreApplication::processEvents();
    }
    ParamRow* row(const char* key) const
    {
        return window.findChild<PropertyPanel*>()->groupRow(QString::fromLatin1(key));
    }
    QUndoStack* undo() const { return window.document()->undoStack(); }

    MainWindow window;
};

} // namespace

class TestSliders : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("shoal-test-sliders"));
    }

    void aShortDragIsASmallChange()
    {
        // A designer's 58 px drag of the squad's Move speed (0.1 to 30 m/s) from 5 m/s once
        // reached 30: the slider is wide enough now that it moves less than half the range
        // (and Shift or the label go finer, below).
        Window w;
        ParamRow* speed = w.row("moveSpeed");
        QVERIFY(speed);
        QVERIFY2(speed->slider()->width() >= 150,
                 qPrintable(QString::number(speed->slider()->width())));
        speed->doubleSpinBox()->setValue(5.0);
        QCOMPARE(speed->value(), 5.0);
        drag(speed->slider(), handleCentre(speed->slider()), 58);
        QVERIFY2(speed->value() > 5.0 && speed->value() < 20.0,
                 qPrintable(QString::number(speed->value())));
    }

    void rangesOfDecadesAreLogarithmic()
    {
        // The squad's Keep distance spans 0.1 to 100 m: a third of the travel is 1 m, two
        // thirds 10 m.
        const std::vector<ParamSpec>& specs = paramSpecs(BehaviourKind::TankSquad);
        ParamRow keep(specs[std::size_t(paramIndex(specs, "keepDistance"))]);
        keep.resize(400, keep.sizeHint().height());
        QVERIFY(keep.isLogarithmic());
        QSlider* slider = keep.slider();
        slider->setValue(slider->maximum() / 3);
        QVERIFY2(std::abs(keep.value() - 1.0) < 0.051, qPrintable(QString::number(keep.value())));
        slider->setValue(slider->maximum() * 2 / 3);
        QVERIFY2(std::abs(keep.value() - 10.0) < 0.11, qPrintable(QString::number(keep.value())));
        // A value typed in puts the handle where the curve has it.
        keep.doubleSpinBox()->setValue(1.0);
        QVERIFY(std::abs(slider->value() - slider->maximum() / 3) <= 1);
        // Both ends are reached, on the step grid.
        slider->setValue(slider->maximum());
        QCOMPARE(keep.value(), 100.0);
        slider->setValue(0);
        QCOMPARE(keep.value(), 0.1);
        slider->setValue(slider->maximum() / 2);
        QCOMPARE(keep.value(), std::round(keep.value() * 10.0) / 10.0);
        // A range of less than three decades stays linear.
        ParamRow speed(specs[std::size_t(paramIndex(specs, "moveSpeed"))]);
        QVERIFY(!speed.isLogarithmic());
    }

    void shiftDragIsFine()
    {
        Window w;
        ParamRow* speed = w.row("moveSpeed");
        speed->doubleSpinBox()->setValue(5.0);
        drag(speed->slider(), handleCentre(speed->slider()), 40);
        const double coarse = speed->value() - 5.0;
        speed->doubleSpinBox()->setValue(5.0);
        const int steps = w.undo()->count();
        drag(speed->slider(), handleCentre(speed->slider()), 40, Qt::ShiftModifier);
        const double fine = speed->value() - 5.0;
        QVERIFY2(fine > 0.0 && fine < coarse / 5.0,
                 qPrintable(QStringLiteral("coarse %1, fine %2").arg(coarse).arg(fine)));
        QCOMPARE(w.undo()->count(), steps + 1);
    }

    void labelScrubIsOneUndoStep()
    {
        Window w;
        ParamRow* speed = w.row("moveSpeed");
        const double before = speed->value();
        const int steps = w.undo()->count();
        QLabel* label = speed->label();
        QCOMPARE(label->cursor().shape(), Qt::SizeHorCursor);
        drag(label, label->rect().center(), 30);
        const double scrubbed = speed->value();
        QVERIFY2(scrubbed > before, qPrintable(QString::number(scrubbed)));
        const GroupDesc& squad = w.window.document()->scene().groups[kSquad];
        QCOMPARE(
            squad
                .params[std::size_t(paramIndex(paramSpecs(BehaviourKind::TankSquad), "moveSpeed"))],
            scrubbed);
        QCOMPARE(w.undo()->count(), steps + 1);
        // Leftwards lowers it; a plain click changes nothing.
        drag(label, label->rect().center(), -20);
        QVERIFY(speed->value() < scrubbed);
        QCOMPARE(w.undo()->count(), steps + 2);
        QTest::mouseClick(label, Qt::LeftButton);
        QCOMPARE(w.undo()->count(), steps + 2);
        w.undo()->undo();
        w.undo()->undo();
        QCOMPARE(speed->value(), before);
    }
};

QTEST_MAIN(TestSliders)
#include "test_sliders.moc"
