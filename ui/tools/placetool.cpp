#include "tools/placetool.h"

#include "document/commands.h"
#include "document/sceneedits.h"
#include "viewport/editorscene.h"
#include "viewport/items/markeritem.h"
#include "viewport/items/pickupitem.h"
#include "viewport/items/previewitem.h"
#include "viewport/viewportstyle.h"
#include "window/toolicons.h"

#include <QButtonGroup>
#include <QGraphicsSceneMouseEvent>
#include <QHBoxLayout>
#include <QRadioButton>

namespace shoal::ui {

PlaceTool::PlaceTool(Family family, QObject* parent)
    : AbstractTool(family == Family::Pickup ? tr("Pickup") : tr("Target"),
                   toolIcon(family == Family::Pickup ? ToolIcon::Pickup : ToolIcon::Target),
                   QKeySequence(family == Family::Pickup ? Qt::Key_P : Qt::Key_T), parent),
      m_family(family), m_what(family == Family::Pickup ? What::Fish : What::SquadTarget)
{
    updateStatus();
}

void PlaceTool::setWhat(What what)
{
    const bool pickup = what == What::Fish || what == What::Coin;
    if (m_what == what || pickup != (m_family == Family::Pickup))
        return;
    m_what = what;
    updateGhost();
    updateStatus();
    emit optionsChanged();
}

void PlaceTool::updateStatus()
{
    switch (m_what) {
    case What::Fish:
        setStatusInfo(tr("Click to place a free fish (the player's school picks it up)"));
        break;
    case What::Coin:
        // Worms grow only by their Growth per coin, 0 unless set: the hint says so, not more.
        setStatusInfo(tr("Click to place a coin (worms eat it; they grow by their Growth per "
                         "coin, 0 unless set)"));
        break;
    case What::SquadTarget:
        setStatusInfo(tr("Click to set the selected tank squad's target"));
        break;
    case What::PlayerStart:
        setStatusInfo(tr("Click to set where the player starts"));
        break;
    }
}

void PlaceTool::activate(EditorScene* scene)
{
    AbstractTool::activate(scene);
    m_ghost = addPreview(new IconPreviewItem(
        [this](QPainter* painter) {
            switch (m_what) {
            case What::Fish:
                PickupItem::paintIcon(painter, PickupKind::Fish, style::kPickupPixels);
                break;
            case What::Coin:
                PickupItem::paintIcon(painter, PickupKind::Coin, style::kPickupPixels);
                break;
            case What::SquadTarget: {
                const int squad = this->scene() ? this->scene()->targetSquad() : -1;
                const QColor color =
                    squad >= 0
                        ? style::toQColor(document()->scene().groups[std::size_t(squad)].color)
                        : style::kPreview;
                MarkerItem::paintTarget(painter, color, style::kMarkerPixels);
                break;
            }
            case What::PlayerStart:
                MarkerItem::paintPlayerStart(painter,
                                             document() ? document()->scene().player.heading : 0.0,
                                             style::kMarkerPixels);
                break;
            }
        },
        style::kMarkerPixels));
    m_ghost->setVisible(false);
}

void PlaceTool::updateGhost()
{
    if (m_ghost)
        m_ghost->update();
}

void PlaceTool::mousePressed(QGraphicsSceneMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    m_pressed = true;
    mouseMoved(event);
}

void PlaceTool::mouseMoved(QGraphicsSceneMouseEvent* event)
{
    const QPointF p = scene()->snap(event->scenePos());
    m_ghost->setPos(p);
    m_ghost->setVisible(scene()->levelRect().contains(p));
    m_ghost->update();
}

void PlaceTool::mouseReleased(QGraphicsSceneMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || !m_pressed)
        return;
    m_pressed = false;
    place(scene()->snap(event->scenePos()));
}

void PlaceTool::place(QPointF pos)
{
    const SceneDesc& current = document()->scene();
    const Point2 p = style::toPoint(pos);
    if (!scene()->levelRect().contains(pos)) {
        emit scene()->statusMessage(tr("Click inside the level to place it"));
        return;
    }
    switch (m_what) {
    case What::Fish:
    case What::Coin: {
        const PickupDesc pickup{m_what == What::Fish ? PickupKind::Fish : PickupKind::Coin, p};
        pushChecked(new AddPickupCommand(document(), -1, pickup));
        return;
    }
    case What::SquadTarget: {
        const int squad = scene()->targetSquad();
        if (squad < 0) {
            emit scene()->statusMessage(
                tr("There is no tank squad to send: add one with the spawn-area tool"));
            return;
        }
        GroupDesc group = current.groups[std::size_t(squad)];
        group.target = p;
        auto* command = new SetGroupCommand(document(), squad, group);
        command->setText(tr("Move Target of '%1'").arg(QString::fromStdString(group.name)));
        pushChecked(command);
        return;
    }
    case What::PlayerStart: {
        PlayerDesc player = current.player;
        player.position = p;
        player.enabled = true;
        auto* command = new SetPlayerCommand(document(), 0, player);
        command->setText(tr("Move Player Start"));
        pushChecked(command);
        return;
    }
    }
}

void PlaceTool::cancel()
{
    m_pressed = false;
}

QWidget* PlaceTool::createOptionsWidget(QWidget* parent)
{
    auto* widget = new QWidget(parent);
    auto* layout = new QHBoxLayout(widget);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* group = new QButtonGroup(widget);
    const auto add = [&](What what, const QString& text) {
        auto* button = new QRadioButton(text, widget);
        button->setChecked(m_what == what);
        group->addButton(button, int(what));
        layout->addWidget(button);
    };
    if (m_family == Family::Pickup) {
        add(What::Fish, tr("Free fish"));
        add(What::Coin, tr("Coin"));
    } else {
        add(What::SquadTarget, tr("Squad target"));
        add(What::PlayerStart, tr("Player start"));
    }
    layout->addStretch();
    connect(group, &QButtonGroup::idClicked, this, [this](int id) { setWhat(What(id)); });
    connect(this, &AbstractTool::optionsChanged, group, [this, group] {
        const QSignalBlocker blocker(group);
        if (QAbstractButton* button = group->button(int(m_what)))
            button->setChecked(true);
    });
    return widget;
}

} // namespace shoal::ui
