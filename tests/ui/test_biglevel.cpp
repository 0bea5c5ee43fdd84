// A big level in the editor (issue 10 item 8): single edits touch exactly the item they
// change, undo restores exactly what was there, and the document's incremental check agrees
// with validateScene() on the whole scene. Correctness only: `shoal --bench-open` measures.

#include "bigscene.h"
#include "document/commands.h"
#include "document/document.h"
#include "simulation/simulationcontroller.h"
#include "viewport/editorscene.h"
#include "viewport/items/editableitem.h"
#include "viewport/viewportstyle.h"
#include <shoal/world.h>

#include <QImage>
#include <QPainter>
#include <QSignalSpy>
#include <QTest>

using namespace shoal;
using namespace shoal::ui;

namespace {

constexpr int kWalls = 20000;

/// Every wall item's index and the wall it shows, so a test can tell which ones changed.
std::vector<std::pair<EditableItem*, QRectF>> wallItems(const EditorScene& scene, int count)
{
    std::vector<std::pair<EditableItem*, QRectF>> items;
    for (int i = 0; i < count; ++i) {
        EditableItem* item = scene.itemFor({ItemKind::Wall, i});
        items.emplace_back(item, item ? item->extent() : QRectF());
    }
    return items;
}

/// What a walk of every item finds at `p`: the topmost hit, the first in ref order among
/// equals (the reference refAt() must agree with, whatever index it uses).
std::optional<ItemRef> refAtByWalk(const EditorScene& scene, QPointF p)
{
    const EditableItem* best = nullptr;
    for (const EditableItem* item : scene.editableItems())
        if (item->isVisible() && item->hitTest(p, scene.metresPerPixel()) &&
            (!best || item->zValue() > best->zValue()))
            best = item;
    return best ? std::optional<ItemRef>(best->ref()) : std::nullopt;
}

/// `area` (m) of `scene` drawn at `pixelsPerMetre`, the way the view draws it (not flipped:
/// image row 0 is the area's smallest y).
QImage renderArea(EditorScene& scene, const QRectF& area, double pixelsPerMetre)
{
    scene.setMetresPerPixel(1.0 / pixelsPerMetre);
    QImage image(int(area.width() * pixelsPerMetre), int(area.height() * pixelsPerMetre),
                 QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    scene.render(&painter, QRectF(image.rect()), area);
    return image;
}

QPoint pixelOf(const QRectF& area, double pixelsPerMetre, QPointF p)
{
    return QPointF((p - area.topLeft()) * pixelsPerMetre).toPoint();
}

/// Pixels of `color` (within a few levels per channel) within `radius` pixels of `at`.
int pixelsNear(const QImage& image, QPoint at, int radius, const QColor& color)
{
    int count = 0;
    for (int y = at.y() - radius; y <= at.y() + radius; ++y)
        for (int x = at.x() - radius; x <= at.x() + radius; ++x) {
            if (!image.rect().contains(x, y))
                continue;
            const QColor c = image.pixelColor(x, y);
            count += std::abs(c.red() - color.red()) <= 6 &&
                     std::abs(c.green() - color.green()) <= 6 &&
                     std::abs(c.blue() - color.blue()) <= 6;
        }
    return count;
}

/// Every item shows the selected flag exactly when the scene's selection holds its ref.
bool flagsMatchSelection(const EditorScene& scene)
{
    for (const EditableItem* item : scene.editableItems())
        if (item->isEditorSelected() != scene.selectedRefs().contains(item->ref()))
            return false;
    return true;
}

} // namespace

class TestBigLevel : public QObject
{
    Q_OBJECT

private:
    SceneDesc m_level = bigScene(kWalls);

    /// The document's verdict must be validateScene()'s on the whole scene.
    static void verifyVerdict(const Document& doc)
    {
        const std::optional<Error> whole = validateScene(doc.scene());
        QCOMPARE(bool(doc.sceneError()), bool(whole));
        if (whole)
            QCOMPARE(doc.sceneError()->message, whole->message);
        QCOMPARE(doc.checkedScene() != nullptr, !whole);
        if (doc.checkedScene())
            QVERIFY(&doc.checkedScene()->scene() == &doc.scene()); // one copy, not two
    }

private slots:
    void levelIsValid() { QVERIFY(!validateScene(m_level)); }

