// Recordings: a run written down (scene, input and parameter edits by step, steps, hash) reads
// back as the same run and, replayed, ends with the same hash, for the demo and every test
// scene; bad recordings are refused with the field named.

#include "testsupport.h"
#include <shoal/inputscript.h>
#include <shoal/paramspec.h>
#include <shoal/recording.h>
#include <shoal/scenefile.h>
#include <shoal/world.h>

#include <QDir>
#include <QtTest>

using namespace shoal;

namespace {

/// Runs `steps` steps of a world built from `scene`, applying `input` before each step as
/// shoal-cli run does; the hash after every step, in order.
std::vector<std::uint64_t> run(const SceneDesc& scene, const InputScript& input, int steps)
{
    auto world = World::create(scene);
    if (!world)
        qFatal("%s", world.error().message.c_str());
    if (auto error = checkInputScript(input, **world))
        qFatal("%s", error->message.c_str());
    std::vector<std::uint64_t> hashes;
    std::size_t cursor = 0;
    for (int s = 0; s < steps; ++s) {
        applyInputEvents(**world, input, (*world)->stepCount(), cursor);
        (*world)->step();
        hashes.push_back((*world)->stateHash());
    }
    return hashes;
}

/// A value of parameter `spec` other than `current` that it allows: a tenth of the way to
/// its maximum (or minimum, when at the maximum). Whole for whole-number parameters.
double otherValue(const ParamSpec& spec, double current)
{
    const double towards = current < spec.maxValue ? spec.maxValue : spec.minValue;
    double value = current + 0.1 * (towards - current);
    if (spec.type != ParamType::Real)
        value = current < spec.maxValue ? current + 1.0 : current - 1.0;
    return value;
}

/// Input a user might give any scene: the pointer pressed and dragged, and, for every group,
/// one parameter edited while it runs (the first the family's rules take at another value).
InputScript userInput(const SceneDesc& scene)
{
    InputScript input;
    input.fileName = "input";
    auto pointer = [&](std::uint64_t step, double x, double y, PointerAction action) {
        InputEvent event;
        event.step = step;
        event.position = {x, y};
        event.action = action;
        input.events.push_back(event);
    };
    const Point2 mid{(scene.bounds.min.x + scene.bounds.max.x) / 2,
                     (scene.bounds.min.y + scene.bounds.max.y) / 2};
    pointer(0, mid.x + 3.0, mid.y + 2.0, PointerAction::Down);
    pointer(40, mid.x - 4.0, mid.y - 1.0, PointerAction::Move);
    for (const GroupDesc& group : scene.groups) {
        const std::vector<ParamSpec>& specs = paramSpecs(group.kind);
        for (std::size_t k = 0; k < specs.size(); ++k) {
            if (specs[k].type == ParamType::Choice)
                continue;
            ParamValues values = group.params;
            const double value = otherValue(specs[k], values[k]);
            if (checkParamEdit(group.kind, values, static_cast<int>(k), value))
                continue;
            InputEvent event;
            event.step = 60;
            event.kind = InputEventKind::Set;
            event.group = group.name;
            event.key = specs[k].key;
            event.value = value;
            input.events.push_back(event);
            break;
        }
    }
    InputEvent player;
    player.step = 90;
    player.kind = InputEventKind::PlayerSet;
    player.key = "moveSpeed";
    player.value = 4.5;
    input.events.push_back(player);
    pointer(120, mid.x - 4.0, mid.y - 1.0, PointerAction::Up);
    return input;
}

QStringList sceneFiles()
{
    QStringList files{QStringLiteral(SHOAL_DEMO_SCENE)};
    const QDir dir(QStringLiteral(SHOAL_TEST_DATA_DIR "/scenes"));
    for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        files << dir.filePath(name);
    return files;
}

} // namespace

class TestRecording : public QObject
{
    Q_OBJECT

private slots:
    void replayEndsWithTheRecordedHash_data();
    void replayEndsWithTheRecordedHash();
    void editsChangeTheRunAndAreKept();
    void badRecordingsAreRefused_data();
    void badRecordingsAreRefused();
    void eventsAreCheckedAgainstTheWorld();
};

void TestRecording::replayEndsWithTheRecordedHash_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("edits");
    for (const QString& file : sceneFiles()) {
        const QByteArray name = QFileInfo(file).fileName().toUtf8();
        QTest::newRow(name + " without edits") << file << false;
        QTest::newRow(name + " with edits") << file << true;
    }
}

