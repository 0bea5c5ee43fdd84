#pragma once
/// The main window's Experiments menu: Sweep Parameters and Tune Parameters, each opening its
/// dialog on the document (modeless, so Play runs while it is open; one of each at a time).

class QMenuBar;
class QWidget;

namespace shoal::ui {

class Document;

/// Adds the Experiments menu to `bar`; the dialogs it opens are `window`'s children.
void addExperimentsMenu(QMenuBar* bar, Document* document, QWidget* window);

} // namespace shoal::ui
