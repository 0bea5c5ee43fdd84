#pragma once
/// 2D vector maths in metres, shared by every behaviour. Plain float so it maps onto b2Vec2.

#include <cmath>

namespace shoal {

struct Vec2
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
    Vec2& operator+=(Vec2 o) { x += o.x; y += o.y; return *this; }
    Vec2& operator-=(Vec2 o) { x -= o.x; y -= o.y; return *this; }
    Vec2& operator*=(float s) { x *= s; y *= s; return *this; }
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

constexpr Vec2 operator*(float s, Vec2 v) { return v * s; }
constexpr float dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
/// z of the 3D cross product: > 0 when b is counter-clockwise from a.
constexpr float cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }
inline float distance(Vec2 a, Vec2 b) { return (a - b).length(); }
constexpr float distanceSquared(Vec2 a, Vec2 b) { return (a - b).lengthSquared(); }

/// Unit vector at angle `radians` from +x.
inline Vec2 fromAngle(float radians) { return {std::cos(radians), std::sin(radians)}; }
inline float angleOf(Vec2 v) { return std::atan2(v.y, v.x); }

/// Scales `v` down to at most `maxLength` (OpenSteer's truncate).
inline Vec2 truncated(Vec2 v, float maxLength)
{
    const float len2 = v.lengthSquared();
    if (len2 <= maxLength * maxLength)
        return v;
    return v * (maxLength / std::sqrt(len2));
}

/// Rotates `v` by the angle whose cosine and sine are given.
constexpr Vec2 rotated(Vec2 v, float c, float s) { return {v.x * c - v.y * s, v.x * s + v.y * c}; }

constexpr float kPi = 3.14159265358979323846f;
constexpr float degToRad(float deg) { return deg * (kPi / 180.0f); }
constexpr float radToDeg(float rad) { return rad * (180.0f / kPi); }

/// Wraps an angle into (-pi, pi].
inline float wrapAngle(float a)
{
    a = std::fmod(a + kPi, 2.0f * kPi);
    if (a <= 0.0f)
        a += 2.0f * kPi;
    return a - kPi;
}

inline float clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }
inline float clamp01(float v) { return clampf(v, 0.0f, 1.0f); }

} // namespace shoal
