#pragma once
/// Scene files: the versioned JSON form of a SceneDesc (docs/scene-format.md), read with
/// every problem reported as an Error a user can act on, and written in a stable order so
/// that load -> save -> load gives the same scene and the same bytes; and the core's one
/// atomic file writer, which saves scenes and the CLI's output files.

#include <shoal/expected.h>
#include <shoal/export.h>
#include <shoal/scenedesc.h>
#include <shoal/scenelimits.h>

#include <cstddef>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

namespace shoal {

/// The format version this build writes, and the newest it reads. Older files are migrated
/// one version at a time on load; newer ones are refused.
constexpr int kSceneFormatVersion = 3;

/// How much the readers take in. The default limit keeps a hostile or mistaken file (a
/// device, a log) from being read into memory at all; a user with a bigger level raises it.
struct SHOAL_API SceneReadOptions
{
    std::size_t maxFileBytes = kDefaultMaxSceneBytes;
};

/// Parses a whole scene file held in `text`. `fileName` is only used to start every error
/// message (e.g. "demo.json:3:14: ..." or "demo.json: groups[2].spawn.count: ...").
/// On success the scene is complete and has passed validateScene(); on any problem only the
/// Error is returned, never part of a scene.
/// A text longer than options.maxFileBytes is refused before it is parsed.
SHOAL_API Expected<SceneDesc> parseScene(const std::string& text, const std::string& fileName,
                                         const SceneReadOptions& options = {});

/// Reads the file at `path` and parses it; errors start with `path`. A file longer than
/// options.maxFileBytes is refused without being read (a device or pipe: as soon as more
/// than that has come in).
SHOAL_API Expected<SceneDesc> loadSceneFile(const std::string& path,
                                            const SceneReadOptions& options = {});
/// The same two, keeping the proof of the check (CheckedScene): a World built from the result
/// does not validate the scene again.
SHOAL_API Expected<CheckedScene> parseCheckedScene(const std::string& text,
                                                   const std::string& fileName,
                                                   const SceneReadOptions& options = {});
SHOAL_API Expected<CheckedScene> loadCheckedScene(const std::string& path,
                                                  const SceneReadOptions& options = {});

/// Reads at most `maxBytes` of the file at `path` into `text`; the error names the file and
/// the limit when it holds more (or cannot be read). Shared by every reader of user files.
SHOAL_API std::optional<Error> readFileLimited(const std::string& path, std::size_t maxBytes,
                                               std::string& text);
/// The refusal of a text that holds a NUL byte at or after `from` (no text file does: a
/// binary file or a device), with its line and column; nothing when there is none.
SHOAL_API std::optional<Error> nulByteError(const std::string& displayName, const std::string& text,
                                            std::size_t from);
/// "64 MB", "1.5 MB", "900 bytes": a size as a message gives it.
SHOAL_API std::string describeBytes(std::size_t bytes);
/// The refusal of a file over the limit: "<path>: the file is <size>; files are read up to
/// <limit> (raise the limit with --max-file-size MB)".
SHOAL_API Error fileTooBig(const std::string& path, const std::string& size, std::size_t maxBytes);

/// The file text of `scene`: every field in a fixed order, 2-space indent, numbers in
/// shortest round-trip form. Ends with "\n". Meant for a scene that passes validateScene();
/// a parameter list of the wrong length is written with defaults filling the gaps.
SHOAL_API std::string serializeScene(const SceneDesc& scene);

/// Writes one file atomically: the bytes go to a temporary file in the target's folder, which
/// commit() flushes to disk (fsync) and renames over the target. Until commit() succeeds the
/// target is as it was; a writer that fails or is destroyed first removes its temporary file.
/// Errors read "<path>: cannot write: <the operating system's reason>" ("cannot save" when the
/// final rename fails), then a hint where one helps ("; the folder out does not exist"), and
/// "; the file was not changed" when a file was there. For text written in pieces (the CLI's
/// long outputs); writeFileAtomically() writes a whole text.
class SHOAL_API AtomicFileWriter
{
public:
    explicit AtomicFileWriter(std::string path);
    ~AtomicFileWriter();
    AtomicFileWriter(const AtomicFileWriter&) = delete;
    AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

    /// Creates the temporary file (refused when the target is a folder or its folder is missing).
    std::optional<Error> open();
    /// Appends `bytes`; a failure is kept and reported by commit().
    void write(std::string_view bytes);
    /// Flushes, syncs and renames the temporary file over the target.
    std::optional<Error> commit();

private:
    std::optional<Error> fail(const char* what, const std::string& why);
    void discard();

    std::string m_path;
    std::string m_temporary;
    std::FILE* m_file = nullptr;
    std::size_t m_written = 0;
    int m_writeError = 0;
};

/// Writes `contents` to `path` through an AtomicFileWriter: on failure `path` is untouched
/// and the Error names it and says why.
SHOAL_API std::optional<Error> writeFileAtomically(const std::string& path,
                                                   const std::string& contents);

/// writeFileAtomically(path, serializeScene(scene)).
SHOAL_API std::optional<Error> saveSceneFile(const SceneDesc& scene, const std::string& path);

} // namespace shoal
