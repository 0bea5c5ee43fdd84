#pragma once
/// Core messages as the panels show them: parameters named by their labels, as on the rows.

#include <shoal/paramspec.h>

#include <QString>

#include <string>
#include <vector>

namespace shoal::ui {

/// Each parameter key of `specs` in `message` replaced by its label ("Keep min distance (2.5)
/// must be less than Keep max distance (2)"). Longer keys first, whole words only, so a key
/// inside another is left alone.
QString withLabels(const std::string& message, const std::vector<ParamSpec>& specs);

} // namespace shoal::ui
