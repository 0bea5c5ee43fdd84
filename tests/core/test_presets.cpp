// Presets: every built-in does what its name says, measured against the family's defaults on
// the same scene and seed; preset files read back identical and bad ones are refused with a
// message that names the file, the field, the value and what is allowed.

#include "testsupport.h"

#include <shoal/preset.h>

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <set>

using namespace shoal;
using namespace shoal::test;

namespace {

const Preset& builtInNamed(const std::string& name)
{
    for (const Preset& preset : builtInPresets())
        if (preset.name == name)
            return preset;
    qFatal("no built-in preset %s", name.c_str());
}

/// `group` with `preset` applied (nothing for an empty name).
GroupDesc withPreset(GroupDesc group, const std::string& preset)
{
    if (preset.empty())
        return group;
    Expected<ParamValues> values = applyPreset(builtInNamed(preset), group.kind, group.params);
    if (!values)
        qFatal("%s", values.error().message.c_str());
    group.params = *values;
    return group;
}

int stepsOf(const World& world, double seconds)
{
    return static_cast<int>(std::lround(seconds / world.dt()));
}

/// The school's median nearest-neighbour distance after 25 s round a still player.
double schoolSpacing(const std::string& preset)
{
    SceneDesc scene = emptyScene(40.0, 40.0);
    scene.simulation.seed = 11;
    GroupDesc school = makeDefaultGroup(BehaviourKind::FishSchool, "school");
    school.spawn = SpawnAreaDesc{{{-8.0, -8.0}, {8.0, 8.0}}, 40};
    scene.groups.push_back(withPreset(school, preset));
    scene.player.enabled = true;
    scene.player.group = "school";
    scene.player.position = {0.0, 0.0};
    auto world = buildWorld(scene);
    world->step(stepsOf(*world, 25.0));
    return world->group(0).metrics.nearestMedian;
}

struct SquadRun
{
    double arrivedAt = -1.0; ///< s, when every tank was parked at the target
    double spacing = 0.0;    ///< smallest distance between parked tanks, m
};

/// Eight tanks sent 40 m to a target; how soon they are all there and how far apart they park.
SquadRun squadRun(const std::string& preset)
{
    SceneDesc scene = emptyScene(60.0, 40.0);
    scene.simulation.seed = 4;
    GroupDesc squad = makeDefaultGroup(BehaviourKind::TankSquad, "squad");
    squad.spawn = SpawnAreaDesc{{{-45.0, -10.0}, {-30.0, 10.0}}, 8};
    squad.target = Point2{10.0, 0.0};
    scene.groups.push_back(withPreset(squad, preset));
    auto world = buildWorld(scene);
    SquadRun run;
    const int perSecond = stepsOf(*world, 1.0);
    for (int second = 1; second <= 90; ++second) {
        world->step(perSecond);
        const GroupMetrics& m = world->group(0).metrics;
        if (run.arrivedAt < 0 && m.atGoal == m.agents)
            run.arrivedAt = second;
    }
    const AgentArrays& a = world->group(0).agents;
    run.spacing = 1e9;
    for (std::size_t i = 0; i < a.size(); ++i)
        for (std::size_t j = i + 1; j < a.size(); ++j)
            run.spacing =
                std::min(run.spacing, double(std::hypot(a.px[i] - a.px[j], a.py[i] - a.py[j])));
    return run;
}

/// The swarm's mean distance to a still player after 20 s.
double swarmDistance(const std::string& preset)
{
    SceneDesc scene = emptyScene(40.0, 40.0);
    scene.simulation.seed = 8;
    GroupDesc swarm = makeDefaultGroup(BehaviourKind::Swarm, "swarm");
    swarm.spawn = SpawnAreaDesc{{{-35.0, -35.0}, {35.0, 35.0}}, 30};
    scene.groups.push_back(withPreset(swarm, preset));
    scene.player.enabled = true;
    scene.player.position = {0.0, 0.0};
    auto world = buildWorld(scene);
    world->step(stepsOf(*world, 20.0));
    return world->group(0).metrics.goalDistanceMean;
}

/// The followers' mean distance to their wandering leader over seconds 10 to 30.
double escortDistance(const std::string& preset)
{
    SceneDesc scene = emptyScene(40.0, 40.0);
    scene.simulation.seed = 21;
    GroupDesc group = makeDefaultGroup(BehaviourKind::LeaderFollow, "followers");
    group.agents.push_back({{0.0, 0.0}, 0.0});
    group.spawn = SpawnAreaDesc{{{-6.0, -3.0}, {-2.0, 3.0}}, 8};
    scene.groups.push_back(withPreset(group, preset));
    auto world = buildWorld(scene);
    world->step(stepsOf(*world, 10.0));
    double sum = 0.0;
    int count = 0;
    for (int sample = 0; sample < 80; ++sample) {
        world->step(stepsOf(*world, 0.25));
        const AgentArrays& a = world->group(0).agents;
        const auto leader = std::find(a.id.begin(), a.id.end(), 0u) - a.id.begin();
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (a.id[i] == 0)
                continue;
            sum += std::hypot(a.px[i] - a.px[std::size_t(leader)],
                              a.py[i] - a.py[std::size_t(leader)]);
            ++count;
        }
    }
    return sum / count;
}

