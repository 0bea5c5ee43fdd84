#pragma once
/// The one routine every scene file of the editor is written with: Save, Save As and the
/// autosaved recovery copy. A QSaveFile whose errors are checked at the write and at the
/// commit, so a failed write leaves the old file as it was and says why.

#include <shoal/scenedesc.h>

#include <QString>

namespace shoal::ui {

/// Writes `scene` to `path` atomically. Empty, or why it failed. Reads nothing but its
/// arguments, so the autosave may call it on a worker thread.
QString writeSceneFile(const SceneDesc& scene, const QString& path);

} // namespace shoal::ui
