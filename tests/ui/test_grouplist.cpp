// The group list: add, remove, rename, recolour and show/hide groups with the real widgets,
// each edit one undo step; its selection and GroupSelection follow each other.

#include "document/commands.h"
#include "document/document.h"
#include "document/groupselection.h"
#include "panels/grouplistpanel.h"
#include "simulation/simulationcontroller.h"

#include "embeddedscenes.h"
#include "uitestsupport.h"
#include <shoal/scenefile.h>

#include <QAction>
#include <QHash>
#include <QHeaderView>
#include <QIcon>
#include <QLineEdit>
#include <QMenu>
#include <QSignalSpy>
#include <QStyle>
#include <QToolButton>
#include <QTreeWidget>
#include <QtTest>

using namespace shoal;
using namespace shoal::ui;

namespace {

constexpr int kSchool = 0; // the demo's groups, in file order
constexpr int kSquad = 1;
constexpr int kSwarm = 2;
constexpr int kConvoy = 3;
constexpr int kWorms = 4;

using test::demoScene;

struct Fixture
{
    explicit Fixture(const SceneDesc& scene)
    {
        document.resetScene(scene, {});
        panel.resize(360, 260);
        panel.show();
    }
    QStringList names() const
    {
        QStringList result;
        for (const GroupDesc& group : document.scene().groups)
            result.append(QString::fromStdString(group.name));
        return result;
    }
    QStringList rowNames() const
    {
        QStringList result;
        for (int i = 0; i < panel.tree()->topLevelItemCount(); ++i)
            result.append(panel.tree()->topLevelItem(i)->text(GroupListPanel::NameColumn));
        return result;
    }
    QList<int> selectedRows() const
    {
        QList<int> rows;
        for (int i = 0; i < panel.tree()->topLevelItemCount(); ++i)
            if (panel.tree()->topLevelItem(i)->isSelected())
                rows.append(i);
        return rows;
    }
    QList<int> selectionSorted() const
    {
        QList<int> groups = selection.groups();
        std::sort(groups.begin(), groups.end());
        return groups;
    }
    /// Clicks a row (on its family column, away from the check box).
    void clickRow(int row, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
    {
        QTreeWidget* tree = panel.tree();
        QTreeWidgetItem* item = tree->topLevelItem(row);
        const QRect rect = tree->visualItemRect(item);
        const int x = tree->header()->sectionPosition(GroupListPanel::FamilyColumn) + 4;
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, modifiers,
                          QPoint(x, rect.center().y()));
    }
    int undoCount() const { return document.undoStack()->count(); }

    Document document;
    GroupSelection selection{&document};
    SimulationController controller{&document};
    GroupListPanel panel{&document, &selection};
};

QAction* addAction(QMenu* menu, BehaviourKind kind)
{
    for (QAction* action : menu->actions())
        if (action->data().toInt() == static_cast<int>(kind))
            return action;
    return nullptr;
}

/// Renames a row the way a user does: edit in place, select all, type, Enter.
void renameRow(QTreeWidget* tree, int row, const QString& name)
{
    tree->editItem(tree->topLevelItem(row), GroupListPanel::NameColumn);
    auto* editor = tree->viewport()->findChild<QLineEdit*>();
    QVERIFY(editor);
    editor->selectAll();
    QTest::keyClicks(editor, name);
    QTest::keyClick(editor, Qt::Key_Return);
    QCoreApplication::processEvents(); // the delegate commits the editor's text queued
}

/// What a grab of the panel shows of one row (of one column; -1: the whole row).
struct RowShot
{
    explicit RowShot(const QImage& part) : image(part) {}
    RowShot(const QImage& shot, const GroupListPanel& panel, int row, int column = -1)
    {
        QTreeWidget* tree = panel.tree();
        QRect rect = tree->visualItemRect(tree->topLevelItem(row));
        rect.setLeft(column < 0 ? 0 : tree->header()->sectionPosition(column));
        rect.setWidth(column < 0 ? tree->viewport()->width() : tree->header()->sectionSize(column));
        image = shot.copy(QRect(tree->viewport()->mapTo(&panel, rect.topLeft()), rect.size()));
    }
    /// How many pixels are `colour` (alpha aside).
    int count(QRgb colour) const
    {
        int n = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                n += (image.pixel(x, y) & 0xffffffu) == (colour & 0xffffffu) ? 1 : 0;
        return n;
    }
    /// The colour most of the row is painted in (its background).
    QRgb dominant() const
    {
        QHash<QRgb, int> counts;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                ++counts[image.pixel(x, y) | 0xff000000u];
        return std::max_element(counts.keyValueBegin(), counts.keyValueEnd(),
                                [](auto a, auto b) { return a.second < b.second; })
            ->first;
    }
    /// The darkest pixel: the core of the text's strokes, in the text's colour.
    QRgb ink() const
    {
        QRgb darkest = qRgb(255, 255, 255);
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                if (qGray(image.pixel(x, y)) < qGray(darkest))
                    darkest = image.pixel(x, y);
        return darkest;
    }
    /// The first `width` pixels of the row (the check box).
    QImage left(int width) const { return image.copy(0, 0, width, image.height()); }
    /// How many pixels are not `background`.
    int painted(QRgb background) const
    {
        return image.width() * image.height() - count(background);
    }

