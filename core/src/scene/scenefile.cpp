#include <shoal/scenefile.h>

#include "jsonreading.h"

#include <shoal/displaytext.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <system_error>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

namespace shoal {
namespace {

using namespace jsonread;
using OrderedJson = nlohmann::ordered_json;

// ---------------------------------------------------------------------------------------------
// JSON document -> SceneDesc (text -> document and the generic readers: jsonreading.h)

int readCount(const Json& value, const std::string& path)
{
    return readInteger(value, path, 0, kMaxSpawnCount);
}

std::uint64_t readSeed(const Json& value, const std::string& path)
{
    if (!value.is_number_unsigned())
        fail(path, "expected a whole number in [0, 18446744073709551615], got " + describe(value) +
                       wholeFloatHint(value));
    return value.get<std::uint64_t>();
}

Point2 readPoint(const Json& value, const std::string& path)
{
    if (!value.is_array() || value.size() != 2) {
        const std::string got = value.is_array()
                                    ? "an array of " + std::to_string(value.size()) + " values"
                                    : describe(value);
        fail(path, "expected a point [x, y], got " + got);
    }
    return {readNumber(value[0], elementPath(path, 0)), readNumber(value[1], elementPath(path, 1))};
}

/// A list longer than `limit` is refused before any item is read: a file of a million
/// groups or points says so at once instead of after reading them all.
void checkListLength(const Json& list, const std::string& path, std::size_t limit,
                     const std::string& items)
{
    if (list.size() > limit)
        fail(path, "the list has " + std::to_string(list.size()) + " " + items + "; at most " +
                       std::to_string(limit) + " are allowed");
}

std::vector<Point2> readPoints(const Json& value, const std::string& path)
{
    expectArray(value, path);
    checkListLength(value, path, kMaxShapePoints, "points");
    std::vector<Point2> points;
    points.reserve(value.size());
    for (std::size_t i = 0; i < value.size(); ++i) {
        // A well-formed point is read without its path: a big level has a million of them,
        // and building "walls[i].points[j][k]" three times for each was a third of reading
        // it. Any other value goes through readPoint, which names it.
        const Json& point = value[i];
        if (point.is_array() && point.size() == 2 && point[0].is_number() && point[1].is_number())
            points.push_back({point[0].get<double>(), point[1].get<double>()});
        else
            points.push_back(readPoint(point, elementPath(path, i)));
    }
    return points;
}

int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

Color readColor(const Json& value, const std::string& path)
{
    const auto bad = [&] {
        fail(path, "expected a colour \"#rrggbb\" or \"#rrggbbaa\", got " + describe(value));
    };
    if (!value.is_string())
        bad();
    const std::string& text = value.get_ref<const std::string&>();
    if ((text.size() != 7 && text.size() != 9) || text[0] != '#')
        bad();
    std::array<std::uint8_t, 4> channels = {0, 0, 0, 255};
    for (std::size_t i = 0; 1 + 2 * i < text.size(); ++i) {
        const int high = hexDigit(text[1 + 2 * i]);
        const int low = hexDigit(text[2 + 2 * i]);
        if (high < 0 || low < 0)
            bad();
        channels[i] = static_cast<std::uint8_t>(high * 16 + low);
    }
    return {channels[0], channels[1], channels[2], channels[3]};
}

Rect readRect(const Json& value, const std::string& path)
{
    expectObject(value, path);
    checkKeys(value, path, {"min", "max"});
    return {readPoint(required(value, path, "min"), childPath(path, "min")),
            readPoint(required(value, path, "max"), childPath(path, "max"))};
}

SimulationDesc readSimulation(const Json& value, const std::string& path)
{
    expectObject(value, path);
    checkKeys(value, path, {"dt", "seed"});
    SimulationDesc simulation;
    if (const Json* dt = optionalField(value, "dt"))
        simulation.dt = readNumber(*dt, childPath(path, "dt"));
    if (const Json* seed = optionalField(value, "seed"))
        simulation.seed = readSeed(*seed, childPath(path, "seed"));
    return simulation;
}

PlayerDesc readPlayer(const Json& value, const std::string& path)
{
    expectObject(value, path);
    checkKeys(value, path, {"enabled", "group", "position", "heading", "params"});
    PlayerDesc player = makeDefaultPlayer();
    if (const Json* enabled = optionalField(value, "enabled"))
        player.enabled = readBool(*enabled, childPath(path, "enabled"));
    if (const Json* group = optionalField(value, "group"))
        player.group = readString(*group, childPath(path, "group"));
    if (const Json* position = optionalField(value, "position"))
        player.position = readPoint(*position, childPath(path, "position"));
    if (const Json* heading = optionalField(value, "heading"))
        player.heading = readNumber(*heading, childPath(path, "heading"));
    if (const Json* params = optionalField(value, "params"))
        player.params = readParams(*params, childPath(path, "params"), playerParamSpecs());
    return player;
}

WallDesc readWall(const Json& value, const std::string& path)
{
    expectObject(value, path);
    checkKeys(value, path, {"closed", "points"});
    WallDesc wall;
    if (const Json* closed = optionalField(value, "closed"))
        wall.closed = readBool(*closed, childPath(path, "closed"));
    wall.points = readPoints(required(value, path, "points"), childPath(path, "points"));
    return wall;
}

ObstacleDesc readObstacle(const Json& value, const std::string& path)
{
    expectObject(value, path);
    const std::string shape = readString(required(value, path, "shape"), childPath(path, "shape"));
    ObstacleDesc obstacle;
    if (shape == "polygon") {
        checkKeys(value, path, {"shape", "points"});
        obstacle.shape = ObstacleShape::Polygon;
        obstacle.points = readPoints(required(value, path, "points"), childPath(path, "points"));
    } else if (shape == "circle") {
        checkKeys(value, path, {"shape", "center", "radius"});
        obstacle.shape = ObstacleShape::Circle;
        obstacle.center = readPoint(required(value, path, "center"), childPath(path, "center"));
        obstacle.radius = readNumber(required(value, path, "radius"), childPath(path, "radius"));
    } else {
        fail(childPath(path, "shape"),
             "unknown obstacle shape " + quoted(shape) + "; allowed: polygon, circle");
    }
    return obstacle;
}

PickupDesc readPickup(const Json& value, const std::string& path)
{
    expectObject(value, path);
    checkKeys(value, path, {"kind", "position"});
    PickupDesc pickup;
    const std::string kind = readString(required(value, path, "kind"), childPath(path, "kind"));
    if (kind == "fish")
        pickup.kind = PickupKind::Fish;
    else if (kind == "coin")
        pickup.kind = PickupKind::Coin;
    else
        fail(childPath(path, "kind"),
             "unknown pickup kind " + quoted(kind) + "; allowed: fish, coin");
    pickup.position = readPoint(required(value, path, "position"), childPath(path, "position"));
    return pickup;
}

AgentDesc readAgent(const Json& value, const std::string& path)
{
    expectObject(value, path);
    checkKeys(value, path, {"position", "heading", "goal"});
    AgentDesc agent;
    agent.position = readPoint(required(value, path, "position"), childPath(path, "position"));
    if (const Json* heading = optionalField(value, "heading"))
        agent.heading = readNumber(*heading, childPath(path, "heading"));
    if (const Json* goal = optionalField(value, "goal"))
        agent.goal = readPoint(*goal, childPath(path, "goal"));
    return agent;
}

SpawnAreaDesc readSpawn(const Json& value, const std::string& path)
{
    expectObject(value, path);
    checkKeys(value, path, {"min", "max", "count"});
    SpawnAreaDesc spawn;
    spawn.area.min = readPoint(required(value, path, "min"), childPath(path, "min"));
    spawn.area.max = readPoint(required(value, path, "max"), childPath(path, "max"));
    spawn.count = readCount(required(value, path, "count"), childPath(path, "count"));
    return spawn;
}

/// A set of collision layers, written as the list of their numbers: [1, 3].
std::uint32_t readLayers(const Json& value, const std::string& path)
{
    expectArray(value, path);
    std::uint32_t layers = 0;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const std::string itemPath = elementPath(path, i);
        const int layer = readInteger(value[i], itemPath, 1, 32);
        const std::uint32_t bit = 1u << (layer - 1);
        if (layers & bit)
            fail(itemPath, "layer " + std::to_string(layer) + " is listed twice");
        layers |= bit;
    }
    return layers;
}

CollisionDesc readCollision(const Json& value, const std::string& path, CollisionDesc collision)
{
    expectObject(value, path);
    checkKeys(value, path, {"layers", "mask", "priority"});
    if (const Json* layers = optionalField(value, "layers"))
        collision.layers = readLayers(*layers, childPath(path, "layers"));
    if (const Json* mask = optionalField(value, "mask"))
        collision.mask = readLayers(*mask, childPath(path, "mask"));
    if (const Json* priority = optionalField(value, "priority"))
        collision.priority =
            readInteger(*priority, childPath(path, "priority"), 0, kMaxCollisionPriority);
    return collision;
}

Keys allBehaviourKeys()
{
    Keys keys;
    for (BehaviourKind kind : kAllBehaviourKinds)
        keys.emplace_back(behaviourKey(kind));
    return keys;
}

GroupDesc readGroup(const Json& value, const std::string& path)
{
    expectObject(value, path);
    checkKeys(value, path,
              {"name", "kind", "color", "accent", "params", "spawn", "agents", "target", "chase",
               "collision"});
    const std::string name = readString(required(value, path, "name"), childPath(path, "name"));
    const std::string kindKey = readString(required(value, path, "kind"), childPath(path, "kind"));
    const std::optional<BehaviourKind> kind = behaviourFromKey(kindKey);
    if (!kind) {
        const Keys kinds = allBehaviourKeys();
        fail(childPath(path, "kind"), "unknown behaviour kind " + quoted(kindKey) +
                                          suggestion(kindKey, kinds) +
                                          "; allowed: " + joinKeys(kinds));
    }
    GroupDesc group = makeDefaultGroup(*kind, name);
    if (const Json* color = optionalField(value, "color"))
        group.color = readColor(*color, childPath(path, "color"));
    if (const Json* accent = optionalField(value, "accent"))
        group.accent = readColor(*accent, childPath(path, "accent"));
    if (const Json* params = optionalField(value, "params"))
        group.params = readParams(*params, childPath(path, "params"), paramSpecs(*kind));
    if (const Json* spawn = optionalField(value, "spawn"))
        group.spawn = readSpawn(*spawn, childPath(path, "spawn"));
    if (const Json* agents = optionalField(value, "agents")) {
        const std::string agentsPath = childPath(path, "agents");
        expectArray(*agents, agentsPath);
        checkListLength(*agents, agentsPath, kMaxAgents, "agents");
        group.agents.reserve(agents->size());
        for (std::size_t i = 0; i < agents->size(); ++i)
            group.agents.push_back(readAgent((*agents)[i], elementPath(agentsPath, i)));
    }
    if (const Json* target = optionalField(value, "target"))
        group.target = readPoint(*target, childPath(path, "target"));
    if (const Json* chase = optionalField(value, "chase"))
        group.chase = readString(*chase, childPath(path, "chase"));
    if (const Json* collision = optionalField(value, "collision"))
        group.collision = readCollision(*collision, childPath(path, "collision"), group.collision);
    return group;
}

/// One of "checks": the metric, one comparison, at most one window.
CheckDesc readCheck(const Json& value, const std::string& path)
{
    expectObject(value, path);
    static const Keys comparisons = {"within", "below", "atMost", "above", "atLeast", "equals"};
    static const Keys windows = {"after", "last", "by"};
    Keys allowed = {"name", "metric"};
    allowed.insert(allowed.end(), comparisons.begin(), comparisons.end());
    allowed.insert(allowed.end(), windows.begin(), windows.end());
    checkKeys(value, path, allowed);
    CheckDesc check;
    if (const Json* name = optionalField(value, "name"))
        check.name = readString(*name, childPath(path, "name"));
    check.metric = readString(required(value, path, "metric"), childPath(path, "metric"));
    const std::string* found = nullptr;
    for (const std::string& key : comparisons) {
        if (!value.contains(key))
            continue;
        if (found)
            fail(path,
                 "has both \"" + *found + "\" and \"" + key + "\"; a check makes one comparison");
        found = &key;
    }
    if (!found)
        fail(path, "needs one comparison: " + joinKeys(comparisons));
    const std::string where = childPath(path, *found);
    const Json& bound = value[*found];
    static const CheckCompare kinds[] = {CheckCompare::Within,  CheckCompare::Below,
                                         CheckCompare::AtMost,  CheckCompare::Above,
                                         CheckCompare::AtLeast, CheckCompare::Equals};
    check.compare = kinds[found - comparisons.data()];
    if (check.compare == CheckCompare::Within) {
        const Json& range = expectArray(bound, where);
        if (range.size() != 2)
            fail(where, "expected [low, high], got " + std::to_string(range.size()) + " numbers");
        check.value = readNumber(range[0], elementPath(where, 0));
        check.high = readNumber(range[1], elementPath(where, 1));
    } else if (bound.is_string()) {
        check.valueMetric = readString(bound, where);
    } else {
        check.value = readNumber(bound, where);
    }
    const std::string* window = nullptr;
    for (const std::string& key : windows) {
        if (!value.contains(key))
            continue;
        if (window)
            fail(path, "has both \"" + *window + "\" and \"" + key +
                           "\"; a check has at most one window");
        window = &key;
    }
    if (window) {
        static const CheckWindow kWindows[] = {CheckWindow::After, CheckWindow::Last,
                                               CheckWindow::By};
        check.window = kWindows[window - windows.data()];
        check.seconds = readNumber(value[*window], childPath(path, *window));
    }
    return check;
}

template <class T, class Read>
std::vector<T> readList(const Json& root, const std::string& key, std::size_t limit, Read read)
{
    std::vector<T> items;
    const Json* list = optionalField(root, key);
    if (!list)
        return items;
    expectArray(*list, key);
    checkListLength(*list, key, limit, "items");
    items.reserve(list->size());
    for (std::size_t i = 0; i < list->size(); ++i)
        items.push_back(read((*list)[i], elementPath(key, i)));
    return items;
}

/// Reads a document already migrated to kSceneFormatVersion.
SceneDesc readScene(const Json& root)
{
    checkKeys(root, {},
              {"format", "version", "name", "bounds", "simulation", "player", "walls", "obstacles",
               "pickups", "groups", "checks"});
    SceneDesc scene;
    if (const Json* name = optionalField(root, "name"))
        scene.name = readString(*name, "name");
    scene.bounds = readRect(required(root, {}, "bounds"), "bounds");
    if (const Json* simulation = optionalField(root, "simulation"))
        scene.simulation = readSimulation(*simulation, "simulation");
    scene.player = makeDefaultPlayer();
    if (const Json* player = optionalField(root, "player"))
        scene.player = readPlayer(*player, "player");
    // No level can hold more walls or obstacles than pieces, nor more pickups than agents.
    scene.walls = readList<WallDesc>(root, "walls", kMaxGeometryPieces, readWall);
    scene.obstacles = readList<ObstacleDesc>(root, "obstacles", kMaxGeometryPieces, readObstacle);
    scene.pickups = readList<PickupDesc>(root, "pickups", kMaxPickups, readPickup);
    required(root, {}, "groups");
    scene.groups = readList<GroupDesc>(root, "groups", kMaxGroups, readGroup);
    scene.checks = readList<CheckDesc>(root, "checks", kMaxChecks, readCheck);
    return scene;
}

// Migration ladder. Entry N-1 lifts a version-N document to version N+1 in place (renamed
// keys, new required fields with their old implicit value). Format 2 adds one function here
// and bumps kSceneFormatVersion; every older file then climbs the ladder one step at a time
// and readScene() only ever sees the current shape.
using Migration = void (*)(Json& document);

/// 1 -> 2: bodies became solid across groups and each group says how it collides. A version 1
/// file had no such setting; it gets the family's default, which is what a group without
/// "collision" reads as, so the document needs no change beyond its version.
void migrateFrom1(Json& document)
{
    (void)document;
}

/// 2 -> 3: every tank of a squad parks on a spot of its own round the target, and a tank
/// squad's "arriveDistance" became how near its spot a tank stops (the article's 0.2 m). In
/// version 2 it was how near the target the squad's first tank had to come before the rest
/// parked against it, which a whole squad needed a few metres for; spots now place the squad
/// by themselves, and spots are keepDistance + 2 x arriveDistance apart, so an old value
/// above 0.2 m would spread the parked squad by twice that. It becomes 0.2 m; smaller values
/// keep.
void migrateFrom2(Json& document)
{
    const auto groups = document.find("groups");
    if (groups == document.end() || !groups->is_array())
        return; // the reader reports a missing or malformed list with its place
    for (Json& group : *groups) {
        if (!group.is_object() || group.value("kind", Json()) != "tankSquad")
            continue;
        const auto params = group.find("params");
        if (params == group.end() || !params->is_object())
            continue;
        const auto arrive = params->find("arriveDistance");
        if (arrive != params->end() && arrive->is_number() && arrive->get<double>() > 0.2)
            *arrive = 0.2;
    }
}

constexpr std::array<Migration, kSceneFormatVersion - 1> kMigrations = {migrateFrom1, migrateFrom2};

void migrate(Json& document, int fromVersion)
{
    for (int version = fromVersion; version < kSceneFormatVersion; ++version)
        kMigrations[static_cast<std::size_t>(version - 1)](document);
    document["version"] = kSceneFormatVersion;
}

/// Checks "format" and "version" and brings the document to the current version.
void checkFormatAndMigrate(Json& document)
{
    const Json& format = required(document, {}, "format");
    if (!format.is_string() || format.get_ref<const std::string&>() != "shoal-scene")
        fail("format",
             "this is not a Shoal scene: expected \"shoal-scene\", got " + describe(format));
    const Json& version = required(document, {}, "version");
    if (!version.is_number_integer())
        fail("version", "expected the format version as a whole number such as " +
                            std::to_string(kSceneFormatVersion) + ", got " + describe(version));
    if (version.is_number_unsigned() &&
        version.get<std::uint64_t>() > std::uint64_t(kSceneFormatVersion))
        fail({}, "this scene was written by a newer Shoal (format version " + version.dump() +
                     "); this build reads up to version " + std::to_string(kSceneFormatVersion));
    if (version.get<std::int64_t>() < 1)
        fail("version", version.dump() + " is not a valid format version; versions start at 1");
    migrate(document, static_cast<int>(version.get<std::int64_t>()));
}

// ---------------------------------------------------------------------------------------------
// SceneDesc -> text

OrderedJson point(Point2 p)
{
    return OrderedJson::array({p.x, p.y});
}

OrderedJson pointList(const std::vector<Point2>& points)
{
    OrderedJson list = OrderedJson::array();
    for (Point2 p : points)
        list.push_back(point(p));
    return list;
}

std::string colorText(Color c)
{
    static const char* const digits = "0123456789abcdef";
    std::string text = "#";
    const std::uint8_t channels[4] = {c.r, c.g, c.b, c.a};
    for (int i = 0; i < (c.a == 255 ? 3 : 4); ++i) {
        text += digits[channels[i] >> 4];
        text += digits[channels[i] & 15];
    }
    return text;
}

OrderedJson paramObject(const std::vector<ParamSpec>& specs, const ParamValues& values)
{
    OrderedJson object = OrderedJson::object();
    for (std::size_t i = 0; i < specs.size(); ++i)
        object[specs[i].key] = i < values.size() ? values[i] : specs[i].defaultValue;
    return object;
}

OrderedJson layerList(std::uint32_t layers)
{
    OrderedJson list = OrderedJson::array();
    for (int layer = 1; layer <= 32; ++layer)
        if (layers & (1u << (layer - 1)))
            list.push_back(layer);
    return list;
}

OrderedJson sceneDocument(const SceneDesc& scene)
{
    OrderedJson doc = OrderedJson::object();
    doc["format"] = "shoal-scene";
    doc["version"] = kSceneFormatVersion;
    doc["name"] = scene.name;
    doc["bounds"] = {{"min", point(scene.bounds.min)}, {"max", point(scene.bounds.max)}};
    doc["simulation"] = {{"dt", scene.simulation.dt}, {"seed", scene.simulation.seed}};

    OrderedJson player = OrderedJson::object();
    player["enabled"] = scene.player.enabled;
    player["group"] = scene.player.group;
    player["position"] = point(scene.player.position);
    player["heading"] = scene.player.heading;
    player["params"] = paramObject(playerParamSpecs(), scene.player.params);
    doc["player"] = std::move(player);

    OrderedJson walls = OrderedJson::array();
    for (const WallDesc& wall : scene.walls)
        walls.push_back({{"closed", wall.closed}, {"points", pointList(wall.points)}});
    doc["walls"] = std::move(walls);

    OrderedJson obstacles = OrderedJson::array();
    for (const ObstacleDesc& obstacle : scene.obstacles) {
        OrderedJson o = OrderedJson::object();
        if (obstacle.shape == ObstacleShape::Polygon) {
            o["shape"] = "polygon";
            o["points"] = pointList(obstacle.points);
        } else {
            o["shape"] = "circle";
            o["center"] = point(obstacle.center);
            o["radius"] = obstacle.radius;
        }
        obstacles.push_back(std::move(o));
    }
    doc["obstacles"] = std::move(obstacles);

    OrderedJson pickups = OrderedJson::array();
    for (const PickupDesc& pickup : scene.pickups)
        pickups.push_back({{"kind", pickup.kind == PickupKind::Fish ? "fish" : "coin"},
                           {"position", point(pickup.position)}});
    doc["pickups"] = std::move(pickups);

    OrderedJson groups = OrderedJson::array();
    for (const GroupDesc& group : scene.groups) {
        OrderedJson g = OrderedJson::object();
        g["name"] = group.name;
        g["kind"] = std::string(behaviourKey(group.kind));
        g["color"] = colorText(group.color);
        g["accent"] = colorText(group.accent);
        g["params"] = paramObject(paramSpecs(group.kind), group.params);
        if (group.spawn)
            g["spawn"] = {{"min", point(group.spawn->area.min)},
                          {"max", point(group.spawn->area.max)},
                          {"count", group.spawn->count}};
        if (!group.agents.empty()) {
            OrderedJson agents = OrderedJson::array();
            for (const AgentDesc& agent : group.agents) {
                OrderedJson a = {{"position", point(agent.position)}, {"heading", agent.heading}};
                if (agent.goal)
                    a["goal"] = point(*agent.goal);
                agents.push_back(std::move(a));
            }
            g["agents"] = std::move(agents);
        }
        if (group.target)
            g["target"] = point(*group.target);
        if (!group.chase.empty())
            g["chase"] = group.chase;
        g["collision"] = {{"layers", layerList(group.collision.layers)},
                          {"mask", layerList(group.collision.mask)},
                          {"priority", group.collision.priority}};
        groups.push_back(std::move(g));
    }
    doc["groups"] = std::move(groups);

    if (!scene.checks.empty()) {
        static const char* const kCompare[] = {"within", "below",   "atMost",
                                               "above",  "atLeast", "equals"};
        static const char* const kWindow[] = {"", "after", "last", "by"};
        OrderedJson checks = OrderedJson::array();
        for (const CheckDesc& check : scene.checks) {
            OrderedJson c = OrderedJson::object();
            if (!check.name.empty())
                c["name"] = check.name;
            c["metric"] = check.metric;
            const char* compare = kCompare[static_cast<int>(check.compare)];
            if (check.compare == CheckCompare::Within)
                c[compare] = OrderedJson::array({check.value, check.high});
            else if (!check.valueMetric.empty())
                c[compare] = check.valueMetric;
            else
                c[compare] = check.value;
            if (check.window != CheckWindow::Always)
                c[kWindow[static_cast<int>(check.window)]] = check.seconds;
            checks.push_back(std::move(c));
        }
        doc["checks"] = std::move(checks);
    }
    return doc;
}

bool isNumberArray(const OrderedJson& value)
{
    return value.is_array() && std::all_of(value.begin(), value.end(),
                                           [](const OrderedJson& v) { return v.is_number(); });
}

/// Small records (a point pair, a pickup, an agent, a circle) stay on one line so a list of
/// them reads as a table and a diff shows the one record that changed. The rule depends only
/// on the shape, never on the values, so editing a number never reflows its neighbours.
bool isInlineObject(const OrderedJson& value)
{
    constexpr std::size_t kMaxInlineFields = 3;
    return value.size() <= kMaxInlineFields &&
           std::all_of(value.begin(), value.end(),
                       [](const OrderedJson& v) { return v.is_primitive() || isNumberArray(v); });
}

void writeValue(std::string& out, const OrderedJson& value, int indent, bool block);

/// An object on one line: {"key": value, ...}.
void writeInline(std::string& out, const OrderedJson& value, int indent)
{
    out += '{';
    bool first = true;
    for (auto it = value.begin(); it != value.end(); ++it) {
        out += first ? "" : ", ";
        first = false;
        out += OrderedJson(it.key()).dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
        out += ": ";
        writeValue(out, it.value(), indent, false);
    }
    out += '}';
}

/// "checks": one check a line, whatever its fields, so the list reads as the table of what
/// the scene promises (a check holds primitives and a number pair only).
void writeCheckList(std::string& out, const OrderedJson& checks, int indent)
{
    out += "[\n";
    for (std::size_t i = 0; i < checks.size(); ++i) {
        out += i ? ",\n" : "";
        out.append(static_cast<std::size_t>(indent + 2), ' ');
        writeInline(out, checks[i], indent + 2);
    }
    out += '\n';
    out.append(static_cast<std::size_t>(indent), ' ');
    out += ']';
}

void writeScalar(std::string& out, const OrderedJson& value)
{
    if (value.is_number_float())
        out += formatDouble(value.get<double>());
    else
        out += value.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

void writeValue(std::string& out, const OrderedJson& value, int indent, bool block)
{
    if (value.is_object()) {
        if (value.empty()) {
            out += "{}";
        } else if (!block && isInlineObject(value)) {
            writeInline(out, value, indent);
        } else {
            out += "{\n";
            bool first = true;
            for (auto it = value.begin(); it != value.end(); ++it) {
                out += first ? "" : ",\n";
                first = false;
                out.append(static_cast<std::size_t>(indent + 2), ' ');
                writeScalar(out, OrderedJson(it.key()));
                out += ": ";
                if (it.key() == "checks" && it.value().is_array() && !it.value().empty())
                    writeCheckList(out, it.value(), indent + 2);
                else
                    writeValue(out, it.value(), indent + 2, it.key() == "params");
            }
            out += '\n';
            out.append(static_cast<std::size_t>(indent), ' ');
            out += '}';
        }
    } else if (value.is_array()) {
        if (value.empty()) {
            out += "[]";
        } else if (isNumberArray(value)) {
            out += '[';
            for (std::size_t i = 0; i < value.size(); ++i) {
                out += i ? ", " : "";
                writeScalar(out, value[i]);
            }
            out += ']';
        } else {
            out += "[\n";
            for (std::size_t i = 0; i < value.size(); ++i) {
                out += i ? ",\n" : "";
                out.append(static_cast<std::size_t>(indent + 2), ' ');
                writeValue(out, value[i], indent + 2, false);
            }
            out += '\n';
            out.append(static_cast<std::size_t>(indent), ' ');
            out += ']';
        }
    } else {
        writeScalar(out, value);
    }
}

std::string systemMessage(int error)
{
    return std::generic_category().message(error);
}

} // namespace

std::string describeBytes(std::size_t bytes)
{
    constexpr double kMegabyte = 1024.0 * 1024.0;
    if (bytes < 1024 * 1024)
        return std::to_string(bytes) + " bytes";
    return formatDouble(std::round(static_cast<double>(bytes) / kMegabyte * 10.0) / 10.0) + " MB";
}

Error fileTooBig(const std::string& path, const std::string& size, std::size_t maxBytes)
{
    return Error{path + ": the file is " + size + "; files are read up to " +
                 describeBytes(maxBytes) + " (raise the limit with --max-file-size MB)"};
}

std::optional<Error> nulByteError(const std::string& displayName, const std::string& text,
                                  std::size_t from)
{
    const std::size_t at = text.find('\0', from);
    if (at == std::string::npos)
        return std::nullopt;
    const auto [line, column] = lineAndColumn(text, at);
    return Error{displayName + ":" + std::to_string(line) + ":" + std::to_string(column) +
                 ": a NUL byte; this is not a text file"};
}

std::optional<Error> readFileLimited(const std::string& path, std::size_t maxBytes,
                                     std::string& text)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (fs::is_directory(status))
        return Error{path + ": cannot open the file: it is a folder"};
    if (fs::is_regular_file(status)) {
        const std::uintmax_t size = fs::file_size(path, ec);
        if (!ec && size > maxBytes)
            return fileTooBig(path, describeBytes(static_cast<std::size_t>(size)), maxBytes);
    }
    std::ifstream file(path, std::ios::binary);
    if (!file)
        return Error{path + ": cannot open the file: " + systemMessage(errno)};
    // A device or a pipe has no size: read in blocks, and stop one byte past the limit.
    text.clear();
    std::vector<char> block(std::size_t{1} << 16);
    while (file) {
        file.read(block.data(), static_cast<std::streamsize>(block.size()));
        const auto got = static_cast<std::size_t>(file.gcount());
        if (text.size() + got > maxBytes) {
            text.clear();
            return fileTooBig(path, "more than " + describeBytes(maxBytes), maxBytes);
        }
        text.append(block.data(), got);
        // Text never holds a NUL byte: a binary file or a device of zeros stops here.
        if (std::optional<Error> error = nulByteError(path, text, text.size() - got))
            return error;
    }
    if (file.bad())
        return Error{path + ": cannot read the file: " + systemMessage(errno)};
    return std::nullopt;
}

