#pragma once
/// Pushing an edit that might make the level invalid (a paste over the player start, a coin
/// outside the bounds): kept when the level still passes validateScene(), else taken back
/// with no trace in the history. AbstractTool::pushChecked() does the same for the tools.

#include <QString>

#include <optional>

class QUndoCommand;

namespace shoal::ui {

class Document;

/// Pushes `command` onto `document`'s undo stack; when the level it makes does not pass the
/// check, takes it back (gone from the history, no redo step) and returns why, as a status
/// message ("Not applied: ...").
std::optional<QString> pushChecked(Document* document, QUndoCommand* command);

} // namespace shoal::ui