    QImage image;
};

/// The body colour of `group`'s swatch as the list paints it (tinted when the row is selected).
QRgb swatchBody(const GroupDesc& group, bool selected)
{
    const QPixmap swatch = groupSwatchPixmap(group.color, group.accent, 14);
    const QPixmap shown =
        QIcon(swatch).pixmap(swatch.size(), selected ? QIcon::Selected : QIcon::Normal);
    return shown.toImage().pixel(4, 10) | 0xff000000u; // away from the accent dot and the corners
}

bool sameColour(QRgb a, QRgb b, int tolerance = 2)
{
    return std::abs(qRed(a) - qRed(b)) <= tolerance &&
           std::abs(qGreen(a) - qGreen(b)) <= tolerance &&
           std::abs(qBlue(a) - qBlue(b)) <= tolerance;
}

/// `colour` painted over `background`.
QRgb over(const QColor& colour, const QColor& background)
{
    const auto mix = [&](int c, int b) {
        return (c * colour.alpha() + b * (255 - colour.alpha())) / 255;
    };
    return qRgb(mix(colour.red(), background.red()), mix(colour.green(), background.green()),
                mix(colour.blue(), background.blue()));
}

} // namespace

class TestGroupList : public QObject
{
    Q_OBJECT

private slots:
    void listsTheGroups();
    void addGroupFromTheMenu();
    void removeWithUndo();
    void removeClearsReferences();
    void renameInline();
    void renameToATakenNameIsRefused();
    void selectionFollowsBothWays();
    void selectionSurvivesRemovalBeforeIt();
    void showHideIsViewStateNotAnEdit();
    void colourWithAnInjectedPicker();
    void deleteKeyRemoves();
    void screenshot();
};

void TestGroupList::listsTheGroups()
{
    Fixture f(demoScene());
    QCOMPARE(f.rowNames(), f.names());
    QTreeWidgetItem* squad = f.panel.tree()->topLevelItem(kSquad);
    QCOMPARE(squad->text(GroupListPanel::FamilyColumn), QStringLiteral("Tank squad"));
    QCOMPARE(squad->text(GroupListPanel::AgentsColumn), QStringLiteral("6"));
    // The convoy: 10 spawned followers and its hand-placed leader.
    QCOMPARE(f.panel.tree()->topLevelItem(kConvoy)->text(GroupListPanel::AgentsColumn),
             QStringLiteral("11"));
    QVERIFY(!squad->icon(GroupListPanel::NameColumn).isNull());
    QCOMPARE(squad->checkState(GroupListPanel::NameColumn), Qt::Checked);
    QVERIFY(!f.panel.removeButton()->isEnabled());
}

void TestGroupList::addGroupFromTheMenu()
{
    Fixture f(demoScene());
    QSignalSpy rebuilt(&f.controller, &SimulationController::worldRebuilt);
    QAction* worm = addAction(f.panel.addMenu(), BehaviourKind::Worm);
    QVERIFY(worm);
    worm->trigger();

    QCOMPARE(f.document.scene().groups.size(), std::size_t(6));
    const GroupDesc& added = f.document.scene().groups.back();
    QCOMPARE(added.kind, BehaviourKind::Worm);
    QCOMPARE(added.name, std::string("worm"));
    QCOMPARE(added.params, defaultParamValues(paramSpecs(BehaviourKind::Worm)));
    QVERIFY(added.spawn && added.spawn->count > 0);
    // Centred on the level.
    const Rect& bounds = f.document.scene().bounds;
    QCOMPARE(added.spawn->area.min.x + added.spawn->area.max.x, bounds.min.x + bounds.max.x);
    QCOMPARE(added.spawn->area.min.y + added.spawn->area.max.y, bounds.min.y + bounds.max.y);
    QVERIFY(!validateScene(f.document.scene()));
    QCOMPARE(f.undoCount(), 1);

    QCOMPARE(f.rowNames(), f.names());
    QCOMPARE(f.selection.groups(), QList<int>{5});
    QCOMPARE(f.selectedRows(), QList<int>{5});
    QCOMPARE(f.controller.world()->groupCount(), 6);
    QVERIFY(rebuilt.count() >= 1);

    // A second one gets its own name.
    addAction(f.panel.addMenu(), BehaviourKind::Worm)->trigger();
    QCOMPARE(f.document.scene().groups.back().name, std::string("worm 2"));

    f.document.undoStack()->undo();
    f.document.undoStack()->undo();
    QCOMPARE(f.document.scene().groups.size(), std::size_t(5));
    QCOMPARE(f.rowNames(), f.names());
    QCOMPARE(f.controller.world()->groupCount(), 5);
    QVERIFY(f.selection.groups().isEmpty());
}

