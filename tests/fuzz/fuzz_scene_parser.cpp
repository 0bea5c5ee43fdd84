// Fuzzes the scene parser: parseCheckedScene() on the input bytes. Besides crashes, leaks and
// undefined behaviour, it holds the parser to what scenefile.h promises: a refusal's message
// starts with the file name, and a scene that loads saves to text that loads back as the same
// scene and saves to the same bytes.

#include "fuzzfailure.h"
#include "jsonmutator.h"
#include "outcometally.h"

#include <shoal/scenefile.h>

#include <cstddef>
#include <cstdint>
#include <string>

using namespace shoal;

const fuzz::MutationStyle fuzz::kSceneMutationStyle = fuzz::MutationStyle::Anything;

namespace {

const std::string kFileName = "fuzz.json";

enum Outcome
{
    Refused,
    Loaded,
};
fuzz::OutcomeTally g_tally("fuzz_scene_parser", {"refused", "loaded and saved"});

void checkRoundTrip(const SceneDesc& scene)
{
    const std::string saved = serializeScene(scene);
    const Expected<SceneDesc> reloaded = parseScene(saved, kFileName);
    if (!reloaded)
        fuzz::failPromise("a loaded scene's saved text loads again",
                          reloaded.error().message + "\n--- saved text:\n" + saved);
    if (!(reloaded.value() == scene))
        fuzz::failPromise("load -> save -> load gives the same scene", saved);
    const std::string savedAgain = serializeScene(reloaded.value());
    if (savedAgain != saved)
        fuzz::failPromise("load -> save -> load -> save gives the same bytes",
                          saved + "\n--- then:\n" + savedAgain);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    const Expected<CheckedScene> scene = parseCheckedScene(text, kFileName);
    if (!scene) {
        g_tally.count(Refused);
        if (scene.error().message.rfind(kFileName + ":", 0) != 0)
            fuzz::failPromise("a refusal's message starts with the file name",
                              scene.error().message);
        return 0;
    }
    g_tally.count(Loaded);
    checkRoundTrip(scene.value().scene());
    return 0;
}
