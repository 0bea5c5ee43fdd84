#pragma once
/// The game's colours: the editor's viewport palette (ui/viewport/viewportstyle.h), so a level
/// looks the same in the game as where it was made.

#include <shoal/scenedesc.h>

#include <SDL.h>

#include <algorithm>
#include <cstdint>

namespace game {

using Rgba = SDL_Color;

constexpr Rgba kOutside{0x1b, 0x1d, 0x21, 255};
constexpr Rgba kLevel{0x2e, 0x33, 0x3a, 255};
constexpr Rgba kLevelBorder{0x5a, 0x63, 0x6e, 255};
constexpr Rgba kGridMinor{255, 255, 255, 10};
constexpr Rgba kGridMajor{255, 255, 255, 24};
constexpr Rgba kWallCore{0x0f, 0x11, 0x14, 255};
constexpr Rgba kWallRim{0x7d, 0x86, 0x92, 255};
constexpr Rgba kObstacleFill{0x55, 0x5e, 0x69, 255};
constexpr Rgba kObstacleEdge{0x12, 0x14, 0x17, 255};
constexpr Rgba kCoin{0xff, 0xcc, 0x33, 255};
constexpr Rgba kCoinEdge{0x8a, 0x5a, 0x0c, 255};
constexpr Rgba kFish{0x7c, 0xc8, 0xff, 255};
constexpr Rgba kTarget{0xe8, 0xf0, 0x7a, 255};
constexpr Rgba kText{0xdf, 0xe4, 0xea, 255};
constexpr Rgba kTextShadow{0, 0, 0, 170};

inline Rgba fromScene(const shoal::Color& c)
{
    return {c.r, c.g, c.b, c.a};
}

inline Rgba withAlpha(Rgba c, std::uint8_t alpha)
{
    c.a = alpha;
    return c;
}

/// Darker by `factor` (> 1), as QColor::darker(factor * 100).
inline Rgba darker(Rgba c, float factor)
{
    auto d = [factor](std::uint8_t v) { return static_cast<std::uint8_t>(v / factor); };
    return {d(c.r), d(c.g), d(c.b), c.a};
}

/// Lighter by `factor` (> 1), each channel capped at 255.
inline Rgba lighter(Rgba c, float factor)
{
    auto l = [factor](std::uint8_t v) {
        return static_cast<std::uint8_t>(std::min(255.0f, v * factor + 8.0f * (factor - 1.0f)));
    };
    return {l(c.r), l(c.g), l(c.b), c.a};
}

} // namespace game
