#pragma once
/// What the editor's measuring docks cost while the world plays (issue 11: the frame rate
/// with the metrics dock open stays within 10 % of it closed, and the world's measures cost
/// at most 10 % of a step at 10,000 agents). The editor's window on the demo plus stress
/// agents plays for a few seconds with no dock shown, with the metrics dock shown, and with
/// the Problems tab shown, a few rounds interleaved; each phase reports frames per second and
/// the process's CPU time per frame (the editor's timer caps the frame rate, so the CPU time
/// shows what a frame costs). Then World::step alone, measuring every twelfth step (as the
/// dock asks) against never, interleaved. It reports; it never fails on time.
///
/// `shoal --bench-render` ends with this section; `shoal --bench-docks` (or its older name
/// `--bench-metrics`) runs it alone.

#include <QStringList>

namespace shoal::ui {

/// The dock section's settings.
struct DockBenchOptions
{
    int agents = 10000;
    double seconds = 4.0; ///< per phase
    int rounds = 3;
    bool json = false; ///< one JSON object instead of the table
};

/// Measures and prints the section. Needs a QApplication. Returns 0, or 2 when the window
/// lacks a dock or the level cannot be built.
int measureDocks(const DockBenchOptions& options);

/// `shoal --bench-docks`: parses `--agents`, `--seconds`, `--rounds`, `--json` from `args`
/// (as QCoreApplication::arguments() gives them) and runs the section. Returns 0, or 2 for bad
/// options.
int runDockBench(const QStringList& args);

} // namespace shoal::ui
