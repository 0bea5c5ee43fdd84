#pragma once
/// The editor's look: Fusion with a dark neutral palette that matches the viewport (agents and
/// gizmos are coloured for a dark background), and a few style sheet touches for the docks.

class QApplication;

namespace shoal::ui {

void applyEditorTheme(QApplication& app);

} // namespace shoal::ui
