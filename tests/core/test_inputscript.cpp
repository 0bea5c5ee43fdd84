// Scripted input: parsing good and bad scripts, and replaying them into a world.

#include "testsupport.h"
#include <shoal/inputscript.h>
#include <shoal/scenefile.h>

#include <QtTest>

using namespace shoal;

Q_DECLARE_METATYPE(std::string)

namespace {

/// The player leads a small school in an empty 80 x 50 m box.
SceneDesc playerScene()
{
    SceneDesc scene = test::emptyScene();
    GroupDesc school = makeDefaultGroup(BehaviourKind::FishSchool, "school");
    school.spawn = SpawnAreaDesc{{{-3.0, -3.0}, {3.0, 3.0}}, 6};
    scene.groups.push_back(school);
    scene.player.enabled = true;
    scene.player.group = "school";
    scene.player.position = {0.0, 0.0};
    return scene;
}

/// A tank squad driving to the origin, and a swarm that is not a squad.
SceneDesc squadScene()
{
    SceneDesc scene = test::emptyScene();
    GroupDesc squad = makeDefaultGroup(BehaviourKind::TankSquad, "squad");
    squad.spawn = SpawnAreaDesc{{{-25.0, -5.0}, {-15.0, 5.0}}, 4};
    squad.target = Point2{-20.0, 0.0};
    scene.groups.push_back(squad);
    GroupDesc swarm = makeDefaultGroup(BehaviourKind::Swarm, "enemies");
    swarm.spawn = SpawnAreaDesc{{{10.0, -5.0}, {20.0, 5.0}}, 5};
    scene.groups.push_back(swarm);
    return scene;
}

InputScript parseOrFail(const std::string& text)
{
    auto script = parseInputScript(text, "script.txt");
    if (!script.ok())
        qFatal("script did not parse: %s", script.error().message.c_str());
    return std::move(script.value());
}

/// Runs `steps` steps, replaying `script` the way shoal-cli run does.
void replay(World& world, const InputScript& script, int steps)
{
    std::size_t cursor = 0;
    for (int s = 0; s < steps; ++s) {
        applyInputEvents(world, script, world.stepCount(), cursor);
        world.step();
    }
}

Vec2 centroid(const GroupState& group)
{
    Vec2 sum;
    for (std::size_t i = 0; i < group.agents.size(); ++i)
        sum += Vec2{group.agents.px[i], group.agents.py[i]};
    return sum / static_cast<float>(group.agents.size());
}

} // namespace

class TestInputScript : public QObject
{
    Q_OBJECT

private slots:
    void parsesGoodScripts_data();
    void parsesGoodScripts();
    void refusesBadScripts_data();
    void refusesBadScripts();
    void pointerDownMovesThePlayer();
    void moveKeepsTheButtonState();
    void appliesEventsWhenTheirStepComes();
    void sameScriptGivesTheSameHash();
    void targetEventMovesTheSquad();
    void checkNamesTheSquads();
    void setEventsEditWhileRunning();
    void checkNamesParametersAndValues_data();
    void checkNamesParametersAndValues();
    void underflowReadsAsInSceneFiles();
    void echoedTokensAreEscapedAndCut();
};

void TestInputScript::parsesGoodScripts_data()
{
    QTest::addColumn<std::string>("text");
    QTest::addColumn<int>("count");
    QTest::addColumn<int>("lastStep");
    QTest::addColumn<int>("lastKind");   // InputEventKind
    QTest::addColumn<int>("lastAction"); // PointerAction (pointer events)
    QTest::addColumn<QString>("lastGroup");
    QTest::addColumn<double>("lastX");
    QTest::addColumn<double>("lastY");
    QTest::addColumn<int>("lastLine");

    const int pointer = static_cast<int>(InputEventKind::Pointer);
    const int target = static_cast<int>(InputEventKind::Target);
    const int down = static_cast<int>(PointerAction::Down);
    const int up = static_cast<int>(PointerAction::Up);
    const int move = static_cast<int>(PointerAction::Move);

    QTest::newRow("comments and blank lines")
        << std::string("# a recorded drag\n\n  0 pointer 1 2 down   # press\n# end\n") << 1 << 0
        << pointer << down << QString() << 1.0 << 2.0 << 3;
    QTest::newRow("tabs, CRLF, exponent, signs")
        << std::string("5\tpointer\t-1.5\t2e1\tmove\r\n+6 pointer +0.25 -0 up\r\n") << 2 << 6
        << pointer << up << QString() << 0.25 << 0.0 << 2;
    QTest::newRow("equal steps kept in file order")
        << std::string("1 pointer 0 0 down\n1 pointer 3 4 move\n1 target squad 7 8\n") << 3 << 1
        << target << move << QStringLiteral("squad") << 7.0 << 8.0 << 3;
    QTest::newRow("quoted group name")
        << std::string("10 target \"north squad\" -4 5.5") << 1 << 10 << target << move
        << QStringLiteral("north squad") << -4.0 << 5.5 << 1;
    QTest::newRow("no trailing newline, large step")
        << std::string("0 pointer 0 0 down\n123456 pointer 1 1 up") << 2 << 123456 << pointer << up
        << QString() << 1.0 << 1.0 << 2;
    QTest::newRow("only comments")
        << std::string("# nothing yet\n\n") << 0 << 0 << 0 << 0 << QString() << 0.0 << 0.0 << 0;
}

