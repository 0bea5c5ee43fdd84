#pragma once
/// Steering primitives shared by the behaviour families (OpenSteer's vocabulary): seek,
/// arrive, flee, the vehicle integration, and the seeds' turn-rate-limited drive.

#include "vec2.h"

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

/// Settings of the seeds' drive: a vehicle that can only move forward (or back) along its
/// heading and turns at a limited rate. Make one per step with driveSettings().
struct DriveSettings
{
    float rotateSpeed = 3.0f;  ///< maximum turn rate, rad/s
    float turnDeadZone = 0.2f; ///< no turning when the heading is this close (rad): anti-shake
    float turnSlowdown = 0.8f; ///< speed factor lost at a full sideways turn, [0, 1]
    float maxTurn = 0.05f;     ///< rotateSpeed * dt, rad
    float maxTurnCos = 1.0f;   ///< cos(maxTurn): a full-rate turn is a rotation, no trig per agent
    float maxTurnSin = 0.0f;
    float deadZoneCos = 1.0f;  ///< cos(turnDeadZone): the angle tests compare cosines
};

inline DriveSettings driveSettings(float rotateSpeed, float turnDeadZone, float turnSlowdown, float dt)
{
    DriveSettings settings{rotateSpeed, turnDeadZone, turnSlowdown, rotateSpeed * dt, 1.0f, 0.0f, 1.0f};
    sinCos(settings.maxTurn, settings.maxTurnSin, settings.maxTurnCos);
    float deadZoneSin;
    sinCos(turnDeadZone, deadZoneSin, settings.deadZoneCos);
    return settings;
}

struct DriveResult
{
    float heading = 0; ///< new heading, rad
    Vec2 forward;      ///< unit vector of the new heading
    float speed = 0;   ///< signed forward speed to move at this step, m/s
};

/// The seeds' Drive(): turn toward `direction` at most rotateSpeed*dt (not at all inside the
/// dead zone), and move at `cruiseSpeed` scaled by how strongly it is asked to (|direction|,
/// clamped to 1) and slowed while turning. With `reverse`, the vehicle backs toward
/// `direction` instead: it turns its tail to it and moves backwards (pass a negative
/// cruiseSpeed). `forward` is the unit vector of `heading`.
inline DriveResult drive(float heading, Vec2 forward, Vec2 direction, float cruiseSpeed,
                         const DriveSettings& settings, bool reverse = false)
{
    DriveResult result{heading, forward, 0.0f};
    const float strength = direction.length();
    if (strength < 1e-6f)
        return result;
    const Vec2 wanted = direction * (1.0f / strength);
    const Vec2 facing = reverse ? -forward : forward;
    const float sine = cross(facing, wanted);
    const float cosine = dot(facing, wanted);
    // The angle between heading and wish is in [0, pi], where cosine falls monotonically:
    // the dead-zone and full-rate tests compare cosines, and only a turn smaller than one
    // step's worth needs the angle itself (one atan2 saved for almost every agent).
    if (cosine < settings.deadZoneCos) {
        // Never overshoot the wanted heading in one step: that is what makes a drive shake.
        if (cosine >= settings.maxTurnCos) {
            result.heading = heading + fastAtan2(sine, cosine);
            result.forward = reverse ? -wanted : wanted;
        } else {
            const bool left = !(sine < 0.0f);
            result.heading = heading + (left ? settings.maxTurn : -settings.maxTurn);
            result.forward = rotated(forward, settings.maxTurnCos, left ? settings.maxTurnSin : -settings.maxTurnSin);
        }
        if (result.heading > kPi || result.heading <= -kPi)
            result.heading = wrapAngle(result.heading);
    }
    // Sideways share of the wanted direction: 1 when it is abeam or behind.
    const float sideways = cosine < 0.0f ? 1.0f : std::fabs(sine);
    float speed = cruiseSpeed * clamp01(strength) * clamp01(1.0f - sideways * settings.turnSlowdown);
    if (std::fabs(speed) < 0.01f)
        speed = 0.0f;
    result.speed = speed;
    return result;
}

/// Moves `current` toward `target` by the fraction rate*dt (the seeds' Lerp easing).
inline float ease(float current, float target, float rate, float dt)
{
    return current + (target - current) * clamp01(rate * dt);
}

} // namespace shoal
