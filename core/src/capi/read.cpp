// The C API: reading groups, agents' poses and the player into the caller's buffers
// (<shoal/shoal_c.h>).

#include "capi/capisupport.h"

#include <shoal/displaytext.h>

#include <algorithm>
#include <cmath>
#include <string>

using namespace shoal::capi;

namespace {

static_assert(static_cast<int>(shoal::BehaviourKind::FishSchool) == SHOAL_KIND_FISH_SCHOOL &&
                  static_cast<int>(shoal::BehaviourKind::TankSquad) == SHOAL_KIND_TANK_SQUAD &&
                  static_cast<int>(shoal::BehaviourKind::Swarm) == SHOAL_KIND_SWARM &&
                  static_cast<int>(shoal::BehaviourKind::LeaderFollow) ==
                      SHOAL_KIND_LEADER_FOLLOW &&
                  static_cast<int>(shoal::BehaviourKind::Worm) == SHOAL_KIND_WORM,
              "shoal_kind numbers the families as BehaviourKind does");

/// The group's poses, `alpha` of the way from before the last step (1: as they are now).
void writePoses(const shoal::World& world, int group, float alpha, shoal_pose* poses)
{
    const shoal::AgentArrays& a = world.group(group).agents;
    const std::size_t n = a.size();
    if (alpha >= 1.0f) {
        for (std::size_t i = 0; i < n; ++i)
            poses[i] = shoal_pose{a.px[i], a.py[i], a.heading[i], a.id[i]};
        return;
    }
    for (std::size_t i = 0; i < n; ++i) {
        const shoal::Vec2 p = world.interpolatedPosition(group, i, alpha);
        poses[i] = shoal_pose{p.x, p.y, world.interpolatedHeading(group, i, alpha), a.id[i]};
    }
}

/// shoal_world_poses and shoal_world_interpolated_poses.
shoal_status readPoses(const shoal_world* world, const char* function, int group, float alpha,
                       shoal_pose* poses, size_t capacity, size_t* count)
{
    if (const shoal_status status = checkGroup(world, function, group); status != SHOAL_OK)
        return status;
    if (!count)
        return nullArgument(world, function, "count");
    return guarded(world, function, [&] {
        const std::size_t n = world->world->group(group).agents.size();
        switch (fitBuffer(poses, capacity, n, count)) {
        case BufferFit::QueryOnly:
            return SHOAL_OK;
        case BufferFit::TooSmall:
            return bufferTooSmall(world, function, capacity, n, "poses");
        case BufferFit::Fill:
            break;
        }
        writePoses(*world->world, group, alpha, poses);
        return SHOAL_OK;
    });
}

} // namespace

