// The C API: making and freeing worlds, their build warnings, and time (<shoal/shoal_c.h>).

#include "capi/capisupport.h"

#include <shoal/scenefile.h>

#include <cmath>
#include <string>

using namespace shoal::capi;

namespace {

/// Builds the handle for a scene that passed its check; the caller owns it.
shoal_world* makeHandle(const shoal::CheckedScene& scene)
{
    auto handle = std::make_unique<shoal_world>();
    handle->world = shoal::World::create(scene);
    return handle.release();
}

} // namespace

extern "C" {

shoal_status shoal_world_create_from_file(const char* path, shoal_world** world)
{
    constexpr const char* kFunction = "shoal_world_create_from_file";
    if (!world)
        return nullArgument(nullptr, kFunction, "the world out-parameter");
    *world = nullptr;
    if (!path)
        return nullArgument(nullptr, kFunction, "the path");
    return guarded(nullptr, kFunction, [&] {
        // Read, then parse: a file that cannot be read is IO, one that is not a scene PARSE.
        const shoal::SceneReadOptions options;
        std::string text;
        if (std::optional<shoal::Error> error =
                shoal::readFileLimited(path, options.maxFileBytes, text))
            return fail(nullptr, SHOAL_ERROR_IO, error->message);
        shoal::Expected<shoal::CheckedScene> scene = shoal::parseCheckedScene(text, path, options);
        if (!scene)
            return fail(nullptr, SHOAL_ERROR_PARSE, scene.error().message);
        *world = makeHandle(*scene);
        return SHOAL_OK;
    });
}

shoal_status shoal_world_create_from_memory(const char* json, size_t length, const char* name,
                                            shoal_world** world)
{
    constexpr const char* kFunction = "shoal_world_create_from_memory";
    if (!world)
        return nullArgument(nullptr, kFunction, "the world out-parameter");
    *world = nullptr;
    if (!json && length > 0)
        return nullArgument(nullptr, kFunction, "the JSON text");
    return guarded(nullptr, kFunction, [&] {
        const std::string displayName = name ? name : "<memory>";
        const shoal::SceneReadOptions options;
        // Refused before it is copied, as a file that long is before it is read.
        if (length > options.maxFileBytes)
            return fail(nullptr, SHOAL_ERROR_PARSE,
                        displayName + ": the text is " + shoal::describeBytes(length) +
                            "; scenes are read up to " +
                            shoal::describeBytes(options.maxFileBytes));
        const std::string text = json ? std::string(json, length) : std::string();
        shoal::Expected<shoal::CheckedScene> scene =
            shoal::parseCheckedScene(text, displayName, options);
        if (!scene)
            return fail(nullptr, SHOAL_ERROR_PARSE, scene.error().message);
        *world = makeHandle(*scene);
        return SHOAL_OK;
    });
}

void shoal_world_destroy(shoal_world* world)
{
    delete world; // ~World frees what it owns and throws nothing
}

const char* shoal_world_last_error(const shoal_world* world)
{
    return world ? world->lastError.c_str() : "";
}

shoal_status shoal_world_warning_count(const shoal_world* world, int* count)
{
    constexpr const char* kFunction = "shoal_world_warning_count";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    if (!count)
        return nullArgument(world, kFunction, "count");
    *count = static_cast<int>(world->world->warnings().size());
    return SHOAL_OK;
}

shoal_status shoal_world_warning(const shoal_world* world, int index, const char** message)
{
    constexpr const char* kFunction = "shoal_world_warning";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    if (!message)
        return nullArgument(world, kFunction, "message");
    return guarded(world, kFunction, [&] {
        const auto& warnings = world->world->warnings();
        if (index < 0 || static_cast<std::size_t>(index) >= warnings.size())
            return fail(world, SHOAL_ERROR_OUT_OF_RANGE,
                        std::string(kFunction) + ": no warning " + std::to_string(index) +
                            "; the world has " + std::to_string(warnings.size()));
        *message = warnings[static_cast<std::size_t>(index)].message.c_str();
        return SHOAL_OK;
    });
}

shoal_status shoal_world_step(shoal_world* world, int count)
{
    constexpr const char* kFunction = "shoal_world_step";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    if (count < 0)
        return fail(world, SHOAL_ERROR_INVALID_ARGUMENT,
                    std::string(kFunction) + ": count " + std::to_string(count) +
                        " is negative; steps are counted from 0");
    return guarded(world, kFunction, [&] {
        world->world->step(count);
        return SHOAL_OK;
    });
}

shoal_status shoal_world_advance(shoal_world* world, double frame_seconds, int max_steps,
                                 int* steps, float* alpha)
{
    constexpr const char* kFunction = "shoal_world_advance";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    return guarded(world, kFunction, [&] {
        const shoal::World::FrameAdvance frame = world->world->advance(frame_seconds, max_steps);
        if (steps)
            *steps = frame.steps;
        if (alpha)
            *alpha = frame.alpha;
        return SHOAL_OK;
    });
}

shoal_status shoal_world_set_keep_previous(shoal_world* world, int keep)
{
    constexpr const char* kFunction = "shoal_world_set_keep_previous";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    return guarded(world, kFunction, [&] {
        world->world->setKeepPrevious(keep != 0);
        return SHOAL_OK;
    });
}

shoal_status shoal_world_set_threads(shoal_world* world, int threads)
{
    constexpr const char* kFunction = "shoal_world_set_threads";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    return guarded(world, kFunction, [&] {
        // The world refuses a count it cannot run, changing nothing.
        if (!world->world->setThreads(threads))
            return fail(world, SHOAL_ERROR_INVALID_ARGUMENT,
                        std::string(kFunction) + ": threads " + std::to_string(threads) +
                            " is outside [0, " + std::to_string(shoal::World::kMaxThreads) +
                            "] (0: one per core)");
        return SHOAL_OK;
    });
}

shoal_status shoal_world_threads(const shoal_world* world, int* threads)
{
    constexpr const char* kFunction = "shoal_world_threads";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    if (!threads)
        return nullArgument(world, kFunction, "threads");
    *threads = world->world->threads();
    return SHOAL_OK;
}

shoal_status shoal_world_set_lane_width(shoal_world* world, int width)
{
    constexpr const char* kFunction = "shoal_world_set_lane_width";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    if (width != 0 && width != 4 && width != 8)
        return fail(world, SHOAL_ERROR_INVALID_ARGUMENT,
                    std::string(kFunction) + ": width " + std::to_string(width) +
                        " is not 0 (the widest), 4 or 8");
    if (width > shoal::World::widestLanes())
        return fail(world, SHOAL_ERROR_INVALID_ARGUMENT,
                    std::string(kFunction) + ": width " + std::to_string(width) +
                        ": this machine or build runs at most " +
                        std::to_string(shoal::World::widestLanes()) + " lanes");
    return guarded(world, kFunction, [&] {
        world->world->setLaneWidth(width);
        return SHOAL_OK;
    });
}

shoal_status shoal_world_lane_width(const shoal_world* world, int* width)
{
    constexpr const char* kFunction = "shoal_world_lane_width";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    if (!width)
        return nullArgument(world, kFunction, "width");
    *width = world->world->laneWidth();
    return SHOAL_OK;
}

shoal_status shoal_world_step_count(const shoal_world* world, uint64_t* steps)
{
    constexpr const char* kFunction = "shoal_world_step_count";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    if (!steps)
        return nullArgument(world, kFunction, "steps");
    *steps = world->world->stepCount();
    return SHOAL_OK;
}

shoal_status shoal_world_time(const shoal_world* world, double* seconds)
{
    constexpr const char* kFunction = "shoal_world_time";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    if (!seconds)
        return nullArgument(world, kFunction, "seconds");
    *seconds = world->world->time();
    return SHOAL_OK;
}

shoal_status shoal_world_dt(const shoal_world* world, float* seconds)
{
    constexpr const char* kFunction = "shoal_world_dt";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    if (!seconds)
        return nullArgument(world, kFunction, "seconds");
    *seconds = world->world->dt();
    return SHOAL_OK;
}

shoal_status shoal_world_state_hash(const shoal_world* world, uint64_t* hash)
{
    constexpr const char* kFunction = "shoal_world_state_hash";
    if (const shoal_status status = checkWorld(world, kFunction); status != SHOAL_OK)
        return status;
    if (!hash)
        return nullArgument(world, kFunction, "hash");
    return guarded(world, kFunction, [&] {
        *hash = world->world->stateHash();
        return SHOAL_OK;
    });
}

} // extern "C"
