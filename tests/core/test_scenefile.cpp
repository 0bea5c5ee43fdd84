// Scene files: golden round trips, a scene using every feature, atomic saves (and the atomic
// writer under them), the folder of bad files with the message each must give, and the
// parameter tables in the format docs.

#include "math/random.h"
#include "world/worldaccess.h"
#include <shoal/agentarrays.h>
#include <shoal/scenedesc.h>
#include <shoal/scenefile.h>
#include <shoal/world.h>

#include <QtTest>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>

#ifdef Q_OS_UNIX
#include <csignal>
#include <sys/resource.h>
#endif

using namespace shoal;

namespace {

const QString kDataDir = QStringLiteral(SHOAL_TEST_DATA_DIR);
const QString kDemoPath = QStringLiteral(SHOAL_TEST_DATA_DIR "/../../resources/scenes/demo.json");
const QString kDocsPath = QStringLiteral(SHOAL_TEST_DATA_DIR "/../../docs/scene-format.md");

std::string readBytes(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray bytes = file.readAll();
    return std::string(bytes.constData(), static_cast<std::size_t>(bytes.size()));
}

bool writeBytes(const QString& path, const std::string& bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
           file.write(bytes.data(), static_cast<qint64>(bytes.size())) == qint64(bytes.size());
}

/// Empty when equal, else the first line where `actual` and `expected` differ, for a
/// failure message that points at the change.
std::string firstDifference(const std::string& actual, const std::string& expected)
{
    if (actual == expected)
        return {};
    std::size_t i = 0;
    while (i < actual.size() && i < expected.size() && actual[i] == expected[i])
        ++i;
    const std::size_t lineStart = i == 0 ? 0 : actual.rfind('\n', i - 1) + 1;
    const std::size_t line =
        std::size_t(std::count(actual.begin(), actual.begin() + long(i), '\n')) + 1;
    const auto lineAt = [lineStart](const std::string& text) {
        return lineStart >= text.size()
                   ? std::string("<end of text>")
                   : text.substr(lineStart, text.find('\n', lineStart) - lineStart);
    };
    return "line " + std::to_string(line) + " differs:\n  written:  " + lineAt(actual) +
           "\n  expected: " + lineAt(expected);
}

/// The next double above `value` toward `limit`: 17 significant digits, the hardest case
/// for shortest round-trip printing.
double nudged(double value, double limit)
{
    return value < limit ? std::nextafter(value, limit) : value;
}

/// A scene that uses every field the format has: all five families, spawn areas and explicit
/// agents, a target, a chase, colours with and without alpha, both wall and obstacle kinds,
/// both pickups, a player leading a school, awkward doubles and the largest seed.
SceneDesc everyFeatureScene()
{
    SceneDesc scene;
    scene.name = "Every feature: \"quoted\", back\\slash, tab\t, ünïcödé";
    scene.bounds = {{-60.5, -30.25}, {60.5, 30.25}};
    scene.simulation.dt = 1.0 / 120.0;
    scene.simulation.seed = std::numeric_limits<std::uint64_t>::max();

    scene.walls.push_back({{{-50, -20}, {-50, 20}, {-10.1, 20}}, false});
    scene.walls.push_back({{{20, 20}, {30, 20}, {30, 28}, {20, 28}}, true});
    ObstacleDesc concave;
    concave.shape = ObstacleShape::Polygon;
    concave.points = {{0, 0}, {4, 0}, {4, 4}, {2, 1.0 / 3.0}, {0, 4}};
    scene.obstacles.push_back(concave);
    ObstacleDesc circle;
    circle.shape = ObstacleShape::Circle;
    circle.center = {-20.125, 10};
    circle.radius = 2.7182818284590451;
    scene.obstacles.push_back(circle);
    scene.pickups.push_back({PickupKind::Fish, {-30, 5.5}});
    scene.pickups.push_back({PickupKind::Coin, {-40, -25.75}});

    int n = 0;
    for (BehaviourKind kind : kAllBehaviourKinds) {
        GroupDesc group =
            makeDefaultGroup(kind, std::string(behaviourKey(kind)) + "-" + std::to_string(n));
        const auto& specs = paramSpecs(kind);
        for (std::size_t i = 0; i < specs.size(); ++i)
            if (specs[i].type == ParamType::Real)
                group.params[i] = nudged(specs[i].defaultValue, specs[i].maxValue);
        group.spawn = SpawnAreaDesc{{{-50.0 + 20 * n, -10}, {-45.0 + 20 * n, -5.5}}, 7 + n};
        group.agents.push_back({{-48.0 + 20 * n, 0.1}, 45.5});
        group.agents.push_back({{-47.0 + 20 * n, -0.2}, -179.99999999999997});
        ++n;
        scene.groups.push_back(group);
    }
    GroupDesc& squad = scene.groups[1];
    squad.target = Point2{55.5, -28};
    squad.color = {1, 2, 3, 4};
    GroupDesc& swarm = scene.groups[2];
    swarm.chase = scene.groups[3].name;
    swarm.accent = {0xab, 0xcd, 0xef, 0};

    scene.player = makeDefaultPlayer();
    scene.player.group = scene.groups[0].name;
    scene.player.position = {-49, 1e-7};
    scene.player.heading = 12.345;
    scene.player.params[0] = 7.1;
    return scene;
}

/// A number as the docs print it: the shortest fixed-point form that reads back exactly.
QString docNumber(double value)
{
    for (int decimals = 0; decimals <= 17; ++decimals) {
        const QString text = QString::number(value, 'f', decimals);
        if (text.toDouble() == value)
            return text;
    }
    return QString::number(value, 'g', 17);
}

/// Markdown tables of every family's ParamSpec table, as docs/scene-format.md holds them.
QString parameterTablesMarkdown()
{
    const auto cell = [](const std::string& text) {
        QString s = QString::fromStdString(text);
        s.replace(QLatin1Char('|'), QStringLiteral("\\|"));
        return s;
    };
    const auto table = [&](const QString& title, const std::vector<ParamSpec>& specs) {
        QString out = QStringLiteral("#### ") + title + QStringLiteral("\n\n");
        out += QStringLiteral("| Key | Label | Unit | Default | Allowed | Meaning |\n");
        out += QStringLiteral("|---|---|---|---|---|---|\n");
        for (const ParamSpec& spec : specs) {
            QString allowed;
            if (spec.type == ParamType::Choice) {
                for (std::size_t i = 0; i < spec.choices.size(); ++i)
                    allowed += (i ? QStringLiteral(", ") : QString()) + QString::number(i) +
                               QStringLiteral(" = ") + cell(spec.choices[i]);
            } else {
                allowed = QStringLiteral("%1 to %2")
                              .arg(docNumber(spec.minValue), docNumber(spec.maxValue));
                if (spec.type == ParamType::Integer)
                    allowed += QStringLiteral(", whole");
            }
            out += QStringLiteral("| `%1` | %2 | %3 | %4 | %5 | %6 |\n")
                       .arg(cell(spec.key), cell(spec.label), cell(spec.unit),
                            docNumber(spec.defaultValue), allowed, cell(spec.tooltip));
        }
        return out;
    };
    QString out;
    for (BehaviourKind kind : kAllBehaviourKinds)
        out += table(QStringLiteral("%1 (`%2`)")
                         .arg(QString::fromUtf8(behaviourLabel(kind).data(),
                                                int(behaviourLabel(kind).size())),
                              QString::fromUtf8(behaviourKey(kind).data(),
                                                int(behaviourKey(kind).size()))),
                     paramSpecs(kind)) +
               QStringLiteral("\n");
    out += table(QStringLiteral("Player (`player.params`)"), playerParamSpecs());
    return out;
}

#ifdef Q_OS_UNIX
/// Lowers this process's file size limit for its lifetime, so writes beyond it fail with
/// EFBIG as on a full disk (ignoring SIGXFSZ, which would otherwise end the test).
class FileSizeLimit
{
public:
    explicit FileSizeLimit(rlim_t bytes)
    {
        m_oldHandler = std::signal(SIGXFSZ, SIG_IGN);
        getrlimit(RLIMIT_FSIZE, &m_old);
        rlimit limited = m_old;
        limited.rlim_cur = bytes;
        m_ok = setrlimit(RLIMIT_FSIZE, &limited) == 0;
    }
    ~FileSizeLimit()
    {
        setrlimit(RLIMIT_FSIZE, &m_old);
        std::signal(SIGXFSZ, m_oldHandler);
    }
    bool ok() const { return m_ok; }

private:
    rlimit m_old{};
    void (*m_oldHandler)(int) = nullptr;
    bool m_ok = false;
};
#endif

} // namespace

