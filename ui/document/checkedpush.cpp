#include "document/checkedpush.h"

#include "document/document.h"

#include <QCoreApplication>
#include <QUndoStack>

namespace shoal::ui {

std::optional<QString> pushChecked(Document* document, QUndoCommand* command)
{
    QUndoStack* stack = document->undoStack();
    stack->push(command);
    const std::optional<Error>& error = document->sceneError();
    if (!error)
        return std::nullopt;
    const QString message = QCoreApplication::translate("UndoCommands", "Not applied: %1")
                                .arg(QString::fromStdString(error->message));
    // Taken back by hand, then made obsolete: QUndoStack::undo() deletes an obsolete command
    // without undoing it, so no redo step is left.
    if (stack->index() > 0 && stack->command(stack->index() - 1) == command) {
        command->undo();
        command->setObsolete(true);
        stack->undo();
    }
    return message;
}

} // namespace shoal::ui
