// The property panel: rows generated from the ParamSpec tables, edited with the real widgets
// (mouse drags on the QSlider, keys in the spin boxes), checked in the document, the undo
// stack and the running world.

#include "document/commands.h"
#include "document/document.h"
#include "document/groupselection.h"
#include "panels/paramrow.h"
#include "panels/propertypanel.h"
#include "simulation/simulationcontroller.h"

#include "embeddedscenes.h"
#include "uitestsupport.h"
#include <shoal/scenefile.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStyleOptionSlider>
#include <QToolButton>
#include <QWheelEvent>
#include <QtTest>

using namespace shoal;
using namespace shoal::ui;

namespace {

constexpr int kSchool = 0; // the demo's groups, in file order
constexpr int kSquad = 1;
constexpr int kWorms = 4;

using test::demoScene;

int fishParam(const char* key)
{
    return paramIndex(paramSpecs(BehaviourKind::FishSchool), key);
}

/// The document, selection, running simulation and panel, shown offscreen.
struct Fixture
{
    explicit Fixture(const SceneDesc& scene)
    {
        document.resetScene(scene, {});
        panel.resize(460, 1100);
        panel.show();
    }
    double docParam(int group, const char* key) const
    {
        const GroupDesc& g = document.scene().groups[static_cast<std::size_t>(group)];
        return g.params[static_cast<std::size_t>(paramIndex(paramSpecs(g.kind), key))];
    }
    int undoCount() const { return document.undoStack()->count(); }

    Document document;
    GroupSelection selection{&document};
    SimulationController controller{&document};
    PropertyPanel panel{&document, &selection, &controller};
};

/// The style's geometry of `slider` with its handle at `position`.
QStyleOptionSlider sliderOption(QSlider* slider, int position)
{
    QStyleOptionSlider option;
    option.initFrom(slider);
    option.orientation = slider->orientation();
    option.minimum = slider->minimum();
    option.maximum = slider->maximum();
    option.sliderPosition = position;
    option.sliderValue = slider->value();
    option.singleStep = slider->singleStep();
    option.pageStep = slider->pageStep();
    option.upsideDown = slider->invertedAppearance() != (option.direction == Qt::RightToLeft);
    option.subControls = QStyle::SC_SliderHandle;
    return option;
}

/// Where the style puts `slider`'s handle for `position`.
QRect handleRect(QSlider* slider, int position)
{
    const QStyleOptionSlider option = sliderOption(slider, position);
    return slider->style()->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderHandle,
                                           slider);
}

QPoint handleCentre(QSlider* slider)
{
    return handleRect(slider, slider->sliderPosition()).center();
}

/// A mouse drag on the slider's handle, one press, a move per offset (px), one release.
class SliderDrag
{
public:
    explicit SliderDrag(QSlider* slider) : m_slider(slider), m_at(handleCentre(slider))
    {
        QTest::mousePress(m_slider, Qt::LeftButton, Qt::NoModifier, m_at);
    }
    void moveBy(int dx)
    {
        m_at.rx() += dx;
        QMouseEvent move(QEvent::MouseMove, QPointF(m_at), m_slider->mapToGlobal(QPointF(m_at)),
                         Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(m_slider, &move);
    }
    void release() { QTest::mouseRelease(m_slider, Qt::LeftButton, Qt::NoModifier, m_at); }

private:
    QSlider* m_slider;
    QPoint m_at;
};

void drag(QSlider* slider, std::initializer_list<int> moves)
{
    SliderDrag gesture(slider);
    for (int dx : moves)
        gesture.moveBy(dx);
    gesture.release();
}

/// What a grab of the panel shows of `widget` (one of its children).
QImage shotOf(const QImage& shot, const QWidget* panel, const QWidget* widget)
{
    return shot.copy(QRect(widget->mapTo(panel, QPoint()), widget->size()));
}

/// How many pixels of `image` pass `test`.
template <class Test> int countPixels(const QImage& image, Test test)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            n += test(image.pixel(x, y) | 0xff000000u) ? 1 : 0;
    return n;
}

bool reddish(QRgb pixel)
{
    return qRed(pixel) - std::max(qGreen(pixel), qBlue(pixel)) > 60;
}