/// The worms' mean speed over 15 s of wandering.
double wormSpeed(const std::string& preset)
{
    SceneDesc scene = emptyScene(60.0, 60.0);
    scene.simulation.seed = 3;
    GroupDesc worms = makeDefaultGroup(BehaviourKind::Worm, "worms");
    worms.spawn = SpawnAreaDesc{{{-30.0, -30.0}, {30.0, 30.0}}, 6};
    scene.groups.push_back(withPreset(worms, preset));
    auto world = buildWorld(scene);
    double sum = 0.0;
    for (int second = 0; second < 15; ++second) {
        world->step(stepsOf(*world, 1.0));
        sum += world->group(0).metrics.meanSpeed;
    }
    return sum / 15.0;
}

} // namespace

class TestPresets : public QObject
{
    Q_OBJECT

private slots:
    void everyFamilyHasTwoThatApplyToItsDefaults();
    void schoolsPackAsNamed();
    void squadsDriveAsNamed();
    void swarmsCloseInAsNamed();
    void escortsKeepTheirDistanceAsNamed();
    void wormsCrawlAsNamed();
    void applyingSetsOnlyWhatThePresetLists();
    void applyingRefusesAnotherFamilyAndBrokenRules();
    void worldTakesAWholeSetAtOnce();
    void fileRoundTripsExactly();
    void badFilesAreRefusedWithTheirField_data();
    void badFilesAreRefusedWithTheirField();
    void namesAreChecked();
};

void TestPresets::everyFamilyHasTwoThatApplyToItsDefaults()
{
    std::set<std::pair<int, std::string>> seen;
    for (BehaviourKind kind : kAllBehaviourKinds) {
        int count = 0;
        for (const Preset& preset : builtInPresets()) {
            if (preset.kind != kind)
                continue;
            ++count;
            QVERIFY2(!checkPresetName(preset.name), preset.name.c_str());
            QVERIFY(preset.builtIn);
            QVERIFY(!preset.description.empty());
            QVERIFY(seen.insert({int(kind), preset.name}).second);
            const ParamValues defaults = defaultParamValues(paramSpecs(kind));
            Expected<ParamValues> applied = applyPreset(preset, kind, defaults);
            QVERIFY2(applied.ok(), applied.ok() ? "" : applied.error().message.c_str());
            QVERIFY2(*applied != defaults, preset.name.c_str());
            // The file form of a built-in reads back as the same values.
            Expected<Preset> reread = parsePreset(serializePreset(preset), "builtin.json");
            QVERIFY2(reread.ok(), reread.ok() ? "" : reread.error().message.c_str());
            QVERIFY(reread->values == preset.values);
        }
        QVERIFY2(count >= 2, std::string(behaviourKey(kind)).c_str());
    }
}

void TestPresets::schoolsPackAsNamed()
{
    const double tight = schoolSpacing("tight-school");
    const double normal = schoolSpacing("");
    const double loose = schoolSpacing("loose-school");
    qInfo("nearest-neighbour median: tight %.2f, default %.2f, loose %.2f m", tight, normal, loose);
    QVERIFY(tight < 0.85 * normal);
    QVERIFY(loose > 1.3 * normal);
}

void TestPresets::squadsDriveAsNamed()
{
    const SquadRun fast = squadRun("fast-squad");
    const SquadRun normal = squadRun("");
    const SquadRun careful = squadRun("careful-squad");
    qInfo("all parked at: fast %.0f, default %.0f, careful %.0f s; spacing %.2f, %.2f, %.2f m",
          fast.arrivedAt, normal.arrivedAt, careful.arrivedAt, fast.spacing, normal.spacing,
          careful.spacing);
    QVERIFY(fast.arrivedAt > 0 && normal.arrivedAt > 0 && careful.arrivedAt > 0);
    QVERIFY(fast.arrivedAt < normal.arrivedAt);
    QVERIFY(careful.arrivedAt > normal.arrivedAt);
    QVERIFY(careful.spacing > normal.spacing);
}

