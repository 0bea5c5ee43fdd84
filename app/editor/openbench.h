#pragma once
/// `shoal --bench-open`: how a big level behaves in the editor (issue 10 item 8). It writes
/// bigScene(--walls) to a file, then measures in a fresh process of its own (so the peak
/// memory is the editor's alone): the time to open the file in the MainWindow until the
/// first frame, the peak and final resident memory, one full-view frame, and the latency of
/// single edits made through the real tools and commands until the next frame: selecting a
/// wall, dragging one wall point, changing one group parameter, drawing a new wall, and
/// undoing each. Each latency is the median of --rounds, beside the most frames of the view
/// one round painted (1: the edit's own frame). It reports; it never fails on time.

#include <QStringList>

namespace shoal::ui {

/// Runs the bench; `args` as QCoreApplication::arguments() gives them. Returns 0, or 2 for
/// bad options or a level that cannot be written or opened.
int runOpenBench(const QStringList& args);

} // namespace shoal::ui
