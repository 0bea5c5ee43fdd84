#include "capi/capisupport.h"

#include <shoal/version.h>

namespace shoal::capi {

namespace {

/// The thread's last failure: the only place a failed creation can leave its message.
thread_local std::string t_lastError;

} // namespace

shoal_status fail(const shoal_world* world, shoal_status status, const std::string& message)
{
    try {
        t_lastError = message;
        if (world)
            world->lastError = message;
    } catch (...) {
        // No memory even for the message: the status still says what happened.
    }
    return status;
}

shoal_status nullArgument(const shoal_world* world, const char* function, const char* argument)
{
    return fail(world, SHOAL_ERROR_INVALID_ARGUMENT,
                std::string(function) + ": " + argument + " is null");
}

shoal_status checkWorld(const shoal_world* world, const char* function)
{
    if (!world || !world->world)
        return nullArgument(nullptr, function, "the world");
    return SHOAL_OK;
}

shoal_status checkGroup(const shoal_world* world, const char* function, int group)
{
    if (const shoal_status status = checkWorld(world, function); status != SHOAL_OK)
        return status;
    const int count = world->world->groupCount();
    if (group < 0 || group >= count)
        return fail(world, SHOAL_ERROR_OUT_OF_RANGE,
                    std::string(function) + ": no group " + std::to_string(group) +
                        (count == 0 ? std::string("; the world has no groups")
                                    : "; the world has groups 0 to " + std::to_string(count - 1)));
    return SHOAL_OK;
}

BufferFit fitBuffer(const void* buffer, std::size_t capacity, std::size_t needed,
                    std::size_t* count)
{
    *count = needed;
    if (!buffer)
        return BufferFit::QueryOnly;
    return capacity >= needed ? BufferFit::Fill : BufferFit::TooSmall;
}

shoal_status bufferTooSmall(const shoal_world* world, const char* function, std::size_t capacity,
                            std::size_t needed, const char* unit)
{
    return fail(world, SHOAL_ERROR_BUFFER_TOO_SMALL,
                std::string(function) + ": the buffer holds " + std::to_string(capacity) + " " +
                    unit + "; " + std::to_string(needed) + " needed");
}

} // namespace shoal::capi

using namespace shoal::capi;

extern "C" {

const char* shoal_version_string(void)
{
    return shoal::version();
}

int shoal_version_number(void)
{
    return shoal::versionNumber();
}

const char* shoal_status_name(shoal_status status)
{
    switch (status) {
    case SHOAL_OK:
        return "SHOAL_OK";
    case SHOAL_ERROR_INVALID_ARGUMENT:
        return "SHOAL_ERROR_INVALID_ARGUMENT";
    case SHOAL_ERROR_IO:
        return "SHOAL_ERROR_IO";
    case SHOAL_ERROR_PARSE:
        return "SHOAL_ERROR_PARSE";
    case SHOAL_ERROR_OUT_OF_RANGE:
        return "SHOAL_ERROR_OUT_OF_RANGE";
    case SHOAL_ERROR_NOT_FOUND:
        return "SHOAL_ERROR_NOT_FOUND";
    case SHOAL_ERROR_UNKNOWN_KEY:
        return "SHOAL_ERROR_UNKNOWN_KEY";
    case SHOAL_ERROR_REFUSED:
        return "SHOAL_ERROR_REFUSED";
    case SHOAL_ERROR_UNSUPPORTED:
        return "SHOAL_ERROR_UNSUPPORTED";
    case SHOAL_ERROR_BUFFER_TOO_SMALL:
        return "SHOAL_ERROR_BUFFER_TOO_SMALL";
    case SHOAL_ERROR_OUT_OF_MEMORY:
        return "SHOAL_ERROR_OUT_OF_MEMORY";
    case SHOAL_ERROR_INTERNAL:
        return "SHOAL_ERROR_INTERNAL";
    }
    return "SHOAL_ERROR_UNKNOWN";
}

const char* shoal_last_error(void)
{
    return t_lastError.c_str();
}

const char* shoal_kind_name(shoal_kind kind)
{
    switch (kind) {
    case SHOAL_KIND_FISH_SCHOOL:
        return "fishSchool";
    case SHOAL_KIND_TANK_SQUAD:
        return "tankSquad";
    case SHOAL_KIND_SWARM:
        return "swarm";
    case SHOAL_KIND_LEADER_FOLLOW:
        return "leaderFollow";
    case SHOAL_KIND_WORM:
        return "worm";
    }
    return "";
}

} // extern "C"