Expected<CheckedScene> parseCheckedScene(const std::string& text, const std::string& fileName,
                                         const SceneReadOptions& options)
{
    if (text.size() > options.maxFileBytes)
        return fileTooBig(fileName, describeBytes(text.size()), options.maxFileBytes);
    if (std::optional<Error> error = nulByteError(fileName, text, 0))
        return *error;
    try {
        Expected<Json> parsed = parseObjectText(text, fileName, "scene");
        if (!parsed)
            return parsed.error();
        Json& document = *parsed;
        checkFormatAndMigrate(document);
        Expected<CheckedScene> checked = checkScene(readScene(document));
        if (!checked)
            return Error{fileName + ": " + checked.error().message};
        return checked;
    } catch (const ReadFailure& failure) {
        return Error{fileName + ": " + failure.message};
    } catch (const Json::exception& error) {
        // The readers check every type before converting, so this is a safety net only.
        return Error{fileName + ": " + cleanParseMessage(error.what())};
    } catch (const std::bad_alloc&) {
        return Error{fileName + ": out of memory while reading the scene"};
    }
}

Expected<SceneDesc> parseScene(const std::string& text, const std::string& fileName,
                               const SceneReadOptions& options)
{
    Expected<CheckedScene> checked = parseCheckedScene(text, fileName, options);
    if (!checked)
        return checked.error();
    return std::move(*checked).release();
}