    void editOneWallUpdatesOnlyThatItem()
    {
        Document doc;
        Expected<CheckedScene> checked = checkScene(m_level);
        QVERIFY(checked);
        doc.resetScene(std::move(*checked), {});
        EditorScene scene(&doc);
        const auto before = wallItems(scene, kWalls);
        const int target = kWalls / 2;
        WallDesc wall = doc.scene().walls[target];
        for (Point2& p : wall.points)
            p.x += 0.5;
        doc.undoStack()->push(new SetWallCommand(&doc, target, wall));
        verifyVerdict(doc);
        const auto after = wallItems(scene, kWalls);
        for (int i = 0; i < kWalls; ++i) {
            QCOMPARE(after[i].first, before[i].first); // no item rebuilt
            if (i != target)
                QCOMPARE(after[i].second, before[i].second);
        }
        QVERIFY(after[target].second != before[target].second);
        doc.undoStack()->undo();
        QVERIFY(doc.scene() == m_level);
        QCOMPARE(scene.itemFor({ItemKind::Wall, target})->extent(), before[target].second);
        verifyVerdict(doc);
    }

    void addAndRemoveWallShiftsItems()
    {
        Document doc;
        doc.resetScene(*checkScene(m_level), {});
        EditorScene scene(&doc);
        const auto before = wallItems(scene, kWalls);
        const WallDesc wall{{{-5.0, 5.0}, {0.0, 7.0}, {5.0, 5.0}}, false};
        doc.undoStack()->push(new AddWallCommand(&doc, -1, wall)); // appended
        verifyVerdict(doc);
        QCOMPARE(int(doc.scene().walls.size()), kWalls + 1);
        QVERIFY(scene.itemFor({ItemKind::Wall, kWalls}));
        for (int i = 0; i < kWalls; ++i)
            QCOMPARE(scene.itemFor({ItemKind::Wall, i}), before[i].first);
        doc.undoStack()->undo();
        QVERIFY(!scene.itemFor({ItemKind::Wall, kWalls}));

        // In the middle: the items after it move up one and keep showing their walls.
        doc.undoStack()->push(new AddWallCommand(&doc, 10, wall));
        QCOMPARE(scene.itemFor({ItemKind::Wall, 11}), before[10].first);
        QCOMPARE(scene.itemFor({ItemKind::Wall, 11})->ref().index, 11);
        QCOMPARE(scene.itemFor({ItemKind::Wall, kWalls})->extent(), before[kWalls - 1].second);
        doc.undoStack()->push(new RemoveWallCommand(&doc, 3));
        QCOMPARE(scene.itemFor({ItemKind::Wall, 3}), before[4].first);
        verifyVerdict(doc);
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QVERIFY(doc.scene() == m_level);
        for (int i = 0; i < kWalls; ++i) {
            const EditableItem* item = scene.itemFor({ItemKind::Wall, i});
            if (i != 3) // the removed wall came back as a new item
                QCOMPARE(item, before[i].first);
            QCOMPARE(item->ref().index, i);
            QCOMPARE(item->extent(), before[i].second);
        }
        verifyVerdict(doc);
    }

    void moveKeepsOnlyTheMovedParts()
    {
        Document doc;
        doc.resetScene(*checkScene(m_level), {});
        const ItemRefs refs{{ItemKind::Wall, 7}, {ItemKind::SpawnArea, 0}};
        doc.undoStack()->push(new MoveItemsCommand(&doc, refs, {1.0, -0.5}));
        QCOMPARE(doc.scene().walls[7].points[0].x, m_level.walls[7].points[0].x + 1.0);
        QCOMPARE(doc.scene().groups[0].spawn->area.min.y,
                 m_level.groups[0].spawn->area.min.y - 0.5);
        QVERIFY(doc.scene().walls[8] == m_level.walls[8]);
        verifyVerdict(doc);
        doc.undoStack()->undo();
        QVERIFY(doc.scene() == m_level);
    }

