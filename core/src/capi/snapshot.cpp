// The C API: snapshots into the caller's buffer, and restoring them (<shoal/shoal_c.h>).

#include "capi/capisupport.h"

#include <cstring>
#include <string>

using namespace shoal::capi;

extern "C" {

shoal_status shoal_world_snapshot(const shoal_world* world, void* buffer, size_t capacity,
                                  size_t* size)
{
    constexpr const char* kFunction = "shoal_world_snapshot";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    if (!size)
        return nullArgument(world, kFunction, "size");
    return guarded(world, kFunction, [&] {
        // Made afresh at every call: the state may have changed since a size query without
        // a step (input, parameters, spawns), and the bytes must be those of now.
        const std::vector<std::uint8_t> bytes = world->world->snapshot();
        switch (fitBuffer(buffer, capacity, bytes.size(), size)) {
        case BufferFit::QueryOnly:
            return SHOAL_OK;
        case BufferFit::TooSmall:
            return bufferTooSmall(world, kFunction, capacity, bytes.size(), "bytes");
        case BufferFit::Fill:
            break;
        }
        std::memcpy(buffer, bytes.data(), bytes.size());
        return SHOAL_OK;
    });
}

shoal_status shoal_world_restore(shoal_world* world, const void* data, size_t size)
{
    constexpr const char* kFunction = "shoal_world_restore";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    if (!data && size > 0)
        return nullArgument(world, kFunction, "data");
    return guarded(world, kFunction, [&] {
        static const std::uint8_t kNothing = 0;
        const auto* bytes = data ? static_cast<const std::uint8_t*>(data) : &kNothing;
        if (std::optional<shoal::Error> error = world->world->restore(bytes, size))
            return fail(world, SHOAL_ERROR_REFUSED, std::string(kFunction) + ": " + error->message);
        return SHOAL_OK;
    });
}

} // extern "C"
