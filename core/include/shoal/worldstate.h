#pragma once
/// What the running world shows its caller, read-only: each group's agents, parameters and
/// metrics, the player, the pickups and the pointer. World hands these out by const
/// reference; everything a family keeps for itself (its neighbour grid, its own state) stays
/// private to the runtime.

#include <shoal/agentarrays.h>
#include <shoal/behaviourkind.h>
#include <shoal/export.h>
#include <shoal/metrics.h>
#include <shoal/paramspec.h>
#include <shoal/scenedesc.h>
#include <shoal/vec2.h>

#include <cstdint>
#include <string>

namespace shoal {

/// Which neighbour search the plan phase uses. Grid always, except when the bench measures
/// the brute-force reference.
enum class NeighbourSearch
{
    Grid,
    BruteForce
};

/// The pointer (mouse) as data: where it is and whether the button is held.
struct SHOAL_API PointerInput
{
    Vec2 position;
    bool pressed = false;
};

/// The player as the world runs it.
struct SHOAL_API PlayerState
{
    bool enabled = false;
    int group = -1; ///< group it leads (it is that group's agent 0), or -1
    Vec2 position;
    Vec2 velocity;
    float heading = 0; ///< radians
    float speed = 0;
};

/// A pickup as the world runs it.
struct SHOAL_API PickupState
{
    PickupKind kind = PickupKind::Coin;
    Vec2 position;
    bool taken = false; ///< eaten coin, or a fish that joined the school
};

/// One group as the world runs it: its agents (structure of arrays, in the world's current
/// order; `agents.id` is stable), its parameters and what was measured last step.
struct SHOAL_API GroupState
{
    std::string name;
    BehaviourKind kind = BehaviourKind::FishSchool;
    int index = 0;
    ParamValues values; ///< current parameters, paramSpecs(kind) order
    AgentArrays agents;
    bool playerLed = false; ///< agent 0 is the player: behaviours don't plan it
    Vec2 target;            ///< tank squad target
    bool hasTarget = false;
    std::uint32_t targetVersion = 0; ///< bumped by setTarget, so a squad re-plans its arrival
    int chaseGroup = -1;             ///< swarm: group whose agent 0 it chases; -1 = player
    GroupMetrics metrics;
};

} // namespace shoal