void TestInputScript::parsesGoodScripts()
{
    QFETCH(std::string, text);
    QFETCH(int, count);
    auto script = parseInputScript(text, "script.txt");
    QVERIFY2(script.ok(), script.ok() ? "" : script.error().message.c_str());
    QCOMPARE(script->fileName, std::string("script.txt"));
    QCOMPARE(static_cast<int>(script->events.size()), count);
    if (count == 0)
        return;
    QFETCH(int, lastStep);
    QFETCH(int, lastKind);
    QFETCH(int, lastAction);
    QFETCH(QString, lastGroup);
    QFETCH(double, lastX);
    QFETCH(double, lastY);
    QFETCH(int, lastLine);
    const InputEvent& last = script->events.back();
    QCOMPARE(last.step, static_cast<std::uint64_t>(lastStep));
    QCOMPARE(static_cast<int>(last.kind), lastKind);
    if (last.kind == InputEventKind::Pointer)
        QCOMPARE(static_cast<int>(last.action), lastAction);
    QCOMPARE(QString::fromStdString(last.group), lastGroup);
    QCOMPARE(last.position.x, lastX);
    QCOMPARE(last.position.y, lastY);
    QCOMPARE(last.line, lastLine);
}

void TestInputScript::refusesBadScripts_data()
{
    QTest::addColumn<std::string>("text");
    QTest::addColumn<QString>("expected"); // must appear in the message

    QTest::newRow("unknown event")
        << std::string("0 click 1 2")
        << QStringLiteral("script.txt:1: unknown event 'click'; expected "
                          "'<step> pointer <x> <y> down|up|move', "
                          "'<step> target <group> <x> <y>' or "
                          "'<step> set <group>|player <param> <value>'");
    QTest::newRow("decreasing steps")
        << std::string("5 pointer 0 0 down\n\n3 pointer 0 0 up")
        << QStringLiteral(
               "script.txt:3: step 3 comes after step 5 on line 1; steps must not decrease");
    QTest::newRow("negative step")
        << std::string("-1 pointer 0 0 down")
        << QStringLiteral("script.txt:1: step '-1' must be a whole number >= 0");
    QTest::newRow("fractional step") << std::string("1.5 pointer 0 0 down")
                                     << QStringLiteral("step '1.5' must be a whole number >= 0");
    QTest::newRow("step too large") << std::string("99999999999999999999 pointer 0 0 down")
                                    << QStringLiteral("must be a whole number >= 0");
    QTest::newRow("x not a number")
        << std::string("0 pointer abc 0 down")
        << QStringLiteral("script.txt:1: x 'abc' must be a finite number (metres)");
    QTest::newRow("y infinite") << std::string("0 pointer 0 inf down")
                                << QStringLiteral("y 'inf' must be a finite number");
    QTest::newRow("x nan") << std::string("0 target squad nan 1")
                           << QStringLiteral("x 'nan' must be a finite number");
    QTest::newRow("trailing junk on number") << std::string("0 pointer 1.5m 0 down")
                                             << QStringLiteral("x '1.5m' must be a finite number");
    QTest::newRow("bad action") << std::string("0 pointer 0 0 press")
                                << QStringLiteral(
                                       "pointer action 'press' must be down, up or move");
    QTest::newRow("too few fields") << std::string("0 pointer 1 2")
                                    << QStringLiteral("script.txt:1: too few fields for 'pointer'");
    QTest::newRow("extra field") << std::string("0 pointer 1 2 down now")
                                 << QStringLiteral("unexpected 'now' after the event");
    QTest::newRow("target without group")
        << std::string("0 target 1 2") << QStringLiteral("too few fields for 'target'");
    QTest::newRow("empty quoted group")
        << std::string("0 target \"\" 1 2") << QStringLiteral("the group name is empty");
    QTest::newRow("unterminated quote")
        << std::string("0 target \"north 1 2")
        << QStringLiteral("script.txt:1: a quoted name has no closing");
    QTest::newRow("set without value")
        << std::string("0 set school keepWeight") << QStringLiteral("too few fields for 'set'");
    QTest::newRow("set value not a number")
        << std::string("0 set school keepWeight high")
        << QStringLiteral("script.txt:1: value 'high' must be a finite number");
    QTest::newRow("set value nan") << std::string("0 set player moveSpeed nan")
                                   << QStringLiteral("value 'nan' must be a finite number");
    QTest::newRow("set empty group")
        << std::string("0 set \"\" keepWeight 1") << QStringLiteral("the group name is empty");
    QTest::newRow("step alone") << std::string("# start\n7\n")
                                << QStringLiteral("script.txt:2: expected '<step> pointer");
    QTest::newRow("error on a later line")
        << std::string("# drag\n0 pointer 0 0 down\n\n10 pointer x 0 up\n")
        << QStringLiteral("script.txt:4: x 'x' must be a finite number");
}

