#pragma once
/// The scene a tool edits while one gesture lasts (a drag of items or of a handle), to
/// preview it and to check it. A big level's copy costs tens of milliseconds and as much
/// memory as the level: the copy is made once, at the gesture's first preview, and for each
/// later one only the elements the gesture touched are put back as the document has them
/// before the tool edits them again. Each mouse move then costs what it touches.

#include "document/itemids.h"
#include <shoal/scenedesc.h>

#include <optional>

namespace shoal::ui {

class ScratchScene
{
public:
    /// `document` as it is for every element of `touched` (the refs the caller edits now)
    /// and for what earlier calls touched; the rest as it was at the first call. The copy
    /// is made again when the lists of `document` changed length since.
    SceneDesc& reset(const SceneDesc& document, const ItemRefs& touched);
    /// The gesture is over: the next reset() copies the document again.
    void clear();

private:
    std::optional<SceneDesc> m_scene;
    ItemRefs m_touched;
};

} // namespace shoal::ui
