#pragma once
/// The authored level as plain structs: exactly what a scene file holds. Values are doubles
/// as authored (the runtime converts to float); every angle in a scene is in degrees.

#include <shoal/behaviourkind.h>
#include <shoal/export.h>
#include <shoal/paramspec.h>
#include <shoal/scenelimits.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace shoal {

/// A point in metres (y up).
struct SHOAL_API Point2
{
    double x = 0.0;
    double y = 0.0;
    bool operator==(const Point2& o) const { return x == o.x && y == o.y; }
    bool operator!=(const Point2& o) const { return !(*this == o); }
};

/// Axis-aligned rectangle in metres.
struct SHOAL_API Rect
{
    Point2 min;
    Point2 max;
    bool operator==(const Rect& o) const { return min == o.min && max == o.max; }
    bool operator!=(const Rect& o) const { return !(*this == o); }
};

/// An sRGB colour, written as "#rrggbb" or "#rrggbbaa" in files.
struct SHOAL_API Color
{
    std::uint8_t r = 255;
    std::uint8_t g = 255;
    std::uint8_t b = 255;
    std::uint8_t a = 255;
    bool operator==(const Color& o) const { return r == o.r && g == o.g && b == o.b && a == o.a; }
    bool operator!=(const Color& o) const { return !(*this == o); }
};

/// A wall: an open polyline, or a closed loop. Agents can never cross it from either side.
struct SHOAL_API WallDesc
{
    std::vector<Point2> points; ///< at least 2 (3 when closed)
    bool closed = false;
    bool operator==(const WallDesc& o) const { return points == o.points && closed == o.closed; }
};

enum class ObstacleShape
{
    Polygon,
    Circle
};

/// A solid obstacle: a simple polygon (convex or concave, counter-clockwise or not) or a circle.
struct SHOAL_API ObstacleDesc
{
    ObstacleShape shape = ObstacleShape::Polygon;
    std::vector<Point2> points; ///< Polygon: at least 3 vertices
    Point2 center;              ///< Circle
    double radius = 1.0;        ///< Circle, metres, > 0
    bool operator==(const ObstacleDesc& o) const
    {
        return shape == o.shape && points == o.points && center == o.center && radius == o.radius;
    }
};

enum class PickupKind
{
    Fish, ///< a free fish: waits until the player swims by, then joins the player's school
    Coin, ///< eaten by a worm's head; grows the worm by its growthPerCoin
};

struct SHOAL_API PickupDesc
{
    PickupKind kind = PickupKind::Coin;
    Point2 position;
    bool operator==(const PickupDesc& o) const { return kind == o.kind && position == o.position; }
};

/// One agent placed by hand. For worms it is the head; the body trails behind the heading.
struct SHOAL_API AgentDesc
{
    AgentDesc() = default;
    /// `{{x, y}, heading}` as before the goal was added, with no warning of a member left out.
    AgentDesc(Point2 position_, double heading_ = 0.0, std::optional<Point2> goal_ = std::nullopt)
        : position(position_), heading(heading_), goal(goal_)
    {
    }

    Point2 position;
    double heading = 0.0; ///< degrees, counter-clockwise from +x
    /// A goal of its own (World::setAgentGoal from step 0): only a tank squad's agents take
    /// one (agentGoalAllowed); absent, the agent goes where its group goes.
    std::optional<Point2> goal;
    bool operator==(const AgentDesc& o) const
    {
        return position == o.position && heading == o.heading && goal == o.goal;
    }
};

/// A rectangle that spawns `count` agents at seeded random positions and headings.
struct SHOAL_API SpawnAreaDesc
{
    Rect area;
    int count = 0;
    bool operator==(const SpawnAreaDesc& o) const { return area == o.area && count == o.count; }
    bool operator!=(const SpawnAreaDesc& o) const { return !(*this == o); }
};

/// Highest collision priority a group may have.
constexpr int kMaxCollisionPriority = 100;

/// How a group's bodies meet other bodies (after Godot's avoidance layers and mask). A body
/// is pushed out of the bodies on the layers of its mask, unless theirs has a lower
/// priority; two bodies that push each other share the overlap, and a body of lower priority
/// takes all of it (a tank shoves a swarm enemy aside, not the reverse). Walls always win:
/// no push moves a body into or through geometry.
struct SHOAL_API CollisionDesc
{
    std::uint32_t layers = 1; ///< bit k set: the group's bodies are on layer k + 1 (1..32)
    std::uint32_t mask = 1;   ///< bit k set: pushed by bodies on layer k + 1
    int priority = 1;         ///< 0..kMaxCollisionPriority
    bool operator==(const CollisionDesc& o) const
    {
        return layers == o.layers && mask == o.mask && priority == o.priority;
    }
    bool operator!=(const CollisionDesc& o) const { return !(*this == o); }
};

/// What a group of `kind` collides as unless the scene says otherwise: everyone on layer 1,
/// colliding with layer 1, so every body is solid against every other; tanks at priority 2,
/// everyone else at 1. Worms mask nothing: they crawl over each other, and the others give
/// way to them.
SHOAL_API CollisionDesc defaultCollision(BehaviourKind kind);

