#include "hud.h"

#include "palette.h"

#ifdef SHOAL_GAME_HAS_FONT
#include <SDL_test_font.h>
#endif

namespace game {

namespace {

constexpr int kGlyph = 8;   ///< the font's cell, px
constexpr int kPadding = 6; ///< around the text, px

} // namespace

void Hud::releaseFont()
{
#ifdef SHOAL_GAME_HAS_FONT
    SDLTest_CleanupTextDrawing();
#endif
}

void Hud::frame(double seconds)
{
    m_window += seconds;
    ++m_frames;
    if (m_window >= 0.5) {
        m_fps = m_frames / m_window;
        m_window = 0.0;
        m_frames = 0;
    }
}

void Hud::text(int x, int y, const std::string& line, SDL_Color color)
{
#ifdef SHOAL_GAME_HAS_FONT
    SDL_SetRenderDrawColor(m_renderer, color.r, color.g, color.b, color.a);
    SDLTest_DrawString(m_renderer, x, y, line.c_str());
#else
    (void)x, (void)y, (void)line, (void)color;
#endif
}

void Hud::draw(const std::string& status, const std::string& help, int width, int height)
{
    (void)width;
    SDL_SetRenderDrawBlendMode(m_renderer, SDL_BLENDMODE_BLEND);
    const int bar = kGlyph + 2 * kPadding;
    for (const auto& [line, y] : {std::pair<const std::string&, int>{status, 0},
                                  std::pair<const std::string&, int>{help, height - bar}}) {
        if (line.empty())
            continue;
        const SDL_Rect back{0, y, static_cast<int>(line.size()) * kGlyph + 2 * kPadding, bar};
        SDL_SetRenderDrawColor(m_renderer, 0, 0, 0, 140);
        SDL_RenderFillRect(m_renderer, &back);
        text(kPadding, y + kPadding, line, kText);
    }
}

} // namespace game