void TestPresets::swarmsCloseInAsNamed()
{
    const double hungry = swarmDistance("hungry-swarm");
    const double normal = swarmDistance("");
    const double wary = swarmDistance("wary-swarm");
    qInfo("mean distance to the player: hungry %.2f, default %.2f, wary %.2f m", hungry, normal,
          wary);
    QVERIFY(hungry < normal);
    QVERIFY(wary > normal);
}

void TestPresets::escortsKeepTheirDistanceAsNamed()
{
    const double close = escortDistance("close-escort");
    const double normal = escortDistance("");
    const double loose = escortDistance("loose-escort");
    qInfo("mean distance to the leader: close %.2f, default %.2f, loose %.2f m", close, normal,
          loose);
    QVERIFY(close < normal);
    QVERIFY(loose > normal);
}

void TestPresets::wormsCrawlAsNamed()
{
    const double fast = wormSpeed("fast-worm");
    const double normal = wormSpeed("");
    const double slow = wormSpeed("slow-worm");
    qInfo("mean speed: fast %.2f, default %.2f, slow %.2f m/s", fast, normal, slow);
    QVERIFY(fast > 1.3 * normal);
    QVERIFY(slow < 0.7 * normal);
}

void TestPresets::applyingSetsOnlyWhatThePresetLists()
{
    const std::vector<ParamSpec>& specs = paramSpecs(BehaviourKind::FishSchool);
    ParamValues tuned = defaultParamValues(specs);
    const auto speed = std::size_t(paramIndex(specs, "moveSpeed"));
    tuned[speed] = 7.5;
    Expected<ParamValues> applied =
        applyPreset(builtInNamed("tight-school"), BehaviourKind::FishSchool, tuned);
    QVERIFY(applied.ok());
    QCOMPARE((*applied)[speed], 7.5); // the designer's speed survives
    QCOMPARE((*applied)[std::size_t(paramIndex(specs, "keepMaxDistance"))], 1.3);

    // Saving a group stores every value; applying that preset gives the group back.
    const Preset saved = presetFromValues("my school", BehaviourKind::FishSchool, tuned);
    QCOMPARE(saved.values.size(), specs.size());
    Expected<ParamValues> back =
        applyPreset(saved, BehaviourKind::FishSchool, defaultParamValues(specs));
    QVERIFY(back.ok());
    QVERIFY(*back == tuned);
}

void TestPresets::applyingRefusesAnotherFamilyAndBrokenRules()
{
    Expected<ParamValues> wrong = applyPreset(builtInNamed("fast-squad"), BehaviourKind::Swarm,
                                              defaultParamValues(paramSpecs(BehaviourKind::Swarm)));
    QVERIFY(!wrong.ok());
    QVERIFY2(wrong.error().message.find("is for tankSquad groups, not swarm") != std::string::npos,
             wrong.error().message.c_str());

    // A school whose neighbour radius was narrowed: "loose-school" alone would keep it, so it
    // sets its own; a preset that breaks a rule with the group's other values is refused.
    const std::vector<ParamSpec>& specs = paramSpecs(BehaviourKind::FishSchool);
    Preset minOnly;
    minOnly.name = "wide min";
    minOnly.kind = BehaviourKind::FishSchool;
    minOnly.values = {{"keepMinDistance", 2.5}};
    Expected<ParamValues> broken =
        applyPreset(minOnly, BehaviourKind::FishSchool, defaultParamValues(specs));
    QVERIFY(!broken.ok());
    const std::string& message = broken.error().message;
    QVERIFY2(message.find("preset 'wide min'") != std::string::npos &&
                 message.find("keepMinDistance (2.5) must be less than keepMaxDistance (2)") !=
                     std::string::npos,
             message.c_str());
}