void TestInputScript::refusesBadScripts()
{
    QFETCH(std::string, text);
    QFETCH(QString, expected);
    auto script = parseInputScript(text, "script.txt");
    QVERIFY(!script.ok());
    const QString message = QString::fromStdString(script.error().message);
    QVERIFY2(message.contains(expected), qPrintable(message));
    QVERIFY2(!message.contains(QLatin1Char('\n')), "errors are one line");
}

void TestInputScript::pointerDownMovesThePlayer()
{
    const SceneDesc scene = playerScene();
    const InputScript script = parseOrFail("0 pointer 20 0 down\n120 pointer 20 0 up\n");

    auto still = test::buildWorld(scene);
    QVERIFY(still);
    still->step(180);
    QCOMPARE(still->player().position, Vec2(0.0f, 0.0f));

    auto world = test::buildWorld(scene);
    QVERIFY(world);
    replay(*world, script, 120);
    // 2 s toward the pointer at the default 3.4 m/s.
    const Vec2 atRelease = world->player().position;
    QVERIFY2(atRelease.x > 5.0f && atRelease.x < 7.5f, qPrintable(QString::number(atRelease.x)));
    QVERIFY(std::abs(atRelease.y) < 0.1f);
    QVERIFY(world->pointer().pressed); // the release is due before step 120, not yet applied

    std::size_t cursor = 1; // the down event is done
    for (int s = 0; s < 60; ++s) {
        applyInputEvents(*world, script, world->stepCount(), cursor);
        world->step();
    }
    QCOMPARE(cursor, std::size_t(2));
    QVERIFY(!world->pointer().pressed);
    // Released: the player stopped where it was.
    QVERIFY(distance(world->player().position, atRelease) < 0.1f);
}

void TestInputScript::moveKeepsTheButtonState()
{
    auto world = test::buildWorld(playerScene());
    QVERIFY(world);
    const InputScript script = parseOrFail("0 pointer 5 0 down\n"
                                           "1 pointer -5 2 move\n"
                                           "2 pointer 1 1 up\n"
                                           "3 pointer 4 4 move\n");
    std::size_t cursor = 0;
    applyInputEvents(*world, script, 0, cursor);
    QVERIFY(world->pointer().pressed);
    applyInputEvents(*world, script, 1, cursor);
    QVERIFY(world->pointer().pressed);
    QCOMPARE(world->pointer().position, Vec2(-5.0f, 2.0f));
    applyInputEvents(*world, script, 2, cursor);
    QVERIFY(!world->pointer().pressed);
    applyInputEvents(*world, script, 3, cursor);
    QVERIFY(!world->pointer().pressed);
    QCOMPARE(world->pointer().position, Vec2(4.0f, 4.0f));
}

void TestInputScript::appliesEventsWhenTheirStepComes()
{
    auto world = test::buildWorld(playerScene());
    QVERIFY(world);
    const InputScript script = parseOrFail("0 pointer 1 0 move\n"
                                           "0 pointer 2 0 move\n"
                                           "5 pointer 3 0 down\n"
                                           "9 pointer 4 0 move\n");
    std::size_t cursor = 0;
    applyInputEvents(*world, script, 0, cursor);
    QCOMPARE(cursor, std::size_t(2));
    QCOMPARE(world->pointer().position, Vec2(2.0f, 0.0f)); // both step-0 events, in order
    applyInputEvents(*world, script, 4, cursor);
    QCOMPARE(cursor, std::size_t(2)); // nothing is due yet
    QVERIFY(!world->pointer().pressed);
    applyInputEvents(*world, script, 7, cursor); // a skipped step's event still applies
    QCOMPARE(cursor, std::size_t(3));
    QVERIFY(world->pointer().pressed);
    applyInputEvents(*world, script, 100, cursor);
    QCOMPARE(cursor, std::size_t(4));
    applyInputEvents(*world, script, 101, cursor); // past the end: nothing changes
    QCOMPARE(cursor, std::size_t(4));
    QCOMPARE(world->pointer().position, Vec2(4.0f, 0.0f));
}

