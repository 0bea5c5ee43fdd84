/* minimal-c: the smallest game loop on Shoal's C API. `minimal-c SCENE STEPS` loads a scene
 * saved by the editor, runs STEPS fixed steps and prints the state hash, the line
 * `shoal-cli run SCENE --steps STEPS` prints: the same level gives the same movement in a C
 * game as in the editor, bit for bit. */
#include <shoal/shoal_c.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
    shoal_world* world = NULL;
    uint64_t hash = 0;
    char* end = NULL;
    long steps = 0;

    if (argc != 3) {
        fprintf(stderr, "usage: minimal-c SCENE STEPS   (Shoal runtime %s)\n",
                shoal_version_string());
        return 2;
    }
    steps = strtol(argv[2], &end, 10);
    if (*argv[2] == '\0' || *end != '\0' || steps < 0) {
        fprintf(stderr, "minimal-c: STEPS: '%s' is not a whole number >= 0\n", argv[2]);
        return 2;
    }
    /* Loading checks the whole file: a bad one is refused with the place and the reason. */
    if (shoal_world_create_from_file(argv[1], &world) != SHOAL_OK) {
        fprintf(stderr, "minimal-c: %s\n", shoal_last_error());
        return 2;
    }
    for (; steps > 0; --steps)
        shoal_world_step(world, 1);
    shoal_world_state_hash(world, &hash);
    printf("hash: %016" PRIx64 "\n", hash);
    shoal_world_destroy(world);
    return 0;
}
