#pragma once
/// `shoal --bench-metrics`: what the metrics dock costs while the world plays (issue 11: the
/// frame rate with the dock open stays within 10 % of it closed, and the world's measures
/// cost at most 10 % of a step at 10,000 agents). The editor's window on the demo plus
/// stress agents plays for --seconds with the dock shown, then hidden, --rounds times
/// interleaved; each phase reports frames per second and the process's CPU time per frame
/// (the editor's timer caps the frame rate, so the CPU time shows what a frame costs). Then
/// World::step alone, with the measures every twelfth step (as the dock asks) against none,
/// interleaved. It reports; it never fails on time.

#include <QStringList>

namespace shoal::ui {

/// Runs the bench; `args` as QCoreApplication::arguments() gives them. Returns 0, or 2 for
/// bad options.
int runMetricsBench(const QStringList& args);

} // namespace shoal::ui
