#pragma once
/// Where a tank squad of the running world is really heading when that is not the target the
/// level sets: a right click in Play moves the live target (the level's stays, as an edit
/// would be undoable and this is play). Drawn as the target marker in the squad's colour,
/// dashed, labelled, at a fixed size on screen; hidden while the two agree.

#include <QColor>
#include <QGraphicsItem>

namespace shoal::ui {

class LiveTargetItem : public QGraphicsItem
{
public:
    static constexpr double kZValue = 45.0;
    static constexpr double kSize = 22.0; ///< px

    LiveTargetItem(int group, const QColor& color);
    int groupIndex() const { return m_group; }
    void setColor(const QColor& color);

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    int m_group;
    QColor m_color;
};

} // namespace shoal::ui
