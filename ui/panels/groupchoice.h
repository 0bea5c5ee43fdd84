#pragma once
/// A combo box that lists the level's groups by name (the Sweep, Tune and A/B Compare forms).

#include <shoal/scenedesc.h>

class QComboBox;

namespace shoal::ui {

/// Lists `scene`'s groups in `box` unless it lists them already, keeping the group shown by
/// name (the first when it is gone), without announcing the refill. Whether the list changed.
bool refillGroupChoice(QComboBox* box, const SceneDesc& scene);

} // namespace shoal::ui