class TestSceneFile : public QObject
{
    Q_OBJECT

private slots:
    void goldenRoundTrip_data();
    void goldenRoundTrip();
    void everyFeatureRoundTrips();
    void missingOptionalFieldsTakeDefaults();
    void serializedLayoutIsReadable();
    void badFile_data();
    void badFile();
    void everyBadFileHasAnExpectation();
    void truncatedFilesAreRefused();
    void mutatedFilesAreRefusedOrValid();
    void deepNestingIsRefused();
    void parseErrorPosition_data();
    void parseErrorPosition();
    void validateRefusesNonFiniteNumbers_data();
    void validateRefusesNonFiniteNumbers();
    void validateRefusesWrongParamCount();
    void defaultGroupsAreValidAndDistinct();
    void saveReplacesAtomically();
    void saveIntoMissingFolderFails();
    void saveIntoReadOnlyFolderLeavesFile();
    void saveFailingMidWriteLeavesFile();
    void saveOntoFolderFails();
    void atomicWriterWritesExactBytes();
    void atomicWriterWithoutCommitLeavesNothing();
    void loadMissingFileFails();
    void docsParameterTablesAreCurrent();
    void paramTablesSpeakOfTheArticles();
    void docsExampleIsCanonical();
    void numbersAreShortestAndExact();
    void loadedSceneIsBuiltWithoutASecondCheck();
    void checkedSceneTakesOnlyChecksThatPass();
    void olderFilesMigrate_data();
    void olderFilesMigrate();
    void version2SquadsParkOnSpots();
    void collisionRoundTrips();
    void badCollision_data();
    void badCollision();
    void agentGoalRoundTrips();
    void agentGoalIsRefused_data();
    void agentGoalIsRefused();
    void agentGoalDrivesFromStepZero();
};

void TestSceneFile::goldenRoundTrip_data()
{
    QTest::addColumn<QString>("path");
    const QDir dir(kDataDir + QStringLiteral("/scenes"));
    const QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    for (const QString& name : files)
        QTest::newRow(qPrintable(name)) << dir.filePath(name);
    QTest::newRow("resources/scenes/demo.json") << kDemoPath;
}

void TestSceneFile::goldenRoundTrip()
{
    QFETCH(QString, path);
    QVERIFY2(
        QDir(kDataDir + QStringLiteral("/scenes")).entryList({QStringLiteral("*.json")}).size() >=
            6,
        "tests/data/scenes should hold the golden scenes");
    const std::string bytes = readBytes(path);
    QVERIFY2(!bytes.empty(), qPrintable(path));

    const Expected<SceneDesc> first = parseScene(bytes, path.toStdString());
    QVERIFY2(first.ok(), first.ok() ? "" : first.error().message.c_str());
    const std::string saved = serializeScene(*first);
    // Golden files are stored exactly as Shoal writes them. When a parameter table gains a
    // key, the files must be re-saved: the message says where the re-saved text was put.
    if (saved != bytes) {
        const QString resaved =
            QDir::temp().filePath(QStringLiteral("resaved-") + QFileInfo(path).fileName());
        writeBytes(resaved, saved);
        QFAIL(qPrintable(QString::fromStdString(firstDifference(saved, bytes)) +
                         QStringLiteral("\nre-saved text written to ") + resaved));
    }

    const Expected<SceneDesc> second = parseScene(saved, "saved.json");
    QVERIFY2(second.ok(), second.ok() ? "" : second.error().message.c_str());
    QVERIFY(*second == *first);
    QVERIFY(serializeScene(*second) == saved);

    const Expected<SceneDesc> loaded = loadSceneFile(path.toStdString());
    QVERIFY(loaded.ok());
    QVERIFY(*loaded == *first);
}

void TestSceneFile::everyFeatureRoundTrips()
{
    const SceneDesc scene = everyFeatureScene();
    const std::optional<Error> invalid = validateScene(scene);
    QVERIFY2(!invalid, invalid ? invalid->message.c_str() : "");

    const std::string text = serializeScene(scene);
    QVERIFY(text.size() > 1 && text.back() == '\n');
    const Expected<SceneDesc> loaded = parseScene(text, "every.json");
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().message.c_str());
    QVERIFY(loaded->name == scene.name);
    QVERIFY(loaded->walls == scene.walls);
    QVERIFY(loaded->obstacles == scene.obstacles);
    QVERIFY(loaded->pickups == scene.pickups);
    QVERIFY(loaded->player == scene.player);
    QVERIFY(loaded->simulation == scene.simulation);
    for (std::size_t i = 0; i < scene.groups.size(); ++i)
        QVERIFY2(loaded->groups[i] == scene.groups[i], scene.groups[i].name.c_str());
    QVERIFY(*loaded == scene);
    QVERIFY2(serializeScene(*loaded) == text,
             firstDifference(serializeScene(*loaded), text).c_str());

    // Spot-check the written form of the values a careless writer gets wrong.
    QVERIFY(text.find("\"seed\": 18446744073709551615") != std::string::npos);
    QVERIFY(text.find("\"color\": \"#01020304\"") != std::string::npos);
    QVERIFY(text.find("\"accent\": \"#abcdef00\"") != std::string::npos);
    QVERIFY(text.find("\"target\": [55.5, -28]") != std::string::npos);
    QVERIFY(text.find("\"chase\": \"leaderFollow-3\"") != std::string::npos);
    QVERIFY(text.find("ünïcödé") != std::string::npos);
}

