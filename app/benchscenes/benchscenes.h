#pragma once
/// Generated scenes for `shoal-cli bench`: one behaviour family at a given agent count, in a
/// square arena sized so agents meet as many neighbours as they would in a game (the cost of
/// a step depends on density, not only on N), with the bounds, a few obstacles and one wall so
/// wall sensing is part of every measurement. docs/cli.md describes each scene.

#include <shoal/behaviourkind.h>
#include <shoal/scenedesc.h>
#include <shoal/vec2.h>

#include <cstdint>

namespace shoal {

/// Leader following is benched as many groups of this size (1 leader + 19 followers): a
/// formation that size is what a game runs, and one leader with thousands of followers all
/// arriving at the same point is not.
constexpr int kBenchFollowGroupSize = 20;
/// Worm bench: each worm is this many minimum-length segments long.
constexpr int kBenchWormSegments = 32;

/// Arena area per agent, m^2, for the density a group of this family runs at in a game, from
/// the group's own parameters: a settled school on a hexagonal lattice at the middle of its
/// keep band, a swarm R apart, tanks three body radii apart, followers 1.5 separation radii
/// apart, a worm in a square half its length wide. The bench and the editor's stress scene
/// size their arenas with it.
double areaPerAgent(const GroupDesc& group);

/// A scene of `agents` agents of family `kind` (for worms: `agents` worms of
/// kBenchWormSegments segments), seeded with `seed`. `agents` >= 1. The scene passes
/// validateScene(). For the fish school and the swarm the player is enabled (it leads the
/// school, the swarm chases it) and should be driven with benchPointer().
SceneDesc makeBenchScene(BehaviourKind kind, int agents, std::uint64_t seed);

/// Steps the scene needs before it is in the state the bench means to time: for worms, the
/// steps to crawl one body length, after which every body is made of segments of
/// minSegmentLength (a worm spawns as one straight segment); 0 for the other families.
int benchSettleSteps(const SceneDesc& scene, BehaviourKind kind);

/// The bench's scripted pointer at `step` (button held): a point circling the arena centre
/// at 0.5 rad/s, so the player, and the swarm or school with it, keep moving, and worms keep
/// turning.
Vec2 benchPointer(const SceneDesc& scene, std::uint64_t step);

} // namespace shoal