Expected<SceneDesc> loadSceneFile(const std::string& path, const SceneReadOptions& options)
{
    Expected<CheckedScene> checked = loadCheckedScene(path, options);
    if (!checked)
        return checked.error();
    return std::move(*checked).release();
}

Expected<CheckedScene> loadCheckedScene(const std::string& path, const SceneReadOptions& options)
{
    std::string text;
    if (std::optional<Error> error = readFileLimited(path, options.maxFileBytes, text))
        return *error;
    return parseCheckedScene(text, path, options);
}

std::string serializeScene(const SceneDesc& scene)
{
    std::string out;
    writeValue(out, sceneDocument(scene), 0, true);
    out += '\n';
    return out;
}

// ---------------------------------------------------------------------------------------------
// Atomic writes

AtomicFileWriter::AtomicFileWriter(std::string path) : m_path(std::move(path)) {}

AtomicFileWriter::~AtomicFileWriter()
{
    discard();
}

std::optional<Error> AtomicFileWriter::fail(const char* what, const std::string& why)
{
    discard();
    std::error_code ec;
    const bool kept = std::filesystem::is_regular_file(m_path, ec);
    return Error{m_path + ": " + what + ": " + why + (kept ? "; the file was not changed" : "")};
}

void AtomicFileWriter::discard()
{
    if (m_file)
        std::fclose(m_file);
    m_file = nullptr;
    if (!m_temporary.empty())
        std::remove(m_temporary.c_str());
    m_temporary.clear();
}