void TestSceneFile::missingOptionalFieldsTakeDefaults()
{
    const std::string text = R"({
  "format": "shoal-scene",
  "version": 1,
  "bounds": {"min": [-10, -5], "max": [10, 5]},
  "groups": [
    {"name": "s", "kind": "swarm", "params": {"speed": 2.5}},
    {"name": "t", "kind": "tankSquad"}
  ]
})";
    const Expected<SceneDesc> scene = parseScene(text, "minimal.json");
    QVERIFY2(scene.ok(), scene.ok() ? "" : scene.error().message.c_str());
    QVERIFY(scene->name.empty());
    QVERIFY(scene->simulation == SimulationDesc());
    QVERIFY(scene->player == makeDefaultPlayer());
    QVERIFY(scene->walls.empty() && scene->obstacles.empty() && scene->pickups.empty());
    QCOMPARE(scene->groups.size(), std::size_t(2));

    GroupDesc swarm = makeDefaultGroup(BehaviourKind::Swarm, "s");
    swarm.params[std::size_t(paramIndex(paramSpecs(BehaviourKind::Swarm), "speed"))] = 2.5;
    QVERIFY(scene->groups[0] == swarm);
    QVERIFY(scene->groups[1] == makeDefaultGroup(BehaviourKind::TankSquad, "t"));
    QVERIFY(!scene->groups[1].spawn && !scene->groups[1].target && scene->groups[1].chase.empty());

    // Saving writes every default out; the result reads back to the same scene.
    const std::string saved = serializeScene(*scene);
    QVERIFY(saved.find("\"speed\": 2.5") != std::string::npos);
    QVERIFY(saved.find("\"targetWeight\"") != std::string::npos);
    QVERIFY(saved.find("\"spawn\"") == std::string::npos);
    QVERIFY(saved.find("\"agents\"") == std::string::npos);
    const Expected<SceneDesc> again = parseScene(saved, "saved.json");
    QVERIFY(again.ok());
    QVERIFY(*again == *scene);
}

void TestSceneFile::serializedLayoutIsReadable()
{
    SceneDesc scene;
    scene.name = "layout";
    scene.player = makeDefaultPlayer();
    scene.walls.push_back({{{1.5, -2}, {3, 4}}, false});
    GroupDesc group = makeDefaultGroup(BehaviourKind::TankSquad, "squad");
    group.spawn = SpawnAreaDesc{{{-2, -1}, {2, 1}}, 4};
    group.target = Point2{-0.0, 0.1};
    scene.groups.push_back(group);
    const std::string text = serializeScene(scene);

    QVERIFY2(text.rfind(
                 "{\n  \"format\": \"shoal-scene\",\n  \"version\": 3,\n  \"name\": \"layout\",\n",
                 0) == 0,
             text.c_str());
    QVERIFY(text.find("  \"bounds\": {\"min\": [-40, -25], \"max\": [40, 25]},\n") !=
            std::string::npos);
    QVERIFY(text.find("  \"simulation\": {\"dt\": 0.016666666666666666, \"seed\": 1},\n") !=
            std::string::npos);
    QVERIFY(text.find("        [1.5, -2],\n        [3, 4]\n") != std::string::npos);
    QVERIFY(text.find("\"spawn\": {\"min\": [-2, -1], \"max\": [2, 1], \"count\": 4}") !=
            std::string::npos);
    QVERIFY(text.find("\"target\": [0, 0.1],\n") != std::string::npos);
    QVERIFY(text.find("\"params\": {\n        \"moveSpeed\": 5,\n") != std::string::npos);
    QVERIFY(text.size() > 4 && text.compare(text.size() - 4, 4, "]\n}\n") == 0);

    // Keys appear in the documented order.
    const char* order[] = {"\"format\"",     "\"version\"", "\"name\"",  "\"bounds\"",
                           "\"simulation\"", "\"player\"",  "\"walls\"", "\"obstacles\"",
                           "\"pickups\"",    "\"groups\""};
    std::size_t last = 0;
    for (const char* key : order) {
        const std::size_t at = text.find(key);
        QVERIFY2(at != std::string::npos && at >= last, key);
        last = at;
    }
}

void TestSceneFile::badFile_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");
    // One line per file: name, a tab, a substring its message must contain. (No QVERIFY
    // here: a _data function that returns early leaves Qt Test without rows.)
    const QString table =
        QString::fromStdString(readBytes(kDataDir + QStringLiteral("/bad/expected.tsv")));
    int rows = 0;
    for (const QString& line : table.split(QLatin1Char('\n'))) {
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const QStringList fields = line.split(QLatin1Char('\t'));
        QTest::newRow(qPrintable(fields[0]))
            << fields[0] << (fields.size() == 2 ? fields[1] : QString());
        ++rows;
    }
    if (rows == 0)
        QTest::newRow("expected.tsv is missing or empty")
            << QStringLiteral("expected.tsv") << QString();
}

void TestSceneFile::badFile()
{
    QFETCH(QString, file);
    QFETCH(QString, expected);
    QVERIFY2(!expected.isEmpty(), "expected.tsv needs: file name, tab, expected message part");
    const QString path = kDataDir + QStringLiteral("/bad/") + file;
    QVERIFY2(QFile::exists(path), qPrintable(path));

    const Expected<SceneDesc> parsed = parseScene(readBytes(path), file.toStdString());
    QVERIFY2(!parsed.ok(), "a bad file was accepted");
    const QString message = QString::fromStdString(parsed.error().message);
    QVERIFY2(message.startsWith(file + QLatin1Char(':')), qPrintable(message));
    QVERIFY2(message.contains(expected),
             qPrintable(QStringLiteral("expected \"%1\" in: %2").arg(expected, message)));

    // loadSceneFile names the path it was given.
    const Expected<SceneDesc> loaded = loadSceneFile(path.toStdString());
    QVERIFY(!loaded.ok());
    QVERIFY2(QString::fromStdString(loaded.error().message).startsWith(path + QLatin1Char(':')),
             loaded.error().message.c_str());
}

void TestSceneFile::everyBadFileHasAnExpectation()
{
    const std::string table = readBytes(kDataDir + QStringLiteral("/bad/expected.tsv"));
    const QDir dir(kDataDir + QStringLiteral("/bad"));
    const QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files);
    QVERIFY(files.size() >= 18);
    for (const QString& name : files)
        QVERIFY2(table.find("\n" + name.toStdString() + "\t") != std::string::npos ||
                     table.rfind(name.toStdString() + "\t", 0) == 0,
                 qPrintable(name + QStringLiteral(" has no line in expected.tsv")));
}

void TestSceneFile::truncatedFilesAreRefused()
{
    // Every prefix of a real scene is refused with a message, never a crash or a partial scene.
    const std::string bytes = readBytes(kDemoPath);
    QVERIFY(bytes.size() > 1000);
    for (std::size_t length = 0; length + 2 < bytes.size(); length += 3) {
        const Expected<SceneDesc> parsed = parseScene(bytes.substr(0, length), "cut.json");
        QVERIFY2(!parsed.ok(),
                 qPrintable(QStringLiteral("prefix of %1 bytes accepted").arg(length)));
        QVERIFY(parsed.error().message.rfind("cut.json:", 0) == 0);
    }
}