/// A group of agents running one behaviour family with one set of parameters.
struct SHOAL_API GroupDesc
{
    std::string name; ///< unique in the scene; `--set name.param=value` uses it
    BehaviourKind kind = BehaviourKind::FishSchool;
    ParamValues params; ///< in paramSpecs(kind) order
    Color color;        ///< body colour
    Color accent;       ///< heads, eyes, the leader
    std::optional<SpawnAreaDesc> spawn;
    std::vector<AgentDesc> agents; ///< explicit agents, placed before the spawned ones
    /// Tank squad: where the squad drives. Other families ignore it.
    std::optional<Point2> target;
    /// Swarm: the group whose leader it chases (its agent 0); empty = the player.
    std::string chase;
    /// Which bodies push this group's and which it pushes. Not the family's default when
    /// the group is built as `GroupDesc{}`: use makeDefaultGroup() or defaultCollision().
    CollisionDesc collision;
    bool operator==(const GroupDesc& o) const
    {
        return name == o.name && kind == o.kind && params == o.params && color == o.color &&
               accent == o.accent && spawn == o.spawn && agents == o.agents && target == o.target &&
               chase == o.chase && collision == o.collision;
    }
};

/// Whether the player may lead a group of `kind` (PlayerDesc::group): a fish school (the
/// player is its player fish) or a leader-following group (the player replaces its leader).
constexpr bool playerCanLead(BehaviourKind kind)
{
    return kind == BehaviourKind::FishSchool || kind == BehaviourKind::LeaderFollow;
}

/// Whether a hand-placed agent of a group of `kind` may carry a goal of its own
/// (AgentDesc::goal): a tank squad's tanks can (World::setAgentGoal); the other families
/// steer every agent by the group's rules.
constexpr bool agentGoalAllowed(BehaviourKind kind)
{
    return kind == BehaviourKind::TankSquad;
}

/// The player: steered by the pointer. When it leads a fish school it is that school's
/// player fish; when it leads a leader-following group it replaces the wandering leader.
struct SHOAL_API PlayerDesc
{
    bool enabled = true;
    std::string group; ///< name of the group it leads, or empty
    Point2 position;
    double heading = 0.0; ///< degrees
    ParamValues params;   ///< in playerParamSpecs() order
    bool operator==(const PlayerDesc& o) const
    {
        return enabled == o.enabled && group == o.group && position == o.position &&
               heading == o.heading && params == o.params;
    }
};

/// How a check compares a metric (CheckDesc).
enum class CheckCompare
{
    Within,  ///< low <= metric <= high
    Below,   ///< metric < value
    AtMost,  ///< metric <= value
    Above,   ///< metric > value
    AtLeast, ///< metric >= value
    Equals,  ///< metric == value
};

/// When a check's comparison must hold (CheckDesc).
enum class CheckWindow
{
    Always, ///< at every step
    After,  ///< at every step from `seconds` on
    Last,   ///< at every step of the run's last `seconds`
    By,     ///< at some step no later than `seconds` (and then it has passed)
};

/// One condition on the runtime's metrics that the scene promises (docs/scene-format.md,
/// "checks"): `shoal-cli check` runs the scene and reports each; the editor shows them live.
/// A metric is "GROUP.KEY" or "all.KEY" (every group combined); the value compared with is a
/// number or another such metric.
struct SHOAL_API CheckDesc
{
    std::string name;   ///< what it means, for people (may be empty)
    std::string metric; ///< "school.nearestMedian", "all.wallCrossings"
    CheckCompare compare = CheckCompare::AtMost;
    double value = 0.0;      ///< the bound (Within: the low end)
    double high = 0.0;       ///< Within: the high end
    std::string valueMetric; ///< a metric compared with instead of `value` (not for Within)
    CheckWindow window = CheckWindow::Always;
    double seconds = 0.0; ///< After, Last, By: simulated seconds
    bool operator==(const CheckDesc& o) const
    {
        return name == o.name && metric == o.metric && compare == o.compare && value == o.value &&
               high == o.high && valueMetric == o.valueMetric && window == o.window &&
               seconds == o.seconds;
    }
};

struct SHOAL_API SimulationDesc
{
    double dt = 1.0 / 60.0; ///< fixed step, seconds, in [0.001, 0.1]
    std::uint64_t seed = 1; ///< spawns and every random draw derive from it
    bool operator==(const SimulationDesc& o) const { return dt == o.dt && seed == o.seed; }
};

/// A whole level.
struct SHOAL_API SceneDesc
{
    std::string name;
    Rect bounds{{-40.0, -25.0}, {40.0, 25.0}}; ///< agents never leave it
    std::vector<WallDesc> walls;
    std::vector<ObstacleDesc> obstacles;
    std::vector<PickupDesc> pickups;
    std::vector<GroupDesc> groups;
    PlayerDesc player;
    SimulationDesc simulation;
    std::vector<CheckDesc> checks; ///< what the scene promises of its run (see CheckDesc)

