// The property panel's preset bar, through its real widgets: a preset applied from the combo
// is one undo step that restores the scene exactly; several groups of a family take it at
// once; a preset that breaks a rule is refused with the labels of the rows; a saved preset is
// a file in the user's folder and is offered at once; the differences from default are
// listed, marked in bold on the rows and reset in one step.

#include "document/commands.h"
#include "document/document.h"
#include "document/groupselection.h"
#include "panels/paramrow.h"
#include "panels/presetbar.h"
#include "panels/propertypanel.h"
#include "simulation/simulationcontroller.h"

#include "presetshelf.h"
#include "uitestsupport.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QToolButton>
#include <QUndoStack>
#include <QtTest>

using namespace shoal;
using namespace shoal::ui;

namespace {

constexpr int kSchool = 0; // the demo's groups, in file order

double param(const SceneDesc& scene, int group, const char* key)
{
    const GroupDesc& g = scene.groups[std::size_t(group)];
    return g.params[std::size_t(paramIndex(paramSpecs(g.kind), key))];
}

struct Fixture
{
    explicit Fixture(const SceneDesc& scene)
    {
        document.resetScene(scene, {});
        panel.resize(460, 1100);
        panel.show();
    }
    PresetBar* bar() const { return panel.presetBar(); }
    /// Chooses the combo's entry for `name` as a user would (activated signal).
    bool choose(const QString& name)
    {
        QComboBox* combo = bar()->presetCombo();
        const int index = combo->findData(name);
        if (index < 0)
            return false;
        combo->setCurrentIndex(index);
        emit combo->activated(index);
        return true;
    }

    Document document;
    GroupSelection selection{&document};
    SimulationController controller{&document};
    PropertyPanel panel{&document, &selection, &controller};
};

SceneDesc twoSchools()
{
    SceneDesc scene = test::emptyScene();
    for (const char* name : {"north", "south"}) {
        GroupDesc group = makeDefaultGroup(BehaviourKind::FishSchool, name);
        group.spawn = SpawnAreaDesc{
            {{-5.0, name[0] == 'n' ? 2.0 : -8.0}, {5.0, name[0] == 'n' ? 8.0 : -2.0}}, 6};
        scene.groups.push_back(group);
    }
    scene.player.group.clear();
    return scene;
}

} // namespace

class TestPresetBar : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void appliesFromTheComboAsOneUndoStep();
    void appliesToEverySelectedGroupOfTheFamily();
    void reachesTheRunningWorldWithoutARestart();
    void refusesAPresetThatBreaksARule();
    void savesTheGroupAsAPresetOfYourOwn();
    void listsMarksAndResetsTheDifferencesFromDefault();
    void hidesForGroupsOfSeveralFamilies();
};

void TestPresetBar::initTestCase()
{
    // The user's presets go to a test folder (~/.qttest/share/...), never the real one.
    QStandardPaths::setTestModeEnabled(true);
}

void TestPresetBar::init()
{
    QDir(presets::userFolder()).removeRecursively();
}

void TestPresetBar::appliesFromTheComboAsOneUndoStep()
{
    Fixture f(test::demoScene());
    f.selection.select(kSchool);
    QVERIFY(f.bar()->isVisible());
    QComboBox* combo = f.bar()->presetCombo();
    QVERIFY(combo->findData(QStringLiteral("tight-school")) > 0);
    QVERIFY(combo->findData(QStringLiteral("loose-school")) > 0);
    QCOMPARE(combo->findData(QStringLiteral("fast-squad")), -1); // another family's

    const SceneDesc before = f.document.scene();
    const int steps = f.document.undoStack()->count();
    QVERIFY(f.choose(QStringLiteral("tight-school")));
    QCOMPARE(f.document.undoStack()->count(), steps + 1);
    QCOMPARE(f.document.undoStack()->undoText(),
             QStringLiteral("Apply Preset \u201ctight-school\u201d"));
    const SceneDesc& after = f.document.scene();
    QCOMPARE(param(after, kSchool, "keepMaxDistance"), 1.3);
    QCOMPARE(param(after, kSchool, "keepWeight"), 1.5);
    QCOMPARE(param(after, kSchool, "moveSpeed"), param(before, kSchool, "moveSpeed"));
    QCOMPARE(combo->currentIndex(), 0); // back to "Apply a preset..."
    // The rows show the new values.
    QCOMPARE(f.panel.groupRow(QStringLiteral("keepMaxDistance"))->value(), 1.3);

    f.document.undoStack()->undo();
    QVERIFY(f.document.scene() == before);
    f.document.undoStack()->redo();
    QCOMPARE(param(f.document.scene(), kSchool, "keepMinDistance"), 1.0);
}

void TestPresetBar::appliesToEverySelectedGroupOfTheFamily()
{
    Fixture f(twoSchools());
    f.selection.setGroups({0, 1});
    QVERIFY(f.bar()->isVisible());
    QVERIFY(!f.bar()->saveButton()->isEnabled()); // saving takes one group's values
    const SceneDesc before = f.document.scene();
    QVERIFY(f.choose(QStringLiteral("loose-school")));
    for (int g : {0, 1})
        QCOMPARE(param(f.document.scene(), g, "keepMaxDistance"), 3.6);
    f.document.undoStack()->undo();
    QVERIFY(f.document.scene() == before);
}