/// Empty when the grab shows `row`'s slider handle where `value` puts it and nowhere else
/// (looking along a line above the groove, which only the handle reaches); else what is wrong.
QString handleProblem(const QImage& shot, const QWidget* panel, ParamRow* row, double value)
{
    // The handle's place from the spec and the value alone: positions of one step each, the
    // minimum on the left; over three decades or more, 1000 positions along the logarithm.
    QSlider* slider = row->slider();
    const ParamSpec& spec = row->spec();
    const QString key = QString::fromStdString(spec.key);
    const bool logarithmic = spec.minValue > 0.0 && spec.maxValue / spec.minValue >= 1000.0;
    const int positions =
        logarithmic
            ? 1000
            : std::max(1,
                       static_cast<int>(std::lround((spec.maxValue - spec.minValue) / spec.step)));
    const int position =
        logarithmic ? static_cast<int>(std::lround(positions * std::log(value / spec.minValue) /
                                                   std::log(spec.maxValue / spec.minValue)))
                    : static_cast<int>(std::lround((value - spec.minValue) / spec.step));
    if (row->isLogarithmic() != logarithmic)
        return QStringLiteral("%1: the slider's scale is not the one its range calls for").arg(key);
    QStyleOptionSlider option = sliderOption(slider, position);
    option.minimum = 0;
    option.maximum = positions;
    option.upsideDown = false;
    const QRect handle = slider->style()->subControlRect(QStyle::CC_Slider, &option,
                                                         QStyle::SC_SliderHandle, slider);
    const QImage image = shotOf(shot, panel, slider);
    const int y = handle.top() + 2;
    const int away = handle.center().x() < image.width() / 2 ? image.width() - 1 : 0;
    const QRgb background = image.pixel(away, y);
    int drawn = 0;
    for (int x = 0; x < image.width(); ++x) {
        if (image.pixel(x, y) == background)
            continue;
        if (x < handle.left() - 1 || x > handle.right() + 1)
            return QStringLiteral("%1: a handle at x %2, not at %3 (%4)")
                .arg(key)
                .arg(x)
                .arg(handle.left())
                .arg(value);
        ++drawn;
    }
    if (drawn == 0)
        return QStringLiteral("%1: no handle at x %2").arg(key).arg(handle.left());
    return {};
}

/// Replaces a spin box's text the way a user does: select all, type, Enter.
void typeInto(QAbstractSpinBox* spin, const QString& text)
{
    spin->setFocus();
    QTest::keyClick(spin, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(spin, text);
    QTest::keyClick(spin, Qt::Key_Return);
}

QRgb bodyColour(const GroupDesc& group)
{
    return qRgb(group.color.r, group.color.g, group.color.b);
}

/// Empty when the header's swatch shows the selected groups' colours and no other group's.
QString swatchProblem(const Fixture& f, const QImage& shot)
{
    QList<QLabel*> swatches;
    for (QLabel* label : f.panel.findChildren<QLabel*>())
        if (label->isVisible() && !label->pixmap().isNull())
            swatches.append(label);
    if (swatches.size() != 1)
        return QStringLiteral("%1 swatches shown").arg(swatches.size());
    const QImage image = shotOf(shot, &f.panel, swatches.first());
    const auto& groups = f.document.scene().groups;
    QList<QRgb> shown;
    for (int g : f.selection.groups())
        shown.append(bodyColour(groups[static_cast<std::size_t>(g)]));
    constexpr int kLeast = 40; // of the smallest swatch's (14 px) body, the rest overlapped
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const QRgb body = bodyColour(groups[g]);
        const int pixels = countPixels(image, [body](QRgb p) { return p == body; });
        if (shown.contains(body) ? pixels < kLeast : pixels > 0)
            return QStringLiteral("the swatch has %1 px of %2's colour")
                .arg(pixels)
                .arg(QString::fromStdString(groups[g].name));
    }
    return {};
}