    /// Clicks and rubber bands find walls through the scene's index: the same wall a walk of
    /// every item finds, at every zoom.
    void clicksFindTheWallUnderThePointer()
    {
        Document doc;
        doc.resetScene(*checkScene(m_level), {});
        EditorScene scene(&doc);
        for (double mpp : {0.02, 0.2, 2.0}) {
            scene.setMetresPerPixel(mpp);
            for (int w : {0, 1, 777, kWalls / 2, kWalls - 1}) {
                const Point2 a = doc.scene().walls[static_cast<std::size_t>(w)].points[0];
                const Point2 b = doc.scene().walls[static_cast<std::size_t>(w)].points[1];
                for (const QPointF p :
                     {QPointF(a.x, a.y), QPointF((a.x + b.x) / 2, (a.y + b.y) / 2),
                      QPointF(a.x + 3.0 * mpp, a.y - 2.0 * mpp)}) {
                    const std::optional<ItemRef> expected = refAtByWalk(scene, p);
                    QCOMPARE(scene.refAt(p).has_value(), expected.has_value());
                    if (expected)
                        QCOMPARE(*scene.refAt(p), *expected);
                }
            }
        }
        const QRectF band(QPointF(-30.0, -30.0), QPointF(30.0, 30.0));
        ItemRefs expected;
        for (const EditableItem* item : scene.editableItems())
            if (band.contains(item->extent().topLeft()) &&
                band.contains(item->extent().bottomRight()))
                expected.append(item->ref());
        QCOMPARE(scene.refsInside(band), expected);
    }

    /// Selecting, hovering and inserting touch only the items concerned, and every item
    /// still shows whether it is selected.
    void selectionFlagsFollowEdits()
    {
        Document doc;
        doc.resetScene(*checkScene(m_level), {});
        EditorScene scene(&doc);
        scene.setSelectedRefs({{ItemKind::Wall, 50}});
        QVERIFY(flagsMatchSelection(scene));
        scene.setHovered(ItemRef{ItemKind::Wall, 60});
        QVERIFY(scene.itemFor({ItemKind::Wall, 60})->isHovered());
        scene.setSelectedRefs({{ItemKind::Wall, 70}, {ItemKind::SpawnArea, 0}});
        QVERIFY(flagsMatchSelection(scene));
        const WallDesc wall{{{-5.0, 5.0}, {0.0, 7.0}, {5.0, 5.0}}, false};
        doc.undoStack()->push(new AddWallCommand(&doc, 10, wall));
        QVERIFY(flagsMatchSelection(scene));
        QVERIFY(scene.itemFor({ItemKind::Wall, 60})->isHovered()); // the ref, not the item
        QVERIFY(!scene.itemFor({ItemKind::Wall, 61})->isHovered());
        doc.undoStack()->undo();
        QVERIFY(flagsMatchSelection(scene));
        scene.setHovered(std::nullopt);
        for (const EditableItem* item : scene.editableItems())
            QVERIFY(!item->isHovered());
    }

    /// Walls are drawn by their tiles: a wall shows where it is, close up (its strokes, and
    /// the selection's glow when selected) and from far (a one-pixel line), also when an edit
    /// takes it far from the tile it was made in, and no longer shows where it was.
    void wallsShowWhereTheyAre()
    {
        Document doc;
        doc.resetScene(*checkScene(m_level), {});
        EditorScene scene(&doc);
        const int w = kWalls / 3;
        // Into the clear middle of the level, tens of metres from the wall's tile.
        // (Away from the squad target's marker, which keeps its size in pixels.)
        const WallDesc moved{{{-13.0, 10.0}, {-10.0, 11.0}, {-7.0, 10.0}}, false};
        const QPointF onWall(-11.5, 10.5);
        const QRectF close(QPointF(-16.0, 5.0), QSizeF(12.0, 12.0));
        const QRectF far(QPointF(-60.0, -50.0), QSizeF(120.0, 120.0));
        const auto wallPixels = [&](const QRectF& area, double ppm, int radius,
                                    const QColor& color) {
            return pixelsNear(renderArea(scene, area, ppm), pixelOf(area, ppm, onWall), radius,
                              color);
        };
        QCOMPARE(wallPixels(close, 50.0, 20, style::kWallCore), 0);
        QCOMPARE(wallPixels(far, 0.5, 2, style::kWallCore), 0);

        doc.undoStack()->push(new SetWallCommand(&doc, w, moved));
        QVERIFY(wallPixels(close, 50.0, 3, style::kWallCore) > 0);
        QVERIFY(wallPixels(close, 50.0, 10, style::kWallCore) > 150); // 0.3 m wide: 15 px
        QCOMPARE(wallPixels(close, 50.0, 20, style::kSelection), 0);
        QVERIFY(wallPixels(far, 0.5, 1, style::kWallCore) > 0);
        QVERIFY(wallPixels(far, 0.5, 6, style::kWallCore) < 15); // a line, not 5 px strokes
        scene.setSelectedRefs({{ItemKind::Wall, w}});
        QVERIFY(wallPixels(close, 50.0, 20, style::kSelection) > 0);
        scene.setSelectedRefs({});

        doc.undoStack()->undo();
        QCOMPARE(wallPixels(close, 50.0, 20, style::kWallCore), 0);
        QCOMPARE(wallPixels(far, 0.5, 2, style::kWallCore), 0);

        // A straight wall: its outline has no width.
        const WallDesc upright{{{onWall.x(), 8.0}, {onWall.x(), 13.0}}, false};
        doc.undoStack()->push(new SetWallCommand(&doc, w, upright));
        QVERIFY(wallPixels(close, 50.0, 3, style::kWallCore) > 0);
        QVERIFY(wallPixels(far, 0.5, 1, style::kWallCore) > 0);
    }

