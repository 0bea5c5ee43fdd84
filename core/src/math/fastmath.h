#pragma once
/// The runtime's own scalar maths: bit casts, branch-free selects, a floor, and the seeded
/// world's trigonometry (sinCos, fastAtan2) that is the same bit for bit on every machine.
/// Private: a game never compiles these, so results cannot depend on its compiler flags.

#include <shoal/vec2.h>

#include <cmath>
#include <cstdint>
#include <cstring>

/// Forces inlining of a hot loop's pieces (functions, and lambdas after their parameter
/// list): a kernel's accumulators then stay in registers instead of being reloaded through
/// the lambda's captures for every lane group, and a plan's phases cost no calls.
/// SHOAL_UNLIKELY(c): c is rarely true; the compiler lays the branch out for the other case.
/// SHOAL_NEVER_INLINE keeps the rare path of a hot loop out of it, so the loop's values stay
/// in registers instead of being saved round code that seldom runs.
#if defined(__GNUC__) || defined(__clang__)
#define SHOAL_FORCE_INLINE __attribute__((always_inline))
#define SHOAL_UNLIKELY(c) __builtin_expect(!!(c), 0)
#define SHOAL_NEVER_INLINE __attribute__((noinline))
#else
#define SHOAL_FORCE_INLINE
#define SHOAL_UNLIKELY(c) (c)
#define SHOAL_NEVER_INLINE
#endif

namespace shoal {

/// The bits of a float, and back.
inline std::uint32_t floatBits(float f)
{
    std::uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    return bits;
}
inline float bitsFloat(std::uint32_t bits)
{
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}
/// condition ? a : b, computed with bit masks so the compiler emits no branch.
inline float selectFloat(bool condition, float a, float b)
{
    const std::uint32_t mask = 0u - static_cast<std::uint32_t>(condition);
    return bitsFloat((floatBits(a) & mask) | (floatBits(b) & ~mask));
}

/// floor(x), bit for bit, in a few instructions where the library call is long without
/// SSE4.1: truncate, and step down for negative fractions. Floats of 2^23 and beyond (and
/// infinities, NaN) are already whole.
inline float floorFast(float x)
{
    if (!(std::fabs(x) < 8388608.0f))
        return x;
    const float t = static_cast<float>(static_cast<int>(x));
    // By selects, not branches: the sign of x (a heading's, say) is a coin toss to a
    // branch predictor. x itself when whole: keeps -0.
    return selectFloat(t == x, x, selectFloat(t > x, t - 1.0f, t));
}

/// Sine and cosine by Cody-Waite reduction to [-pi/4, pi/4] and short polynomials
/// (error below 2e-7). Our own rather than libm's: glibc picks a different sincosf on CPUs
/// with and without FMA, which would break "same scene, same hash" across machines; this
/// one is plain float arithmetic, identical everywhere (and several times faster).
inline void sinCos(float radians, float& sine, float& cosine)
{
    const float quarterTurns = floorFast(radians * 0.636619772f + 0.5f);
    const int q = static_cast<int>(static_cast<long long>(quarterTurns) & 3);
    const float r = (radians - quarterTurns * 1.5703125f) - quarterTurns * 4.83826794897e-4f;
    const float r2 = r * r;
    const float s = r + r * r2 * (-1.66666672e-1f + r2 * (8.33332818e-3f + r2 * -1.98393906e-4f));
    const float c =
        1.0f + r2 * (-0.5f + r2 * (4.16666418e-2f + r2 * (-1.38873830e-3f + r2 * 2.44331568e-5f)));
    // Quadrant q picks (s, c), (c, -s), (-s, -c) or (-c, s): by bit masks rather than a
    // switch, whose mispredicted branch cost more than the polynomials.
    const std::uint32_t swap = 0u - static_cast<std::uint32_t>(q & 1);
    const std::uint32_t sineSign = static_cast<std::uint32_t>(q & 2) << 30;
    const std::uint32_t cosineSign = static_cast<std::uint32_t>((q + 1) & 2) << 30;
    const std::uint32_t sBits = floatBits(s);
    const std::uint32_t cBits = floatBits(c);
    sine = bitsFloat(((sBits & ~swap) | (cBits & swap)) ^ sineSign);
    cosine = bitsFloat(((cBits & ~swap) | (sBits & swap)) ^ cosineSign);
}

/// atan2 by octant reduction and a minimax polynomial (error below 1e-5 rad); plain float
/// arithmetic for the same reason as sinCos.
inline float fastAtan2(float y, float x)
{
    const float ax = std::fabs(x);
    const float ay = std::fabs(y);
    const float big = ax > ay ? ax : ay;
    const float small = ax > ay ? ay : ax;
    if (big == 0.0f)
        return 0.0f;
    const float t = small / big;
    const float t2 = t * t;
    const float a =
        t *
        (0.99997726f +
         t2 * (-0.33262347f +
               t2 * (0.19354346f + t2 * (-0.11643287f + t2 * (0.05265332f + t2 * -0.01172120f)))));
    // Unfold the octant without branches (they mispredict on headings in all directions).
    const float b = selectFloat(ay > ax, 1.57079637f - a, a);
    const float c = selectFloat(x < 0.0f, 3.14159274f - b, b);
    return bitsFloat(floatBits(c) ^ (static_cast<std::uint32_t>(y < 0.0f) << 31));
}

/// Unit vector at angle `radians` from +x.
inline Vec2 fromAngle(float radians)
{
    Vec2 v;
    sinCos(radians, v.y, v.x);
    return v;
}
inline float angleOf(Vec2 v)
{
    return fastAtan2(v.y, v.x);
}

/// Scales `v` down to at most `maxLength` (OpenSteer's truncate).
inline Vec2 truncated(Vec2 v, float maxLength)
{
    const float len2 = v.lengthSquared();
    if (len2 <= maxLength * maxLength)
        return v;
    return v * (maxLength / std::sqrt(len2));
}

/// Rotates `v` by the angle whose cosine and sine are given.
constexpr Vec2 rotated(Vec2 v, float c, float s)
{
    return {v.x * c - v.y * s, v.x * s + v.y * c};
}

inline float clampf(float v, float lo, float hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}
inline float clamp01(float v)
{
    return clampf(v, 0.0f, 1.0f);
}

} // namespace shoal
