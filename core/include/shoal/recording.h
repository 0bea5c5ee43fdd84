#pragma once
/// Recordings: everything that decides a run, so that it can be run again to the same state
/// hash (shoal-cli run --record, shoal-cli replay). A recording is the scene as the run built
/// it (its seed, presets and all), the input and parameter edits with the step before which
/// each was applied, how many steps the run made and the hash it ended with. The file is JSON
/// (docs/cli.md, "Recordings"), versioned like scene files: a newer version is refused.

#include <shoal/expected.h>
#include <shoal/export.h>
#include <shoal/inputscript.h>
#include <shoal/scenedesc.h>
#include <shoal/scenefile.h>

#include <cstdint>
#include <string>

namespace shoal {

/// The recording format this build writes, and the newest it reads.
constexpr int kRecordingFormatVersion = 1;

struct SHOAL_API Recording
{
    SceneDesc scene;         ///< the scene the world was built from
    InputScript input;       ///< pointer, target and parameter events, by step
    std::uint64_t steps = 0; ///< steps the run made
    std::uint64_t hash = 0;  ///< World::stateHash() after them
};

/// The file text of a recording: the header, one event a line, then the scene as a scene file
/// writes it. Numbers in shortest round-trip form, so reading it back gives the same run.
SHOAL_API std::string serializeRecording(const Recording& recording);

/// Parses a recording held in `text`; `fileName` starts every message. The scene is checked
/// as a scene file is (errors read "<file>: scene: ..."), the events' fields and order as an
/// input script's (errors read "<file>: events[3]: ..."). The events are checked against the
/// world only when it is built (checkInputScript, whose messages name the event the same way).
/// A text over options.maxFileBytes is refused before it is parsed.
SHOAL_API Expected<Recording> parseRecording(const std::string& text, const std::string& fileName,
                                             const SceneReadOptions& options = {});
/// Reads the file at `path` and parses it; errors start with `path`.
SHOAL_API Expected<Recording> loadRecordingFile(const std::string& path,
                                                const SceneReadOptions& options = {});

} // namespace shoal
