#pragma once
/// The seeds' turn-rate-limited drive: a vehicle that can only move forward (or back) along
/// its heading and turns at a limited rate. One implementation, written with masks and
/// selects so it runs on a lane of agents at once (driveLanes: the fish school's members and
/// the tank squad's tanks drive four at a time, or eight in their AVX2 kernels); drive() is
/// the same code one lane wide, for a single agent. Every lane computes exactly what it would
/// alone, whatever its neighbours in the lane group do.

#include "kernels/lanes.h"
#include "math/fastmath.h"
#include <shoal/vec2.h>

namespace shoal {

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
    float deadZoneCos = 1.0f; ///< cos(turnDeadZone): the angle tests compare cosines
};

inline DriveSettings driveSettings(float rotateSpeed, float turnDeadZone, float turnSlowdown,
                                   float dt)
{
    DriveSettings settings;
    settings.rotateSpeed = rotateSpeed;
    settings.turnDeadZone = turnDeadZone;
    settings.turnSlowdown = turnSlowdown;
    settings.maxTurn = rotateSpeed * dt;
    sinCos(settings.maxTurn, settings.maxTurnSin, settings.maxTurnCos);
    float deadZoneSin;
    sinCos(turnDeadZone, deadZoneSin, settings.deadZoneCos);
    return settings;
}

/// Where a lane of agents drives this step (see DriveResult).
template <class V> struct DriveLanes
{
    V heading;            ///< new heading, rad, in (-pi, pi]
    V forwardX, forwardY; ///< unit vector of the new heading
    V speed;              ///< signed forward speed to move at this step, m/s
};

/// The seeds' Drive() for the lanes of V: turn toward the wish (directionX, directionY) at
/// most rotateSpeed*dt (not at all inside the dead zone), and move at `cruiseSpeed` scaled by
/// how strongly it is asked to (|direction|, clamped to 1) and slowed while turning. With
/// `reverse`, the vehicles back toward the wish instead: they turn their tails to it and move
/// backwards (pass a negative cruiseSpeed). `forwardX/Y` is the unit vector of `heading`.
/// Forced inline, and must stay so: built here, outside any AVX2 region, it could not inline
/// eight lanes' operations, and an AVX2 kernel calling it out of line would call each of them
/// (tests/build/avx_guard.py fails on such a baseline-built eight-lane function).
template <class V>
SHOAL_FORCE_INLINE inline DriveLanes<V>
driveLanes(V heading, V forwardX, V forwardY, V directionX, V directionY, V cruiseSpeed,
           const DriveSettings& settings, bool reverse = false)
{
    using Mask = typename V::Mask;
    constexpr int kWidth = V::kWidth;
    const V zero(0.0f);
    const V one(1.0f);
    const V strength = sqrt(directionX * directionX + directionY * directionY);
    const Mask moving = strength >= V(1e-6f); // a lane with no wish keeps heading, stops
    const V inverseStrength = one / strength;
    const V wantedX = directionX * inverseStrength;
    const V wantedY = directionY * inverseStrength;
    const V facingX = reverse ? -forwardX : forwardX;
    const V facingY = reverse ? -forwardY : forwardY;
    const V sine = facingX * wantedY - facingY * wantedX;
    const V cosine = facingX * wantedX + facingY * wantedY;
    // The angle between facing and wish is in [0, pi], where cosine falls monotonically: the
    // dead-zone and full-rate tests compare cosines. No turn inside the dead zone; a turn
    // smaller than one step's worth goes all the way (never overshoot: that is what makes a
    // drive shake), its angle by atan2 lane by lane (the only trigonometry); a larger one
    // turns by the full step, a fixed rotation of the forward vector.
    const Mask turning = moving & (cosine < V(settings.deadZoneCos));
    const Mask small = turning & (cosine >= V(settings.maxTurnCos));
    const Mask full = andNot(small, turning);
    const Mask left = sine >= zero;
    const V turnSine = select(left, V(settings.maxTurnSin), V(-settings.maxTurnSin));
    const V cosineStep(settings.maxTurnCos);
    const V rotatedX = forwardX * cosineStep - forwardY * turnSine;
    const V rotatedY = forwardX * turnSine + forwardY * cosineStep;

    alignas(16) float turn[kWidth];
    select(left, V(settings.maxTurn), V(-settings.maxTurn)).store(turn);
    if (const int smallLanes = laneBits(small)) {
        alignas(16) float sines[kWidth];
        alignas(16) float cosines[kWidth];
        sine.store(sines);
        cosine.store(cosines);
        for (int lane = 0; lane < kWidth; ++lane)
            if (smallLanes & (1 << lane))
                turn[lane] = fastAtan2(sines[lane], cosines[lane]);
    }
    V newHeading = select(turning, heading + V::load(turn), heading);
    const V pi(kPi);
    if (const int wrapping = laneBits(turning & ((newHeading > pi) | (newHeading <= -pi)))) {
        alignas(16) float headings[kWidth];
        newHeading.store(headings);
        for (int lane = 0; lane < kWidth; ++lane)
            if (wrapping & (1 << lane))
                headings[lane] = wrapAngle(headings[lane]);
        newHeading = V::load(headings);
    }
    const V smallX = reverse ? -wantedX : wantedX;
    const V smallY = reverse ? -wantedY : wantedY;

    // Sideways share of the wish: 1 when it is abeam or behind.
    const V sideways = select(cosine < zero, one, abs(sine));
    const V speed =
        cruiseSpeed * clamp01(strength) * clamp01(one - sideways * V(settings.turnSlowdown));
    // Built whole, not member by member: DriveLanes' own constructor is built for the
    // baseline, and eight lanes (AVX2) cannot be made there.
    return {newHeading, select(small, smallX, select(full, rotatedX, forwardX)),
            select(small, smallY, select(full, rotatedY, forwardY)),
            masked(moving & (abs(speed) >= V(0.01f)), speed)};
}

/// Where one agent drives this step.
struct DriveResult
{
    float heading = 0; ///< new heading, rad
    Vec2 forward;      ///< unit vector of the new heading
    float speed = 0;   ///< signed forward speed to move at this step, m/s
};

/// One agent's drive: driveLanes one lane wide.
SHOAL_FORCE_INLINE inline DriveResult drive(float heading, Vec2 forward, Vec2 direction,
                                            float cruiseSpeed, const DriveSettings& settings,
                                            bool reverse = false)
{
    const DriveLanes<Float1> r =
        driveLanes(Float1(heading), Float1(forward.x), Float1(forward.y), Float1(direction.x),
                   Float1(direction.y), Float1(cruiseSpeed), settings, reverse);
    return {r.heading.v, {r.forwardX.v, r.forwardY.v}, r.speed.v};
}

} // namespace shoal