std::optional<Error> AtomicFileWriter::open()
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path target(m_path);
    if (fs::is_directory(target, ec))
        return fail("cannot write", "it is a folder");

    // The temporary file sits next to the target so the final rename stays on one file
    // system, where it atomically replaces the old file.
    for (int attempt = 0; attempt < 100 && !m_file; ++attempt) {
        m_temporary = m_path + ".saving" + std::to_string(attempt);
        errno = 0;
        m_file = std::fopen(m_temporary.c_str(), "wbx");
        if (!m_file && errno != EEXIST) {
            const int error = errno;
            m_temporary.clear();
            const fs::path folder =
                target.parent_path().empty() ? fs::path(".") : target.parent_path();
            std::string hint;
            if (!fs::is_directory(folder, ec))
                hint = fs::exists(folder, ec)
                           ? "; " + folder.string() + " is not a folder"
                           : "; the folder " + folder.string() + " does not exist";
            return fail("cannot write", systemMessage(error) + hint);
        }
    }
    if (!m_file) {
        m_temporary.clear();
        return fail("cannot write", "too many leftover temporary files " + m_path + ".saving*");
    }
    m_written = 0;
    m_writeError = 0;
    return std::nullopt;
}

void AtomicFileWriter::write(std::string_view bytes)
{
    if (!m_file || m_writeError != 0 || bytes.empty())
        return;
    errno = 0;
    const std::size_t written = std::fwrite(bytes.data(), 1, bytes.size(), m_file);
    m_written += written;
    if (written != bytes.size())
        m_writeError = errno ? errno : EIO;
}