void TestGroupList::removeWithUndo()
{
    const SceneDesc original = demoScene();
    Fixture f(original);
    f.clickRow(kSquad);
    QCOMPARE(f.selection.groups(), QList<int>{kSquad});
    QVERIFY(f.panel.removeButton()->isEnabled());
    QTest::mouseClick(f.panel.removeButton(), Qt::LeftButton);

    QCOMPARE(f.names(), (QStringList{QStringLiteral("school"), QStringLiteral("swarm"),
                                     QStringLiteral("convoy"), QStringLiteral("worms")}));
    QCOMPARE(f.rowNames(), f.names());
    QCOMPARE(f.undoCount(), 1);
    QVERIFY(f.selection.groups().isEmpty());
    QCOMPARE(f.controller.world()->groupCount(), 4);

    f.document.undoStack()->undo();
    QVERIFY(f.document.scene() == original);
    QCOMPARE(f.rowNames(), f.names());
    QCOMPARE(f.controller.world()->groupCount(), 5);
}

void TestGroupList::removeClearsReferences()
{
    SceneDesc original = demoScene();
    original.groups[kSwarm].chase = "convoy";
    QVERIFY(!validateScene(original));
    Fixture f(original);

    // The school (the player leads it) and the convoy (the swarm chases it), in one step.
    f.clickRow(kSchool);
    f.clickRow(kConvoy, Qt::ControlModifier);
    QCOMPARE(f.selectionSorted(), (QList<int>{kSchool, kConvoy}));
    QTest::mouseClick(f.panel.removeButton(), Qt::LeftButton);
    QCOMPARE(f.undoCount(), 1);
    const SceneDesc& scene = f.document.scene();
    QCOMPARE(scene.groups.size(), std::size_t(3));
    QVERIFY(scene.player.group.empty());
    QVERIFY(scene.groups[static_cast<std::size_t>(scene.groupIndex("swarm"))].chase.empty());
    QVERIFY(!validateScene(scene));
    QVERIFY2(f.controller.world(), qPrintable(f.controller.lastError()));

    f.document.undoStack()->undo();
    QVERIFY(f.document.scene() == original);
    QVERIFY(f.controller.world());
}

void TestGroupList::renameInline()
{
    Fixture f(demoScene());
    QSignalSpy rebuilt(&f.controller, &SimulationController::worldRebuilt);
    f.controller.stepOnce();
    renameRow(f.panel.tree(), kSchool, QStringLiteral("herring"));

    QCOMPARE(f.document.scene().groups[kSchool].name, std::string("herring"));
    QCOMPARE(f.document.scene().player.group, std::string("herring")); // the player still leads it
    QVERIFY(!validateScene(f.document.scene()));
    QCOMPARE(f.undoCount(), 1);
    QCOMPARE(f.rowNames(), f.names());
    QCOMPARE(rebuilt.count(), 0); // a new name does not restart the run

    f.document.undoStack()->undo();
    QCOMPARE(f.document.scene().groups[kSchool].name, std::string("school"));
    QCOMPARE(f.document.scene().player.group, std::string("school"));
    QCOMPARE(f.rowNames(), f.names());
}

void TestGroupList::renameToATakenNameIsRefused()
{
    Fixture f(demoScene());
    QVERIFY(f.panel.message().isEmpty());
    renameRow(f.panel.tree(), kSchool, QStringLiteral("squad"));
    QCOMPARE(f.document.scene().groups[kSchool].name, std::string("school"));
    QCOMPARE(f.undoCount(), 0);
    QVERIFY2(f.panel.message().contains(QStringLiteral("already")), qPrintable(f.panel.message()));
    QCOMPARE(f.rowNames(), f.names());

    renameRow(f.panel.tree(), kSchool, QStringLiteral("   "));
    QCOMPARE(f.undoCount(), 0);
    QCOMPARE(f.rowNames(), f.names());

    renameRow(f.panel.tree(), kSchool, QStringLiteral("sardines"));
    QCOMPARE(f.undoCount(), 1);
    QVERIFY(f.panel.message().isEmpty());
}

