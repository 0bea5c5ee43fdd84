// SteerSuite test case to Shoal scene (steersuitecase.h; docs/cli.md, "import").

#include "steersuitecase.h"

#include <shoal/paramspec.h>

#include <QString>
#include <QXmlStreamReader>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <utility>

namespace shoal::cli {

namespace {

/// One XML element as read: its name, text and children, and where it starts.
struct XmlNode
{
    std::string name;
    std::string text;
    long long line = 0;
    long long column = 0;
    std::vector<XmlNode> children;
};

/// A refusal on the way: thrown inside this file only, caught by importSteerSuiteCase.
struct ImportFailure
{
    std::string message;
};

/// SplitMix64 (Steele, Lea and Flood): a stream that is the same on every machine and
/// standard library, unlike std::uniform_real_distribution.
class SplitMix64
{
public:
    explicit SplitMix64(std::uint64_t seed) : m_state(seed) {}
    std::uint64_t next()
    {
        std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    /// Uniform in [low, high).
    double uniform(double low, double high)
    {
        const double unit = static_cast<double>(next() >> 11) * 0x1.0p-53;
        return low + (high - low) * unit;
    }

private:
    std::uint64_t m_state;
};

/// A point or vector of the case, or "random".
struct Tuple
{
    bool random = false;
    double x = 0.0, y = 0.0, z = 0.0;
};

/// A box of the case on the ground: SteerSuite's x and z ranges.
struct Box
{
    double xmin = 0.0, xmax = 0.0, ymin = 0.0, ymax = 0.0, zmin = 0.0, zmax = 0.0;
};

/// One agent of the case as it will be placed.
struct CaseAgent
{
    Point2 position;
    double heading = 0.0;
    double radius = 0.5;
    double speed = 1.3; ///< its first goal's desiredSpeed
    std::optional<Point2> goal;
};

/// What SteerSuite's agents walk at when a case says nothing (its examples' 1.3 m/s).
constexpr double kDefaultDesiredSpeed = 1.3;
/// Tries for a random place clear of obstacles and of the agents already placed.
constexpr int kPlaceAttempts = 200;

std::string number(double value)
{
    return formatNumber(value);
}

/// SteerSuite (x, z) on the ground to Shoal (x, y). 0 - z, not -z: a z of 0 stays +0, so a
/// heading along -x is atan2(+0, -1) = 180 degrees, not -180.
Point2 toShoal(double x, double z)
{
    return {x, 0.0 - z};
}

/// Walks one case's element tree into a scene: the obstacles first (agents placed at random
/// keep clear of them), then the agents in file order, then the squads and the checks.
/// Refusals are thrown as ImportFailure; warnings are collected in file order.
class CaseReader
{
public:
    CaseReader(std::string fileName, std::uint64_t seed)
        : m_file(std::move(fileName)), m_random(seed)
    {
    }

    SteerSuiteImport convert(const XmlNode& root);

private:
    std::string where(const XmlNode& node) const
    {
        return m_file + ":" + std::to_string(node.line) + ":" + std::to_string(node.column);
    }
    [[noreturn]] void fail(const XmlNode& node, const std::string& what) const
    {
        throw ImportFailure{where(node) + ": " + what};
    }
    void warn(const XmlNode& node, const std::string& what)
    {
        m_warnings.push_back(where(node) + ": " + what);
    }
    /// A warning said once per case however often it applies (the first place it applied).
    void warnOnce(const XmlNode& node, const std::string& what)
    {
        if (m_said.insert(what).second)
            warn(node, what);
    }

