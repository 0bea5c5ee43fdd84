#pragma once
/// The seeds' turn-rate-limited drive (steering.h's drive()) for a lane of agents at once:
/// the same rules, written with masks and selects instead of branches, so four agents turn
/// and pick their speed together. Instantiated one lane wide it is the scalar drive again
/// (that is what the brute-force reference runs), and every lane computes exactly what a
/// lane of its own would, whatever its neighbours in the lane group do.

#include "lanes.h"
#include "steering.h"
#include "vec2.h"

namespace shoal {

/// Where a lane of agents drives this step (see DriveResult).
template <class V> struct DriveLanes
{
    V heading;            ///< new heading, rad, in (-pi, pi]
    V forwardX, forwardY; ///< unit vector of the new heading
    V speed;              ///< signed forward speed to move at this step, m/s
};

/// drive() for the lanes of V (forward only: no reverse). `forwardX/Y` is the unit vector of
/// `heading`, (directionX, directionY) the wish.
template <class V>
SHOAL_FORCE_INLINE inline DriveLanes<V> driveLanes(V heading, V forwardX, V forwardY, V directionX,
                                                   V directionY, V cruiseSpeed,
                                                   const DriveSettings& settings)
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
    const V sine = forwardX * wantedY - forwardY * wantedX;
    const V cosine = forwardX * wantedX + forwardY * wantedY;
    // As in drive(): no turn inside the dead zone; a turn smaller than one step's worth goes
    // all the way (its angle by atan2, lane by lane: the only trigonometry); a larger one
    // turns by the full step, which is a fixed rotation of the forward vector.
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
    DriveLanes<V> result;
    result.heading = select(turning, heading + V::load(turn), heading);
    const V pi(kPi);
    if (any((result.heading > pi) | (result.heading <= -pi))) {
        alignas(16) float headings[kWidth];
        result.heading.store(headings);
        for (float& h : headings)
            h = wrapAngle(h);
        result.heading = V::load(headings);
    }
    result.forwardX = select(small, wantedX, select(full, rotatedX, forwardX));
    result.forwardY = select(small, wantedY, select(full, rotatedY, forwardY));

    // Sideways share of the wish: 1 when it is abeam or behind.
    const V sideways = select(cosine < zero, one, abs(sine));
    const V speed =
        cruiseSpeed * clamp01(strength) * clamp01(one - sideways * V(settings.turnSlowdown));
    result.speed = masked(moving & (abs(speed) >= V(0.01f)), speed);
    return result;
}

} // namespace shoal
