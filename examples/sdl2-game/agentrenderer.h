#pragma once
/// Draws the world's agents as the editor does, by what each family says of itself
/// (shoal::familyView): fish, tanks (hull, tracks, turret), swarm darts, leaders and their
/// followers, worms as ribbons along their bodies, and the player with a ring around it.
/// Agents are drawn `alpha` of the way from their last pose to their current one; far out
/// they become dots.

#include "camera.h"
#include "canvas.h"

#include <shoal/sketch.h>
#include <shoal/world.h>

#include <array>
#include <vector>

namespace game {

class AgentRenderer
{
public:
    /// Colours from the scene's groups; `playerRadius`: the player's body radius (m).
    AgentRenderer(const shoal::SceneDesc& scene, float playerRadius);

    void draw(Canvas& canvas, const Camera& camera, const shoal::World& world, float alpha);

private:
    /// How one agent is coloured and sized (the editor's variants).
    struct Style
    {
        Rgba fill, outline, detail;
        float scale = 1.0f;
    };
    enum Variant
    {
        kNormal,
        kDim,     ///< a free fish, not in the school yet
        kArrived, ///< a parked tank: an accent turret
        kLeader,
        kPlayer,
        kVariantCount
    };
    struct Palette
    {
        Rgba body, accent;
        std::array<Style, kVariantCount> styles;
    };

    static Palette paletteOf(Rgba body, Rgba accent);
    void drawGroup(Canvas& canvas, const Camera& camera, const shoal::World& world, int g,
                   float alpha);
    void drawWorms(Canvas& canvas, const Camera& camera, const shoal::World& world, int g);
    /// One glyph centred at `at` (px), facing `heading` (radians, world), body radius
    /// `radiusPx`.
    void drawGlyph(Canvas& canvas, shoal::FamilyView::Glyph glyph, const Style& style,
                   Variant variant, SDL_FPoint at, float heading, float radiusPx);
    void drawPlayerRing(Canvas& canvas, const Palette& palette, SDL_FPoint at, float radiusPx);

    std::vector<Palette> m_palettes; ///< per group
    Palette m_lonePlayer;            ///< the player when it leads no group
    float m_playerRadius;
    // Scratch, kept between frames.
    std::vector<SDL_FPoint> m_points;
    std::vector<shoal::Vec2> m_left, m_right;
    std::vector<SDL_FPoint> m_leftPx, m_rightPx;
};

} // namespace game