    const XmlNode* find(const XmlNode& parent, const char* name) const
    {
        for (const XmlNode& child : parent.children)
            if (child.name == name)
                return &child;
        return nullptr;
    }
    const XmlNode& required(const XmlNode& parent, const char* name) const
    {
        if (const XmlNode* child = find(parent, name))
            return *child;
        fail(parent, "<" + parent.name + "> needs a <" + name + "> element");
    }
    /// The children not in `known` are reported: they are not part of the format.
    void reportUnknown(const XmlNode& parent, std::initializer_list<const char*> known)
    {
        for (const XmlNode& child : parent.children)
            if (std::none_of(known.begin(), known.end(),
                             [&](const char* k) { return child.name == k; }))
                warn(child, "<" + child.name + "> in <" + parent.name +
                                "> is not part of SteerSuite's test case format; ignored");
    }
    double numberOf(const XmlNode& node) const
    {
        const std::string text = node.text;
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value))
            fail(node, "<" + node.name + "> must be a finite number, got \"" + text + "\"");
        return value;
    }
    double numberIn(const XmlNode& parent, const char* name) const
    {
        return numberOf(required(parent, name));
    }
    Tuple tuple(const XmlNode& node)
    {
        Tuple t;
        if (const XmlNode* random = find(node, "random")) {
            if (random->text != "true" && random->text != "1")
                fail(*random, "<random> must be true, got \"" + random->text + "\"");
            t.random = true;
            return t;
        }
        t.x = numberIn(node, "x");
        t.y = numberIn(node, "y");
        t.z = numberIn(node, "z");
        reportUnknown(node, {"x", "y", "z"});
        noteHeight(node, t.y);
        return t;
    }
    Box box(const XmlNode& node)
    {
        Box b;
        b.xmin = numberIn(node, "xmin");
        b.xmax = numberIn(node, "xmax");
        b.ymin = numberIn(node, "ymin");
        b.ymax = numberIn(node, "ymax");
        b.zmin = numberIn(node, "zmin");
        b.zmax = numberIn(node, "zmax");
        reportUnknown(node, {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"});
        if (!(b.xmin <= b.xmax) || !(b.zmin <= b.zmax))
            fail(node, "<" + node.name + "> is inside out: xmin " + number(b.xmin) + ", xmax " +
                           number(b.xmax) + ", zmin " + number(b.zmin) + ", zmax " +
                           number(b.zmax) + " (min must not exceed max)");
        return b;
    }
    /// Heights have no place on Shoal's flat ground: said once, wherever one is not 0.
    void noteHeight(const XmlNode& node, double y)
    {
        if (y != 0.0)
            warnOnce(node, "y coordinates (heights) are dropped: Shoal's ground is flat, so "
                           "only x and z are kept");
    }

    void readHeader(const XmlNode& header);
    void readObstacle(const XmlNode& node);
    void readObstacleRegion(const XmlNode& node);
    void readAgent(const XmlNode& node);
    void readAgentRegion(const XmlNode& node);
    /// The goal sequence: its first seekStaticTarget's target and speed; the rest reported.
    void readGoals(const XmlNode& goals, double radius, CaseAgent& agent, const std::string& who);
    Point2 direction(const Tuple& t) const;
    double heading(const Tuple& t);
    /// A random place in the box (SteerSuite x and z ranges), clear of the obstacles and of
    /// the agents already placed when there is one; otherwise the last tried.
    Point2 randomPlace(const Box& box, double radius, bool clearOfAgents, bool& clear);
    bool inObstacle(Point2 p, double radius) const;
    void buildGroups();
    void readCriteria(const XmlNode& node, const std::string& text);
    double reachTime() const;

    std::string m_file;
    SplitMix64 m_random;
    SceneDesc m_scene;
    Box m_world;
    std::vector<Box> m_boxes; ///< the obstacles, SteerSuite coordinates
    std::vector<CaseAgent> m_agents;
    std::vector<std::string> m_warnings;
    std::set<std::string> m_said;
    std::vector<std::string> m_names;   ///< named agents, "NAME = GROUP.agents[k]"
    std::vector<int> m_groupOf;         ///< per agent, its group
    std::vector<std::size_t> m_indexIn; ///< per agent, its index in its group
    const XmlNode* m_criteria = nullptr;
    std::string m_criteriaText;
};

void CaseReader::readHeader(const XmlNode& header)
{
    reportUnknown(header, {"version", "name", "description", "worldBounds", "passingCriteria"});
    if (const XmlNode* version = find(header, "version"))
        if (version->text != "1.0")
            warn(*version, "version " + version->text +
                               " is not the 1.0 of SteerSuite's schema; read as 1.0");
    if (const XmlNode* name = find(header, "name"))
        m_scene.name = name->text;
    if (const XmlNode* description = find(header, "description"))
        warn(*description, "<description> is dropped: a Shoal scene has a name only");
    const XmlNode& bounds = required(header, "worldBounds");
    m_world = box(bounds);
    noteHeight(bounds, m_world.ymin);
    noteHeight(bounds, m_world.ymax);
    if (!(m_world.xmin < m_world.xmax) || !(m_world.zmin < m_world.zmax))
        fail(bounds, "the world bounds are empty: x " + number(m_world.xmin) + " to " +
                         number(m_world.xmax) + ", z " + number(m_world.zmin) + " to " +
                         number(m_world.zmax));
    m_scene.bounds.min = toShoal(m_world.xmin, m_world.zmax);
    m_scene.bounds.max = toShoal(m_world.xmax, m_world.zmin);
    if (const XmlNode* criteria = find(header, "passingCriteria")) {
        m_criteria = criteria;
        m_criteriaText = criteria->text;
    }
}

void CaseReader::readObstacle(const XmlNode& node)
{
    const Box b = box(node);
    warnOnce(node, "obstacle heights (ymin, ymax) are dropped: Shoal's obstacles are their "
                   "footprints on the ground");
    if (!(b.xmin < b.xmax) || !(b.zmin < b.zmax)) {
        warn(node, "the obstacle has no area on the ground (x " + number(b.xmin) + " to " +
                       number(b.xmax) + ", z " + number(b.zmin) + " to " + number(b.zmax) +
                       "); left out");
        return;
    }
    m_boxes.push_back(b);
}

void CaseReader::readObstacleRegion(const XmlNode& node)
{
    reportUnknown(node, {"numObstacles", "regionBounds", "obstacleSize", "obstacleHeight"});
    const XmlNode& countNode = required(node, "numObstacles");
    const double count = numberOf(countNode);
    if (count < 0.0 || count != std::floor(count) || count > 100000.0)
        fail(countNode,
             "<numObstacles> must be a whole number from 0 to 100000, got " + countNode.text);
    const Box region = box(required(node, "regionBounds"));
    const XmlNode& sizeNode = required(node, "obstacleSize");
    const double size = numberOf(sizeNode);
    if (!(size > 0.0))
        fail(sizeNode, "<obstacleSize> must be above 0, got " + sizeNode.text);
    if (find(node, "obstacleHeight"))
        warnOnce(*find(node, "obstacleHeight"),
                 "<obstacleHeight> is dropped: Shoal's obstacles are their footprints");
    warn(node, "obstacleRegion: " + number(count) + " square obstacles of side " + number(size) +
                   " m are placed at random centres in the region (SplitMix64 "
                   "from the seed), not where SteerSuite would place them");
    for (int k = 0; k < static_cast<int>(count); ++k) {
        const double x = m_random.uniform(region.xmin, region.xmax);
        const double z = m_random.uniform(region.zmin, region.zmax);
        Box b;
        b.xmin = std::max(x - size / 2, m_world.xmin);
        b.xmax = std::min(x + size / 2, m_world.xmax);
        b.zmin = std::max(z - size / 2, m_world.zmin);
        b.zmax = std::min(z + size / 2, m_world.zmax);
        if (b.xmin < b.xmax && b.zmin < b.zmax)
            m_boxes.push_back(b);
    }
}

Point2 CaseReader::direction(const Tuple& t) const
{
    return toShoal(t.x, t.z);
}

double CaseReader::heading(const Tuple& t)
{
    if (t.random)
        return m_random.uniform(-180.0, 180.0);
    const Point2 d = direction(t);
    if (d.x == 0.0 && d.y == 0.0)
        return 0.0;
    return std::atan2(d.y, d.x) * 180.0 / 3.14159265358979323846;
}

bool CaseReader::inObstacle(Point2 p, double radius) const
{
    for (const Box& b : m_boxes) {
        const Point2 lo = toShoal(b.xmin, b.zmax);
        const Point2 hi = toShoal(b.xmax, b.zmin);
        if (p.x > lo.x - radius && p.x < hi.x + radius && p.y > lo.y - radius &&
            p.y < hi.y + radius)
            return true;
    }
    return false;
}

Point2 CaseReader::randomPlace(const Box& box, double radius, bool clearOfAgents, bool& clear)
{
    Point2 p;
    for (int attempt = 0; attempt < kPlaceAttempts; ++attempt) {
        p = toShoal(m_random.uniform(box.xmin, box.xmax), m_random.uniform(box.zmin, box.zmax));
        if (inObstacle(p, radius))
            continue;
        const bool apart =
            !clearOfAgents ||
            std::none_of(m_agents.begin(), m_agents.end(), [&](const CaseAgent& other) {
                const double dx = other.position.x - p.x;
                const double dy = other.position.y - p.y;
                const double reach = other.radius + radius;
                return dx * dx + dy * dy < reach * reach;
            });
        if (apart) {
            clear = true;
            return p;
        }
    }
    clear = false;
    return p;
}

void CaseReader::readGoals(const XmlNode& goals, double radius, CaseAgent& agent,
                           const std::string& who)
{
    bool first = true;
    for (const XmlNode& goal : goals.children) {
        if (!first) {
            warn(goal, who + ": goal <" + goal.name +
                           "> after the first is dropped: a Shoal agent has one goal");
            continue;
        }
        first = false;
        if (const XmlNode* speed = find(goal, "desiredSpeed")) {
            agent.speed = numberOf(*speed);
            if (!(agent.speed > 0.0)) {
                warn(*speed, who + ": desiredSpeed " + speed->text + " is not above 0; " +
                                 number(kDefaultDesiredSpeed) + " m/s is used");
                agent.speed = kDefaultDesiredSpeed;
            }
        }
        if (const XmlNode* duration = find(goal, "timeDuration"))
            warnOnce(*duration, "goals' <timeDuration> is dropped: a Shoal agent keeps its goal "
                                "(the checks' deadline comes from the trip, see docs/cli.md)");
        if (goal.name != "seekStaticTarget") {
            warn(goal, who + ": <" + goal.name +
                           "> is not supported (only seekStaticTarget maps); the agent has no "
                           "goal and keeps still");
            continue;
        }
        reportUnknown(goal, {"targetLocation", "desiredSpeed", "timeDuration"});
        const Tuple target = tuple(required(goal, "targetLocation"));
        if (target.random) {
            bool clear = false;
            agent.goal = randomPlace(m_world, radius, false, clear);
        } else {
            agent.goal = toShoal(target.x, target.z);
        }
    }
}

void CaseReader::readAgent(const XmlNode& node)
{
    reportUnknown(node, {"name", "initialConditions", "goalSequence"});
    const XmlNode& initial = required(node, "initialConditions");
    reportUnknown(initial, {"position", "direction", "radius", "speed"});
    CaseAgent agent;
    const XmlNode& radiusNode = required(initial, "radius");
    agent.radius = numberOf(radiusNode);
    if (!(agent.radius > 0.0))
        fail(radiusNode, "<radius> must be above 0, got " + radiusNode.text);
    std::string who = "agent at line " + std::to_string(node.line);
    if (const XmlNode* name = find(node, "name")) {
        who = "agent '" + name->text + "'";
        m_names.push_back(name->text);
    } else {
        m_names.emplace_back();
    }
    const Tuple position = tuple(required(initial, "position"));
    if (position.random) {
        bool clear = false;
        agent.position = randomPlace(m_world, agent.radius, true, clear);
        if (!clear)
            warn(node, who + ": no clear random place was found in " +
                           std::to_string(kPlaceAttempts) + " tries; it overlaps");
    } else {
        agent.position = toShoal(position.x, position.z);
    }
    agent.heading = heading(tuple(required(initial, "direction")));
    const XmlNode& speed = required(initial, "speed");
    if (numberOf(speed) != 0.0)
        warn(speed, who + ": starts at rest, not at the case's speed " + speed.text + " m/s");
    readGoals(required(node, "goalSequence"), agent.radius, agent, who);
    m_agents.push_back(agent);
}

void CaseReader::readAgentRegion(const XmlNode& node)
{
    reportUnknown(node, {"numAgents", "regionBounds", "initialConditions", "goalSequence"});
    const XmlNode& countNode = required(node, "numAgents");
    const double count = numberOf(countNode);
    if (count < 0.0 || count != std::floor(count) || count > double(kMaxAgents))
        fail(countNode, "<numAgents> must be a whole number from 0 to " +
                            std::to_string(kMaxAgents) + ", got " + countNode.text);
    const Box region = box(required(node, "regionBounds"));
    const XmlNode& initial = required(node, "initialConditions");
    reportUnknown(initial, {"direction", "radius", "speed"});
    const XmlNode& radiusNode = required(initial, "radius");
    const double radius = numberOf(radiusNode);
    if (!(radius > 0.0))
        fail(radiusNode, "<radius> must be above 0, got " + radiusNode.text);
    const Tuple direction = tuple(required(initial, "direction"));
    const XmlNode& speed = required(initial, "speed");
    const std::string who = "agentRegion at line " + std::to_string(node.line);
    if (numberOf(speed) != 0.0)
        warn(speed,
             who + ": its agents start at rest, not at the case's speed " + speed.text + " m/s");
    const XmlNode& goals = required(node, "goalSequence");
    std::size_t crowded = 0;
    for (int k = 0; k < static_cast<int>(count); ++k) {
        CaseAgent agent;
        agent.radius = radius;
        bool clear = false;
        agent.position = randomPlace(region, radius, true, clear);
        if (!clear)
            ++crowded;
        agent.heading = heading(direction);
        const std::size_t before = m_warnings.size();
        readGoals(goals, radius, agent, who);
        // Every agent of the region has the first one's goal sequence: its warnings once.
        if (k > 0)
            m_warnings.resize(before);
        m_names.emplace_back();
        m_agents.push_back(agent);
    }
    if (crowded > 0)
        warn(node, who + ": " + std::to_string(crowded) + " of its " + number(count) +
                       " agents found no clear random place in " + std::to_string(kPlaceAttempts) +
                       " tries and overlap others or obstacles");
}

/// Agents of one radius and one desired speed share a tank squad (its parameters are the
/// group's): groups in the order their first agent comes in the case.
void CaseReader::buildGroups()
{
    const std::vector<ParamSpec>& specs = paramSpecs(BehaviourKind::TankSquad);
    const auto set = [&](GroupDesc& group, const char* key, double value) {
        const int i = paramIndex(specs, key);
        const ParamSpec& spec = specs[static_cast<std::size_t>(i)];
        group.params[static_cast<std::size_t>(i)] = std::clamp(value, spec.minValue, spec.maxValue);
        return group.params[static_cast<std::size_t>(i)];
    };
    std::map<std::pair<double, double>, int> groupOf;
    m_groupOf.assign(m_agents.size(), -1);
    m_indexIn.assign(m_agents.size(), 0);
    for (std::size_t k = 0; k < m_agents.size(); ++k) {
        const CaseAgent& agent = m_agents[k];
        const auto key = std::make_pair(agent.radius, agent.speed);
        auto found = groupOf.find(key);
        if (found == groupOf.end()) {
            const int index = static_cast<int>(m_scene.groups.size());
            const std::string name =
                index == 0 ? std::string("walkers") : "walkers" + std::to_string(index + 1);
            GroupDesc group = makeDefaultGroup(BehaviourKind::TankSquad, name);
            const double radius = set(group, "radius", agent.radius);
            if (radius != agent.radius)
                m_warnings.push_back(m_file + ": radius " + number(agent.radius) +
                                     " m is outside a tank's range; group " + name + " uses " +
                                     number(radius) + " m");
            const double speed = set(group, "moveSpeed", agent.speed);
            if (speed != agent.speed)
                m_warnings.push_back(m_file + ": desiredSpeed " + number(agent.speed) +
                                     " m/s is outside a tank's range; group " + name + " uses " +
                                     number(speed) + " m/s");
            // Walkers, not tanks: they keep a step apart, turn on the spot, never back up,
            // slow down only in the last metre and count as arrived within a body radius of
            // the goal (SteerSuite's own test of a reached target).
            set(group, "keepDistance", 2.0 * radius + 0.5);
            set(group, "rotateSpeed", 360.0);
            set(group, "turnDeadZone", 2.0);
            set(group, "targetCloseDistance", 1.0);
            set(group, "arriveDistance", radius);
            set(group, "reverseDistance", 0.0);
            set(group, "feelerLength", std::max(1.0, 4.0 * radius));
            set(group, "speedEasing", 4.0);
            m_scene.groups.push_back(group);
            found = groupOf.emplace(key, index).first;
        }
        GroupDesc& group = m_scene.groups[static_cast<std::size_t>(found->second)];
        m_groupOf[k] = found->second;
        m_indexIn[k] = group.agents.size();
        AgentDesc desc;
        desc.position = agent.position;
        desc.heading = agent.heading;
        desc.goal = agent.goal;
        group.agents.push_back(desc);
    }
}

double CaseReader::reachTime() const
{
    // Three times the slowest straight trip and ten seconds more: room to go round others
    // and obstacles (SteerSuite's own deadline, timeDuration, is 1000 s in its examples).
    double longest = 0.0;
    for (const CaseAgent& agent : m_agents)
        if (agent.goal) {
            const double dx = agent.goal->x - agent.position.x;
            const double dy = agent.goal->y - agent.position.y;
            longest = std::max(longest, std::sqrt(dx * dx + dy * dy) / agent.speed);
        }
    return std::min(std::ceil(3.0 * longest + 10.0), 86400.0);
}

/// Lower case, for matching prose.
std::string lowered(std::string text)
{
    for (char& c : text)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

bool mentions(const std::string& text, std::initializer_list<const char*> words)
{
    return std::any_of(words.begin(), words.end(),
                       [&](const char* w) { return text.find(w) != std::string::npos; });
}

void CaseReader::readCriteria(const XmlNode& node, const std::string& text)
{
    // Prose: each sentence or clause is matched on its own; what is not recognised is said.
    std::vector<std::string> clauses;
    std::string current;
    for (char c : text) {
        if (c == '.' || c == ';' || c == '\n') {
            clauses.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    clauses.push_back(current);
    for (std::string clause : clauses) {
        const auto begin = clause.find_first_not_of(" \t\r\n");
        if (begin == std::string::npos)
            continue;
        clause = clause.substr(begin, clause.find_last_not_of(" \t\r\n") - begin + 1);
        const std::string l = lowered(clause);
        const bool collisions = mentions(l, {"collision", "collide", "overlap"}) &&
                                mentions(l, {"no ", "without", "zero", "never", "0 "});
        const bool goals = mentions(l, {"reach", "arrive", "get to"}) &&
                           mentions(l, {"goal", "target", "destination"});
        if (collisions) {
            CheckDesc check;
            check.name = clause;
            check.metric = "all.penetrations";
            check.compare = CheckCompare::AtMost;
            check.value = 0.0;
            check.window = CheckWindow::Always;
            m_scene.checks.push_back(check);
            if (m_scene.groups.size() > 1) {
                check.metric = "all.crossPenetrations";
                m_scene.checks.push_back(check);
            }
        }
        if (goals && std::none_of(m_agents.begin(), m_agents.end(),
                                  [](const CaseAgent& a) { return bool(a.goal); }))
            warn(node, "passing criterion \"" + clause +
                           "\" asks for goals reached, but no agent has a goal Shoal can follow; "
                           "it is not a check");
        if (goals) {
            const double by = reachTime();
            for (const GroupDesc& group : m_scene.groups) {
                if (std::none_of(group.agents.begin(), group.agents.end(),
                                 [](const AgentDesc& a) { return bool(a.goal); }))
                    continue;
                CheckDesc check;
                check.name = clause;
                check.metric = group.name + ".atGoal";
                check.compare = CheckCompare::Equals;
                check.valueMetric = group.name + ".agents";
                check.window = CheckWindow::By;
                check.seconds = by;
                m_scene.checks.push_back(check);
            }
        }
        if (!collisions && !goals)
            warn(node, "passing criterion \"" + clause +
                           "\" is not recognised; it is not a check (recognised: no "
                           "collisions, agents reach their goals)");
    }
}

SteerSuiteImport CaseReader::convert(const XmlNode& root)
{
    if (root.name != "SteerBenchTestCase")
        fail(root,
             "the root element is <" + root.name + ">, not SteerSuite's <SteerBenchTestCase>");
    // No player: a case's agents are all its own.
    m_scene.player = makeDefaultPlayer();
    m_scene.player.enabled = false;
    readHeader(required(root, "header"));
    // Obstacles first: agents placed at random keep clear of every obstacle of the case.
    for (const XmlNode& child : root.children) {
        if (child.name == "obstacle")
            readObstacle(child);
        else if (child.name == "obstacleRegion")
            readObstacleRegion(child);
    }
    for (const XmlNode& child : root.children) {
        if (child.name == "agent")
            readAgent(child);
        else if (child.name == "agentRegion")
            readAgentRegion(child);
        else if (child.name == "suggestedCameraView")
            warnOnce(child, "<suggestedCameraView> is dropped: the editor frames the level "
                            "itself");
        else if (child.name != "header" && child.name != "obstacle" &&
                 child.name != "obstacleRegion")
            warn(child,
                 "<" + child.name + "> is not part of SteerSuite's test case format; ignored");
    }
    for (const Box& b : m_boxes) {
        ObstacleDesc obstacle;
        obstacle.shape = ObstacleShape::Polygon;
        // Counter-clockwise in Shoal's plane.
        obstacle.points = {toShoal(b.xmin, b.zmax), toShoal(b.xmax, b.zmax),
                           toShoal(b.xmax, b.zmin), toShoal(b.xmin, b.zmin)};
        m_scene.obstacles.push_back(obstacle);
    }
    buildGroups();
    bool named = false;
    std::string names;
    for (std::size_t k = 0; k < m_agents.size(); ++k) {
        if (m_names[k].empty())
            continue;
        if (named)
            names += ", ";
        named = true;
        names += m_names[k] + " = " + m_scene.groups[static_cast<std::size_t>(m_groupOf[k])].name +
                 ".agents[" + std::to_string(m_indexIn[k]) + "]";
    }
    if (named)
        m_warnings.push_back(m_file +
                             ": agent names are not kept (Shoal agents have none): " + names);
    if (m_criteria)
        readCriteria(*m_criteria, m_criteriaText);
    if (m_agents.empty())
        m_warnings.push_back(m_file + ": the case has no agents");
    return {std::move(m_scene), std::move(m_warnings)};
}

/// The document as a tree of elements; XML errors name the line and column.
XmlNode readXml(const std::string& xml, const std::string& fileName)
{
    const QString source = QString::fromStdString(xml);
    QXmlStreamReader reader(source);
    std::vector<XmlNode> stack;
    std::optional<XmlNode> root;
    // Where each element starts, in lines and columns from 1: the reader reports where a
    // token ends, so the place is found back from there (a '<' cannot occur inside a tag).
    qsizetype counted = 0;
    long long line = 1;
    qsizetype lineStart = 0;
    const auto placeOf = [&](qsizetype at, XmlNode& node) {
        for (; counted < at; ++counted)
            if (source.at(counted) == QLatin1Char('\n')) {
                ++line;
                lineStart = counted + 1;
            }
        node.line = line;
        node.column = static_cast<long long>(at - lineStart) + 1;
    };
    while (!reader.atEnd()) {
        const QXmlStreamReader::TokenType token = reader.readNext();
        if (token == QXmlStreamReader::StartElement) {
            if (root)
                break; // a second root: the reader reports it below
            XmlNode node;
            node.name = reader.name().toString().toStdString();
            const qsizetype end = std::min<qsizetype>(reader.characterOffset(), source.size());
            placeOf(std::max<qsizetype>(source.lastIndexOf(QLatin1Char('<'), end - 1), 0), node);
            stack.push_back(std::move(node));
        } else if (token == QXmlStreamReader::Characters && !stack.empty()) {
            stack.back().text += reader.text().toString().toStdString();
        } else if (token == QXmlStreamReader::EndElement && !stack.empty()) {
            XmlNode done = std::move(stack.back());
            stack.pop_back();
            const auto begin = done.text.find_first_not_of(" \t\r\n");
            done.text =
                begin == std::string::npos
                    ? std::string()
                    : done.text.substr(begin, done.text.find_last_not_of(" \t\r\n") - begin + 1);
            if (stack.empty())
                root = std::move(done);
            else
                stack.back().children.push_back(std::move(done));
        }
    }
    if (reader.hasError())
        throw ImportFailure{fileName + ":" + std::to_string(reader.lineNumber()) + ":" +
                            std::to_string(reader.columnNumber() + 1) + ": " +
                            reader.errorString().toStdString()};
    if (!root)
        throw ImportFailure{fileName + ":1:1: no XML element in the file"};
    return std::move(*root);
}

} // namespace

Expected<SteerSuiteImport> importSteerSuiteCase(const std::string& xml, const std::string& fileName,
                                                std::uint64_t seed)
{
    try {
        const XmlNode root = readXml(xml, fileName);
        CaseReader reader(fileName, seed);
        return reader.convert(root);
    } catch (const ImportFailure& failure) {
        return Error{failure.message};
    }
}

} // namespace shoal::cli
