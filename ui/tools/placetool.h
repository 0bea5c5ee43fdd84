#pragma once
/// Click-to-place tools: pickups (a free fish or a coin) and markers (the selected tank squad's
/// target, the player's start). A ghost of what will be placed follows the mouse; the click
/// (on release) pushes one undo command. Clicks outside the level are refused.

#include "tools/abstracttool.h"

#include <QPointF>

namespace shoal::ui {

class IconPreviewItem;

class PlaceTool : public AbstractTool
{
    Q_OBJECT

public:
    enum class What
    {
        Fish,
        Coin,
        SquadTarget,
        PlayerStart
    };
    Q_ENUM(What)

    /// The pickup tool (Fish, Coin) or the target tool (SquadTarget, PlayerStart).
    enum class Family
    {
        Pickup,
        Target
    };

    PlaceTool(Family family, QObject* parent = nullptr);

    What what() const { return m_what; }
    void setWhat(What what);

    void activate(EditorScene* scene) override;
    void mousePressed(QGraphicsSceneMouseEvent* event) override;
    void mouseMoved(QGraphicsSceneMouseEvent* event) override;
    void mouseReleased(QGraphicsSceneMouseEvent* event) override;
    void cancel() override;
    bool isBusy() const override { return m_pressed; }
    QWidget* createOptionsWidget(QWidget* parent) override;

private:
    void place(QPointF scenePos);
    void updateGhost();
    void updateStatus();

    Family m_family;
    What m_what;
    bool m_pressed = false;
    IconPreviewItem* m_ghost = nullptr;
};

} // namespace shoal::ui
