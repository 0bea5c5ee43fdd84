// The C API: agents added, removed and moved at run time, queries between steps, and the
// events of the last step (<shoal/shoal_c.h>).

#include "capi/capisupport.h"

#include <shoal/displaytext.h>

#include <cmath>
#include <string>

using namespace shoal::capi;

namespace {

static_assert(static_cast<int>(shoal::WorldEventKind::FishJoined) == SHOAL_EVENT_FISH_JOINED &&
                  static_cast<int>(shoal::WorldEventKind::CoinEaten) == SHOAL_EVENT_COIN_EATEN &&
                  static_cast<int>(shoal::WorldEventKind::GoalReached) ==
                      SHOAL_EVENT_GOAL_REACHED &&
                  static_cast<int>(shoal::WorldEventKind::AgentBlocked) ==
                      SHOAL_EVENT_AGENT_BLOCKED &&
                  static_cast<int>(shoal::WorldEventKind::WallHit) == SHOAL_EVENT_WALL_HIT,
              "shoal_event_kind numbers the events as WorldEventKind does");

shoal_status notFinite(const shoal_world* world, const char* function, const char* what)
{
    return fail(world, SHOAL_ERROR_INVALID_ARGUMENT,
                std::string(function) + ": " + what + " is not a finite number");
}

/// UNSUPPORTED for a worm group: a worm's body is the path its head took, so its agents are
/// neither added, removed nor moved by hand (the world refuses them too; this gives the code).
shoal_status refuseWorms(const shoal_world* world, const char* function, int group)
{
    const shoal::GroupState& state = world->world->group(group);
    if (state.kind != shoal::BehaviourKind::Worm)
        return SHOAL_OK;
    return fail(world, SHOAL_ERROR_UNSUPPORTED,
                std::string(function) + ": group " + shoal::quotedName(state.name) +
                    " (worm): a worm's agents cannot be added, removed or moved by hand");
}

/// NOT_FOUND when `group` has no agent `id`.
shoal_status findAgent(const shoal_world* world, const char* function, int group, std::uint32_t id)
{
    if (world->world->agentIndex(group, id) >= 0)
        return SHOAL_OK;
    return fail(world, SHOAL_ERROR_NOT_FOUND,
                std::string(function) + ": group " +
                    shoal::quotedName(world->world->group(group).name) + " has no agent with id " +
                    std::to_string(id));
}

shoal_agent_hit toC(const shoal::AgentHit& hit)
{
    return shoal_agent_hit{hit.group, hit.id, hit.index, hit.distance};
}

} // namespace

extern "C" {

shoal_status shoal_world_spawn_agent(shoal_world* world, int group, float x, float y, float heading,
                                     uint32_t* id)
{
    constexpr const char* kFunction = "shoal_world_spawn_agent";
    if (const shoal_status status = checkGroup(world, kFunction, group); status != SHOAL_OK)
        return status;
    if (!id)
        return nullArgument(world, kFunction, "id");
    if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(heading))
        return notFinite(world, kFunction, "the position or heading");
    return guarded(world, kFunction, [&] {
        if (const shoal_status status = refuseWorms(world, kFunction, group); status != SHOAL_OK)
            return status;
        shoal::Expected<std::uint32_t> spawned =
            world->world->spawnAgent(group, shoal::Vec2{x, y}, heading);
        if (!spawned)
            return fail(world, SHOAL_ERROR_REFUSED,
                        std::string(kFunction) + ": " + spawned.error().message);
        *id = *spawned;
        return SHOAL_OK;
    });
}

shoal_status shoal_world_place_is_clear(const shoal_world* world, int group, float x, float y,
                                        int* clear)
{
    constexpr const char* kFunction = "shoal_world_place_is_clear";
    if (const shoal_status status = checkGroup(world, kFunction, group); status != SHOAL_OK)
        return status;
    if (!clear)
        return nullArgument(world, kFunction, "clear");
    return guarded(world, kFunction, [&] {
        *clear = world->world->placeIsClear(group, shoal::Vec2{x, y}) ? 1 : 0;
        return SHOAL_OK;
    });
}

shoal_status shoal_world_despawn_agent(shoal_world* world, int group, uint32_t id)
{
    constexpr const char* kFunction = "shoal_world_despawn_agent";
    if (const shoal_status status = checkGroup(world, kFunction, group); status != SHOAL_OK)
        return status;
    return guarded(world, kFunction, [&] {
        if (const shoal_status status = refuseWorms(world, kFunction, group); status != SHOAL_OK)
            return status;
        if (const shoal_status status = findAgent(world, kFunction, group, id); status != SHOAL_OK)
            return status;
        if (std::optional<shoal::Error> error = world->world->despawnAgent(group, id))
            return fail(world, SHOAL_ERROR_REFUSED, std::string(kFunction) + ": " + error->message);
        return SHOAL_OK;
    });
}