void TestPresetBar::reachesTheRunningWorldWithoutARestart()
{
    Fixture f(test::demoScene());
    QTRY_VERIFY(f.controller.world());
    for (int i = 0; i < 30; ++i)
        f.controller.stepOnce();
    const double time = f.controller.world()->time();
    QVERIFY(time > 0.0);
    QSignalSpy rebuilt(&f.controller, &SimulationController::worldRebuilt);
    f.selection.select(kSchool);
    // loose-school raises the band's minimum (2.8) past the group's old maximum (2.0): set one
    // by one, the world would refuse the first and the editor restart the run.
    QVERIFY(f.choose(QStringLiteral("loose-school")));
    QCOMPARE(rebuilt.count(), 0);
    QCOMPARE(f.controller.world()->time(), time);
    QCOMPARE(f.controller.world()->param(kSchool, "keepMinDistance"), 2.8);
    QCOMPARE(f.controller.world()->param(kSchool, "keepMaxDistance"), 3.6);
    f.document.undoStack()->undo();
    QCOMPARE(rebuilt.count(), 0);
    QCOMPARE(f.controller.world()->param(kSchool, "keepMaxDistance"), 2.0);
}

void TestPresetBar::refusesAPresetThatBreaksARule()
{
    // A preset of the user's that moves the band's minimum past the group's maximum.
    Preset wide;
    wide.name = "wide min";
    wide.kind = BehaviourKind::FishSchool;
    wide.values = {{"keepMinDistance", 2.5}};
    QVERIFY(!presets::saveUserPreset(wide));

    Fixture f(test::demoScene());
    f.bar()->reloadPresets();
    f.selection.select(kSchool);
    const SceneDesc before = f.document.scene();
    const int steps = f.document.undoStack()->count();
    QVERIFY(f.choose(QStringLiteral("wide min")));
    QCOMPARE(f.document.undoStack()->count(), steps);
    QVERIFY(f.document.scene() == before);
    QVERIFY2(f.bar()->message().contains(
                 QStringLiteral("Keep min distance (2.5) must be less than Keep max distance")),
             qPrintable(f.bar()->message()));
}

void TestPresetBar::savesTheGroupAsAPresetOfYourOwn()
{
    Fixture f(test::demoScene());
    f.selection.select(kSchool);
    QVERIFY(f.bar()->saveButton()->isEnabled());
    QVERIFY(f.bar()->savePreset(QStringLiteral("demo school")));
    Preset expected = presetFromValues("demo school", BehaviourKind::FishSchool,
                                       f.document.scene().groups[kSchool].params);
    QVERIFY(QFile::exists(presets::fileOf(expected)));
    const int index = f.bar()->presetCombo()->findData(QStringLiteral("demo school"));
    QVERIFY(index > 0);
    QCOMPARE(f.bar()->presetCombo()->itemText(index), QStringLiteral("demo school (yours)"));

    // What was saved is what the group had: applying it to a changed group gives it back.
    const SceneDesc saved = f.document.scene();
    f.document.undoStack()->push(new SetGroupParamCommand(
        &f.document, kSchool, paramIndex(paramSpecs(BehaviourKind::FishSchool), "keepWeight"), 3.0,
        true));
    QVERIFY(f.choose(QStringLiteral("demo school")));
    QVERIFY(f.document.scene().groups[kSchool].params == saved.groups[kSchool].params);

    // A built-in's name and a name a file cannot carry are refused, and nothing is written.
    QVERIFY(!f.bar()->savePreset(QStringLiteral("tight-school")));
    QVERIFY(f.bar()->message().contains(QStringLiteral("built-in")));
    QVERIFY(!f.bar()->savePreset(QStringLiteral("a/b")));
    QVERIFY(f.bar()->message().contains(QStringLiteral("holds '/'")));
    QCOMPARE(
        QDir(presets::userFolder() + QStringLiteral("/fishSchool")).entryList(QDir::Files).size(),
        1);
}

void TestPresetBar::listsMarksAndResetsTheDifferencesFromDefault()
{
    Fixture f(twoSchools());
    f.selection.select(0);
    QVERIFY(f.bar()->differences().isEmpty());
    QVERIFY(!f.bar()->differencesButton()->isEnabled());
    ParamRow* keep = f.panel.groupRow(QStringLiteral("keepWeight"));
    QVERIFY(!keep->label()->font().bold());

    const auto& specs = paramSpecs(BehaviourKind::FishSchool);
    f.document.undoStack()->push(
        new SetGroupParamCommand(&f.document, 0, paramIndex(specs, "keepWeight"), 1.4, true));
    f.document.undoStack()->push(
        new SetGroupParamCommand(&f.document, 0, paramIndex(specs, "moveSpeed"), 5.0, true));
    QCOMPARE(f.bar()->differences(),
             QStringList({QStringLiteral("Move speed: 5 m/s (default 3.4 m/s)"),
                          QStringLiteral("Keep weight: 1.4 (default 1)")}));
    QVERIFY(f.bar()->differencesButton()->isEnabled());
    QCOMPARE(f.bar()->differencesButton()->text(), QStringLiteral("2 changed"));
    QVERIFY(keep->label()->font().bold());
    QVERIFY(!f.panel.groupRow(QStringLiteral("keepMinDistance"))->label()->font().bold());

    const SceneDesc changed = f.document.scene();
    const int steps = f.document.undoStack()->count();
    f.bar()->resetAll();
    QCOMPARE(f.document.undoStack()->count(), steps + 1);
    QVERIFY(f.bar()->differences().isEmpty());
    QVERIFY(!keep->label()->font().bold());
    f.document.undoStack()->undo();
    QVERIFY(f.document.scene() == changed);
}

void TestPresetBar::hidesForGroupsOfSeveralFamilies()
{
    Fixture f(test::demoScene());
    f.selection.setGroups({0, 1});
    QVERIFY(!f.bar()->isVisible());
    f.selection.clear();
    QVERIFY(!f.bar()->isVisible());
}

QTEST_MAIN(TestPresetBar)
#include "test_presetbar.moc"