void TestSceneFile::mutatedFilesAreRefusedOrValid()
{
    // Random one- and two-character edits of the demo: each is refused with a message, or it
    // is accepted as a whole valid scene that round-trips. Never a crash, never half a scene.
    const std::string original = readBytes(kDemoPath);
    QVERIFY(!original.empty());
    const std::string alphabet = "{}[]:,\"-+.eE0123456789 \ntruefalsnl#x";
    Random random(2024);
    int accepted = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        std::string text = original;
        const int edits = 1 + int(random.below(2));
        for (int e = 0; e < edits; ++e) {
            const std::size_t at = random.below(std::uint32_t(text.size()));
            switch (random.below(3)) {
            case 0:
                text[at] = alphabet[random.below(std::uint32_t(alphabet.size()))];
                break;
            case 1:
                text.erase(at, 1);
                break;
            default:
                text.insert(at, 1, alphabet[random.below(std::uint32_t(alphabet.size()))]);
                break;
            }
        }
        const Expected<SceneDesc> parsed = parseScene(text, "mutant.json");
        if (!parsed.ok()) {
            QVERIFY2(parsed.error().message.rfind("mutant.json", 0) == 0,
                     parsed.error().message.c_str());
            continue;
        }
        ++accepted;
        QVERIFY(!validateScene(*parsed));
        const Expected<SceneDesc> again = parseScene(serializeScene(*parsed), "again.json");
        QVERIFY(again.ok() && *again == *parsed);
    }
    QVERIFY2(accepted > 0 && accepted < 3000, qPrintable(QString::number(accepted)));
}

void TestSceneFile::deepNestingIsRefused()
{
    // A hostile file: a megabyte of '[' must be refused quickly, not crash or exhaust memory.
    const Expected<SceneDesc> parsed = parseScene(std::string(1 << 20, '['), "deep.json");
    QVERIFY(!parsed.ok());
    QVERIFY2(
        parsed.error().message.rfind("deep.json: arrays and objects are nested more than", 0) == 0,
        parsed.error().message.c_str());
    QVERIFY(
        parseScene(std::string(20, '[') + std::string(20, ']'), "shallow.json").error().message ==
        "shallow.json: expected a JSON object (a Shoal scene) at the top level, got array");
}

void TestSceneFile::parseErrorPosition_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("position");
    QTest::newRow("missing value")
        << QStringLiteral("{\n  \"a\": ,\n}") << QStringLiteral("x.json:2:8:");
    QTest::newRow("column counts characters")
        << QStringLiteral("{\"name\": \"Größe\" \"x\": 1}") << QStringLiteral("x.json:1:18:");
    QTest::newRow("third line") << QStringLiteral("[1,\n2,\n  tru]")
                                << QStringLiteral("x.json:3:6:");
    QTest::newRow("crlf lines") << QStringLiteral("{\r\n\r\n  @}") << QStringLiteral("x.json:3:3:");
    QTest::newRow("unterminated") << QStringLiteral("{\"a\": 1") << QStringLiteral("x.json:1:8:");
}

void TestSceneFile::parseErrorPosition()
{
    QFETCH(QString, text);
    QFETCH(QString, position);
    const QByteArray utf8 = text.toUtf8();
    const Expected<SceneDesc> parsed =
        parseScene(std::string(utf8.constData(), std::size_t(utf8.size())), "x.json");
    QVERIFY(!parsed.ok());
    const QString message = QString::fromStdString(parsed.error().message);
    QVERIFY2(message.startsWith(position), qPrintable(message));
    QVERIFY2(!message.contains(QStringLiteral("json.exception")), qPrintable(message));
}

void TestSceneFile::validateRefusesNonFiniteNumbers_data()
{
    // JSON cannot spell NaN or infinity, but a scene built in code (the editor, a game) can.
    QTest::addColumn<int>("field");
    QTest::addColumn<QString>("expected");
    QTest::newRow("bounds") << 0 << QStringLiteral("bounds.max: coordinates must be finite");
    QTest::newRow("dt") << 1 << QStringLiteral("simulation.dt = nan is out of range");
    QTest::newRow("wall point") << 2
                                << QStringLiteral("walls[0].points[1]: coordinates must be finite");
    QTest::newRow("agent heading")
        << 3 << QStringLiteral("groups[0].agents[0].heading = -inf must be a finite angle");
    QTest::newRow("parameter") << 4 << QStringLiteral("groups[0] 'g': moveSpeed is inf");
    QTest::newRow("circle radius") << 5 << QStringLiteral("obstacles[0].radius = nan");
    QTest::newRow("player position")
        << 6 << QStringLiteral("player.position: coordinates must be finite");
}

void TestSceneFile::validateRefusesNonFiniteNumbers()
{
    QFETCH(int, field);
    QFETCH(QString, expected);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    SceneDesc scene;
    scene.player = makeDefaultPlayer();
    scene.player.position = {-5, -5}; // clear of the wall and the circle
    scene.walls.push_back({{{0, 0}, {1, 1}}, false});
    ObstacleDesc circle;
    circle.shape = ObstacleShape::Circle;
    scene.obstacles.push_back(circle);
    GroupDesc group = makeDefaultGroup(BehaviourKind::FishSchool, "g");
    group.agents.push_back({{1, 1}, 0});
    scene.groups.push_back(group);
    QVERIFY(!validateScene(scene));

    switch (field) {
    case 0:
        scene.bounds.max.x = inf;
        break;
    case 1:
        scene.simulation.dt = nan;
        break;
    case 2:
        scene.walls[0].points[1].y = nan;
        break;
    case 3:
        scene.groups[0].agents[0].heading = -inf;
        break;
    case 4:
        scene.groups[0].params[0] = inf;
        break;
    case 5:
        scene.obstacles[0].radius = nan;
        break;
    case 6:
        scene.player.position.x = nan;
        break;
    }
    const std::optional<Error> error = validateScene(scene);
    QVERIFY(error);
    QVERIFY2(QString::fromStdString(error->message).contains(expected), error->message.c_str());
}

void TestSceneFile::validateRefusesWrongParamCount()
{
    SceneDesc scene;
    scene.player = makeDefaultPlayer();
    GroupDesc group = makeDefaultGroup(BehaviourKind::Worm, "w");
    group.params.pop_back();
    scene.groups.push_back(group);
    const std::optional<Error> error = validateScene(scene);
    QVERIFY(error);
    QVERIFY2(error->message.rfind("groups[0].params: expected ", 0) == 0, error->message.c_str());

    scene.groups.clear();
    scene.player.params.clear();
    QVERIFY(validateScene(scene));
}