void TestGroupList::selectionFollowsBothWays()
{
    Fixture f(demoScene());
    QSignalSpy changed(&f.selection, &GroupSelection::selectionChanged);
    f.selection.setGroups({kSwarm, kConvoy});
    QCOMPARE(f.selectedRows(), (QList<int>{kSwarm, kConvoy}));
    QCOMPARE(changed.count(), 1); // the list following did not echo back

    f.clickRow(kWorms);
    QCOMPARE(f.selection.groups(), QList<int>{kWorms});
    QCOMPARE(f.selectedRows(), QList<int>{kWorms});
    f.clickRow(kSchool, Qt::ControlModifier);
    QCOMPARE(f.selectionSorted(), (QList<int>{kSchool, kWorms}));
    f.selection.clear();
    QVERIFY(f.selectedRows().isEmpty());
    QVERIFY(!f.panel.removeButton()->isEnabled());
}

void TestGroupList::selectionSurvivesRemovalBeforeIt()
{
    Fixture f(demoScene());
    f.clickRow(kWorms);
    f.document.undoStack()->push(
        makeRemoveItemsCommand(&f.document, {{ItemKind::SpawnArea, kSquad}}));
    QCOMPARE(f.selection.groups(), QList<int>{kWorms - 1});
    QCOMPARE(f.selectedRows(), QList<int>{kWorms - 1});
    QCOMPARE(f.document.scene().groups[static_cast<std::size_t>(f.selection.current())].name,
             std::string("worms"));
    f.document.undoStack()->undo();
    QCOMPARE(f.selection.groups(), QList<int>{kWorms});
    QCOMPARE(f.selectedRows(), QList<int>{kWorms});
}

void TestGroupList::showHideIsViewStateNotAnEdit()
{
    Fixture f(demoScene());
    QSignalSpy visibility(&f.panel, &GroupListPanel::groupVisibilityChanged);
    QTreeWidgetItem* swarm = f.panel.tree()->topLevelItem(kSwarm);
    swarm->setCheckState(GroupListPanel::NameColumn, Qt::Unchecked); // what a click on the box does
    QVERIFY(!f.panel.isGroupVisible(kSwarm));
    QVERIFY(f.panel.isGroupVisible(kSquad));
    QCOMPARE(visibility.count(), 1);
    QCOMPARE(visibility.first().at(0).toInt(), kSwarm);
    QCOMPARE(visibility.first().at(1).toBool(), false);
    QCOMPARE(f.undoCount(), 0);
    QVERIFY(!f.document.isModified());

    // Hidden stays hidden across a rename and when a group before it goes.
    renameRow(f.panel.tree(), kSwarm, QStringLiteral("hornets"));
    QCOMPARE(f.document.scene().groups[kSwarm].name, std::string("hornets"));
    QVERIFY(!f.panel.isGroupVisible(kSwarm));
    QCOMPARE(f.panel.tree()->topLevelItem(kSwarm)->checkState(GroupListPanel::NameColumn),
             Qt::Unchecked);
    f.clickRow(kSquad);
    QTest::mouseClick(f.panel.removeButton(), Qt::LeftButton);
    QVERIFY(!f.panel.isGroupVisible(kSwarm - 1));
    QVERIFY(f.panel.isGroupVisible(kSchool));

    f.panel.setGroupVisible(kSwarm - 1, true);
    QVERIFY(f.panel.isGroupVisible(kSwarm - 1));
    QCOMPARE(f.panel.tree()->topLevelItem(kSwarm - 1)->checkState(GroupListPanel::NameColumn),
             Qt::Checked);
    QCOMPARE(visibility.count(), 2);
}