/// Empty when every slider shows its model value (the first selected group's parameters,
/// the time step, the speed, the player's parameters) and only `refused` has a red message.
QString rowsProblem(const Fixture& f, const QImage& shot, const QString& refused)
{
    const SceneDesc& scene = f.document.scene();
    QList<QPair<ParamRow*, double>> rows;
    for (int i = 0; i < f.panel.groupRows().size(); ++i)
        rows.append(
            {f.panel.groupRows()[i], scene.groups[static_cast<std::size_t>(f.selection.current())]
                                         .params[static_cast<std::size_t>(i)]});
    rows.append({f.panel.timeStepRow(), scene.simulation.dt});
    rows.append({f.panel.speedRow(), f.controller.speed()});
    for (std::size_t i = 0; i < playerParamSpecs().size(); ++i)
        rows.append({f.panel.playerRow(QString::fromStdString(playerParamSpecs()[i].key)),
                     scene.player.params[i]});
    for (const auto& [row, value] : rows) {
        if (row->slider())
            if (const QString problem = handleProblem(shot, &f.panel, row, value);
                !problem.isEmpty())
                return problem;
        // The message line: the row under its label (the controls stay out of it).
        const int top = row->label()->geometry().bottom() + 1;
        const QImage line =
            shotOf(shot, &f.panel, row).copy(0, top, row->width(), row->height() - top);
        const int red = countPixels(line, reddish);
        const QString key = QString::fromStdString(row->spec().key);
        if ((key == refused) != (red > 50)) // a line of text, not a stray pixel
            return QStringLiteral("%1: %2 px of red message").arg(key).arg(red);
    }
    return {};
}

/// Empty when the group section shows a message saying `text` (in part), written out.
QString messageProblem(const Fixture& f, const QImage& shot, const QString& text)
{
    for (QLabel* label : f.panel.findChildren<QLabel*>()) {
        if (!label->isVisible() || !label->text().contains(text))
            continue;
        const QImage image = shotOf(shot, &f.panel, label);
        const QRgb background = image.pixel(0, 0) | 0xff000000u;
        const int ink = countPixels(image, [background](QRgb p) { return p != background; });
        return ink > 300 ? QString() : QStringLiteral("the message has %1 px of text").arg(ink);
    }
    return QStringLiteral("no message saying \u201c%1\u201d").arg(text);
}

/// Empty when the grab shows what the panel must (the swatch, the rows; with no rows, the
/// mixed-families message); else the first thing wrong.
QString shotProblem(const Fixture& f, const QImage& shot, const QString& refused = {})
{
    const QString mixed = QStringLiteral("different families");
    for (const QString& problem :
         {swatchProblem(f, shot), rowsProblem(f, shot, refused),
          f.panel.groupRows().isEmpty() ? messageProblem(f, shot, mixed) : QString()})
        if (!problem.isEmpty())
            return problem;
    return {};
}

} // namespace

class TestPropertyPanel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void rowsFollowTheSpecTable();
    void sliderDragIsLiveAndOneUndoStep();
    void twoDragsAreTwoStepsAndUndoRestoresExactly();
    void spinBoxEditsAreOneStepEach();
    void valuesOutsideTheRangeCannotBeEntered();
    void resetToDefault();
    void multiSelectionEditsAllGroupsInOneStep();
    void mixedFamiliesShowNoRows();
    void relationViolationIsRefusedWithAMessage();
    void relationViolationDuringADragKeepsStepsApart();
    void choiceRowEditsTheWorm();
    void undoRefreshesTheRowsWithoutFeedback();
    void sceneSection();
    void wheelEditsOnlyAFocusedRow();
    void screenshots();
};

void TestPropertyPanel::initTestCase()
{
    QLocale::setDefault(QLocale::c());
}

void TestPropertyPanel::rowsFollowTheSpecTable()
{
    Fixture f(demoScene());
    QVERIFY(f.panel.groupRows().isEmpty());
    QVERIFY(f.panel.groupMessage().contains(QStringLiteral("No group selected")));

    f.selection.select(kSchool);
    const auto& specs = paramSpecs(BehaviourKind::FishSchool);
    QCOMPARE(f.panel.groupRows().size(), static_cast<int>(specs.size()));
    QVERIFY(f.panel.groupMessage().isEmpty());
    for (std::size_t i = 0; i < specs.size(); ++i) {
        ParamRow* row = f.panel.groupRows()[static_cast<int>(i)];
        QCOMPARE(row->label()->text(), QString::fromStdString(specs[i].label));
        QVERIFY(row->label()->toolTip().contains(
            QString::fromStdString(specs[i].tooltip).toHtmlEscaped()));
        QCOMPARE(row->value(), f.document.scene().groups[kSchool].params[i]);
        if (specs[i].type == ParamType::Integer) {
            QVERIFY(row->intSpinBox());
            QCOMPARE(row->intSpinBox()->maximum(), static_cast<int>(specs[i].maxValue));
        } else {
            QVERIFY(row->doubleSpinBox());
            QCOMPARE(row->doubleSpinBox()->minimum(), specs[i].minValue);
            QCOMPARE(row->doubleSpinBox()->maximum(), specs[i].maxValue);
            QCOMPARE(row->doubleSpinBox()->singleStep(), specs[i].step);
        }
    }
    // Another family: its own table.
    f.selection.select(kSquad);
    QCOMPARE(f.panel.groupRows().size(),
             static_cast<int>(paramSpecs(BehaviourKind::TankSquad).size()));
    QVERIFY(f.panel.groupRow(QStringLiteral("reverseDistance")));
    QVERIFY(!f.panel.groupRow(QStringLiteral("neighborRadius")));
}