void TestSceneFile::defaultGroupsAreValidAndDistinct()
{
    SceneDesc scene;
    scene.player = makeDefaultPlayer();
    QVERIFY(scene.player.enabled && scene.player.group.empty());
    QVERIFY(scene.player.params == defaultParamValues(playerParamSpecs()));
    for (BehaviourKind kind : kAllBehaviourKinds) {
        const GroupDesc group = makeDefaultGroup(kind, std::string(behaviourKey(kind)));
        QVERIFY(group.kind == kind);
        QVERIFY(group.params == defaultParamValues(paramSpecs(kind)));
        QVERIFY(!group.spawn && group.agents.empty() && !group.target && group.chase.empty());
        QVERIFY(group.color != group.accent);
        for (const GroupDesc& other : scene.groups)
            QVERIFY2(other.color != group.color, "two families share a body colour");
        scene.groups.push_back(group);
    }
    const std::optional<Error> error = validateScene(scene);
    QVERIFY2(!error, error ? error->message.c_str() : "");
}

void TestSceneFile::saveReplacesAtomically()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("level.json"));
    SceneDesc scene = everyFeatureScene();

    QVERIFY(!saveSceneFile(scene, path.toStdString()));
    QVERIFY(readBytes(path) == serializeScene(scene));

    scene.name = "second";
    scene.groups.pop_back();
    const std::optional<Error> error = saveSceneFile(scene, path.toStdString());
    QVERIFY2(!error, error ? error->message.c_str() : "");
    QVERIFY(readBytes(path) == serializeScene(scene));
    const Expected<SceneDesc> loaded = loadSceneFile(path.toStdString());
    QVERIFY(loaded.ok());
    QVERIFY(*loaded == scene);

    // No temporary file is left behind.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
             QStringList{QStringLiteral("level.json")});
}

void TestSceneFile::saveIntoMissingFolderFails()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("no/such/folder/level.json"));
    const std::optional<Error> error = saveSceneFile(everyFeatureScene(), path.toStdString());
    QVERIFY(error);
    QVERIFY2(error->message.rfind(path.toStdString() + ": cannot write: ", 0) == 0,
             error->message.c_str());
    QVERIFY2(error->message.find("does not exist") != std::string::npos, error->message.c_str());
    QVERIFY(!QFile::exists(path));
}

void TestSceneFile::saveIntoReadOnlyFolderLeavesFile()
{
    QTemporaryDir dir;
    const QString folder = dir.filePath(QStringLiteral("locked"));
    QVERIFY(QDir().mkdir(folder));
    const QString path = folder + QStringLiteral("/level.json");
    const std::string old = "old contents, not a scene\n";
    QVERIFY(writeBytes(path, old));
    QFile::setPermissions(folder, QFileDevice::ReadOwner | QFileDevice::ExeOwner);
    const bool enforced = !QFile(folder + QStringLiteral("/probe")).open(QIODevice::WriteOnly);
    if (enforced) {
        const std::optional<Error> error = saveSceneFile(everyFeatureScene(), path.toStdString());
        QVERIFY(error);
        QVERIFY2(error->message.find("the file was not changed") != std::string::npos,
                 error->message.c_str());
    }
    QFile::remove(folder + QStringLiteral("/probe"));
    QFile::setPermissions(folder,
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    QVERIFY(readBytes(path) == old);
    if (!enforced) {
        // Root may write into read-only folders; saveFailingMidWriteLeavesFile covers an
        // existing file surviving a failed save there. (QSKIP's macro trips -Wpedantic.)
        QTest::qSkip("permission to write into read-only folders (root)", __FILE__, __LINE__);
        return;
    }
}

void TestSceneFile::saveFailingMidWriteLeavesFile()
{
#ifdef Q_OS_UNIX
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("level.json"));
    const std::string old = "{\"old\": true}\n";
    QVERIFY(writeBytes(path, old));
    const SceneDesc scene = everyFeatureScene();
    QVERIFY(serializeScene(scene).size() > 4096);

    std::optional<Error> error;
    {
        // Like a disk filling up halfway through the write.
        FileSizeLimit limit(1024);
        QVERIFY(limit.ok());
        error = saveSceneFile(scene, path.toStdString());
    }
    QVERIFY(error);
    QVERIFY2(error->message.rfind(path.toStdString() + ": cannot write: ", 0) == 0,
             error->message.c_str());
    QVERIFY2(error->message.find("too large") != std::string::npos, error->message.c_str());
    QVERIFY2(error->message.find("the file was not changed") != std::string::npos,
             error->message.c_str());
    QVERIFY(readBytes(path) == old);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
             QStringList{QStringLiteral("level.json")});
#else
    QTest::qSkip("needs RLIMIT_FSIZE", __FILE__, __LINE__);
#endif
}

void TestSceneFile::saveOntoFolderFails()
{
    QTemporaryDir dir;
    const std::optional<Error> error = saveSceneFile(everyFeatureScene(), dir.path().toStdString());
    QVERIFY(error);
    QVERIFY2(error->message.find("it is a folder") != std::string::npos, error->message.c_str());
    QVERIFY(QFileInfo(dir.path()).isDir());
}

void TestSceneFile::atomicWriterWritesExactBytes()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("out.csv"));
    const std::string first = std::string("a,b\n") + std::string(3, '\0') + "\r\n";
    QVERIFY(!writeFileAtomically(path.toStdString(), first));
    QVERIFY(readBytes(path) == first);
    QVERIFY(!writeFileAtomically(path.toStdString(), std::string()));
    QVERIFY(readBytes(path).empty());
    QVERIFY(QFileInfo::exists(path));

    // In pieces, as the CLI writes a long output.
    AtomicFileWriter writer(path.toStdString());
    QVERIFY(!writer.open());
    std::string expected;
    for (int i = 0; i < 1000; ++i) {
        const std::string row = std::to_string(i) + ",row\n";
        writer.write(row);
        expected += row;
    }
    QVERIFY(readBytes(path).empty()); // nothing replaced before the commit
    const std::optional<Error> error = writer.commit();
    QVERIFY2(!error, error ? error->message.c_str() : "");
    QVERIFY(readBytes(path) == expected);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
             QStringList{QStringLiteral("out.csv")});
}

void TestSceneFile::atomicWriterWithoutCommitLeavesNothing()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("out.csv"));
    QVERIFY(writeBytes(path, "old\n"));
    {
        AtomicFileWriter writer(path.toStdString());
        QVERIFY(!writer.open());
        writer.write("new\n");
        // Destroyed without commit(): a run that failed half-way.
    }
    QVERIFY(readBytes(path) == "old\n");
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
             QStringList{QStringLiteral("out.csv")});

    // A file whose folder is a file: the error names the path and the reason.
    const QString below = path + QStringLiteral("/x.csv");
    const std::optional<Error> error = writeFileAtomically(below.toStdString(), "x");
    QVERIFY(error);
    QVERIFY2(error->message.rfind(below.toStdString() + ": cannot write: ", 0) == 0,
             error->message.c_str());
    QVERIFY2(error->message.find("is not a folder") != std::string::npos, error->message.c_str());
}

