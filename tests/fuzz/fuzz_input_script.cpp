// Fuzzes the input-script parser: parseInputScript() on the input bytes, then, for a script it
// accepts, checkInputScript() against the world of the demo scene (built once). Besides
// crashes, leaks and undefined behaviour, it holds both to inputscript.h: a refusal's message
// starts with the file name, and an accepted script's steps never decrease.

#include "fuzzfailure.h"
#include "outcometally.h"

#include <shoal/inputscript.h>
#include <shoal/scenefile.h>
#include <shoal/world.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

using namespace shoal;

namespace {

const std::string kFileName = "fuzz.input";

enum Outcome
{
    Refused,
    RefusedByTheWorld,
    Accepted,
};
fuzz::OutcomeTally g_tally("fuzz_input_script",
                           {"refused", "parsed, refused by the demo", "accepted"});

/// The demo's world: its squads are what target events may name.
const World& demoWorld()
{
    static const std::unique_ptr<World> world = [] {
        Expected<CheckedScene> scene = loadCheckedScene(SHOAL_DEMO_SCENE);
        if (!scene)
            fuzz::failPromise("the demo scene loads", scene.error().message);
        return World::create(scene.value());
    }();
    return *world;
}

void checkStepsInOrder(const InputScript& script)
{
    for (std::size_t i = 1; i < script.events.size(); ++i)
        if (script.events[i].step < script.events[i - 1].step)
            fuzz::failPromise("an accepted script's steps never decrease",
                              "event " + std::to_string(i) + " on line " +
                                  std::to_string(script.events[i].line));
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    demoWorld(); // before the first input, so building it counts against no input's time
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    const Expected<InputScript> script = parseInputScript(text, kFileName);
    if (!script) {
        g_tally.count(Refused);
        if (script.error().message.rfind(kFileName + ":", 0) != 0)
            fuzz::failPromise("a refusal's message starts with the file name",
                              script.error().message);
        return 0;
    }
    checkStepsInOrder(script.value());
    const std::optional<Error> refused = checkInputScript(script.value(), demoWorld());
    g_tally.count(refused ? RefusedByTheWorld : Accepted);
    if (refused && refused->message.rfind(kFileName + ":", 0) != 0)
        fuzz::failPromise("a refusal's message starts with the file name", refused->message);
    return 0;
}
