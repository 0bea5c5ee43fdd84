// Fuzzes a scene's load and first steps: a scene that parseCheckedScene() accepts is built
// into a World and run for 30 steps with the pointer held down and moving, and every tank
// squad sent to a new target. Besides crashes, leaks and undefined behaviour, every agent must
// end at a finite place inside the level's bounds (scenedesc.h: agents never leave them).
// Scenes too big to run in time are not run.

#include "fuzzfailure.h"
#include "jsonmutator.h"
#include "outcometally.h"

#include "scene/routebudget.h"

#include <shoal/scenefile.h>
#include <shoal/world.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

using namespace shoal;

const fuzz::MutationStyle fuzz::kSceneMutationStyle = fuzz::MutationStyle::MostlyValid;

namespace {

constexpr int kSteps = 30;

/// The harness refuses scenes with more bodies than this before it builds them. The scene
/// limits (scenelimits.h) allow millions of agents, and worms of thousands of joints each:
/// such a scene is valid, but building and stepping it under ASan takes far longer than the
/// per-input timeout, and a fuzzer that times out on every big valid scene finds nothing
/// else. Parsing and validating them is still fuzzed (here and in fuzz_scene_parser).
constexpr double kMaxBodies = 3000.0;
/// Nor scenes whose routes hold more than this in flow fields (scene/routebudget.h): a
/// field of millions of cells is rebuilt each time its goal changes cell, a fair cost in
/// Release and beyond the per-input timeout under ASan at -O1.
constexpr double kMaxRouteBytes = 8.0 * 1024.0 * 1024.0;

/// A group's value of parameter `key` (a checked scene has every one).
double paramOf(const GroupDesc& group, const char* key)
{
    return group.params.at(std::size_t(paramIndex(paramSpecs(group.kind), key)));
}

/// Agents a scene asks for, a worm counted as one body per joint it may hold
/// (length / minSegmentLength, worm.cpp).
double bodiesOf(const SceneDesc& scene)
{
    double bodies = 0.0;
    for (const GroupDesc& group : scene.groups) {
        double agents = double(group.agents.size()) + (group.spawn ? group.spawn->count : 0);
        if (group.kind == BehaviourKind::Worm)
            agents *= 1.0 + paramOf(group, "length") / paramOf(group, "minSegmentLength");
        bodies += agents;
    }
    return bodies;
}

/// Input as a user gives it: the pointer circles the level's centre with the button held
/// for most of the run; every squad is sent to a corner of the level on step 10.
void applyInput(World& world, const SceneDesc& scene, int step)
{
    const Rect& b = scene.bounds;
    const double cx = (b.min.x + b.max.x) / 2.0, cy = (b.min.y + b.max.y) / 2.0;
    const double rx = (b.max.x - b.min.x) / 3.0, ry = (b.max.y - b.min.y) / 3.0;
    const double angle = step * 0.4;
    world.setPointer(Vec2{float(cx + rx * std::cos(angle)), float(cy + ry * std::sin(angle))},
                     step >= 3 && step < 25);
    if (step == 10)
        for (int group = 0; group < world.groupCount(); ++group)
            world.setTarget(group, Vec2{float(b.min.x + rx / 2.0), float(b.max.y - ry / 2.0)});
}

void checkAgentsInside(const World& world)
{
    const Vec2 lo = world.boundsMin(), hi = world.boundsMax();
    constexpr float kSlack = 1e-3f; // m: the bounds are floats, and so are the positions
    for (int g = 0; g < world.groupCount(); ++g) {
        const AgentArrays& agents = world.group(g).agents;
        for (std::size_t i = 0; i < agents.size(); ++i) {
            const float x = agents.px[i], y = agents.py[i];
            if (!std::isfinite(x) || !std::isfinite(y) || x < lo.x - kSlack || x > hi.x + kSlack ||
                y < lo.y - kSlack || y > hi.y + kSlack)
                fuzz::failPromise("every agent stays at a finite place inside the bounds",
                                  "group " + std::to_string(g) + " agent " + std::to_string(i) +
                                      " at (" + std::to_string(x) + ", " + std::to_string(y) +
                                      ") after step " + std::to_string(world.stepCount()));
        }
    }
}

enum Outcome
{
    Refused,
    TooBig,
    Ran,
};
fuzz::OutcomeTally g_tally("fuzz_load_and_run", {"refused", "too big to run", "ran 30 steps"});

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    const Expected<CheckedScene> scene = parseCheckedScene(text, "fuzz.json");
    // Neither a refusal nor a scene this harness does not run joins its corpus (-1): the
    // parser harness covers refusals, and this corpus stays scenes that run.
    if (!scene) {
        g_tally.count(Refused);
        return -1;
    }
    if (bodiesOf(scene.value().scene()) > kMaxBodies ||
        routeBudget(scene.value().scene()).bytes > kMaxRouteBytes) {
        g_tally.count(TooBig);
        return -1;
    }
    const std::unique_ptr<World> world = World::create(scene.value());
    g_tally.count(Ran);
    for (int step = 0; step < kSteps; ++step) {
        applyInput(*world, scene.value().scene(), step);
        world->step();
    }
    checkAgentsInside(*world);
    return 0;
}
