#pragma once
/// Steering primitives shared by the behaviour families (OpenSteer's vocabulary): seek,
/// arrive, flee, the vehicle integration, and (from drive.h) the seeds' turn-rate-limited
/// drive.

#include "math/fastmath.h"
#include "steering/drive.h"
#include <shoal/vec2.h>

#include <cmath>

namespace shoal {

/// Desired velocity toward `target` at `maxSpeed`.
inline Vec2 seek(Vec2 position, Vec2 target, float maxSpeed)
{
    return (target - position).normalizedOr({}) * maxSpeed;
}

/// Desired velocity away from `threat` at `maxSpeed`.
inline Vec2 flee(Vec2 position, Vec2 threat, float maxSpeed)
{
    return (position - threat).normalizedOr({}) * maxSpeed;
}

/// Desired velocity toward `target` that slows linearly inside `slowingRadius`.
inline Vec2 arrive(Vec2 position, Vec2 target, float maxSpeed, float slowingRadius)
{
    const Vec2 offset = target - position;
    const float d = offset.length();
    if (d < 1e-5f)
        return {};
    const float speed = slowingRadius > 1e-5f ? maxSpeed * clamp01(d / slowingRadius) : maxSpeed;
    return offset * (speed / d);
}

/// OpenSteer's vehicle step: truncate the force, divide by mass, add, truncate the speed.
inline Vec2 applySteeringForce(Vec2 velocity, Vec2 force, float mass, float maxForce,
                               float maxSpeed, float dt)
{
    const Vec2 clipped = truncated(force, maxForce);
    const Vec2 acceleration = clipped / (mass > 1e-5f ? mass : 1e-5f);
    return truncated(velocity + acceleration * dt, maxSpeed);
}

/// Moves `current` toward `target` by the fraction rate*dt (the seeds' Lerp easing).
inline float ease(float current, float target, float rate, float dt)
{
    return current + (target - current) * clamp01(rate * dt);
}

} // namespace shoal
