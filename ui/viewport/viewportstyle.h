#pragma once
/// The viewport's look in one place: colours, stroke widths and marker sizes, so every item
/// and tool preview draws in one consistent style (and a change of taste is one edit).

#include <shoal/scenedesc.h>

#include <QColor>
#include <QPointF>
#include <QString>

namespace shoal::ui::style {

inline const QColor kOutside{0x1b, 0x1d, 0x21}; ///< beyond the level bounds
inline const QColor kLevel{0x2e, 0x33, 0x3a};   ///< inside the level bounds
inline const QColor kLevelBorder{0x5a, 0x63, 0x6e};
inline const QColor kGridMinor{255, 255, 255, 13};
inline const QColor kGridMajor{255, 255, 255, 30};
inline const QColor kWallCore{0x0f, 0x11, 0x14};
inline const QColor kWallRim{0x7d, 0x86, 0x92};
inline const QColor kObstacleFill{0x55, 0x5e, 0x69};
inline const QColor kObstacleEdge{0x12, 0x14, 0x17};
inline const QColor kSelection{0xff, 0xa6, 0x30};
inline const QColor kHover{0xff, 0xd9, 0x9a};
inline const QColor kHandleFill{0xf4, 0xf6, 0xf8};
inline const QColor kHandleEdge{0x1a, 0x1c, 0x20};
inline const QColor kPreview{0x5c, 0xc8, 0xff};
inline const QColor kPreviewFill{0x5c, 0xc8, 0xff, 40};
inline const QColor kLabel{0xdf, 0xe4, 0xea};
inline const QColor kLabelShadow{0, 0, 0, 170};
inline const QColor kWarning{0xff, 0xc1, 0x4d}; ///< what the level asks but cannot get
inline const QColor kFish{0x7c, 0xc8, 0xff};
inline const QColor kFishEdge{0x0d, 0x2b, 0x45};
inline const QColor kCoin{0xf5, 0xc5, 0x42};
inline const QColor kCoinEdge{0x8a, 0x5a, 0x0c};
inline const QColor kPlayer{0xff, 0xff, 0xff};
inline const QColor kPlayerAccent{0xff, 0x8c, 0x42};

constexpr double kWallWidth = 0.3; ///< m: the wall stroke, at least kWallMinPixels
constexpr double kWallMinPixels = 5.0;
constexpr double kSelectionPixels = 2.0; ///< cosmetic selection outline
constexpr double kHandlePixels = 9.0;    ///< handle square side
constexpr double kMarkerPixels = 22.0;   ///< target / player start diameter
constexpr double kPickupPixels = 16.0;   ///< pickup icon size
constexpr double kHitPixels = 6.0;       ///< how close a click must be to hit a line

inline QColor toQColor(const Color& c)
{
    return QColor(c.r, c.g, c.b, c.a);
}

/// The family's name for people ("Fish school", ...).
inline QString kindLabel(BehaviourKind kind)
{
    const std::string_view label = behaviourLabel(kind);
    return QString::fromUtf8(label.data(), qsizetype(label.size()));
}

inline QPointF toQt(Point2 p)
{
    return {p.x, p.y};
}

inline Point2 toPoint(QPointF p)
{
    return {p.x(), p.y()};
}

} // namespace shoal::ui::style
