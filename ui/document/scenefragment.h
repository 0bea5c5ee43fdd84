#pragma once
/// A piece of a level on the clipboard: the selected walls, obstacles, pickups and groups
/// (with their spawn areas, agents and targets) as a scene of their own, written in the scene
/// file's format (docs/scene-format.md), so a copy goes between two editor windows, two files
/// or a text editor and back. Pasting adds them to a level as one undo step, in free space
/// near where the user points, with group names made unique.

#include "document/itemids.h"
#include <shoal/expected.h>
#include <shoal/scenedesc.h>

#include <QString>

#include <optional>
#include <string>

class QMimeData;
class QUndoCommand;

namespace shoal::ui {

class Document;

/// The clipboard's type for a fragment; the same JSON also goes as plain text.
inline constexpr char kSceneFragmentMimeType[] = "application/x-shoal-scene-fragment";

/// The things of `scene` that `refs` name, as a scene of their own: bounds just round them, no
/// player, the scene's settings. Squad targets and the player start are not copied (they
/// belong to a squad and to the level); a group's chase of a group left behind is kept by
/// name, for the paste to resolve. Empty (no elements) when nothing copyable is named.
SceneDesc makeSceneFragment(const SceneDesc& scene, const ItemRefs& refs);

/// True when `fragment` holds no wall, obstacle, pickup or group.
bool isEmptyFragment(const SceneDesc& fragment);

/// The fragment as clipboard data: the scene file's JSON under kSceneFragmentMimeType and as
/// text.
QMimeData* fragmentMimeData(const SceneDesc& fragment);

/// The fragment held by `data` (our type, or text that is a scene file), or why not.
Expected<SceneDesc> fragmentFromMimeData(const QMimeData* data);

/// One command adding `fragment`'s things to `document`'s level, moved so that their box is
/// centred on `at` (m) or as near to it as there is free space, inside the bounds. Groups get
/// unique names (a chase follows its group's new name; a chase of a group that is in neither
/// falls back to the player). `added` receives the refs of the new things, for the selection.
/// Null when the fragment is empty or does not fit in the level.
QUndoCommand* makePasteCommand(Document* document, const SceneDesc& fragment, Point2 at,
                               double gridStep, ItemRefs* added = nullptr);

} // namespace shoal::ui