void TestInputScript::sameScriptGivesTheSameHash()
{
    const SceneDesc scene = playerScene();
    const InputScript script = parseOrFail("0 pointer 10 5 down\n"
                                           "60 pointer -10 5 move\n"
                                           "150 pointer -10 -8 up\n"
                                           "200 pointer 0 -8 down\n");
    const InputScript other = parseOrFail("0 pointer 10 5 down\n"
                                          "60 pointer -10 6 move\n" // one metre off
                                          "150 pointer -10 -8 up\n"
                                          "200 pointer 0 -8 down\n");
    std::uint64_t hashes[3] = {};
    const InputScript* scripts[3] = {&script, &script, &other};
    for (int run = 0; run < 3; ++run) {
        auto world = test::buildWorld(scene);
        QVERIFY(world);
        replay(*world, *scripts[run], 300);
        hashes[run] = world->stateHash();
    }
    QCOMPARE(hashes[0], hashes[1]);
    QVERIFY(hashes[0] != hashes[2]);
}

void TestInputScript::targetEventMovesTheSquad()
{
    const SceneDesc scene = squadScene();
    const InputScript script = parseOrFail("30 target squad 20 0\n");
    auto world = test::buildWorld(scene);
    QVERIFY(world);
    QVERIFY(!checkInputScript(script, *world));
    const int squad = world->groupIndex("squad");
    const float startX = centroid(world->group(squad)).x;
    replay(*world, script, 30);
    QCOMPARE(world->group(squad).target, Vec2(-20.0f, 0.0f)); // not yet
    replay(*world, script, 1);
    QCOMPARE(world->group(squad).target, Vec2(20.0f, 0.0f));
    world->step(600);
    // The squad drove ~40 m east to the new target.
    QVERIFY2(centroid(world->group(squad)).x > startX + 25.0f,
             qPrintable(QString::number(centroid(world->group(squad)).x)));
}

void TestInputScript::checkNamesTheSquads()
{
    auto world = test::buildWorld(squadScene());
    QVERIFY(world);
    auto unknown = parseOrFail("0 pointer 0 0 down\n4 target north 1 1\n");
    auto error = checkInputScript(unknown, *world);
    QVERIFY(error);
    QVERIFY2(QString::fromStdString(error->message)
                 .contains(QStringLiteral("script.txt:2: there is no group 'north'")),
             error->message.c_str());
    QVERIFY(QString::fromStdString(error->message).contains(QStringLiteral("squads: 'squad'")));

    auto notSquad = parseOrFail("4 target enemies 1 1\n");
    error = checkInputScript(notSquad, *world);
    QVERIFY(error);
    QVERIFY2(QString::fromStdString(error->message)
                 .contains(QStringLiteral("group 'enemies' is a swarm, not a tank squad")),
             error->message.c_str());
}

void TestInputScript::setEventsEditWhileRunning()
{
    // A set event is the property panel's edit at that step: the value is the world's from
    // then on, and the player's parameters too ("player" unquoted).
    auto world = test::buildWorld(playerScene());
    QVERIFY(world);
    const InputScript script =
        parseOrFail("10 set school keepWeight 1.75\n20 set player moveSpeed 6.5\n");
    QCOMPARE(script.events[0].kind, InputEventKind::Set);
    QCOMPARE(script.events[1].kind, InputEventKind::PlayerSet);
    QVERIFY(!checkInputScript(script, *world));
    const int school = world->groupIndex("school");
    const double before = world->param(school, "keepWeight");
    QVERIFY(before != 1.75);
    replay(*world, script, 10);
    QCOMPARE(world->param(school, "keepWeight"), before);
    replay(*world, script, 1);
    QCOMPARE(world->param(school, "keepWeight"), 1.75);
    replay(*world, script, 10);
    QCOMPARE(world->playerParam("moveSpeed"), 6.5);
}

