// minimal: the smallest game loop on Shoal's runtime. `minimal SCENE STEPS` loads a scene
// saved by the editor, runs STEPS fixed steps and prints the state hash, the line
// `shoal-cli run SCENE --steps STEPS` prints: the same level gives the same movement in the
// game as in the editor, bit for bit.

#include <shoal/scenefile.h>
#include <shoal/version.h>
#include <shoal/world.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

int main(int argc, char** argv)
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: minimal SCENE STEPS   (Shoal runtime %s)\n", shoal::version());
        return 2;
    }
    char* end = nullptr;
    const long long steps = std::strtoll(argv[2], &end, 10);
    if (*argv[2] == '\0' || *end != '\0' || steps < 0) {
        std::fprintf(stderr, "minimal: STEPS: '%s' is not a whole number >= 0\n", argv[2]);
        return 2;
    }
    // Loading checks the whole file: a bad one is refused with the place and the reason.
    auto scene = shoal::loadCheckedScene(argv[1]);
    if (!scene) {
        std::fprintf(stderr, "minimal: %s\n", scene.error().message.c_str());
        return 2;
    }
    std::unique_ptr<shoal::World> world = shoal::World::create(*scene);
    for (long long s = 0; s < steps; ++s)
        world->step();
    std::printf("hash: %016" PRIx64 "\n", world->stateHash());
    return 0;
}
