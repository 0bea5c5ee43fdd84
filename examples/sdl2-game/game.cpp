#include "game.h"

#include <shoal/paramspec.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace game {

namespace {

constexpr float kWheelZoom = 1.15f; ///< zoom per wheel notch

float playerRadiusOf(const shoal::SceneDesc& scene)
{
    const auto& specs = shoal::playerParamSpecs();
    const int index = shoal::paramIndex(specs, "radius");
    if (index < 0)
        return 0.35f;
    const auto i = static_cast<std::size_t>(index);
    return static_cast<float>(i < scene.player.params.size() ? scene.player.params[i]
                                                             : specs[i].defaultValue);
}

bool headless()
{
    const char* driver = SDL_GetCurrentVideoDriver();
    return driver && std::strcmp(driver, "dummy") == 0;
}

} // namespace

std::unique_ptr<Game> Game::create(const Options& options, shoal::CheckedScene scene,
                                   std::string& error)
{
    const std::string title = "Shoal - " + options.scenePath;
    const Uint32 flags = SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI;
    SDL_Window* window = nullptr;
    if (!headless()) {
        // Smooth edges where OpenGL offers multisampling; without it, the same without.
        SDL_GL_SetAttribute(SDL_GL_MULTISAMPLEBUFFERS, 1);
        SDL_GL_SetAttribute(SDL_GL_MULTISAMPLESAMPLES, 4);
        window = SDL_CreateWindow(title.c_str(), SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                  options.width, options.height, flags | SDL_WINDOW_OPENGL);
        SDL_GL_SetAttribute(SDL_GL_MULTISAMPLEBUFFERS, 0);
        SDL_GL_SetAttribute(SDL_GL_MULTISAMPLESAMPLES, 0);
    }
    if (!window)
        window = SDL_CreateWindow(title.c_str(), SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                  options.width, options.height, flags);
    if (!window) {
        error = std::string("cannot open a window: ") + SDL_GetError();
        return nullptr;
    }
    // The display's rate (vsync) when playing; as fast as it goes for a fixed run.
    const Uint32 vsync = options.fixed ? 0u : static_cast<Uint32>(SDL_RENDERER_PRESENTVSYNC);
    SDL_Renderer* renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED | vsync);
    if (!renderer)
        renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE);
    if (!renderer) {
        error = std::string("cannot draw in the window: ") + SDL_GetError();
        SDL_DestroyWindow(window);
        return nullptr;
    }
    return std::unique_ptr<Game>(new Game(options, std::move(scene), window, renderer));
}

Game::Game(const Options& options, shoal::CheckedScene scene, SDL_Window* window,
           SDL_Renderer* renderer)
    : m_options(options), m_scene(std::move(scene)), m_world(shoal::World::create(m_scene)),
      m_window(window), m_renderer(renderer), m_canvas(renderer), m_level(m_scene.scene()),
      m_agents(m_scene.scene(), playerRadiusOf(m_scene.scene())), m_hud(renderer)
{
    SDL_SetRenderDrawBlendMode(m_renderer, SDL_BLENDMODE_BLEND);
    SDL_RendererInfo info;
    if (SDL_GetRendererInfo(m_renderer, &info) == 0 && info.name)
        m_rendererName = info.name;
    int width = 0, height = 0;
    SDL_GetRendererOutputSize(m_renderer, &width, &height);
    m_camera.setViewport(width, height);
    m_camera.fit(m_world->boundsMin(), m_world->boundsMax());
}

Game::~Game()
{
    Hud::releaseFont();
    SDL_DestroyRenderer(m_renderer);
    SDL_DestroyWindow(m_window);
}

long long Game::run()
{
    const double ticksPerSecond = static_cast<double>(SDL_GetPerformanceFrequency());
    Uint64 last = SDL_GetPerformanceCounter();
    long long frame = 0;
    for (; m_options.frames < 0 || frame < m_options.frames; ++frame) {
        if (!handleEvents())
            break;
        const Uint64 now = SDL_GetPerformanceCounter();
        const double frameSeconds = static_cast<double>(now - last) / ticksPerSecond;
        last = now;
        if (m_options.fixed) {
            m_world->step();
            m_alpha = 1.0f;
        } else if (!m_paused) {
            // Whole fixed steps for the time the frame took; the rest is drawn as a fraction
            // of the next step, between each agent's last pose and its current one.
            m_alpha = m_world->advance(frameSeconds).alpha;
        }
        render(m_alpha);
        m_hud.frame(frameSeconds);
    }
    return frame;
}