    bool operator==(const SceneDesc& o) const
    {
        return name == o.name && bounds == o.bounds && walls == o.walls &&
               obstacles == o.obstacles && pickups == o.pickups && groups == o.groups &&
               player == o.player && simulation == o.simulation && checks == o.checks;
    }
    bool operator!=(const SceneDesc& o) const { return !(*this == o); }

    /// Index of the group called `name`, or -1.
    int groupIndex(const std::string& groupName) const
    {
        for (std::size_t i = 0; i < groups.size(); ++i)
            if (groups[i].name == groupName)
                return static_cast<int>(i);
        return -1;
    }
};

/// A group of `kind` with default parameters and colours (used by the editor and the bench).
SHOAL_API GroupDesc makeDefaultGroup(BehaviourKind kind, const std::string& name);
/// A player with default parameters.
SHOAL_API PlayerDesc makeDefaultPlayer();

/// Checks everything a file cannot express by its shape: parameter ranges, unique group
/// names, references to groups, geometry sizes, counts. The first problem found is returned,
/// naming the field (JSON-path style, e.g. `groups[2].params.keepMinDistance`).
SHOAL_API std::optional<Error> validateScene(const SceneDesc& scene);
/// What the routes round the walls of a scene may hold at once: one flow field per tank
/// squad that may have tanks (each drives to a target of its own), one per swarm chase (the
/// player or a group's leader) and radius among the swarms that may have agents (swarms
/// chasing the same one share a field). Followers route in small windows and are not
/// counted. validateScene() refuses a scene whose fields need more than
/// kMaxRouteFieldBytes (<shoal/scenelimits.h>); a tool that generates levels asks this
/// first (the editor's stress scene sizes its squads by it).
struct SHOAL_API RouteBudget
{
    std::size_t fields = 0;
    double bytes = 0.0; ///< the fields' memory at the runtime's cell size for the bounds
};
SHOAL_API RouteBudget routeBudget(const SceneDesc& scene);
/// The part of validateScene() that reads a scene's checks (metrics that exist, finite
/// numbers, a range low to high, a window of 0 to 86400 s): an editor asks it of a list of
/// checks before it puts them in. The Error names "checks[k]" and the field.
SHOAL_API std::optional<Error> validateChecks(const std::vector<CheckDesc>& checks);

/// A scene that has passed validateScene(), held together with that proof: World builds from
/// one without checking it again, so a scene is validated once, where it comes in. Only
/// checkScene() and the loaders (parseCheckedScene(), loadCheckedScene()) make one; to edit
/// the scene, take it out with release() and check it again, or edit it in place with the
/// edits below.
class SHOAL_API CheckedScene
{
public:
    const SceneDesc& scene() const { return m_scene; }
    /// Every seed is valid, so the proof stands (shoal-cli run --seed).
    void setSeed(std::uint64_t seed) { m_scene.simulation.seed = seed; }
    /// Takes the scene out; the proof goes with it.
    SceneDesc release() && { return std::move(m_scene); }

    /// Edits that keep the proof and check only what they change, so an edit of one wall in
    /// a level of a million is as quick as the wall: the element put in gets exactly the
    /// checks validateScene() makes of it and the level's geometry piece total is kept; an
    /// edit of the groups, the player or the settings runs again the checks that read those
    /// (the bounds, counts, groups and player: never the geometry). Each returns true when
    /// the edited scene passes validateScene() and false, changing nothing, when it would not
    /// (scenedesc.cpp says why the two always agree). Indices as std::vector's insert/erase.
    bool setWall(std::size_t index, WallDesc wall);
    bool insertWall(std::size_t index, WallDesc wall);
    bool removeWall(std::size_t index);
    bool setObstacle(std::size_t index, ObstacleDesc obstacle);
    bool insertObstacle(std::size_t index, ObstacleDesc obstacle);
    bool removeObstacle(std::size_t index);
    bool setPickup(std::size_t index, PickupDesc pickup);
    bool insertPickup(std::size_t index, PickupDesc pickup);
    bool removePickup(std::size_t index);
    bool setGroup(std::size_t index, GroupDesc group);
    bool insertGroup(std::size_t index, GroupDesc group);
    bool removeGroup(std::size_t index);
    bool setPlayer(PlayerDesc player);
    bool setSimulation(SimulationDesc simulation);
    /// The scene's checks: nothing else of the scene reads them (validateChecks()).
    bool setChecks(std::vector<CheckDesc> checks);

private:
    friend Expected<CheckedScene> checkScene(SceneDesc scene);
    CheckedScene(SceneDesc scene, std::size_t pieces) : m_scene(std::move(scene)), m_pieces(pieces)
    {
    }
    SceneDesc m_scene;
    std::size_t m_pieces = 0; ///< geometry pieces, as validateScene() counts them
};

/// validateScene(), and on success the scene with its proof.
SHOAL_API Expected<CheckedScene> checkScene(SceneDesc scene);

} // namespace shoal