void TestSceneFile::loadMissingFileFails()
{
    const std::string path =
        (kDataDir + QStringLiteral("/scenes/does-not-exist.json")).toStdString();
    const Expected<SceneDesc> loaded = loadSceneFile(path);
    QVERIFY(!loaded.ok());
    QVERIFY2(loaded.error().message.rfind(path + ": cannot open the file: ", 0) == 0,
             loaded.error().message.c_str());
}

void TestSceneFile::docsParameterTablesAreCurrent()
{
    const QString begin =
        QStringLiteral("<!-- BEGIN PARAMETER TABLES (generated by test_scenefile) -->\n");
    const QString end = QStringLiteral("<!-- END PARAMETER TABLES -->");
    const QString docs = QString::fromStdString(readBytes(kDocsPath));
    const int from = docs.indexOf(begin);
    const int to = docs.indexOf(end);
    QVERIFY2(from >= 0 && to > from, "docs/scene-format.md lacks the parameter table markers");
    const QString current = docs.mid(from + begin.size(), to - from - begin.size());
    const QString expected =
        QStringLiteral("\n") + parameterTablesMarkdown() + QStringLiteral("\n");
    if (current != expected) {
        const QString out =
            QDir::temp().filePath(QStringLiteral("scene-format-parameter-tables.md"));
        writeBytes(out, expected.toStdString());
        QFAIL(qPrintable(
            QStringLiteral("docs/scene-format.md parameter tables are out of date: replace "
                           "the text between the markers with %1")
                .arg(out)));
    }
}

void TestSceneFile::paramTablesSpeakOfTheArticles()
{
    // What a user reads (labels, units, choices, tooltips) names the reference articles as
    // "the article", never by the project's word for them. No table has a random seed
    // parameter (that is simulation.seed), so no exception is needed.
    std::vector<std::pair<std::string, const std::vector<ParamSpec>*>> tables;
    for (BehaviourKind kind : kAllBehaviourKinds)
        tables.push_back({std::string(behaviourKey(kind)), &paramSpecs(kind)});
    tables.push_back({"player", &playerParamSpecs()});
    for (const auto& [name, specs] : tables) {
        for (const ParamSpec& spec : *specs) {
            std::vector<std::string> texts = {spec.key, spec.label, spec.unit, spec.tooltip};
            texts.insert(texts.end(), spec.choices.begin(), spec.choices.end());
            for (const std::string& text : texts) {
                const QString shown = QString::fromStdString(text);
                QVERIFY2(!shown.contains(QLatin1String("seed"), Qt::CaseInsensitive),
                         qPrintable(QStringLiteral("%1.%2: %3")
                                        .arg(QString::fromStdString(name),
                                             QString::fromStdString(spec.key), shown)));
            }
        }
    }
}

void TestSceneFile::docsExampleIsCanonical()
{
    const std::string docs = readBytes(kDocsPath);
    const std::string begin = "<!-- BEGIN EXAMPLE -->\n```json\n";
    const std::size_t from = docs.find(begin);
    const std::size_t to = docs.find("```\n<!-- END EXAMPLE -->");
    QVERIFY2(from != std::string::npos && to != std::string::npos && to > from,
             "docs/scene-format.md lacks the example markers");
    const std::string example = docs.substr(from + begin.size(), to - from - begin.size());
    const Expected<SceneDesc> scene = parseScene(example, "scene-format.md example");
    QVERIFY2(scene.ok(), scene.ok() ? "" : scene.error().message.c_str());
    const std::string saved = serializeScene(*scene);
    if (saved != example) {
        const QString resaved = QDir::temp().filePath(QStringLiteral("scene-format-example.json"));
        writeBytes(resaved, saved);
        QFAIL(qPrintable(QString::fromStdString(firstDifference(saved, example)) +
                         QStringLiteral("\nre-saved example written to ") + resaved));
    }
}

void TestSceneFile::numbersAreShortestAndExact()
{
    // Everyday magnitudes in plain decimals, the rest in %g form.
    QCOMPARE(formatNumber(30.0), std::string("30"));
    QCOMPARE(formatNumber(0.25), std::string("0.25"));
    QCOMPARE(formatNumber(1000.0), std::string("1000"));
    QCOMPARE(formatNumber(-1e-7), std::string("-1e-07"));
    QCOMPARE(formatNumber(1e20), std::string("1e+20"));
    QCOMPARE(formatNumber(0.1 + 0.2), std::string("0.30000000000000004"));
    QCOMPARE(formatNumber(std::numeric_limits<double>::quiet_NaN()), std::string("nan"));
    QCOMPARE(formatNumber(-std::numeric_limits<double>::infinity()), std::string("-inf"));
    // Small values need more than 17 decimals to read back exactly; they get them.
    for (double value : {1.0 / 60.0, 0.000123456789012345678, 0.0123456789012345678}) {
        const std::string text = formatNumber(value);
        QVERIFY2(std::strtod(text.c_str(), nullptr) == value, text.c_str());
    }
    QCOMPARE(formatNumber(1.0 / 60.0), std::string("0.016666666666666666"));
    // Floats read back as the same float; a rounded value for messages.
    QCOMPARE(formatFloat(1.0f / 60.0f), std::string("0.016666668"));
    QCOMPARE(formatFloat(0.3f), std::string("0.3"));
    QCOMPARE(formatNumber(0.80384757729336806, 3), std::string("0.804"));
}

void TestSceneFile::loadedSceneIsBuiltWithoutASecondCheck()
{
    // The loader validates once and keeps the proof (CheckedScene); a world built from it is
    // not checked again, and is the same world as one built (and checked) from the plain scene.
    Expected<CheckedScene> loaded = loadCheckedScene(kDemoPath.toStdString());
    QVERIFY(loaded);
    const Expected<SceneDesc> plain = loadSceneFile(kDemoPath.toStdString());
    QVERIFY(plain);
    QCOMPARE(loaded->scene(), *plain);
    auto checked = World::create(*plain);
    QVERIFY(checked);
    std::unique_ptr<World> trusted = World::create(*loaded);
    QVERIFY(trusted);
    checked.value()->step(120);
    trusted->step(120);
    QCOMPARE(trusted->stateHash(), checked.value()->stateHash());
    // A seed set on the checked scene keeps the proof and is the seed the world runs.
    loaded->setSeed(77);
    QCOMPARE(World::create(*loaded)->seed(), std::uint64_t(77));
    // checkScene() refuses what validateScene() refuses; create() checks a plain scene.
    SceneDesc broken = *plain;
    broken.simulation.dt = 1.0;
    QVERIFY(!checkScene(broken));
    QCOMPARE(checkScene(broken).error().message, validateScene(broken)->message);
    QVERIFY(!World::create(broken));
    QVERIFY(World::create(broken).error().message.find("simulation.dt") != std::string::npos);
}