bool Game::handleEvents()
{
    SDL_Event event;
    while (SDL_PollEvent(&event)) {
        switch (event.type) {
        case SDL_QUIT:
            return false;
        case SDL_KEYDOWN:
            if (event.key.keysym.sym == SDLK_ESCAPE)
                return false;
            if (!m_options.fixed)
                handleKey(event.key.keysym.sym);
            break;
        case SDL_WINDOWEVENT:
            if (event.window.event == SDL_WINDOWEVENT_SIZE_CHANGED) {
                int width = 0, height = 0;
                SDL_GetRendererOutputSize(m_renderer, &width, &height);
                m_camera.setViewport(width, height);
            }
            break;
        case SDL_MOUSEMOTION:
        case SDL_MOUSEBUTTONDOWN:
        case SDL_MOUSEBUTTONUP:
        case SDL_MOUSEWHEEL:
            // A fixed run takes no input: it must be the run shoal-cli makes.
            if (!m_options.fixed)
                handleMouse(event);
            break;
        default:
            break;
        }
    }
    return true;
}

void Game::handleMouse(const SDL_Event& event)
{
    switch (event.type) {
    case SDL_MOUSEMOTION:
        m_mouse = toPixels(event.motion.x, event.motion.y);
        break;
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP:
        m_mouse = toPixels(event.button.x, event.button.y);
        if (event.button.button == SDL_BUTTON_LEFT)
            m_steering = event.type == SDL_MOUSEBUTTONDOWN;
        if (event.button.button == SDL_BUTTON_RIGHT && event.type == SDL_MOUSEBUTTONDOWN) {
            // Every squad drives to the clicked point.
            const shoal::Vec2 target = m_camera.toWorld(m_mouse);
            for (int g = 0; g < m_world->groupCount(); ++g)
                if (m_world->group(g).kind == shoal::BehaviourKind::TankSquad)
                    m_world->setTarget(g, target);
        }
        break;
    case SDL_MOUSEWHEEL: {
        const float notches = event.wheel.preciseY;
        if (notches != 0.0f)
            m_camera.zoomAt(m_mouse, std::pow(kWheelZoom, notches));
        return; // the mouse did not move over the level: neither does the pointer
    }
    default:
        return;
    }
    // The pointer follows the mouse; while the left button is held the player (and the
    // worms) go for it, as in the editor's play mode.
    m_world->setPointer(m_camera.toWorld(m_mouse), m_steering);
}

void Game::handleKey(SDL_Keycode key)
{
    switch (key) {
    case SDLK_p:
        m_paused = !m_paused;
        break;
    case SDLK_r:
        restart();
        break;
    case SDLK_f:
        m_camera.fit(m_world->boundsMin(), m_world->boundsMax());
        break;
    default:
        break;
    }
}

SDL_FPoint Game::toPixels(int x, int y) const
{
    int windowWidth = 1, windowHeight = 1;
    SDL_GetWindowSize(m_window, &windowWidth, &windowHeight);
    return {static_cast<float>(x) * m_camera.width() / std::max(windowWidth, 1),
            static_cast<float>(y) * m_camera.height() / std::max(windowHeight, 1)};
}

void Game::restart()
{
    m_world = shoal::World::create(m_scene);
    m_world->setPointer(m_camera.toWorld(m_mouse), m_steering);
    m_alpha = 0.0f;
}

void Game::render(float alpha)
{
    SDL_SetRenderDrawColor(m_renderer, kOutside.r, kOutside.g, kOutside.b, 255);
    SDL_RenderClear(m_renderer);
    m_level.drawGround(m_canvas, m_camera);
    m_level.drawItems(m_canvas, m_camera, *m_world);
    m_agents.draw(m_canvas, m_camera, *m_world, alpha);
    m_canvas.flush();
    const std::string help = m_options.fixed
                                 ? std::string()
                                 : "hold left button: steer   right-click: send the squad   "
                                   "wheel: zoom   F: fit   P: pause   R: restart   Esc: quit";
    m_hud.draw(status(), help, m_camera.width(), m_camera.height());
    SDL_RenderPresent(m_renderer);
}

std::string Game::status() const
{
    char line[160];
    std::snprintf(line, sizeof line, "%3.0f fps (%s)   step %" PRIu64 "   %.1f s   %zu agents%s%s",
                  m_hud.framesPerSecond(), m_rendererName.c_str(), m_world->stepCount(),
                  m_world->time(), m_world->agentCount(), m_options.fixed ? "   fixed steps" : "",
                  m_paused ? "   PAUSED" : "");
    return line;
}

} // namespace game