void TestPresets::worldTakesAWholeSetAtOnce()
{
    SceneDesc scene = emptyScene();
    GroupDesc school = makeDefaultGroup(BehaviourKind::FishSchool, "school");
    school.spawn = SpawnAreaDesc{{{-5.0, -5.0}, {5.0, 5.0}}, 10};
    scene.groups.push_back(school);
    auto world = buildWorld(scene);
    const ParamValues defaults = school.params;
    Expected<ParamValues> loose =
        applyPreset(builtInNamed("loose-school"), BehaviourKind::FishSchool, defaults);
    QVERIFY(loose.ok());
    // One by one, the first value (keepMinDistance 2.8 against keepMaxDistance 2) is refused.
    QVERIFY(world->setParam(0, "keepMinDistance", 2.8));
    QVERIFY(!world->setParams(0, *loose));
    QVERIFY(world->group(0).values == *loose);
    world->step(10);

    // Refused whole: a wrong count, a value out of range, a broken rule; nothing changes.
    QVERIFY(world->setParams(0, ParamValues(3, 1.0)));
    ParamValues bad = *loose;
    bad[0] = -1.0;
    QVERIFY(world->setParams(0, bad));
    ParamValues crossed = defaults;
    crossed[std::size_t(paramIndex(paramSpecs(BehaviourKind::FishSchool), "keepMinDistance"))] =
        2.5;
    const std::optional<Error> error = world->setParams(0, crossed);
    QVERIFY(error);
    QVERIFY2(error->message.find("group 'school': keepMinDistance") == 0, error->message.c_str());
    QVERIFY(world->group(0).values == *loose);
}

void TestPresets::fileRoundTripsExactly()
{
    ParamValues values = defaultParamValues(paramSpecs(BehaviourKind::Worm));
    values[0] = 0.1 + 0.2; // a value with no short decimal form
    const Preset preset =
        presetFromValues("wiggly.2", BehaviourKind::Worm, values, "a \"quoted\" note \xc3\xa9");
    const std::string text = serializePreset(preset);
    Expected<Preset> back = parsePreset(text, "wiggly.json");
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
    QVERIFY(*back == preset);
    QCOMPARE(serializePreset(*back), text);
}

void TestPresets::badFilesAreRefusedWithTheirField_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    const QString head = QStringLiteral(R"({"format": "shoal-preset", "version": 1, )");
    QTest::newRow("not json") << QStringLiteral("{\"format\": ,}")
                              << QStringLiteral("p.json:1:12: ");
    QTest::newRow("empty") << QString() << QStringLiteral("p.json: the file is empty; a preset is");
    QTest::newRow("a scene") << QStringLiteral(R"({"format": "shoal-scene", "version": 3})")
                             << QStringLiteral("p.json: format: this is not a Shoal preset");
    QTest::newRow("newer")
        << QStringLiteral(
               R"({"format": "shoal-preset", "version": 9, "name": "x", "family": "worm", "params": {"speed": 1}})")
        << QStringLiteral(
               "written by a newer Shoal (format version 9); this build reads up to version 1");
    QTest::newRow("family typo")
        << head + QStringLiteral(R"("name": "x", "family": "fishSchol", "params": {"speed": 1}})")
        << QStringLiteral("p.json: family: unknown behaviour family \"fishSchol\" (did you mean "
                          "'fishSchool'?)");
    QTest::newRow("unknown parameter")
        << head + QStringLiteral(R"("name": "x", "family": "worm", "params": {"sped": 1}})")
        << QStringLiteral("p.json: params: unknown key 'sped' (did you mean 'speed'?)");
    QTest::newRow("out of range")
        << head + QStringLiteral(R"("name": "x", "family": "worm", "params": {"speed": 99}})")
        << QStringLiteral("p.json: params.speed: ");
    QTest::newRow("no params")
        << head + QStringLiteral(R"("name": "x", "family": "worm", "params": {}})")
        << QStringLiteral("p.json: params: a preset sets at least one parameter");
    QTest::newRow("bad name")
        << head + QStringLiteral(R"("name": "a/b", "family": "worm", "params": {"speed": 1}})")
        << QStringLiteral("p.json: name: the preset name 'a/b' holds '/'");
    QTest::newRow("missing family")
        << head + QStringLiteral(R"("name": "x", "params": {"speed": 1}})")
        << QStringLiteral("p.json: missing required field 'family'");
}

void TestPresets::badFilesAreRefusedWithTheirField()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    Expected<Preset> preset = parsePreset(text.toStdString(), "p.json");
    QVERIFY(!preset.ok());
    const QString message = QString::fromStdString(preset.error().message);
    QVERIFY2(message.contains(expected), qPrintable(message));
}

void TestPresets::namesAreChecked()
{
    QVERIFY(!checkPresetName("tight-school"));
    QVERIFY(!checkPresetName("My school 2.1"));
    QVERIFY(checkPresetName(""));
    QVERIFY(checkPresetName(" lead"));
    QVERIFY(checkPresetName("trail "));
    QVERIFY(checkPresetName(std::string(41, 'a')));
    QVERIFY(checkPresetName("tab\there"));
    QVERIFY(checkPresetName(".."));
}

QTEST_GUILESS_MAIN(TestPresets)
#include "test_presets.moc"
