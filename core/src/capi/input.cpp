// The C API: input as data (the pointer, targets, goals) and parameters by key (<shoal/shoal_c.h>).

#include "capi/capisupport.h"

#include <shoal/displaytext.h>
#include <shoal/paramspec.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

using namespace shoal::capi;

namespace {

/// A value refused before the world sees it: x and y must be finite.
shoal_status notFinite(const shoal_world* world, const char* function, const char* what)
{
    return fail(world, SHOAL_ERROR_INVALID_ARGUMENT,
                std::string(function) + ": " + what + " is not a finite number");
}

/// The world's refusal of a parameter edit, classed: the key unknown, or the value refused.
shoal_status paramRefused(const shoal_world* world, const char* function, bool keyKnown,
                          const shoal::Error& error)
{
    return fail(world, keyKnown ? SHOAL_ERROR_REFUSED : SHOAL_ERROR_UNKNOWN_KEY,
                std::string(function) + ": " + error.message);
}

using shoal::Vec2;

/// shoal_world_set_goal and _clear_goal: UNSUPPORTED for a fish school, which follows the
/// player.
shoal_status setGroupGoal(shoal_world* world, const char* function, int group,
                          std::optional<Vec2> goal)
{
    if (world->world->setGoal(group, goal))
        return SHOAL_OK;
    const shoal::GroupState& state = world->world->group(group);
    return fail(world, SHOAL_ERROR_UNSUPPORTED,
                std::string(function) + ": group " + shoal::quotedName(state.name) + " (" +
                    std::string(shoal::behaviourKey(state.kind)) +
                    ") takes no goal: a fish school follows the player");
}

/// shoal_world_set_agent_goal and _clear_agent_goal: NOT_FOUND for an unknown id,
/// UNSUPPORTED for a family whose agents take no goals of their own (all but tank squads).
shoal_status setAgentGoal(shoal_world* world, const char* function, int group, std::uint32_t id,
                          std::optional<Vec2> goal)
{
    const shoal::GroupState& state = world->world->group(group);
    if (world->world->agentIndex(group, id) < 0)
        return fail(world, SHOAL_ERROR_NOT_FOUND,
                    std::string(function) + ": group " + shoal::quotedName(state.name) +
                        " has no agent with id " + std::to_string(id));
    if (std::optional<shoal::Error> error = world->world->setAgentGoal(group, id, goal))
        return fail(world,
                    state.kind == shoal::BehaviourKind::TankSquad ? SHOAL_ERROR_REFUSED
                                                                  : SHOAL_ERROR_UNSUPPORTED,
                    std::string(function) + ": " + error->message);
    return SHOAL_OK;
}

/// "moveSpeed, rotateSpeed, ...": the keys a refusal lists, as the world's own do.
std::string knownKeys(const std::vector<shoal::ParamSpec>& specs)
{
    std::string keys;
    for (const shoal::ParamSpec& spec : specs)
        keys += (keys.empty() ? "" : ", ") + spec.key;
    return keys;
}

} // namespace