void TestGroupList::colourWithAnInjectedPicker()
{
    Fixture f(demoScene());
    QColor answer(0x12, 0x34, 0x56);
    QColor asked;
    f.panel.setColorPicker([&](const QColor& initial, const QString&, QWidget*) {
        asked = initial;
        return answer;
    });
    const Color before = f.document.scene().groups[kSquad].color;
    f.clickRow(kSquad);
    QTest::mouseClick(f.panel.colorButton(), Qt::LeftButton);
    QCOMPARE(asked, QColor(before.r, before.g, before.b));
    QVERIFY((f.document.scene().groups[kSquad].color == Color{0x12, 0x34, 0x56, 255}));
    QCOMPARE(f.undoCount(), 1);
    f.document.undoStack()->undo();
    QVERIFY(f.document.scene().groups[kSquad].color == before);

    // Cancelled: nothing happens.
    answer = QColor();
    QTest::mouseClick(f.panel.colorButton(), Qt::LeftButton);
    QVERIFY(f.document.scene().groups[kSquad].color == before);
    QCOMPARE(f.document.undoStack()->index(), 0);

    // Several groups: one step recolours them all.
    answer = QColor(200, 10, 10);
    f.clickRow(kSwarm, Qt::ControlModifier);
    f.panel.recolorSelected(true);
    QVERIFY((f.document.scene().groups[kSquad].accent == Color{200, 10, 10, 255}));
    QVERIFY((f.document.scene().groups[kSwarm].accent == Color{200, 10, 10, 255}));
    QCOMPARE(f.document.undoStack()->index(), 1);
}

void TestGroupList::deleteKeyRemoves()
{
    Fixture f(demoScene());
    f.clickRow(kConvoy);
    f.panel.tree()->setFocus();
    QTest::keyClick(f.panel.tree(), Qt::Key_Delete);
    QCOMPARE(f.document.scene().groups.size(), std::size_t(4));
    QCOMPARE(f.document.scene().groupIndex("convoy"), -1);
    QCOMPARE(f.undoCount(), 1);
}

void TestGroupList::screenshot()
{
    // What the list must show: every row's swatch in its group's colours, the squad's row
    // selected, the swarm's hidden (its box unticked, its text greyed), the rest ticked.
    Fixture f(demoScene());
    f.panel.resize(330, 240);
    f.clickRow(kSquad);
    f.panel.setGroupVisible(kSwarm, false);
    QCoreApplication::processEvents();
    const QImage image = f.panel.grab().toImage();
    QVERIFY(!image.isNull());
    const QString dir = qEnvironmentVariable("SHOAL_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        QVERIFY(image.save(dir + QStringLiteral("/grouplist.png")));

    const QPalette palette = f.panel.tree()->palette();
    const QRgb highlight = palette.color(QPalette::Highlight).rgb();
    const QRgb base = palette.color(QPalette::Base).rgb();
    const auto& groups = f.document.scene().groups;
    QCOMPARE(f.panel.tree()->topLevelItemCount(), static_cast<int>(groups.size()));
    constexpr int kSwatchInterior = 80; // of a 14 px swatch's pixels, away from its edge and dot
    for (int row = 0; row < static_cast<int>(groups.size()); ++row) {
        const bool selected = row == kSquad;
        const RowShot shot(image, f.panel, row);
        const QRgb body = swatchBody(groups[static_cast<std::size_t>(row)], selected);
        QVERIFY2(shot.count(body) >= kSwatchInterior,
                 qPrintable(QStringLiteral("row %1: %2 px of its swatch colour")
                                .arg(row)
                                .arg(shot.count(body))));
        QCOMPARE(shot.dominant() == highlight, selected);
        if (selected)
            continue;
        QCOMPARE(shot.dominant(), base);
        // Shown groups' text is the palette's; a hidden group's is the greyed placeholder.
        const QRgb ink = RowShot(image, f.panel, row, GroupListPanel::FamilyColumn).ink();
        const QRgb expected = row == kSwarm ? over(palette.color(QPalette::PlaceholderText),
                                                   palette.color(QPalette::Base))
                                            : palette.color(QPalette::Text).rgb();
        QVERIFY2(sameColour(ink, expected), qPrintable(QStringLiteral("row %1: text %2, not %3")
                                                           .arg(row)
                                                           .arg(ink, 0, 16)
                                                           .arg(expected, 0, 16)));
    }
    // The check boxes (left of the swatches): the ticked ones alike, the swarm's without its
    // tick (the frame alone paints far fewer pixels).
    const int box = f.panel.tree()->style()->pixelMetric(QStyle::PM_IndicatorWidth) + 4;
    const RowShot ticked(RowShot(image, f.panel, kSchool).left(box));
    QCOMPARE(RowShot(image, f.panel, kConvoy).left(box), ticked.image);
    QCOMPARE(RowShot(image, f.panel, kWorms).left(box), ticked.image);
    const RowShot unticked(RowShot(image, f.panel, kSwarm).left(box));
    QVERIFY2(unticked.painted(base) < ticked.painted(base) * 3 / 4,
             qPrintable(QStringLiteral("box pixels: %1 hidden, %2 shown")
                            .arg(unticked.painted(base))
                            .arg(ticked.painted(base))));
}

QTEST_MAIN(TestGroupList)
#include "test_grouplist.moc"
