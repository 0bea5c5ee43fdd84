#pragma once
/// A 2D vector in metres (plain float, so it maps onto b2Vec2), with the exact arithmetic a
/// game may use on positions and velocities the runtime hands it. The runtime's own fast
/// trigonometry and lane helpers are private (src/math/fastmath.h).

#include <cmath>
#include <shoal/export.h>

namespace shoal {

struct SHOAL_API Vec2
{
    float x = 0.0f;
    float y = 0.0f;

    constexpr Vec2() = default;
    constexpr Vec2(float ax, float ay) : x(ax), y(ay) {}

    constexpr Vec2 operator+(Vec2 o) const { return {x + o.x, y + o.y}; }
    constexpr Vec2 operator-(Vec2 o) const { return {x - o.x, y - o.y}; }
    constexpr Vec2 operator-() const { return {-x, -y}; }
    constexpr Vec2 operator*(float s) const { return {x * s, y * s}; }
    constexpr Vec2 operator/(float s) const { return {x / s, y / s}; }
    Vec2& operator+=(Vec2 o)
    {
        x += o.x;
        y += o.y;
        return *this;
    }
    Vec2& operator-=(Vec2 o)
    {
        x -= o.x;
        y -= o.y;
        return *this;
    }
    Vec2& operator*=(float s)
    {
        x *= s;
        y *= s;
        return *this;
    }
    constexpr bool operator==(Vec2 o) const { return x == o.x && y == o.y; }
    constexpr bool operator!=(Vec2 o) const { return !(*this == o); }

    constexpr float lengthSquared() const { return x * x + y * y; }
    float length() const { return std::sqrt(lengthSquared()); }

    /// Unit vector in the same direction, or `fallback` when the vector is (nearly) zero.
    /// Every normalisation in the behaviours goes through here: the seeds normalise zero
    /// vectors, which yields NaN and freezes an agent for good.
    Vec2 normalizedOr(Vec2 fallback) const
    {
        const float len2 = lengthSquared();
        if (len2 < 1e-12f)
            return fallback;
        const float inv = 1.0f / std::sqrt(len2);
        return {x * inv, y * inv};
    }

    /// Counter-clockwise perpendicular (the "left" of a heading in a y-up world).
    constexpr Vec2 perp() const { return {-y, x}; }
};

constexpr Vec2 operator*(float s, Vec2 v)
{
    return v * s;
}
constexpr float dot(Vec2 a, Vec2 b)
{
    return a.x * b.x + a.y * b.y;
}
/// z of the 3D cross product: > 0 when b is counter-clockwise from a.
constexpr float cross(Vec2 a, Vec2 b)
{
    return a.x * b.y - a.y * b.x;
}
inline float distance(Vec2 a, Vec2 b)
{
    return (a - b).length();
}
constexpr float distanceSquared(Vec2 a, Vec2 b)
{
    return (a - b).lengthSquared();
}

constexpr float kPi = 3.14159265358979323846f;
constexpr float degToRad(float deg)
{
    return deg * (kPi / 180.0f);
}
constexpr float radToDeg(float rad)
{
    return rad * (180.0f / kPi);
}

/// Wraps an angle into (-pi, pi].
inline float wrapAngle(float a)
{
    // One turn either way is the common case (a heading plus a step's turn): no fmod.
    if (a > kPi && a <= 3.0f * kPi)
        return a - 2.0f * kPi;
    if (a <= -kPi && a > -3.0f * kPi)
        return a + 2.0f * kPi;
    if (a > -kPi && a <= kPi)
        return a;
    a = std::fmod(a + kPi, 2.0f * kPi);
    if (a <= 0.0f)
        a += 2.0f * kPi;
    return a - kPi;
}

} // namespace shoal