    /// A big level's world is built off the UI thread: the same world as one built at once,
    /// and an edit made meanwhile reaches it.
    void worldBuildsInTheBackground()
    {
        Document doc;
        doc.resetScene(*checkScene(m_level), {});
        SimulationController controller(&doc);
        QSignalSpy rebuilt(&controller, &SimulationController::worldRebuilt);
        QVERIFY(controller.isBuilding());
        QVERIFY(!controller.world());
        QVERIFY(rebuilt.wait(60000));
        QVERIFY(!controller.isBuilding());
        QVERIFY(controller.world());
        const std::unique_ptr<World> direct = World::create(*doc.checkedScene());
        QCOMPARE(controller.world()->stateHash(), direct->stateHash());

        // A parameter edited while it is built: the world is built again with it.
        controller.restart();
        QVERIFY(controller.isBuilding());
        const ParamSpec& spec = paramSpecs(doc.scene().groups[0].kind)[0];
        const double value =
            doc.scene().groups[0].params[0] == spec.maxValue ? spec.minValue : spec.maxValue;
        doc.undoStack()->push(new SetGroupParamCommand(&doc, 0, 0, value, true));
        controller.waitForWorld();
        QVERIFY(controller.world());
        QCOMPARE(controller.world()->group(0).values[0], value);
        controller.stepOnce();
        QCOMPARE(controller.world()->stepCount(), std::uint64_t(1));
    }

    /// The incremental check and the whole one agree, for edits that pass and that fail.
    void incrementalCheckMatchesWholeCheck()
    {
        Document doc;
        doc.resetScene(*checkScene(m_level), {});
        QUndoStack* stack = doc.undoStack();
        WallDesc far = doc.scene().walls[0];
        far.points[1] = {1e6, 0.0}; // beyond every limit
        stack->push(new SetWallCommand(&doc, 0, far));
        verifyVerdict(doc);
        QVERIFY(doc.sceneError());
        stack->undo();
        verifyVerdict(doc);
        QVERIFY(!doc.sceneError());

        WallDesc repeated{{{1.0, 1.0}, {1.0, 1.0}}, false}; // points too close
        stack->push(new AddWallCommand(&doc, 5, repeated));
        verifyVerdict(doc);
        stack->undo();
        verifyVerdict(doc);

        GroupDesc renamed = doc.scene().groups[1];
        renamed.name = doc.scene().groups[0].name; // not unique
        stack->push(new SetGroupCommand(&doc, 1, renamed));
        verifyVerdict(doc);
        QVERIFY(doc.sceneError());
        stack->undo();
        verifyVerdict(doc);

        const ParamSpec& spec = paramSpecs(doc.scene().groups[0].kind)[0];
        stack->push(new SetGroupParamCommand(&doc, 0, 0, spec.maxValue + 1.0, true));
        verifyVerdict(doc);
        QVERIFY(doc.sceneError());
        stack->push(new SetGroupParamCommand(&doc, 0, 0, spec.defaultValue, true));
        verifyVerdict(doc);
        QVERIFY(!doc.sceneError());

        PickupDesc outside = doc.scene().pickups[0];
        outside.position = {doc.scene().bounds.max.x + 1.0, 0.0};
        stack->push(new SetPickupCommand(&doc, 0, outside));
        verifyVerdict(doc);
        stack->undo();
        verifyVerdict(doc);
    }
};

QTEST_MAIN(TestBigLevel)
#include "test_biglevel.moc"