extern "C" {

shoal_status shoal_world_set_pointer(shoal_world* world, float x, float y, int pressed)
{
    constexpr const char* kFunction = "shoal_world_set_pointer";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    if (!std::isfinite(x) || !std::isfinite(y))
        return notFinite(world, kFunction, "the pointer's position");
    world->world->setPointer(shoal::Vec2{x, y}, pressed != 0);
    return SHOAL_OK;
}

shoal_status shoal_world_set_target(shoal_world* world, int group, float x, float y)
{
    constexpr const char* kFunction = "shoal_world_set_target";
    if (const shoal_status status = checkGroup(world, kFunction, group); status != SHOAL_OK)
        return status;
    if (!std::isfinite(x) || !std::isfinite(y))
        return notFinite(world, kFunction, "the target");
    return guarded(world, kFunction, [&] {
        if (!world->world->setTarget(group, shoal::Vec2{x, y})) {
            const shoal::GroupState& state = world->world->group(group);
            return fail(world, SHOAL_ERROR_UNSUPPORTED,
                        std::string(kFunction) + ": group " + shoal::quotedName(state.name) + " (" +
                            std::string(shoal::behaviourKey(state.kind)) +
                            ") takes no target; only tank squads do (shoal_world_set_goal "
                            "sends any goal-seeking group)");
        }
        return SHOAL_OK;
    });
}

shoal_status shoal_world_set_goal(shoal_world* world, int group, float x, float y)
{
    constexpr const char* kFunction = "shoal_world_set_goal";
    if (const shoal_status status = checkGroup(world, kFunction, group); status != SHOAL_OK)
        return status;
    if (!std::isfinite(x) || !std::isfinite(y))
        return notFinite(world, kFunction, "the goal");
    return guarded(world, kFunction, [&] {
        return setGroupGoal(world, kFunction, group, Vec2{x, y});
    });
}

shoal_status shoal_world_clear_goal(shoal_world* world, int group)
{
    constexpr const char* kFunction = "shoal_world_clear_goal";
    if (const shoal_status status = checkGroup(world, kFunction, group); status != SHOAL_OK)
        return status;
    return guarded(world, kFunction,
                   [&] { return setGroupGoal(world, kFunction, group, std::nullopt); });
}

shoal_status shoal_world_set_agent_goal(shoal_world* world, int group, uint32_t id, float x,
                                        float y)
{
    constexpr const char* kFunction = "shoal_world_set_agent_goal";
    if (const shoal_status status = checkGroup(world, kFunction, group); status != SHOAL_OK)
        return status;
    if (!std::isfinite(x) || !std::isfinite(y))
        return notFinite(world, kFunction, "the goal");
    return guarded(world, kFunction, [&] {
        return setAgentGoal(world, kFunction, group, id, Vec2{x, y});
    });
}

shoal_status shoal_world_clear_agent_goal(shoal_world* world, int group, uint32_t id)
{
    constexpr const char* kFunction = "shoal_world_clear_agent_goal";
    if (const shoal_status status = checkGroup(world, kFunction, group); status != SHOAL_OK)
        return status;
    return guarded(world, kFunction,
                   [&] { return setAgentGoal(world, kFunction, group, id, std::nullopt); });
}

shoal_status shoal_world_set_param(shoal_world* world, int group, const char* key, double value)
{
    constexpr const char* kFunction = "shoal_world_set_param";
    if (const shoal_status status = checkGroup(world, kFunction, group); status != SHOAL_OK)
        return status;
    if (!key)
        return nullArgument(world, kFunction, "key");
    return guarded(world, kFunction, [&] {
        const shoal::BehaviourKind kind = world->world->group(group).kind;
        const bool known = shoal::paramIndex(shoal::paramSpecs(kind), key) >= 0;
        if (std::optional<shoal::Error> error = world->world->setParam(group, key, value))
            return paramRefused(world, kFunction, known, *error);
        return SHOAL_OK;
    });
}

shoal_status shoal_world_param(const shoal_world* world, int group, const char* key, double* value)
{
    constexpr const char* kFunction = "shoal_world_param";
    if (const shoal_status status = checkGroup(world, kFunction, group); status != SHOAL_OK)
        return status;
    if (!key)
        return nullArgument(world, kFunction, "key");
    if (!value)
        return nullArgument(world, kFunction, "value");
    return guarded(world, kFunction, [&] {
        const shoal::GroupState& state = world->world->group(group);
        const int index = shoal::paramIndex(shoal::paramSpecs(state.kind), key);
        if (index < 0)
            return fail(world, SHOAL_ERROR_UNKNOWN_KEY,
                        std::string(kFunction) + ": group " + shoal::quotedName(state.name) + " (" +
                            std::string(shoal::behaviourKey(state.kind)) + ") has no parameter " +
                            shoal::quotedName(key) +
                            "; known: " + knownKeys(shoal::paramSpecs(state.kind)));
        *value = state.values[static_cast<std::size_t>(index)];
        return SHOAL_OK;
    });
}

shoal_status shoal_world_set_player_param(shoal_world* world, const char* key, double value)
{
    constexpr const char* kFunction = "shoal_world_set_player_param";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    if (!key)
        return nullArgument(world, kFunction, "key");
    return guarded(world, kFunction, [&] {
        const bool known = shoal::paramIndex(shoal::playerParamSpecs(), key) >= 0;
        if (std::optional<shoal::Error> error = world->world->setPlayerParam(key, value))
            return paramRefused(world, kFunction, known, *error);
        return SHOAL_OK;
    });
}

} // extern "C"
