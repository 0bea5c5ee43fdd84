// Overlays stay readable on a busy level: no text plate covers another (a plate that has no
// free place is left out), and the worms' joint overlay leaves their ribbons visible.

#include "document/document.h"
#include "files/scenefiles.h"
#include "simulation/labelplacer.h"
#include "simulation/overlayitem.h"
#include "simulation/overlayoptions.h"
#include "simulation/simulationcontroller.h"
#include "simulation/simulationlayers.h"
#include "viewport/sceneview.h"
#include "window/mainwindow.h"

#include <shoal/world.h>

#include <QStandardPaths>
#include <QTest>

using namespace shoal;
using namespace shoal::ui;

namespace {

/// The demo open, shown at the usual size, played for `steps` steps and paused.
void openDemo(MainWindow& window, int steps)
{
    window.resize(1440, 900);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        qFatal("the window was not shown");
    if (!window.files()->openDemo())
        qFatal("the demo did not open");
    for (int i = 0; i < steps; ++i)
        window.simulation()->stepOnce();
    QCoreApplication::processEvents();
}

/// Pixels of the view in the worms' body colour (#f28cb1, give or take shading).
int ribbonPixels(MainWindow& window)
{
    const QImage image = window.view()->viewport()->grab().toImage();
    int count = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (std::abs(c.red() - 0xf2) < 24 && std::abs(c.green() - 0x8c) < 24 &&
                std::abs(c.blue() - 0xb1) < 24)
                ++count;
        }
    return count;
}

} // namespace

class TestOverlayLabels : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("shoal-test-overlaylabels"));
    }

    void placerKeepsPlatesApart()
    {
        LabelPlacer placer(QRectF(0, 0, 400, 300));
        const QSizeF size(60, 14);
        // Four plates for one point: each on its own side; the ones after that lower down,
        // until there is no room left.
        std::vector<QRectF> boxes;
        for (int i = 0; i < 12; ++i)
            if (const auto box = placer.place({200, 150}, size))
                boxes.push_back(*box);
        QVERIFY(boxes.size() >= 4);
        QVERIFY(boxes.size() < 12);
        for (std::size_t a = 0; a < boxes.size(); ++a) {
            QVERIFY(QRectF(0, 0, 400, 300).contains(boxes[a]));
            for (std::size_t b = a + 1; b < boxes.size(); ++b)
                QVERIFY(!boxes[a].intersects(boxes[b]));
        }
        // At the view's edge a plate moves in, and still takes no other's place.
        const auto edge = placer.place({398, 2}, size);
        QVERIFY(edge && QRectF(0, 0, 400, 300).contains(*edge));
    }

    void overlayPlatesDoNotCollide()
    {
        // Every overlay on, for every group, with the whole level in view: many plates in a
        // small picture.
        MainWindow window;
        openDemo(window, 0);
        // The squad's target on the school's first fish, its arrive circle as wide as the
        // school's neighbour radius: their plates want the very same place.
        const GroupState& school = window.simulation()->world()->group(0);
        const Point2 fish{school.agents.px[0], school.agents.py[0]};
        SceneDesc scene = window.document()->scene();
        GroupDesc& squad = scene.groups[1];
        squad.target = fish;
        const auto& squadSpecs = paramSpecs(BehaviourKind::TankSquad);
        const auto& fishSpecs = paramSpecs(BehaviourKind::FishSchool);
        squad.params[std::size_t(paramIndex(squadSpecs, "arriveDistance"))] =
            scene.groups[0].params[std::size_t(paramIndex(fishSpecs, "neighborRadius"))];
        window.document()->resetScene(scene, QString());
        QCoreApplication::processEvents();
        OverlayOptions* options = window.overlayOptions();
        options->setScope(OverlayOptions::Scope::AllGroups);
        for (const OverlayOptions::Entry& entry : OverlayOptions::entries())
            options->setEnabled(entry.overlay, true);
        std::size_t most = 0;
        for (int zoom = 0; zoom < 4; ++zoom) {
            window.view()->viewport()->repaint();
            const std::vector<QRectF>& plates = window.agentLayers()->overlay()->lastLabelRects();
            most = std::max(most, plates.size());
            for (std::size_t a = 0; a < plates.size(); ++a)
                for (std::size_t b = a + 1; b < plates.size(); ++b)
                    QVERIFY2(!plates[a].intersects(plates[b]),
                             qPrintable(QStringLiteral("at %1 px/m plates %2 and %3 overlap")
                                            .arg(window.view()->pixelsPerMetre())
                                            .arg(a)
                                            .arg(b)));
            window.view()->zoomIn();
        }
        QVERIFY2(most >= 4, qPrintable(QString::number(most)));
    }

    void wormJointsLeaveTheRibbonVisible()
    {
        MainWindow window;
        openDemo(window, 120); // the worms have bent and made joints
        OverlayOptions* options = window.overlayOptions();
        options->setScope(OverlayOptions::Scope::AllGroups);
        for (int zoom = 0; zoom < 3; ++zoom) {
            options->setEnabled(OverlayOptions::familyOverlay(BehaviourKind::Worm), false);
            const int bare = ribbonPixels(window);
            QVERIFY(bare > 50);
            options->setEnabled(OverlayOptions::familyOverlay(BehaviourKind::Worm), true);
            const int overlaid = ribbonPixels(window);
            QVERIFY2(overlaid >= bare * 3 / 4,
                     qPrintable(QStringLiteral("at %1 px/m: %2 of %3 ribbon pixels left")
                                    .arg(window.view()->pixelsPerMetre())
                                    .arg(overlaid)
                                    .arg(bare)));
            window.view()->zoomIn();
        }
    }
};

QTEST_MAIN(TestOverlayLabels)
#include "test_overlaylabels.moc"