extern "C" {

shoal_status shoal_world_bounds(const shoal_world* world, float* min_x, float* min_y, float* max_x,
                                float* max_y)
{
    constexpr const char* kFunction = "shoal_world_bounds";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    return guarded(world, kFunction, [&] {
        const shoal::Vec2 low = world->world->boundsMin();
        const shoal::Vec2 high = world->world->boundsMax();
        if (min_x)
            *min_x = low.x;
        if (min_y)
            *min_y = low.y;
        if (max_x)
            *max_x = high.x;
        if (max_y)
            *max_y = high.y;
        return SHOAL_OK;
    });
}

shoal_status shoal_world_group_count(const shoal_world* world, int* count)
{
    constexpr const char* kFunction = "shoal_world_group_count";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    if (!count)
        return nullArgument(world, kFunction, "count");
    *count = world->world->groupCount();
    return SHOAL_OK;
}

shoal_status shoal_world_group_name(const shoal_world* world, int group, const char** name)
{
    constexpr const char* kFunction = "shoal_world_group_name";
    if (const shoal_status status = checkGroup(world, kFunction, group); status != SHOAL_OK)
        return status;
    if (!name)
        return nullArgument(world, kFunction, "name");
    *name = world->world->group(group).name.c_str();
    return SHOAL_OK;
}

shoal_status shoal_world_group_kind(const shoal_world* world, int group, shoal_kind* kind)
{
    constexpr const char* kFunction = "shoal_world_group_kind";
    if (const shoal_status status = checkGroup(world, kFunction, group); status != SHOAL_OK)
        return status;
    if (!kind)
        return nullArgument(world, kFunction, "kind");
    *kind = static_cast<shoal_kind>(world->world->group(group).kind);
    return SHOAL_OK;
}

shoal_status shoal_world_group_index(const shoal_world* world, const char* name, int* group)
{
    constexpr const char* kFunction = "shoal_world_group_index";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    if (!name)
        return nullArgument(world, kFunction, "name");
    if (!group)
        return nullArgument(world, kFunction, "group");
    return guarded(world, kFunction, [&] {
        const int index = world->world->groupIndex(name);
        if (index < 0)
            return fail(world, SHOAL_ERROR_NOT_FOUND,
                        std::string(kFunction) + ": no group is called " + shoal::quotedName(name));
        *group = index;
        return SHOAL_OK;
    });
}

shoal_status shoal_world_agent_count(const shoal_world* world, int group, size_t* count)
{
    constexpr const char* kFunction = "shoal_world_agent_count";
    if (const shoal_status status = checkGroup(world, kFunction, group); status != SHOAL_OK)
        return status;
    if (!count)
        return nullArgument(world, kFunction, "count");
    *count = world->world->group(group).agents.size();
    return SHOAL_OK;
}

shoal_status shoal_world_agent_index(const shoal_world* world, int group, uint32_t id, int* index)
{
    constexpr const char* kFunction = "shoal_world_agent_index";
    if (const shoal_status status = checkGroup(world, kFunction, group); status != SHOAL_OK)
        return status;
    if (!index)
        return nullArgument(world, kFunction, "index");
    return guarded(world, kFunction, [&] {
        *index = world->world->agentIndex(group, id);
        if (*index < 0)
            return fail(world, SHOAL_ERROR_NOT_FOUND,
                        std::string(kFunction) + ": group " +
                            shoal::quotedName(world->world->group(group).name) +
                            " has no agent with id " + std::to_string(id));
        return SHOAL_OK;
    });
}

shoal_status shoal_world_poses(const shoal_world* world, int group, shoal_pose* poses,
                               size_t capacity, size_t* count)
{
    return readPoses(world, "shoal_world_poses", group, 1.0f, poses, capacity, count);
}

shoal_status shoal_world_interpolated_poses(const shoal_world* world, int group, float alpha,
                                            shoal_pose* poses, size_t capacity, size_t* count)
{
    constexpr const char* kFunction = "shoal_world_interpolated_poses";
    if (!std::isfinite(alpha))
        return fail(world, SHOAL_ERROR_INVALID_ARGUMENT,
                    std::string(kFunction) + ": alpha is not a finite number");
    // Clamped here, so 1 (or more) reads the poses as they are now.
    return readPoses(world, kFunction, group, std::clamp(alpha, 0.0f, 1.0f), poses, capacity,
                     count);
}

shoal_status shoal_world_pose_arrays(const shoal_world* world, int group, float* x, float* y,
                                     float* heading, uint32_t* id, size_t capacity, size_t* count)
{
    constexpr const char* kFunction = "shoal_world_pose_arrays";
    if (const shoal_status status = checkGroup(world, kFunction, group); status != SHOAL_OK)
        return status;
    if (!count)
        return nullArgument(world, kFunction, "count");
    return guarded(world, kFunction, [&] {
        const shoal::AgentArrays& a = world->world->group(group).agents;
        const std::size_t n = a.size();
        const bool anyArray = x || y || heading || id;
        switch (fitBuffer(anyArray ? &a : nullptr, capacity, n, count)) {
        case BufferFit::QueryOnly:
            return SHOAL_OK;
        case BufferFit::TooSmall:
            return bufferTooSmall(world, kFunction, capacity, n, "agents");
        case BufferFit::Fill:
            break;
        }
        if (x)
            std::copy(a.px.begin(), a.px.end(), x);
        if (y)
            std::copy(a.py.begin(), a.py.end(), y);
        if (heading)
            std::copy(a.heading.begin(), a.heading.end(), heading);
        if (id)
            std::copy(a.id.begin(), a.id.end(), id);
        return SHOAL_OK;
    });
}

shoal_status shoal_world_player(const shoal_world* world, shoal_player* player)
{
    constexpr const char* kFunction = "shoal_world_player";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    if (!player)
        return nullArgument(world, kFunction, "player");
    const shoal::PlayerState& p = world->world->player();
    *player = shoal_player{};
    if (!p.enabled) {
        player->group = -1;
        return SHOAL_OK;
    }
    *player = shoal_player{
        1, p.group, p.position.x, p.position.y, p.velocity.x, p.velocity.y, p.heading, p.speed};
    return SHOAL_OK;
}

shoal_status shoal_world_interpolated_player(const shoal_world* world, float alpha, float* x,
                                             float* y)
{
    constexpr const char* kFunction = "shoal_world_interpolated_player";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    if (!std::isfinite(alpha))
        return fail(world, SHOAL_ERROR_INVALID_ARGUMENT,
                    std::string(kFunction) + ": alpha is not a finite number");
    const shoal::Vec2 p = world->world->interpolatedPlayerPosition(alpha);
    if (x)
        *x = p.x;
    if (y)
        *y = p.y;
    return SHOAL_OK;
}

} // extern "C"
