#pragma once
/// Where the level shows on screen: world metres (y up) to screen pixels (y down) and back,
/// fitted to the level at start, zoomed about the cursor with the scroll wheel.

#include <shoal/vec2.h>

#include <SDL.h>

namespace game {

class Camera
{
public:
    /// The drawable area, px (the renderer's output size).
    void setViewport(int width, int height);
    int width() const { return m_width; }
    int height() const { return m_height; }

    /// Shows the box [min, max] (m) whole and centred, with `marginPx` around it.
    void fit(shoal::Vec2 min, shoal::Vec2 max, float marginPx = 24.0f);
    /// Zooms by `factor` (> 1: closer) keeping the world point under `screen` where it is;
    /// the zoom stays within [kMinZoom, kMaxZoom] times the fitted one.
    void zoomAt(SDL_FPoint screen, float factor);

    SDL_FPoint toScreen(shoal::Vec2 world) const
    {
        return {m_width * 0.5f + (world.x - m_centre.x) * m_pixelsPerMetre,
                m_height * 0.5f - (world.y - m_centre.y) * m_pixelsPerMetre};
    }
    shoal::Vec2 toWorld(SDL_FPoint screen) const;
    /// Pixels a metre spans.
    float pixelsPerMetre() const { return m_pixelsPerMetre; }
    /// The part of the world on screen (m).
    shoal::Vec2 visibleMin() const;
    shoal::Vec2 visibleMax() const;

    static constexpr float kMinZoom = 0.5f;
    static constexpr float kMaxZoom = 12.0f;

private:
    int m_width = 1;
    int m_height = 1;
    shoal::Vec2 m_centre;
    float m_pixelsPerMetre = 10.0f;
    float m_fittedPixelsPerMetre = 10.0f;
};

} // namespace game