void TestPropertyPanel::sliderDragIsLiveAndOneUndoStep()
{
    Fixture f(demoScene());
    f.selection.select(kSchool);
    ParamRow* row = f.panel.groupRow(QStringLiteral("moveSpeed"));
    QVERIFY(row);
    const double original = f.docParam(kSchool, "moveSpeed");
    QSignalSpy undoIndex(f.document.undoStack(), &QUndoStack::indexChanged);
    QSignalSpy rebuilt(&f.controller, &SimulationController::worldRebuilt);
    f.controller.stepOnce();

    SliderDrag gesture(row->slider());
    gesture.moveBy(20);
    // Live while the button is still down: the document and the running world have it.
    const double during = f.docParam(kSchool, "moveSpeed");
    QVERIFY(during > original);
    QCOMPARE(f.controller.world()->param(kSchool, "moveSpeed"), during);
    QCOMPARE(row->doubleSpinBox()->value(), during);
    gesture.moveBy(20);
    gesture.moveBy(15);
    gesture.release();

    const double after = f.docParam(kSchool, "moveSpeed");
    QVERIFY(after > during);
    QCOMPARE(f.controller.world()->param(kSchool, "moveSpeed"), after);
    QCOMPARE(f.undoCount(), 1);
    QCOMPARE(f.document.undoStack()->index(), 1);
    QCOMPARE(rebuilt.count(), 0); // applied to the running world, no restart
    QCOMPARE(f.controller.world()->stepCount(), std::uint64_t(1));
    QVERIFY(undoIndex.count() >= 1);
}

void TestPropertyPanel::twoDragsAreTwoStepsAndUndoRestoresExactly()
{
    SceneDesc scene = demoScene();
    // Off the slider's 0.1 grid: undo must give this exact value back, not a rounded one.
    scene.groups[kSchool].params[static_cast<std::size_t>(fishParam("moveSpeed"))] = 3.437;
    Fixture f(scene);
    f.selection.select(kSchool);
    ParamRow* row = f.panel.groupRow(QStringLiteral("moveSpeed"));
    QCOMPARE(row->doubleSpinBox()->value(), 3.437);

    drag(row->slider(), {25, 25});
    const double first = f.docParam(kSchool, "moveSpeed");
    QCOMPARE(f.undoCount(), 1);
    drag(row->slider(), {-10, -10});
    const double second = f.docParam(kSchool, "moveSpeed");
    QVERIFY(second < first);
    QCOMPARE(f.undoCount(), 2);

    f.document.undoStack()->undo();
    QCOMPARE(f.docParam(kSchool, "moveSpeed"), first);
    QCOMPARE(f.controller.world()->param(kSchool, "moveSpeed"), first);
    f.document.undoStack()->undo();
    QCOMPARE(f.docParam(kSchool, "moveSpeed"), 3.437);
    QCOMPARE(f.controller.world()->param(kSchool, "moveSpeed"), 3.437);
    QCOMPARE(row->doubleSpinBox()->value(), 3.437);
    QCOMPARE(row->value(), 3.437);
}

