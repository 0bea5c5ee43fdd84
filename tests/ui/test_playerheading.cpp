// The player start's heading, set in the Properties' Player section as a user does (typing,
// dragging the slider): one undo step per change, saved in the level, and drawn by the view
// as the arrow on the player start.

#include "document/document.h"
#include "files/scenefiles.h"
#include "panels/paramrow.h"
#include "panels/propertypanel.h"
#include "viewport/editorscene.h"
#include "viewport/items/markeritem.h"
#include "viewport/sceneview.h"
#include "window/mainwindow.h"

#include <QDoubleSpinBox>
#include <QGraphicsScene>
#include <QImage>
#include <QPainter>
#include <QSlider>
#include <QStandardPaths>
#include <QTest>
#include <QUndoStack>

using namespace shoal;
using namespace shoal::ui;

namespace {

/// The view's pixels round the player start.
QImage playerStartPixels(MainWindow& window)
{
    const QPointF at(window.document()->scene().player.position.x,
                     window.document()->scene().player.position.y);
    const QPoint centre = window.view()->mapFromScene(at);
    return window.view()->viewport()->grab(QRect(centre - QPoint(16, 16), QSize(33, 33))).toImage();
}

} // namespace

class TestPlayerHeading : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("shoal-test-playerheading"));
    }

    void headingIsEditedInThePanelAndDrawnInTheView()
    {
        MainWindow window;
        window.resize(1440, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.files()->openDemo());
        QCoreApplication::processEvents();
        QUndoStack* undo = window.document()->undoStack();
        ParamRow* heading = window.findChild<PropertyPanel*>()->playerHeadingRow();
        QVERIFY(heading && heading->isVisibleTo(&window) && heading->isEnabled());
        QCOMPARE(heading->value(), window.document()->scene().player.heading);
        auto* marker =
            dynamic_cast<MarkerItem*>(window.editorScene()->itemFor({ItemKind::PlayerStart, 0}));
        QVERIFY(marker);
        const QImage before = playerStartPixels(window);

        // Typed in: one step, in the level, and the arrow turns.
        QDoubleSpinBox* spin = heading->doubleSpinBox();
        spin->setFocus();
        spin->selectAll();
        QTest::keyClicks(spin, QStringLiteral("90"));
        QTest::keyClick(spin, Qt::Key_Return);
        QCOMPARE(window.document()->scene().player.heading, 90.0);
        QCOMPARE(undo->count(), 1);
        QCOMPARE(undo->text(0), QStringLiteral("Change Heading of Player"));
        QCoreApplication::processEvents();
        marker =
            dynamic_cast<MarkerItem*>(window.editorScene()->itemFor({ItemKind::PlayerStart, 0}));
        QCOMPARE(marker->heading(), 90.0);
        QVERIFY(playerStartPixels(window) != before);

        // A slider drag is one step, applied when it ends.
        QSlider* slider = heading->slider();
        slider->setSliderDown(true);
        slider->setSliderPosition(slider->sliderPosition() - 30);
        slider->setSliderPosition(slider->sliderPosition() - 30);
        QCOMPARE(window.document()->scene().player.heading, 90.0); // not yet
        slider->setSliderDown(false);
        QCOMPARE(window.document()->scene().player.heading, 30.0);
        QCOMPARE(undo->count(), 2);

        undo->undo();
        undo->undo();
        QCOMPARE(window.document()->scene().player.heading, 0.0);
        QCOMPARE(heading->value(), 0.0);
    }

    void aHeadingFromAFileIsShownAsTheSameDirection()
    {
        MainWindow window;
        SceneDesc scene = window.document()->scene();
        scene.player.heading = 270.0;
        window.document()->resetScene(scene, QString());
        ParamRow* heading = window.findChild<PropertyPanel*>()->playerHeadingRow();
        QCOMPARE(heading->value(), -90.0);
        QCOMPARE(window.document()->undoStack()->count(), 0);
    }
};

QTEST_MAIN(TestPlayerHeading)
#include "test_playerheading.moc"
