#pragma once
/// How the editor names and colours each kind of problem (the dock's list and the markers in
/// the view share them).

#include <shoal/problems.h>

#include <QColor>
#include <QString>

namespace shoal::ui {

/// "Stuck", "Oscillating", "Overlapping", "In a wall", "No progress".
QString problemKindName(ProblemKind kind);
QColor problemKindColor(ProblemKind kind);
/// What the measured value says: "going nowhere for 3.2 s", "12 cm into another body".
QString problemDetail(const Problem& problem);

} // namespace shoal::ui
