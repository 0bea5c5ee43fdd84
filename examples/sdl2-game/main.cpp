// sdl2-game: a small game on Shoal's runtime. It loads a level saved by the editor and plays
// it in a window at the display's rate: fixed steps of the world, agents drawn between their
// last two poses. Hold the left button to steer the player, right-click to send the squad,
// scroll to zoom.
//
// `sdl2-game SCENE --frames N --fixed` takes one step per frame for N frames, with no input,
// and prints the line `shoal-cli run SCENE --steps N` prints: `hash: <16 hex digits>`. With
// SDL_VIDEODRIVER=dummy it needs no display.

#define SDL_MAIN_HANDLED
#include "game.h"

#include <shoal/scenefile.h>
#include <shoal/version.h>

#include <SDL.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

void usage(std::FILE* to)
{
    std::fprintf(
        to,
        "usage: sdl2-game [SCENE] [--frames N [--fixed]] [--size WxH]\n"
        "  SCENE        a level saved by the editor (.json)"
#ifdef SHOAL_GAME_DEFAULT_SCENE
        "; default: the demo level"
#endif
        "\n"
        "  --frames N   quit after N frames\n"
        "  --fixed      one step per frame, no vsync, no input; print the state hash\n"
        "               as `shoal-cli run SCENE --steps N` does\n"
        "  --size WxH   the window's size (default 1280x800)\n"
        "Controls: hold the left button to steer the player, right-click to send the\n"
        "squad, wheel to zoom, F to fit the level, P to pause, R to restart, Esc to quit.\n"
        "Shoal runtime %s\n",
        shoal::version());
}

bool wholeNumber(const char* text, long long& out)
{
    char* end = nullptr;
    out = std::strtoll(text, &end, 10);
    return *text != '\0' && *end == '\0' && out >= 0;
}

/// Reads the command line into `options`; prints why and returns false when it cannot.
bool parseArguments(int argc, char** argv, game::Options& options)
{
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool hasValue = i + 1 < argc;
        if (arg == "--fixed") {
            options.fixed = true;
        } else if (arg == "--frames" && hasValue) {
            if (!wholeNumber(argv[++i], options.frames)) {
                std::fprintf(stderr, "sdl2-game: --frames: '%s' is not a whole number >= 0\n",
                             argv[i]);
                return false;
            }
        } else if (arg == "--size" && hasValue) {
            if (std::sscanf(argv[++i], "%dx%d", &options.width, &options.height) != 2 ||
                options.width < 64 || options.height < 64 || options.width > 16384 ||
                options.height > 16384) {
                std::fprintf(stderr, "sdl2-game: --size: '%s' is not WxH (64 to 16384)\n", argv[i]);
                return false;
            }
        } else if (arg == "--help" || arg == "-h") {
            usage(stdout);
            std::exit(0);
        } else if (!arg.empty() && arg[0] != '-' && options.scenePath.empty()) {
            options.scenePath = arg;
        } else {
            std::fprintf(stderr, "sdl2-game: unexpected argument '%s'\n", arg.c_str());
            usage(stderr);
            return false;
        }
    }
    if (options.fixed && options.frames < 0) {
        std::fprintf(stderr, "sdl2-game: --fixed needs --frames N\n");
        return false;
    }
#ifdef SHOAL_GAME_DEFAULT_SCENE
    if (options.scenePath.empty())
        options.scenePath = SHOAL_GAME_DEFAULT_SCENE;
#endif
    if (options.scenePath.empty()) {
        usage(stderr);
        return false;
    }
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    game::Options options;
    if (!parseArguments(argc, argv, options))
        return 1;
    // Loading checks the whole file: a bad one is refused with the place and the reason.
    auto scene = shoal::loadCheckedScene(options.scenePath);
    if (!scene) {
        std::fprintf(stderr, "sdl2-game: %s\n", scene.error().message.c_str());
        return 1;
    }
    SDL_SetMainReady();
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        std::fprintf(stderr,
                     "sdl2-game: cannot start SDL's video: %s (without a display, set "
                     "SDL_VIDEODRIVER=dummy)\n",
                     SDL_GetError());
        return 1;
    }
    int status = 0;
    {
        std::string error;
        std::unique_ptr<game::Game> game = game::Game::create(options, std::move(*scene), error);
        if (!game) {
            std::fprintf(stderr, "sdl2-game: %s\n", error.c_str());
            status = 1;
        } else {
            const long long frames = game->run();
            if (options.fixed && frames < options.frames) {
                std::fprintf(stderr, "sdl2-game: stopped after %lld of %lld frames: no hash\n",
                             frames, options.frames);
                status = 1;
            } else if (options.fixed) {
                std::printf("hash: %016" PRIx64 "\n", game->world().stateHash());
            }
        }
    }
    SDL_Quit();
    return status;
}