std::optional<Error> AtomicFileWriter::commit()
{
    namespace fs = std::filesystem;
    if (!m_file)
        return fail("cannot write", "the file was not opened");
    errno = 0;
    bool ok = m_writeError == 0 && std::fflush(m_file) == 0;
#if defined(__unix__) || defined(__APPLE__)
    ok = ok && ::fsync(::fileno(m_file)) == 0; // the bytes are on disk before the rename
#endif
    ok = ok && !std::ferror(m_file);
    const int writeError = m_writeError ? m_writeError : errno;
    ok = std::fclose(m_file) == 0 && ok;
    m_file = nullptr;
    std::error_code ec;
    if (ok && fs::file_size(m_temporary, ec) != m_written)
        ok = false;
    if (!ok)
        return fail("cannot write", systemMessage(writeError ? writeError : EIO));

    const fs::path target(m_path);
    const fs::file_status old = fs::status(target, ec);
    if (fs::exists(old))
        fs::permissions(m_temporary, old.permissions(), ec); // keep the old file's permissions

    fs::rename(m_temporary, target, ec);
    if (ec)
        return fail("cannot save", ec.message());
    m_temporary.clear();
    return std::nullopt;
}

std::optional<Error> writeFileAtomically(const std::string& path, const std::string& contents)
{
    AtomicFileWriter writer(path);
    if (std::optional<Error> error = writer.open())
        return error;
    writer.write(contents);
    return writer.commit();
}

std::optional<Error> saveSceneFile(const SceneDesc& scene, const std::string& path)
{
    return writeFileAtomically(path, serializeScene(scene));
}

} // namespace shoal
