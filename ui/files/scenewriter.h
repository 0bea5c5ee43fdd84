#pragma once
/// The one routine every file of the editor is written with: Save, Save As, the autosaved
/// recovery copy and a timeline saved as a recording. A QSaveFile whose errors are checked at the
/// write and at the commit, so a failed write leaves the old file as it was and says why.

#include <shoal/recording.h>
#include <shoal/scenedesc.h>

#include <QString>

namespace shoal::ui {

/// Writes `scene` to `path` atomically. Empty, or why it failed. Reads nothing but its
/// arguments, so the autosave may call it on a worker thread.
QString writeSceneFile(const SceneDesc& scene, const QString& path);
/// Writes `recording` (serializeRecording) to `path` the same way.
QString writeRecordingFile(const Recording& recording, const QString& path);

} // namespace shoal::ui