shoal_status shoal_world_teleport_agent(shoal_world* world, int group, uint32_t id, float x,
                                        float y, const float* heading)
{
    constexpr const char* kFunction = "shoal_world_teleport_agent";
    if (const shoal_status status = checkGroup(world, kFunction, group); status != SHOAL_OK)
        return status;
    if (!std::isfinite(x) || !std::isfinite(y) || (heading && !std::isfinite(*heading)))
        return notFinite(world, kFunction, "the position or heading");
    return guarded(world, kFunction, [&] {
        if (const shoal_status status = refuseWorms(world, kFunction, group); status != SHOAL_OK)
            return status;
        if (const shoal_status status = findAgent(world, kFunction, group, id); status != SHOAL_OK)
            return status;
        const std::optional<float> facing = heading ? std::optional<float>(*heading) : std::nullopt;
        if (std::optional<shoal::Error> error =
                world->world->teleportAgent(group, id, shoal::Vec2{x, y}, facing))
            return fail(world, SHOAL_ERROR_REFUSED, std::string(kFunction) + ": " + error->message);
        return SHOAL_OK;
    });
}

shoal_status shoal_world_agents_within(const shoal_world* world, float x, float y, float radius,
                                       uint32_t layer_mask, shoal_agent_hit* hits, size_t capacity,
                                       size_t* count)
{
    constexpr const char* kFunction = "shoal_world_agents_within";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    if (!count)
        return nullArgument(world, kFunction, "count");
    if (!std::isfinite(x) || !std::isfinite(y))
        return notFinite(world, kFunction, "the centre");
    if (!std::isfinite(radius) || radius < 0.0f)
        return fail(world, SHOAL_ERROR_INVALID_ARGUMENT,
                    std::string(kFunction) + ": the radius is not a finite number >= 0");
    return guarded(world, kFunction, [&] {
        world->hits.clear();
        world->world->agentsWithin(shoal::Vec2{x, y}, radius, layer_mask, world->hits);
        const std::size_t n = world->hits.size();
        switch (fitBuffer(hits, capacity, n, count)) {
        case BufferFit::QueryOnly:
            return SHOAL_OK;
        case BufferFit::TooSmall:
            return bufferTooSmall(world, kFunction, capacity, n, "hits");
        case BufferFit::Fill:
            break;
        }
        for (std::size_t i = 0; i < n; ++i)
            hits[i] = toC(world->hits[i]);
        return SHOAL_OK;
    });
}

shoal_status shoal_world_nearest_agent(const shoal_world* world, float x, float y,
                                       uint32_t layer_mask, float max_distance,
                                       shoal_agent_hit* hit)
{
    constexpr const char* kFunction = "shoal_world_nearest_agent";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    if (!hit)
        return nullArgument(world, kFunction, "hit");
    if (!std::isfinite(x) || !std::isfinite(y))
        return notFinite(world, kFunction, "the point");
    if (std::isnan(max_distance) || max_distance < 0.0f)
        return fail(world, SHOAL_ERROR_INVALID_ARGUMENT,
                    std::string(kFunction) + ": max_distance is not a number >= 0 (or INFINITY)");
    return guarded(world, kFunction, [&] {
        const std::optional<shoal::AgentHit> nearest =
            world->world->nearestAgent(shoal::Vec2{x, y}, layer_mask, max_distance);
        if (!nearest)
            return fail(world, SHOAL_ERROR_NOT_FOUND,
                        std::string(kFunction) + ": no agent within " +
                            shoal::formatFloat(max_distance) + " m of [" + shoal::formatFloat(x) +
                            ", " + shoal::formatFloat(y) + "]");
        *hit = toC(*nearest);
        return SHOAL_OK;
    });
}

shoal_status shoal_world_ray_cast(const shoal_world* world, float from_x, float from_y, float to_x,
                                  float to_y, shoal_ray_hit* hit)
{
    constexpr const char* kFunction = "shoal_world_ray_cast";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    if (!hit)
        return nullArgument(world, kFunction, "hit");
    if (!std::isfinite(from_x) || !std::isfinite(from_y) || !std::isfinite(to_x) ||
        !std::isfinite(to_y))
        return notFinite(world, kFunction, "the segment");
    return guarded(world, kFunction, [&] {
        const shoal::LevelHit level =
            world->world->rayCast(shoal::Vec2{from_x, from_y}, shoal::Vec2{to_x, to_y});
        *hit = shoal_ray_hit{level.hit ? 1 : 0, level.point.x,  level.point.y,
                             level.normal.x,    level.normal.y, level.fraction};
        return SHOAL_OK;
    });
}

shoal_status shoal_world_set_events_enabled(shoal_world* world, int enabled)
{
    constexpr const char* kFunction = "shoal_world_set_events_enabled";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    return guarded(world, kFunction, [&] {
        world->world->setEventsEnabled(enabled != 0);
        return SHOAL_OK;
    });
}

shoal_status shoal_world_events(const shoal_world* world, shoal_event* events, size_t capacity,
                                size_t* count)
{
    constexpr const char* kFunction = "shoal_world_events";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    if (!count)
        return nullArgument(world, kFunction, "count");
    return guarded(world, kFunction, [&] {
        const std::vector<shoal::WorldEvent>& all = world->world->events();
        switch (fitBuffer(events, capacity, all.size(), count)) {
        case BufferFit::QueryOnly:
            return SHOAL_OK;
        case BufferFit::TooSmall:
            return bufferTooSmall(world, kFunction, capacity, all.size(), "events");
        case BufferFit::Fill:
            break;
        }
        for (std::size_t i = 0; i < all.size(); ++i) {
            const shoal::WorldEvent& e = all[i];
            events[i] = shoal_event{static_cast<shoal_event_kind>(e.kind),
                                    e.group,
                                    e.id,
                                    e.pickup,
                                    e.position.x,
                                    e.position.y,
                                    e.step};
        }
        return SHOAL_OK;
    });
}

} // extern "C"
