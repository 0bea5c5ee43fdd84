#include "camera.h"

#include <algorithm>

namespace game {

void Camera::setViewport(int width, int height)
{
    m_width = std::max(width, 1);
    m_height = std::max(height, 1);
}

void Camera::fit(shoal::Vec2 min, shoal::Vec2 max, float marginPx)
{
    const float spanX = std::max(max.x - min.x, 1e-3f);
    const float spanY = std::max(max.y - min.y, 1e-3f);
    const float usableX = std::max(m_width - 2.0f * marginPx, 1.0f);
    const float usableY = std::max(m_height - 2.0f * marginPx, 1.0f);
    m_pixelsPerMetre = std::min(usableX / spanX, usableY / spanY);
    m_fittedPixelsPerMetre = m_pixelsPerMetre;
    m_centre = (min + max) * 0.5f;
}

void Camera::zoomAt(SDL_FPoint screen, float factor)
{
    const shoal::Vec2 anchor = toWorld(screen);
    m_pixelsPerMetre = std::clamp(m_pixelsPerMetre * factor, kMinZoom * m_fittedPixelsPerMetre,
                                  kMaxZoom * m_fittedPixelsPerMetre);
    // The anchor goes back under the cursor.
    m_centre.x = anchor.x - (screen.x - m_width * 0.5f) / m_pixelsPerMetre;
    m_centre.y = anchor.y + (screen.y - m_height * 0.5f) / m_pixelsPerMetre;
}

shoal::Vec2 Camera::toWorld(SDL_FPoint screen) const
{
    return {m_centre.x + (screen.x - m_width * 0.5f) / m_pixelsPerMetre,
            m_centre.y - (screen.y - m_height * 0.5f) / m_pixelsPerMetre};
}

shoal::Vec2 Camera::visibleMin() const
{
    return toWorld({0.0f, static_cast<float>(m_height)});
}

shoal::Vec2 Camera::visibleMax() const
{
    return toWorld({static_cast<float>(m_width), 0.0f});
}

} // namespace game