void TestSceneFile::checkedSceneTakesOnlyChecksThatPass()
{
    // An editor's edit of the checks keeps the proof when validateScene() would pass the
    // result, and refuses it, changing nothing, with validateChecks()' message when not.
    Expected<CheckedScene> loaded = loadCheckedScene(kDemoPath.toStdString());
    QVERIFY(loaded);
    std::vector<CheckDesc> checks = loaded->scene().checks;
    QCOMPARE(checks.size(), std::size_t(8));
    CheckDesc band;
    band.metric = "school.nearestMin";
    band.compare = CheckCompare::Within;
    band.value = 0.5;
    band.high = 1.0;
    checks.push_back(band);
    QVERIFY(!validateChecks(checks));
    QVERIFY(loaded->setChecks(checks));
    QVERIFY(!validateScene(loaded->scene()));
    QCOMPARE(loaded->scene().checks.size(), std::size_t(9));

    checks.back().value = 2.0; // above its high end
    const std::optional<Error> refused = validateChecks(checks);
    QVERIFY(refused);
    QCOMPARE(refused->message,
             std::string("checks[8].within: [2, 1] must be [low, high] with low <= high"));
    SceneDesc plain = loaded->scene();
    plain.checks = checks;
    QCOMPARE(validateScene(plain)->message, refused->message);
    QVERIFY(!loaded->setChecks(checks));
    QCOMPARE(loaded->scene().checks.back().value, 0.5);
}

void TestSceneFile::olderFilesMigrate_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("version");
    for (int version = 1; version < kSceneFormatVersion; ++version) {
        const QDir dir(kDataDir + QStringLiteral("/scenes/v%1").arg(version));
        const QStringList files =
            dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        QVERIFY2(files.size() >= 6, qPrintable(QStringLiteral("%1 should hold the version %2 "
                                                              "goldens")
                                                   .arg(dir.path())
                                                   .arg(version)));
        for (const QString& name : files)
            QTest::newRow(qPrintable(QStringLiteral("v%1/").arg(version) + name))
                << dir.filePath(name) << version;
    }
}

void TestSceneFile::olderFilesMigrate()
{
    // A file written by an older Shoal loads as the same level, climbing the migration
    // ladder: a version 1 group collides as its family does by default (version 2), and a
    // squad's arriveDistance is measured from its parking spot (version 3). Saved, it is
    // today's golden of it, byte for byte.
    QFETCH(QString, path);
    QFETCH(int, version);
    const std::string old = readBytes(path);
    QVERIFY(old.find("\"version\": " + std::to_string(version) + ",") != std::string::npos);
    const Expected<SceneDesc> migrated = parseScene(old, path.toStdString());
    QVERIFY2(migrated.ok(), migrated.ok() ? "" : migrated.error().message.c_str());
    if (version == 1)
        for (const GroupDesc& group : migrated->groups)
            QVERIFY(group.collision == defaultCollision(group.kind));
    const QString current = kDataDir + QStringLiteral("/scenes/") + QFileInfo(path).fileName();
    const std::string golden = readBytes(current);
    QVERIFY2(!golden.empty(), qPrintable(current));
    QCOMPARE(serializeScene(*migrated), golden);
    const Expected<SceneDesc> fromGolden = parseScene(golden, "golden.json");
    QVERIFY(fromGolden.ok() && *fromGolden == *migrated);
}