void TestPropertyPanel::spinBoxEditsAreOneStepEach()
{
    Fixture f(demoScene());
    f.selection.select(kSchool);
    ParamRow* row = f.panel.groupRow(QStringLiteral("neighborRadius"));
    const double original = f.docParam(kSchool, "neighborRadius");

    QTest::keyClick(row->doubleSpinBox(), Qt::Key_Up);
    QCOMPARE(f.docParam(kSchool, "neighborRadius"), original + 0.1);
    QCOMPARE(f.undoCount(), 1);
    QTest::keyClick(row->doubleSpinBox(), Qt::Key_Up);
    QCOMPARE(f.undoCount(), 2);

    typeInto(row->doubleSpinBox(), QStringLiteral("7.5"));
    QCOMPARE(f.docParam(kSchool, "neighborRadius"), 7.5);
    QCOMPARE(f.controller.world()->param(kSchool, "neighborRadius"), 7.5);
    QCOMPARE(f.undoCount(), 3);
    QCOMPARE(row->slider()->value(), static_cast<int>(std::lround((7.5 - 0.1) / 0.1)));

    // An integer parameter has a whole-number spin box.
    ParamRow* band = f.panel.groupRow(QStringLiteral("neighborCount"));
    QVERIFY(band->intSpinBox());
    const double count = f.docParam(kSchool, "neighborCount");
    QTest::keyClick(band->intSpinBox(), Qt::Key_Up);
    QCOMPARE(f.docParam(kSchool, "neighborCount"), count + 1);
    QCOMPARE(f.undoCount(), 4);

    f.document.undoStack()->undo();
    f.document.undoStack()->undo();
    QCOMPARE(f.docParam(kSchool, "neighborRadius"), original + 0.2);
}

void TestPropertyPanel::valuesOutsideTheRangeCannotBeEntered()
{
    Fixture f(demoScene());
    f.selection.select(kSchool);
    ParamRow* row = f.panel.groupRow(QStringLiteral("moveSpeed")); // 0.1 to 30 m/s
    typeInto(row->doubleSpinBox(), QStringLiteral("99"));
    QVERIFY(f.docParam(kSchool, "moveSpeed") <= 30.0);
    QVERIFY(!checkParamValue(
        paramSpecs(BehaviourKind::FishSchool)[static_cast<std::size_t>(fishParam("moveSpeed"))],
        f.docParam(kSchool, "moveSpeed")));
    // The arrows stop at the end of the range, with no step past it.
    typeInto(row->doubleSpinBox(), QStringLiteral("30"));
    QCOMPARE(f.docParam(kSchool, "moveSpeed"), 30.0);
    const int count = f.undoCount();
    QTest::keyClick(row->doubleSpinBox(), Qt::Key_Up);
    QCOMPARE(f.docParam(kSchool, "moveSpeed"), 30.0);
    QCOMPARE(f.undoCount(), count);
    // And the slider's end is the range's end.
    row->slider()->triggerAction(QAbstractSlider::SliderToMaximum);
    QCOMPARE(f.docParam(kSchool, "moveSpeed"), 30.0);
}

void TestPropertyPanel::resetToDefault()
{
    Fixture f(demoScene());
    f.selection.select(kSchool);
    ParamRow* row = f.panel.groupRow(QStringLiteral("keepWeight"));
    const double defaultValue = row->spec().defaultValue;
    QCOMPARE(f.docParam(kSchool, "keepWeight"), defaultValue);
    QVERIFY(!row->resetButton()->isEnabled());

    typeInto(row->doubleSpinBox(), QStringLiteral("2.25"));
    QCOMPARE(f.docParam(kSchool, "keepWeight"), 2.25);
    QVERIFY(row->resetButton()->isEnabled());

    QTest::mouseClick(row->resetButton(), Qt::LeftButton);
    QCOMPARE(f.docParam(kSchool, "keepWeight"), defaultValue);
    QCOMPARE(f.controller.world()->param(kSchool, "keepWeight"), defaultValue);
    QCOMPARE(row->doubleSpinBox()->value(), defaultValue);
    QVERIFY(!row->resetButton()->isEnabled());
    QCOMPARE(f.undoCount(), 2);
    f.document.undoStack()->undo();
    QCOMPARE(f.docParam(kSchool, "keepWeight"), 2.25);
    QVERIFY(row->resetButton()->isEnabled());
}

