#pragma once
/// The lines of text over the game: frame rate, steps, time and agents at the top, the
/// controls at the bottom. Drawn with SDL's own 8x8 font (SDL2test) when the build has it.

#include <SDL.h>

#include <string>

namespace game {

class Hud
{
public:
    explicit Hud(SDL_Renderer* renderer) : m_renderer(renderer) {}

    /// Frees the font's glyph textures; call it before the renderer is destroyed.
    static void releaseFont();

    /// Counts a presented frame; the rate shown is averaged over about half a second.
    void frame(double seconds);
    double framesPerSecond() const { return m_fps; }

    /// Draws `status` at the top left and `help` at the bottom left of a `width` x `height`
    /// screen.
    void draw(const std::string& status, const std::string& help, int width, int height);

private:
    void text(int x, int y, const std::string& line, SDL_Color color);

    SDL_Renderer* m_renderer;
    double m_fps = 0.0;
    double m_window = 0.0;
    int m_frames = 0;
};

} // namespace game