void TestInputScript::checkNamesParametersAndValues_data()
{
    QTest::addColumn<std::string>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown group")
        << std::string("0 set shcool keepWeight 1")
        << QStringLiteral("script.txt:1: there is no group 'shcool'; groups: 'school'");
    QTest::newRow("unknown parameter")
        << std::string("0 pointer 0 0 down\n3 set school keepWieght 1")
        << QStringLiteral("script.txt:2: a fishSchool has no parameter 'keepWieght'; its "
                          "parameters: moveSpeed, ");
    QTest::newRow("out of range") << std::string("0 set school keepWeight 9")
                                  << QStringLiteral("script.txt:1: group 'school': keepWeight = "
                                                    "9 is out of range; allowed [0, 5]");
    QTest::newRow("breaks a rule with an earlier edit")
        << std::string("0 set school keepMaxDistance 2.5\n5 set school keepMinDistance 2.6")
        << QStringLiteral("script.txt:2: group 'school': keepMinDistance (2.6) must be less "
                          "than keepMaxDistance (2.5)");
    QTest::newRow("player parameter") << std::string("0 set player speed 3")
                                      << QStringLiteral("script.txt:1: the player has no "
                                                        "parameter 'speed'; its parameters: "
                                                        "moveSpeed");
    QTest::newRow("quoted player is a group")
        << std::string("0 set \"player\" moveSpeed 3")
        << QStringLiteral("script.txt:1: there is no group 'player'");
}

void TestInputScript::checkNamesParametersAndValues()
{
    // Every edit is checked before the run, where it comes (with the edits before it in
    // place): a run never stops half way on a refused value.
    QFETCH(std::string, text);
    QFETCH(QString, expected);
    auto world = test::buildWorld(playerScene());
    QVERIFY(world);
    const auto error = checkInputScript(parseOrFail(text), *world);
    QVERIFY(error);
    QVERIFY2(QString::fromStdString(error->message).startsWith(expected), error->message.c_str());
}

void TestInputScript::underflowReadsAsInSceneFiles()
{
    // A number too small for a double: the scene reader (strtod) takes 1e-400 as 0, and the
    // input script once called it "not a finite number". Both now read it as 0; both refuse
    // one too large.
    const Expected<SceneDesc> scene = parseScene(
        R"({"format": "shoal-scene", "version": 3, "bounds": {"min": [-20, -10], "max": [20, 10]},
            "player": {"enabled": false},
            "groups": [{"name": "s", "kind": "swarm", "agents": [{"position": [1e-400, -1e-400]}]}]})",
        "under.json");
    QVERIFY2(scene.ok(), scene.ok() ? "" : scene.error().message.c_str());
    QCOMPARE(scene->groups[0].agents[0].position.x, 0.0);
    // Exponents at the very ends of long long (the fuzzer's 39e09223372036854775807 made
    // the test's power + exponent overflow).
    const Expected<InputScript> script =
        parseInputScript("0 pointer 1e-400 -0.00001e-330 down\n1 pointer 0e99999999999999999999 "
                         "1.5 move\n2 pointer 0.001e-9223372036854775808 "
                         "-12e-9223372036854775807 move\n",
                         "under.txt");
    QVERIFY2(script.ok(), script.ok() ? "" : script.error().message.c_str());
    QCOMPARE(script->events[0].position.x, scene->groups[0].agents[0].position.x);
    QCOMPARE(script->events[0].position.y, 0.0);
    QCOMPARE(script->events[1].position.x, 0.0);
    QCOMPARE(script->events[2].position.x, 0.0);
    QCOMPARE(script->events[2].position.y, 0.0);
    for (const char* big : {"1e400", "0.001e312", "100000e99999999999999999999",
                            "39e09223372036854775807", "1e9223372036854775807"}) {
        const Expected<InputScript> refused =
            parseInputScript(std::string("0 pointer ") + big + " 0 down\n", "big.txt");
        QVERIFY2(!refused.ok(), big);
        QVERIFY(refused.error().message.find("must be a finite number") != std::string::npos);
    }
}

void TestInputScript::echoedTokensAreEscapedAndCut()
{
    // A megabyte token was echoed whole, and control characters went raw to the terminal.
    const Expected<InputScript> huge =
        parseInputScript("0 pointer " + std::string(1000000, '9') + " 0 down\n", "huge.txt");
    QVERIFY(!huge.ok());
    QCOMPARE(huge.error().message, "huge.txt:1: x '" + std::string(60, '9') +
                                       "\u2026' (1000000 bytes) must be a finite number (metres)");
    const Expected<InputScript> control =
        parseInputScript(std::string("0 pointer 1 1 do\x1b[2J\xffwn\n"), "control.txt");
    QVERIFY(!control.ok());
    QCOMPARE(control.error().message,
             std::string("control.txt:1: pointer action 'do\\x1B[2J\\xFFwn' must be down, up or "
                         "move"));
}

QTEST_GUILESS_MAIN(TestInputScript)
#include "test_inputscript.moc"