void TestPropertyPanel::multiSelectionEditsAllGroupsInOneStep()
{
    SceneDesc scene = demoScene();
    GroupDesc second = makeDefaultGroup(BehaviourKind::FishSchool, "school 2");
    second.spawn = SpawnAreaDesc{{{0.0, 18.0}, {6.0, 22.0}}, 6};
    second.params[static_cast<std::size_t>(fishParam("moveSpeed"))] = 5.0;
    scene.groups.push_back(second);
    const int other = static_cast<int>(scene.groups.size()) - 1;
    Fixture f(scene);
    const double firstOriginal = f.docParam(kSchool, "moveSpeed");

    f.selection.setGroups({kSchool, other});
    ParamRow* row = f.panel.groupRow(QStringLiteral("moveSpeed"));
    QVERIFY(row);
    QVERIFY(row->isMixed()); // 3.4 and 5.0
    QVERIFY(!f.panel.groupRow(QStringLiteral("keepWeight"))->isMixed());

    drag(row->slider(), {15, 15, 15});
    const double value = f.docParam(kSchool, "moveSpeed");
    QVERIFY(value != firstOriginal);
    QCOMPARE(f.docParam(other, "moveSpeed"), value);
    QCOMPARE(f.controller.world()->param(kSchool, "moveSpeed"), value);
    QCOMPARE(f.controller.world()->param(other, "moveSpeed"), value);
    QCOMPARE(f.undoCount(), 1);
    QVERIFY(!row->isMixed());

    // A second drag is a second step; undo takes both groups back.
    drag(row->slider(), {10});
    QCOMPARE(f.undoCount(), 2);
    f.document.undoStack()->undo();
    f.document.undoStack()->undo();
    QCOMPARE(f.docParam(kSchool, "moveSpeed"), firstOriginal);
    QCOMPARE(f.docParam(other, "moveSpeed"), 5.0);
    QCOMPARE(f.controller.world()->param(other, "moveSpeed"), 5.0);
    QVERIFY(row->isMixed());

    // A spin box edit on both is one step too.
    typeInto(f.panel.groupRow(QStringLiteral("pickRadius"))->doubleSpinBox(),
             QStringLiteral("2.5"));
    QCOMPARE(f.docParam(kSchool, "pickRadius"), 2.5);
    QCOMPARE(f.docParam(other, "pickRadius"), 2.5);
    QCOMPARE(f.document.undoStack()->index(), 1);
}

void TestPropertyPanel::mixedFamiliesShowNoRows()
{
    Fixture f(demoScene());
    f.selection.setGroups({kSchool, kWorms});
    QVERIFY(f.panel.groupRows().isEmpty());
    QVERIFY2(f.panel.groupMessage().contains(QStringLiteral("different families")),
             qPrintable(f.panel.groupMessage()));
    QVERIFY(f.panel.groupMessage().contains(QStringLiteral("Fish school")));
    QVERIFY(f.panel.groupMessage().contains(QStringLiteral("Worm")));
    f.selection.setGroups({kWorms});
    QCOMPARE(f.panel.groupRows().size(), static_cast<int>(paramSpecs(BehaviourKind::Worm).size()));
}

