#include "window/clipboardactions.h"

#include "document/checkedpush.h"
#include "document/commands.h"
#include "document/document.h"
#include "document/itemnames.h"
#include "document/sceneedits.h"
#include "document/scenefragment.h"
#include "viewport/editorscene.h"
#include "viewport/sceneview.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QMimeData>
#include <QUndoStack>

#include <algorithm>

namespace shoal::ui {

ClipboardActions::ClipboardActions(EditorScene* scene, SceneView* view, QObject* parent)
    : QObject(parent), m_scene(scene), m_view(view), m_cut(new QAction(tr("Cu&t"), this)),
      m_copy(new QAction(tr("&Copy"), this)), m_paste(new QAction(tr("&Paste"), this))
{
    // Written out as well as the platform's: on a desktop without a platform theme the
    // standard keys may be missing (as Save As's were).
    m_cut->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::Key_X), QKeySequence(Qt::SHIFT | Qt::Key_Delete)});
    m_copy->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_C));
    m_paste->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::Key_V), QKeySequence(Qt::SHIFT | Qt::Key_Insert)});
    m_cut->setObjectName(QStringLiteral("cutAction"));
    m_copy->setObjectName(QStringLiteral("copyAction"));
    m_paste->setObjectName(QStringLiteral("pasteAction"));
    m_cut->setStatusTip(tr("Move the selected items to the clipboard"));
    m_copy->setStatusTip(tr("Copy the selected items, to paste them here or in another level"));
    m_paste->setStatusTip(tr("Paste items near the pointer, in free space"));
    connect(m_cut, &QAction::triggered, this, &ClipboardActions::cutSelection);
    connect(m_copy, &QAction::triggered, this, &ClipboardActions::copySelection);
    connect(m_paste, &QAction::triggered, this, &ClipboardActions::paste);

    connect(m_scene, &EditorScene::editorSelectionChanged, this, &ClipboardActions::updateActions);
    connect(m_scene->document(), &Document::changed, this, &ClipboardActions::updateActions);
    connect(QGuiApplication::clipboard(), &QClipboard::dataChanged, this,
            &ClipboardActions::updateActions);
    connect(m_view, &SceneView::cursorMoved, this, [this](QPointF p) { m_pointer = p; });
    updateActions();
}

bool ClipboardActions::copySelection()
{
    const SceneDesc fragment =
        makeSceneFragment(m_scene->document()->scene(), m_scene->selectedRefs());
    if (isEmptyFragment(fragment))
        return false;
    QGuiApplication::clipboard()->setMimeData(fragmentMimeData(fragment));
    return true;
}

bool ClipboardActions::cutSelection()
{
    Document* document = m_scene->document();
    const ItemRefs refs = existingRefs(document->scene(), m_scene->selectedRefs());
    if (!copySelection())
        return false;
    QUndoCommand* command = makeRemoveItemsCommand(document, refs);
    if (!command)
        return false;
    command->setText(tr("Cut %1").arg(itemsName(document->scene(), refs)));
    return pushChecked(command);
}

bool ClipboardActions::paste()
{
    const QPointF at = m_view->viewport()->underMouse()
                           ? m_pointer
                           : m_view->mapToScene(m_view->viewport()->rect().center());
    return pasteAt(at);
}

bool ClipboardActions::pasteAt(QPointF scenePos)
{
    const Expected<SceneDesc> fragment =
        fragmentFromMimeData(QGuiApplication::clipboard()->mimeData());
    if (!fragment) {
        emit m_scene->statusMessage(
            tr("Nothing pasted: %1").arg(QString::fromStdString(fragment.error().message)));
        return false;
    }
    ItemRefs added;
    QUndoCommand* command =
        makePasteCommand(m_scene->document(), fragment.value(), {scenePos.x(), scenePos.y()},
                         m_scene->snapToGrid() ? m_scene->gridSize() : 0.0, &added);
    if (!command) {
        emit m_scene->statusMessage(tr("Nothing pasted: the items do not fit in this level"));
        return false;
    }
    if (!pushChecked(command))
        return false;
    m_scene->setSelectedRefs(added);
    return true;
}

bool ClipboardActions::canPaste() const
{
    const QMimeData* data = QGuiApplication::clipboard()->mimeData();
    return data && (data->hasFormat(QString::fromLatin1(kSceneFragmentMimeType)) ||
                    data->text().trimmed().startsWith(QLatin1Char('{')));
}

void ClipboardActions::updateActions()
{
    // Without building the fragment: this runs at every change of the level.
    const ItemRefs refs = existingRefs(m_scene->document()->scene(), m_scene->selectedRefs());
    const bool copyable = std::any_of(refs.begin(), refs.end(), [](const ItemRef& ref) {
        return ref.kind != ItemKind::SquadTarget && ref.kind != ItemKind::PlayerStart;
    });
    m_cut->setEnabled(copyable);
    m_copy->setEnabled(copyable);
    m_paste->setEnabled(canPaste());
}

bool ClipboardActions::pushChecked(QUndoCommand* command)
{
    if (const std::optional<QString> refused = ui::pushChecked(m_scene->document(), command)) {
        emit m_scene->statusMessage(*refused);
        return false;
    }
    return true;
}

} // namespace shoal::ui
