#pragma once
/// The game: a window showing one level, the world it runs, the input that steers it and
/// the loop that ties them together.

#include "agentrenderer.h"
#include "camera.h"
#include "canvas.h"
#include "hud.h"
#include "levelrenderer.h"

#include <shoal/scenedesc.h>
#include <shoal/world.h>

#include <SDL.h>

#include <cstdint>
#include <memory>
#include <string>

namespace game {

struct Options
{
    std::string scenePath;
    /// Frames to run before quitting (-1: until the player quits).
    long long frames = -1;
    /// One world step per frame, no vsync wait and no input: the run is the one
    /// `shoal-cli run SCENE --steps N` makes, and ends by printing its hash.
    bool fixed = false;
    int width = 1280;
    int height = 800;
};

class Game
{
public:
    /// Opens the window for `scene` (loaded from options.scenePath). Null, with `error` set,
    /// when SDL cannot give a window or a renderer.
    static std::unique_ptr<Game> create(const Options& options, shoal::CheckedScene scene,
                                        std::string& error);
    ~Game();
    Game(const Game&) = delete;
    Game& operator=(const Game&) = delete;

    /// Runs until Esc, the window is closed or options.frames frames have passed; returns
    /// the frames it ran.
    long long run();
    const shoal::World& world() const { return *m_world; }

private:
    Game(const Options& options, shoal::CheckedScene scene, SDL_Window* window,
         SDL_Renderer* renderer);

    /// Handles what came in since the last frame; false when the game should end.
    bool handleEvents();
    void handleMouse(const SDL_Event& event);
    void handleKey(SDL_Keycode key);
    /// Window coordinates to the renderer's pixels (they differ on high-density screens).
    SDL_FPoint toPixels(int x, int y) const;
    void restart();
    void render(float alpha);
    std::string status() const;

    Options m_options;
    shoal::CheckedScene m_scene;
    std::unique_ptr<shoal::World> m_world;
    SDL_Window* m_window;
    SDL_Renderer* m_renderer;
    Camera m_camera;
    Canvas m_canvas;
    LevelRenderer m_level;
    AgentRenderer m_agents;
    Hud m_hud;
    bool m_paused = false;
    bool m_steering = false; ///< the left button is held: the player follows the pointer
    SDL_FPoint m_mouse{0.0f, 0.0f};
    float m_alpha = 0.0f;
    std::string m_rendererName; ///< SDL's renderer ("opengl", "software"), for the HUD
};

} // namespace game
