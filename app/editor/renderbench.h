#pragma once
/// `shoal --bench-render`: frames per second of the editor's viewport with N moving agents,
/// simulation included. It builds its own QGraphicsView with the agent layers and the
/// overlay item (the view settings the editor uses), steps the world and repaints the view
/// once per frame for a few seconds, and prints a table like `shoal-cli bench` (or one JSON
/// object per line). `--shots DIR` instead renders the demo level at a few zoom levels to
/// PNG files, for looking at the drawing.

#include <QStringList>

class QGraphicsScene;
class QGraphicsView;

namespace shoal {
struct SceneDesc;
}

namespace shoal::ui {

/// Runs the bench. `args` is the command line as QCoreApplication::arguments() gives it (the
/// program name first; a `--bench-render` among them is accepted and ignored). Needs a
/// QApplication. Returns 0, or 2 for bad options or a scene that cannot be built; timings
/// never fail it (the targets are printed as PASS/MISS).
int runRenderBench(const QStringList& args);

/// Applies the settings the editor's viewport uses for moving content: full viewport
/// updates, no item index, no antialiasing by default, no background cache, no painter state
/// saving (every item saves what it changes).
void configureViewForAgents(QGraphicsView* view);

} // namespace shoal::ui
