#pragma once
/// What every function of the C API (<shoal/shoal_c.h>) shares: the handle behind
/// shoal_world*, the two places a failure's message is kept, and the guard that turns every
/// C++ exception into a status at the boundary.

#include <shoal/shoal_c.h>
#include <shoal/world.h>

#include <exception>
#include <memory>
#include <new>
#include <string>
#include <vector>

/// The world behind the C handle, and the message of its last failure.
struct shoal_world
{
    std::unique_ptr<shoal::World> world;
    mutable std::string lastError;
    /// The queries' scratch, kept so that a query each frame allocates nothing.
    mutable std::vector<shoal::AgentHit> hits;
};

namespace shoal::capi {

/// Records `message` as the last failure of this thread and of `world` (when there is one)
/// and returns `status`. Never throws: with no memory for the message the old ones stay.
shoal_status fail(const shoal_world* world, shoal_status status, const std::string& message);

/// Runs `body` (which returns a shoal_status) with every exception caught and reported as
/// `function` failing: nothing C++ crosses the boundary.
template <class Body>
shoal_status guarded(const shoal_world* world, const char* function, Body&& body) noexcept
{
    try {
        return body();
    } catch (const std::bad_alloc&) {
        return fail(world, SHOAL_ERROR_OUT_OF_MEMORY, std::string(function) + ": out of memory");
    } catch (const std::exception& error) {
        return fail(world, SHOAL_ERROR_INTERNAL,
                    std::string(function) + ": internal error: " + error.what());
    } catch (...) {
        return fail(world, SHOAL_ERROR_INTERNAL,
                    std::string(function) + ": internal error: an unknown exception");
    }
}

/// INVALID_ARGUMENT naming the function and the null argument.
shoal_status nullArgument(const shoal_world* world, const char* function, const char* argument);

/// OK when `world` is a handle with a world, else INVALID_ARGUMENT.
shoal_status checkWorld(const shoal_world* world, const char* function);

/// OK when `world` is valid and has group `group`, else INVALID_ARGUMENT or OUT_OF_RANGE.
shoal_status checkGroup(const shoal_world* world, const char* function, int group);

/// The buffer convention of the header: writes `needed` to *count; OK to fill `buffer` when
/// it holds `needed`, OK with nothing to fill for a null buffer (a size query), else
/// BUFFER_TOO_SMALL.
enum class BufferFit
{
    Fill,
    QueryOnly,
    TooSmall
};
BufferFit fitBuffer(const void* buffer, std::size_t capacity, std::size_t needed,
                    std::size_t* count);
/// BUFFER_TOO_SMALL with a message naming the function, the capacity and the need.
shoal_status bufferTooSmall(const shoal_world* world, const char* function, std::size_t capacity,
                            std::size_t needed, const char* unit);

} // namespace shoal::capi