void TestRecording::replayEndsWithTheRecordedHash()
{
    // A run recorded, written, read back and run again: the same scene, the same events, and
    // the same hash at every step (not only at the end).
    QFETCH(QString, file);
    QFETCH(bool, edits);
    auto scene = loadSceneFile(file.toStdString());
    QVERIFY2(scene, scene ? "" : scene.error().message.c_str());
    Recording recording;
    recording.scene = *scene;
    if (edits)
        recording.input = userInput(*scene);
    const int steps = 240;
    const std::vector<std::uint64_t> original = run(recording.scene, recording.input, steps);
    recording.steps = steps;
    recording.hash = original.back();

    const std::string text = serializeRecording(recording);
    auto read = parseRecording(text, "run.shoalrec");
    QVERIFY2(read, read ? "" : read.error().message.c_str());
    QVERIFY(read->scene == recording.scene);
    QCOMPARE(read->steps, recording.steps);
    QCOMPARE(read->hash, recording.hash);
    QCOMPARE(read->input.events.size(), recording.input.events.size());
    for (std::size_t k = 0; k < read->input.events.size(); ++k) {
        InputEvent want = recording.input.events[k];
        want.line = static_cast<int>(k); // a recording's events are named by their index
        QVERIFY2(read->input.events[k] == want, qPrintable(QString::number(k)));
    }
    // Written again, the same bytes.
    QCOMPARE(serializeRecording(*read), text);
    QVERIFY(run(read->scene, read->input, steps) == original);
}

void TestRecording::editsChangeTheRunAndAreKept()
{
    // The edits are what makes the replay differ from the plain scene: a recording that lost
    // them would not reproduce the run.
    auto scene = loadSceneFile(SHOAL_DEMO_SCENE);
    QVERIFY(scene);
    const InputScript input = userInput(*scene);
    QVERIFY(std::count_if(input.events.begin(), input.events.end(), [](const InputEvent& e) {
                return e.kind == InputEventKind::Set;
            }) == static_cast<long>(scene->groups.size()));
    InputScript pointerOnly = input;
    pointerOnly.events.erase(std::remove_if(pointerOnly.events.begin(), pointerOnly.events.end(),
                                            [](const InputEvent& e) {
                                                return e.kind == InputEventKind::Set ||
                                                       e.kind == InputEventKind::PlayerSet;
                                            }),
                             pointerOnly.events.end());
    const auto withEdits = run(*scene, input, 120);
    const auto without = run(*scene, pointerOnly, 120);
    QCOMPARE(withEdits[59], without[59]); // the first edit comes before step 60
    QVERIFY(withEdits.back() != without.back());
}

void TestRecording::badRecordingsAreRefused_data()
{
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("message");
    QTest::newRow("newer version") << "\"version\": 1"
                                   << "\"version\": 9"
                                   << "bad.shoalrec: this recording was written by a newer Shoal "
                                      "(format version 9); this build reads up to version 1";
    QTest::newRow("a scene file") << "\"shoal-recording\""
                                  << "\"shoal-scene\""
                                  << "bad.shoalrec: format: this is not a Shoal recording";
    QTest::newRow("short hash") << "\"hash\": \""
                                << "\"hash\": \"0"
                                << "bad.shoalrec: hash: ";
    QTest::newRow("steps going back") << "{\"step\": 40,"
                                      << "{\"step\": 200,"
                                      << "bad.shoalrec: events[2].step: step 60 comes after "
                                         "step 200; steps must not decrease";
    QTest::newRow("unknown field") << "\"button\": \"up\""
                                   << "\"buton\": \"up\""
                                   << "bad.shoalrec: events[";
    QTest::newRow("bad scene") << "\"moveSpeed\": 3.4"
                               << "\"moveSpeed\": -1"
                               << "bad.shoalrec: scene: ";
    QTest::newRow("cut short") << "\"scene\""
                               << "\"scene\" : [ }"
                               << "bad.shoalrec:";
}

void TestRecording::badRecordingsAreRefused()
{
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QString, message);
    auto scene = loadSceneFile(SHOAL_DEMO_SCENE);
    QVERIFY(scene);
    Recording recording;
    recording.scene = *scene;
    recording.input = userInput(*scene);
    recording.steps = 10;
    recording.hash = 0x0123456789abcdefull;
    QString text = QString::fromStdString(serializeRecording(recording));
    QVERIFY2(text.contains(from), qPrintable(from));
    text.replace(text.indexOf(from), from.size(), to);
    auto read = parseRecording(text.toStdString(), "bad.shoalrec");
    QVERIFY(!read);
    QVERIFY2(QString::fromStdString(read.error().message).startsWith(message),
             read.error().message.c_str());
}

void TestRecording::eventsAreCheckedAgainstTheWorld()
{
    // A recording's events name its groups and parameters: one that does not is refused
    // before the run, named by its index.
    auto scene = loadSceneFile(SHOAL_DEMO_SCENE);
    QVERIFY(scene);
    Recording recording;
    recording.scene = *scene;
    InputEvent edit;
    edit.step = 5;
    edit.kind = InputEventKind::Set;
    edit.group = "school";
    edit.key = "keepWeight";
    edit.value = 99.0;
    recording.input.events = {edit};
    auto read = parseRecording(serializeRecording(recording), "r.shoalrec");
    QVERIFY(read);
    auto world = World::create(read->scene);
    QVERIFY(world);
    const auto error = checkInputScript(read->input, **world);
    QVERIFY(error);
    QCOMPARE(QString::fromStdString(error->message),
             QStringLiteral("r.shoalrec: events[0]: group 'school': keepWeight = 99 is out of "
                            "range; allowed [0, 5]"));
}

QTEST_GUILESS_MAIN(TestRecording)
#include "test_recording.moc"