void TestPropertyPanel::relationViolationIsRefusedWithAMessage()
{
    Fixture f(demoScene());
    f.selection.select(kSchool);
    ParamRow* minRow = f.panel.groupRow(QStringLiteral("keepMinDistance"));
    const double keepMin = f.docParam(kSchool, "keepMinDistance");
    const double keepMax = f.docParam(kSchool, "keepMaxDistance");
    QVERIFY(keepMin < keepMax);
    QVERIFY(minRow->error().isEmpty());

    typeInto(minRow->doubleSpinBox(), QString::number(keepMax + 0.5));
    // Named as the rows name them, not by the file's keys.
    QVERIFY2(minRow->error().contains(QStringLiteral("Keep max distance")) &&
                 minRow->error().contains(QStringLiteral("Keep min distance")) &&
                 !minRow->error().contains(QStringLiteral("keepMaxDistance")),
             qPrintable(minRow->error()));
    QCOMPARE(f.docParam(kSchool, "keepMinDistance"), keepMin);
    QCOMPARE(f.controller.world()->param(kSchool, "keepMinDistance"), keepMin);
    QCOMPARE(f.undoCount(), 0);
    QCOMPARE(minRow->doubleSpinBox()->value(), keepMin); // back to the document's value
    // The reason stays long enough to read, then goes: the value went back long ago.
    QTest::qWait(ParamRow::kErrorMs / 2);
    QVERIFY(!minRow->error().isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(minRow->error().isEmpty(), ParamRow::kErrorMs);
    typeInto(minRow->doubleSpinBox(), QString::number(keepMax + 0.5));
    QVERIFY(!minRow->error().isEmpty());

    // A valid edit goes through and clears the message.
    typeInto(minRow->doubleSpinBox(), QString::number(keepMax - 0.1));
    QVERIFY(minRow->error().isEmpty());
    QCOMPARE(f.docParam(kSchool, "keepMinDistance"), keepMax - 0.1);
    QCOMPARE(f.undoCount(), 1);
}

void TestPropertyPanel::relationViolationDuringADragKeepsStepsApart()
{
    Fixture f(demoScene());
    f.selection.select(kSchool);
    ParamRow* minRow = f.panel.groupRow(QStringLiteral("keepMinDistance"));
    const double keepMax = f.docParam(kSchool, "keepMaxDistance");
    // Far to the right: past keepMaxDistance, which is refused on the way.
    drag(minRow->slider(), {40, 40, 40, 40});
    QVERIFY(!minRow->error().isEmpty());
    QVERIFY(f.docParam(kSchool, "keepMinDistance") < keepMax);
    QVERIFY(f.controller.world()->param(kSchool, "keepMinDistance") < keepMax);
    QVERIFY(f.undoCount() <= 1);
    QVERIFY(
        !checkParamRelations(BehaviourKind::FishSchool, f.document.scene().groups[kSchool].params));
    const int count = f.undoCount();
    // The refused drag was closed: the next one is its own step.
    drag(minRow->slider(), {-200});
    QCOMPARE(f.undoCount(), count + 1);
    QVERIFY(minRow->error().isEmpty());
}

void TestPropertyPanel::choiceRowEditsTheWorm()
{
    Fixture f(demoScene());
    f.selection.select(kWorms);
    ParamRow* row = f.panel.groupRow(QStringLiteral("wallResponse"));
    QVERIFY(row && row->comboBox() && !row->slider());
    QCOMPARE(row->comboBox()->currentText(), QStringLiteral("slide"));
    row->comboBox()->setFocus();
    QTest::keyClick(row->comboBox(), Qt::Key_Up);
    QCOMPARE(row->comboBox()->currentText(), QStringLiteral("stop"));
    QCOMPARE(f.docParam(kWorms, "wallResponse"), 0.0);
    QCOMPARE(f.controller.world()->param(kWorms, "wallResponse"), 0.0);
    QCOMPARE(f.undoCount(), 1);
    f.document.undoStack()->undo();
    QCOMPARE(row->comboBox()->currentText(), QStringLiteral("slide"));
}

void TestPropertyPanel::undoRefreshesTheRowsWithoutFeedback()
{
    Fixture f(demoScene());
    f.selection.select(kSchool);
    ParamRow* row = f.panel.groupRow(QStringLiteral("turnDeadZone"));
    QSignalSpy edited(row, &ParamRow::edited);
    f.document.undoStack()->push(
        new SetGroupParamCommand(&f.document, kSchool, fishParam("turnDeadZone"), 30.0, true));
    QCOMPARE(row->doubleSpinBox()->value(), 30.0);
    QCOMPARE(row->slider()->value(), 60); // 0 to 45 deg in 0.5 deg steps
    f.document.undoStack()->undo();
    QCOMPARE(row->doubleSpinBox()->value(), 11.5);
    QCOMPARE(edited.count(), 0);
    QCOMPARE(f.undoCount(), 1);
    QCOMPARE(f.document.undoStack()->index(), 0);
}

void TestPropertyPanel::sceneSection()
{
    Fixture f(demoScene());
    // Speed: the controller's, never an undo step.
    ParamRow* speed = f.panel.speedRow();
    QTest::keyClick(speed->doubleSpinBox(), Qt::Key_Up);
    QCOMPARE(f.controller.speed(), 1.25);
    f.controller.setSpeed(2.0);
    QCOMPARE(speed->doubleSpinBox()->value(), 2.0);
    QCOMPARE(f.undoCount(), 0);

    // Time step: one step per finished drag, and the world restarts with it.
    for (int i = 0; i < 5; ++i)
        f.controller.stepOnce();
    QSignalSpy rebuilt(&f.controller, &SimulationController::worldRebuilt);
    drag(f.panel.timeStepRow()->slider(), {10, 10});
    QCOMPARE(f.undoCount(), 1);
    QCOMPARE(rebuilt.count(), 1);
    const double dt = f.document.scene().simulation.dt;
    QVERIFY(dt > 1.0 / 60.0);
    QCOMPARE(f.controller.world()->dt(), static_cast<float>(dt));
    QCOMPARE(f.controller.world()->stepCount(), std::uint64_t(0));

    // Seed: typed, Enter.
    f.panel.seedEdit()->setFocus();
    f.panel.seedEdit()->selectAll();
    QTest::keyClicks(f.panel.seedEdit(), QStringLiteral("424242"));
    QTest::keyClick(f.panel.seedEdit(), Qt::Key_Return);
    QCOMPARE(f.document.scene().simulation.seed, std::uint64_t(424242));
    QCOMPARE(f.controller.world()->seed(), std::uint64_t(424242));
    QCOMPARE(f.undoCount(), 2);
    f.document.undoStack()->undo();
    QCOMPARE(f.panel.seedEdit()->text(), QStringLiteral("1"));

    // Player parameters: a drag is one step.
    ParamRow* playerSpeed = f.panel.playerRow(QStringLiteral("moveSpeed"));
    const int index = f.document.undoStack()->index();
    drag(playerSpeed->slider(), {10, 10, 10});
    QCOMPARE(f.document.undoStack()->index(), index + 1);
    QCOMPARE(f.undoCount(), index + 1);
    QVERIFY(f.document.scene().player.params[0] > 3.4);
    QCOMPARE(playerSpeed->value(), f.document.scene().player.params[0]);
}

void TestPropertyPanel::wheelEditsOnlyAFocusedRow()
{
    Fixture f(demoScene());
    f.panel.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&f.panel));
    f.selection.select(kSchool);
    ParamRow* row = f.panel.groupRow(QStringLiteral("moveSpeed"));
    const double original = f.docParam(kSchool, "moveSpeed");
    auto wheel = [](QWidget* widget) {
        const QPointF at(widget->width() / 2.0, widget->height() / 2.0);
        QWheelEvent event(at, widget->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(widget, &event);
    };
    // Scrolling the panel over a row leaves it alone.
    wheel(row->slider());
    wheel(row->doubleSpinBox());
    QCOMPARE(f.docParam(kSchool, "moveSpeed"), original);
    QCOMPARE(f.undoCount(), 0);
    // A row the user clicked into takes the wheel: one step per notch.
    row->doubleSpinBox()->setFocus();
    QVERIFY(row->doubleSpinBox()->hasFocus());
    wheel(row->doubleSpinBox());
    QCOMPARE(f.docParam(kSchool, "moveSpeed"), original + 0.1);
    QCOMPARE(f.undoCount(), 1);
}