void TestSceneFile::version2SquadsParkOnSpots()
{
    // Version 2's arriveDistance was how near the target the first tank came before the rest
    // parked against it; version 3 measures it from each tank's own spot. Values above the
    // article's 0.2 m become 0.2 m, smaller ones keep, and no other family's key is touched.
    const auto scene = [](const char* arrive) {
        return std::string(R"({"format": "shoal-scene", "version": 2,
            "bounds": {"min": [-10, -10], "max": [10, 10]},
            "player": {"params": {"arriveDistance": 4}},
            "groups": [{"name": "t", "kind": "tankSquad", "params": {"arriveDistance": )") +
               arrive + R"(}, "spawn": {"min": [-5, -5], "max": [5, 5], "count": 3}}]})";
    };
    const int arrive = paramIndex(paramSpecs(BehaviourKind::TankSquad), "arriveDistance");
    const int playerArrive = paramIndex(playerParamSpecs(), "arriveDistance");
    QVERIFY(arrive >= 0 && playerArrive >= 0);
    const auto arriveOf = [arrive](const SceneDesc& desc) {
        return desc.groups.at(0).params.at(static_cast<std::size_t>(arrive));
    };
    const Expected<SceneDesc> far = parseScene(scene("3"), "v2.json");
    QVERIFY2(far.ok(), far.ok() ? "" : far.error().message.c_str());
    QCOMPARE(arriveOf(*far), 0.2);
    const Expected<SceneDesc> near = parseScene(scene("0.15"), "v2.json");
    QVERIFY2(near.ok(), near.ok() ? "" : near.error().message.c_str());
    QCOMPARE(arriveOf(*near), 0.15);
    QCOMPARE(far->player.params.at(static_cast<std::size_t>(playerArrive)), 4.0);
    // A version 3 file means what it says.
    std::string current = scene("3");
    current.replace(current.find("\"version\": 2"), 12, "\"version\": 3");
    const Expected<SceneDesc> kept = parseScene(current, "v3.json");
    QVERIFY2(kept.ok(), kept.ok() ? "" : kept.error().message.c_str());
    QCOMPARE(arriveOf(*kept), 3.0);
}

void TestSceneFile::collisionRoundTrips()
{
    SceneDesc scene;
    scene.player = makeDefaultPlayer();
    GroupDesc group = makeDefaultGroup(BehaviourKind::Swarm, "enemies");
    group.collision.layers = (1u << 1) | (1u << 31); // layers 2 and 32
    group.collision.mask = 0;                        // pushed by nobody
    group.collision.priority = kMaxCollisionPriority;
    scene.groups.push_back(group);
    const std::string text = serializeScene(scene);
    QVERIFY2(text.find("\"collision\": {\"layers\": [2, 32], \"mask\": [], \"priority\": 100}") !=
                 std::string::npos,
             text.c_str());
    const Expected<SceneDesc> again = parseScene(text, "again.json");
    QVERIFY(again.ok());
    QVERIFY(again->groups[0].collision == group.collision);
    QVERIFY(*again == scene);
    // A group without "collision" takes its family's default.
    QCOMPARE(defaultCollision(BehaviourKind::TankSquad).priority, 2);
    QCOMPARE(defaultCollision(BehaviourKind::Swarm).priority, 1);
    QCOMPARE(makeDefaultGroup(BehaviourKind::TankSquad, "t").collision,
             defaultCollision(BehaviourKind::TankSquad));
}

void TestSceneFile::badCollision_data()
{
    QTest::addColumn<QString>("collision");
    QTest::addColumn<QString>("expected");
    QTest::newRow("layer 0") << QStringLiteral(R"({"layers": [0]})")
                             << QStringLiteral("c.json: groups[0].collision.layers[0]: 0 is out of "
                                               "range; allowed [1, 32]");
    QTest::newRow("layer 33") << QStringLiteral(R"({"mask": [1, 33]})")
                              << QStringLiteral("c.json: groups[0].collision.mask[1]: 33 is out of "
                                                "range; allowed [1, 32]");
    QTest::newRow("twice") << QStringLiteral(R"({"layers": [3, 3]})")
                           << QStringLiteral("c.json: groups[0].collision.layers[1]: layer 3 is "
                                             "listed twice");
    QTest::newRow("priority") << QStringLiteral(R"({"priority": 101})")
                              << QStringLiteral("c.json: groups[0].collision.priority: 101 is out "
                                                "of range; allowed [0, 100]");
    QTest::newRow("negative priority")
        << QStringLiteral(R"({"priority": -1})")
        << QStringLiteral("c.json: groups[0].collision.priority: -1 is out of range; allowed "
                          "[0, 100]");
    QTest::newRow("not a list") << QStringLiteral(R"({"layers": 1})")
                                << QStringLiteral("c.json: groups[0].collision.layers: expected");
    QTest::newRow("unknown key") << QStringLiteral(R"({"layer": [1]})")
                                 << QStringLiteral("c.json: groups[0].collision: unknown key");
}

void TestSceneFile::badCollision()
{
    QFETCH(QString, collision);
    QFETCH(QString, expected);
    const std::string text = R"({"format": "shoal-scene", "version": 3,
        "bounds": {"min": [-10, -10], "max": [10, 10]},
        "groups": [{"name": "g", "kind": "swarm", "collision": )" +
                             collision.toStdString() + "}]}";
    const Expected<SceneDesc> parsed = parseScene(text, "c.json");
    QVERIFY(!parsed.ok());
    QVERIFY2(parsed.error().message.rfind(expected.toStdString(), 0) == 0,
             parsed.error().message.c_str());
}

/// A squad of two tanks standing still (no squad target); the first may take a goal.
SceneDesc squadWithGoal(std::optional<Point2> goal)
{
    SceneDesc scene;
    scene.player = makeDefaultPlayer();
    scene.player.enabled = false;
    GroupDesc squad = makeDefaultGroup(BehaviourKind::TankSquad, "squad");
    AgentDesc first;
    first.position = {-20.0, 0.0};
    first.goal = goal;
    AgentDesc second;
    second.position = {-20.0, 10.0};
    squad.agents = {first, second};
    scene.groups.push_back(squad);
    return scene;
}

void TestSceneFile::agentGoalRoundTrips()
{
    const SceneDesc scene = squadWithGoal(Point2{12.5, -3.25});
    const std::string text = serializeScene(scene);
    // Written where there is one, and only there: a file without goals reads as it did.
    QVERIFY2(text.find("{\"position\": [-20, 0], \"heading\": 0, \"goal\": [12.5, -3.25]}") !=
                 std::string::npos,
             text.c_str());
    QVERIFY2(text.find("{\"position\": [-20, 10], \"heading\": 0}") != std::string::npos,
             text.c_str());
    const Expected<SceneDesc> parsed = parseScene(text, "goal.json");
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message.c_str());
    QVERIFY(*parsed == scene);
    QCOMPARE(serializeScene(*parsed), text);
    // A goal is part of the agent: one that differs makes another scene.
    QVERIFY(squadWithGoal(Point2{12.5, -3.0}) != scene);
    QVERIFY(squadWithGoal(std::nullopt) != scene);
}

void TestSceneFile::agentGoalIsRefused_data()
{
    QTest::addColumn<int>("which");
    QTest::addColumn<QString>("expected");
    QTest::newRow("outside the bounds")
        << 0
        << QStringLiteral("groups[0].agents[0].goal: [50, 0] is outside the world bounds "
                          "([-40, -25] to [40, 25])");
    QTest::newRow("not finite") << 1
                                << QStringLiteral("groups[0].agents[0].goal: coordinates must be "
                                                  "finite numbers");
    QTest::newRow("a family without goals of its own")
        << 2
        << QStringLiteral("groups[0].agents[0].goal: [1, 2] is not allowed in a swarm group; "
                          "only a tankSquad's agents take goals of their own");
}

void TestSceneFile::agentGoalIsRefused()
{
    QFETCH(int, which);
    QFETCH(QString, expected);
    SceneDesc scene = squadWithGoal(Point2{1.0, 2.0});
    if (which == 0)
        scene.groups[0].agents[0].goal = Point2{50.0, 0.0};
    if (which == 1)
        scene.groups[0].agents[0].goal = Point2{std::nan(""), 0.0};
    if (which == 2) {
        GroupDesc swarm = makeDefaultGroup(BehaviourKind::Swarm, "squad");
        swarm.agents = scene.groups[0].agents;
        scene.groups[0] = swarm;
    }
    const std::optional<Error> error = validateScene(scene);
    QVERIFY(error);
    QVERIFY2(QString::fromStdString(error->message).contains(expected), error->message.c_str());
    // The file reader refuses it with the same message, naming the file.
    const Expected<SceneDesc> parsed = parseScene(serializeScene(scene), "goal.json");
    if (which != 1) { // JSON has no NaN: the writer cannot write that one
        QVERIFY(!parsed.ok());
        QVERIFY2(QString::fromStdString(parsed.error().message).contains(expected),
                 parsed.error().message.c_str());
    }
}

void TestSceneFile::agentGoalDrivesFromStepZero()
{
    // A goal in the scene is World::setAgentGoal before the first step: the same run.
    const Point2 goal{15.0, -5.0};
    auto fromScene = World::create(squadWithGoal(goal));
    QVERIFY(fromScene.ok());
    auto byCall = World::create(squadWithGoal(std::nullopt));
    QVERIFY(byCall.ok());
    QVERIFY(!(*byCall)->setAgentGoal(0, 0, Vec2{15.0f, -5.0f}));
    QVERIFY((*fromScene)->stateHash() == (*byCall)->stateHash());
    for (int s = 0; s < 900; ++s) {
        (*fromScene)->step();
        (*byCall)->step();
    }
    QCOMPARE((*fromScene)->stateHash(), (*byCall)->stateHash());
    // The first tank drove to its goal and parked there; the second, with none, stayed.
    const GroupState& squad = (*fromScene)->group(0);
    const int first = (*fromScene)->agentIndex(0, 0);
    const int second = (*fromScene)->agentIndex(0, 1);
    QVERIFY(first >= 0 && second >= 0);
    const auto i = static_cast<std::size_t>(first);
    const auto j = static_cast<std::size_t>(second);
    const float dx = squad.agents.px[i] - 15.0f;
    const float dy = squad.agents.py[i] + 5.0f;
    QVERIFY2(std::sqrt(dx * dx + dy * dy) < 1.0f,
             qPrintable(QStringLiteral("the tank is at (%1, %2)")
                            .arg(squad.agents.px[i])
                            .arg(squad.agents.py[i])));
    QVERIFY(squad.agents.flags[i] & kAgentAtGoal);
    QCOMPARE(squad.agents.px[j], -20.0f);
    QCOMPARE(squad.agents.py[j], 10.0f);
}

QTEST_GUILESS_MAIN(TestSceneFile)
#include "test_scenefile.moc"
