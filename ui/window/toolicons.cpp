#include "window/toolicons.h"

#include "viewport/items/markeritem.h"
#include "viewport/items/pickupitem.h"

#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

namespace shoal::ui {

namespace {

const QColor kInk{0xd6, 0xdb, 0xe1};
const QColor kAccent{0x5c, 0xc8, 0xff};

/// The level-editing tools' icons: select, wall, obstacles, spawn area, pickup, target.
void drawEditIcon(QPainter& p, ToolIcon icon, const QColor& ink)
{
    switch (icon) {
    case ToolIcon::Select: {
        QPainterPath arrow;
        arrow.moveTo(6, 3);
        arrow.lineTo(6, 19);
        arrow.lineTo(10, 15);
        arrow.lineTo(13, 21);
        arrow.lineTo(15.5, 20);
        arrow.lineTo(12.5, 14);
        arrow.lineTo(18, 14);
        arrow.closeSubpath();
        p.setBrush(ink);
        p.drawPath(arrow);
        break;
    }
    case ToolIcon::Wall: {
        p.setPen(QPen(ink, 3.2, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        p.drawPolyline(QPolygonF({QPointF(3, 19), QPointF(9, 7), QPointF(15, 15), QPointF(21, 5)}));
        p.setPen(QPen(kAccent, 1.2));
        p.setBrush(QColor(0x1b, 0x1d, 0x21));
        for (QPointF v : {QPointF(3, 19), QPointF(9, 7), QPointF(15, 15), QPointF(21, 5)})
            p.drawEllipse(v, 1.8, 1.8);
        break;
    }
    case ToolIcon::Obstacle:
        p.setBrush(QColor(0x55, 0x5e, 0x69));
        p.drawRect(QRectF(3, 9, 10, 11));
        p.drawEllipse(QPointF(15.5, 8.5), 5.5, 5.5);
        break;
    case ToolIcon::ObstacleRectangle:
        p.setBrush(QColor(0x55, 0x5e, 0x69));
        p.drawRect(QRectF(4, 6, 16, 12));
        break;
    case ToolIcon::ObstacleCircle:
        p.setBrush(QColor(0x55, 0x5e, 0x69));
        p.drawEllipse(QPointF(12, 12), 8, 8);
        break;
    case ToolIcon::ObstaclePolygon:
        p.setBrush(QColor(0x55, 0x5e, 0x69));
        p.drawPolygon(QPolygonF(
            {QPointF(4, 18), QPointF(7, 5), QPointF(14, 9), QPointF(20, 4), QPointF(19, 19)}));
        break;
    case ToolIcon::SpawnArea: {
        QPen dash(ink, 1.5, Qt::DashLine);
        dash.setDashPattern({2.5, 2.0});
        p.setPen(dash);
        p.setBrush(QColor(0x3a, 0xa0, 0xff, 50));
        p.drawRect(QRectF(3, 4, 18, 16));
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(0x3a, 0xa0, 0xff));
        for (QPointF v :
             {QPointF(8, 9), QPointF(14, 8), QPointF(11, 14), QPointF(17, 15), QPointF(7, 16)})
            p.drawEllipse(v, 1.6, 1.6);
        break;
    }
    case ToolIcon::Pickup:
        p.translate(12, 12);
        PickupItem::paintIcon(&p, shoal::PickupKind::Fish, 20);
        break;
    case ToolIcon::Target:
        p.translate(12, 12);
        MarkerItem::paintTarget(&p, QColor(0xf0, 0xd8, 0x7a), 21);
        break;
    default:
        break;
    }
}

/// The simulation and edit controls' icons: play, pause, step, restart, undo, redo, fit.
void drawControlIcon(QPainter& p, ToolIcon icon, const QColor& ink)
{
    switch (icon) {
    case ToolIcon::Play:
        p.setBrush(ink);
        p.drawPolygon(QPolygonF({QPointF(7, 4.5), QPointF(19, 12), QPointF(7, 19.5)}));
        break;
    case ToolIcon::Pause:
        p.setPen(Qt::NoPen);
        p.setBrush(ink);
        p.drawRoundedRect(QRectF(6, 5, 4, 14), 1, 1);
        p.drawRoundedRect(QRectF(14, 5, 4, 14), 1, 1);
        break;
    case ToolIcon::StepBack: // Step, mirrored
        p.translate(24, 0);
        p.scale(-1, 1);
        p.setBrush(ink);
        p.drawPolygon(QPolygonF({QPointF(5, 5), QPointF(14, 12), QPointF(5, 19)}));
        p.setPen(Qt::NoPen);
        p.drawRoundedRect(QRectF(16, 5, 3.5, 14), 1, 1);
        break;
    case ToolIcon::Step:
        p.setBrush(ink);
        p.drawPolygon(QPolygonF({QPointF(5, 5), QPointF(14, 12), QPointF(5, 19)}));
        p.setPen(Qt::NoPen);
        p.drawRoundedRect(QRectF(16, 5, 3.5, 14), 1, 1);
        break;
    case ToolIcon::Restart: {
        p.setPen(QPen(ink, 2.0, Qt::SolidLine, Qt::RoundCap));
        p.drawArc(QRectF(5, 5, 14, 14), 100 * 16, 290 * 16);
        p.setPen(Qt::NoPen);
        p.setBrush(ink);
        p.drawPolygon(QPolygonF({QPointF(9.5, 2.0), QPointF(14.5, 5.2), QPointF(9.5, 8.6)}));
        break;
    }
    case ToolIcon::Undo:
    case ToolIcon::Redo: {
        if (icon == ToolIcon::Redo) {
            p.translate(24, 0);
            p.scale(-1, 1);
        }
        QPainterPath arc;
        arc.moveTo(7, 10);
        arc.lineTo(14, 10);
        arc.cubicTo(22, 10, 22, 20, 14, 20);
        arc.lineTo(9, 20);
        p.setPen(QPen(ink, 2.0, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        p.drawPath(arc);
        p.setPen(Qt::NoPen);
        p.setBrush(ink);
        p.drawPolygon(QPolygonF({QPointF(3, 10), QPointF(9, 5), QPointF(9, 15)}));
        break;
    }
    case ToolIcon::Fit:
        p.drawRect(QRectF(7, 8, 10, 8));
        for (const auto& corner : {std::pair{QPointF(3, 7), QPointF(3, 3)},
                                   {QPointF(21, 7), QPointF(21, 3)},
                                   {QPointF(3, 17), QPointF(3, 21)},
                                   {QPointF(21, 17), QPointF(21, 21)}}) {
            p.drawLine(corner.first, corner.second);
            p.drawLine(corner.second, QPointF(corner.second.x() < 12 ? 7 : 17, corner.second.y()));
        }
        break;
    default:
        break;
    }
}

QPixmap drawIcon(ToolIcon icon, int size, const QColor& ink)
{
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    p.scale(size / 24.0, size / 24.0);
    QPen pen(ink, 1.8, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    p.setPen(pen);
    p.setBrush(Qt::NoBrush);
    drawEditIcon(p, icon, ink);
    drawControlIcon(p, icon, ink);
    return pixmap;
}

} // namespace

QIcon toolIcon(ToolIcon icon)
{
    QIcon result;
    for (int size : {16, 24, 32, 48}) {
        result.addPixmap(drawIcon(icon, size, kInk), QIcon::Normal);
        result.addPixmap(drawIcon(icon, size, QColor(0x6b, 0x72, 0x7b)), QIcon::Disabled);
    }
    return result;
}

} // namespace shoal::ui