void TestPropertyPanel::screenshots()
{
    // Renders the panel for review (PNGs when SHOAL_SCREENSHOT_DIR is set) and checks each
    // grab shows what it must: the selected groups' swatch, every slider's handle at its
    // model value, the refused edit's red message, the mixed-families message.
    SceneDesc scene = demoScene();
    GroupDesc second = makeDefaultGroup(BehaviourKind::FishSchool, "school 2");
    second.spawn = SpawnAreaDesc{{{0.0, 18.0}, {6.0, 22.0}}, 6};
    second.params[static_cast<std::size_t>(fishParam("moveSpeed"))] = 5.0;
    scene.groups.push_back(second);
    Fixture f(scene);
    f.panel.resize(f.panel.minimumWidth(), 1400); // tall enough for every row: no scroll bar
    const QString dir = qEnvironmentVariable("SHOAL_SCREENSHOT_DIR");
    QString problem;
    auto shoot = [&](const char* name, const QString& refused = {}) {
        problem = QStringLiteral("no grab");
        QCoreApplication::processEvents(); // pending layout requests, as the event loop would
        const QImage image = f.panel.grab().toImage();
        QVERIFY(!image.isNull());
        if (!dir.isEmpty())
            QVERIFY(image.save(dir + QLatin1Char('/') + QLatin1String(name)));
        problem = shotProblem(f, image, refused);
    };
    f.selection.select(kSchool);
    typeInto(f.panel.groupRow(QStringLiteral("keepMinDistance"))->doubleSpinBox(),
             QStringLiteral("2.5"));
    shoot("panel-fish.png", QStringLiteral("keepMinDistance"));
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    f.selection.select(kWorms);
    shoot("panel-worm.png");
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    f.selection.setGroups({kSchool, static_cast<int>(scene.groups.size()) - 1});
    shoot("panel-fish-multi.png");
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    f.selection.setGroups({kSchool, kSquad});
    shoot("panel-mixed.png");
    QVERIFY(f.panel.groupRows().isEmpty());
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

QTEST_MAIN(TestPropertyPanel)
#include "test_propertypanel.moc"
