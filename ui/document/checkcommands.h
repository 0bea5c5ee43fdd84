#pragma once
/// Edits of the scene's checks (SceneDesc::checks), each one undo step over the whole list
/// (SetChecksCommand), and how a check names a group ("GROUP.KEY"), so a rename of the group
/// renames it in the checks too.

#include "document/commands.h"

#include <optional>
#include <string>
#include <vector>

namespace shoal::ui {

/// The group a check's metric names: "school" of "school.nearestMedian" (the part before the
/// last dot), empty when it names none.
std::string checkMetricGroup(const std::string& metric);
/// "GROUP.KEY" of `group` and `key`.
std::string checkMetricName(const std::string& group, const std::string& key);

/// `checks` with every metric of group `from` (the metric and the value metric) naming group
/// `to` instead; the same list when none names it.
std::vector<CheckDesc> checksWithGroupRenamed(std::vector<CheckDesc> checks,
                                              const std::string& from, const std::string& to);

/// `checks` without those whose metric or value metric names a group of `groups` (their
/// names): what is left watching when those groups are removed.
std::vector<CheckDesc> checksWithoutGroups(std::vector<CheckDesc> checks,
                                           const std::vector<std::string>& groups);

/// What the scene validator says of the scene's checks with `check` put at `index` (an edit;
/// index == the number of checks: added at the end): nothing when it would pass.
std::optional<Error> checkRefusal(const SceneDesc& scene, int index, const CheckDesc& check);

/// Adds `check` at the end, as one step. Null when the validator refuses it.
QUndoCommand* makeAddCheckCommand(Document* document, const CheckDesc& check);
/// Replaces check `index` with `check`, as one step. Null when unchanged or refused.
QUndoCommand* makeEditCheckCommand(Document* document, int index, const CheckDesc& check);
/// Removes check `index`, as one step. Null for an index out of range.
QUndoCommand* makeRemoveCheckCommand(Document* document, int index);

} // namespace shoal::ui
