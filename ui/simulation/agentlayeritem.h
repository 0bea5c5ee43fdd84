#pragma once
/// Paints every agent of one group of the running World in a single item, straight from the
/// arrays of the world's last frame (World::copyFrame: painted while the next step runs):
/// oriented glyphs close up (blitted from sprite sheets rendered once per
/// zoom), batched dots far out, worms as mitred ribbons or sampled centre lines.
/// One item per group, never one per agent. Scene coordinates are world coordinates (metres,
/// y up); the view's transform scale(ppm, -ppm) flips y (see SceneView and
/// docs/rendering.md, which also describes the glyphs).

#include <shoal/behaviourkind.h>
#include <shoal/vec2.h>
#include <shoal/worldframe.h>

#include <QColor>
#include <QGraphicsItem>
#include <QImage>
#include <QLineF>
#include <QPointF>
#include <QPolygonF>
#include <QRect>
#include <QRectF>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

class QPainterPath;

namespace shoal {

struct FamilyView;
class AgentBodies;
struct Color;
} // namespace shoal

namespace shoal::ui {

struct GlyphSheet;

/// Scene position of a world point. The scene is the world (metres, y up): the one place
/// that says so for the agent and overlay items.
inline QPointF sceneFromWorld(Vec2 p)
{
    return {static_cast<qreal>(p.x), static_cast<qreal>(p.y)};
}
inline QPointF sceneFromWorld(double x, double y)
{
    return {x, y};
}
/// World position of a scene point.
inline Vec2 worldFromScene(const QPointF& p)
{
    return {static_cast<float>(p.x()), static_cast<float>(p.y())};
}
/// The scene rectangle spanned by two world corners (any order).
inline QRectF sceneRectFromWorld(Vec2 a, Vec2 b)
{
    return QRectF(sceneFromWorld(a), sceneFromWorld(b)).normalized();
}
/// A scene file colour as a QColor.
QColor toQColor(const Color& color);

/// Premultiplied ARGB `src` over `dst`, for drawing straight into an image's pixels.
inline QRgb premultipliedOver(QRgb src, QRgb dst)
{
    const quint32 inverse = 255u - qAlpha(src);
    quint32 rb = (dst & 0xff00ffu) * inverse;
    rb = ((rb + ((rb >> 8) & 0xff00ffu) + 0x800080u) >> 8) & 0xff00ffu;
    quint32 ag = ((dst >> 8) & 0xff00ffu) * inverse;
    ag = (ag + ((ag >> 8) & 0xff00ffu) + 0x800080u) & 0xff00ff00u;
    return src + (rb | ag);
}

class AgentLayerItem : public QGraphicsItem
{
public:
    /// Group index of the layer that draws what belongs to no group: the player when it
    /// leads none, and the coins still waiting to be eaten.
    static constexpr int kWorldLayer = -1;
    /// Agents sit above the level geometry and below the overlays.
    static constexpr qreal kZValue = 10.0;
    enum
    {
        Type = UserType + 0x5101
    };

    enum class Detail
    {
        Dots,   ///< one point per agent (worms: a sampled centre line)
        Shapes, ///< oriented glyphs (worms: ribbons with segment lines)
    };

    /// `group` indexes World::group(); kWorldLayer for the player and pickups.
    explicit AgentLayerItem(int group, QGraphicsItem* parent = nullptr);
    ~AgentLayerItem() override;

    int groupIndex() const { return m_group; }
    void setGroupIndex(int group);

    /// Body colour and accent (player, leader, turret, eyes), usually the GroupDesc's.
    void setColors(const QColor& body, const QColor& accent);
    QColor color() const { return m_body; }
    QColor accent() const { return m_accent; }

    /// Call after every step and whenever the world is rebuilt, with the frame to draw (a
    /// copy of the world, World::copyFrame(), so the world may step on while it is painted;
    /// null: draw nothing). Updates the bounds and schedules a repaint. The item keeps the
    /// pointer until the next call.
    void syncFromFrame(const WorldFrame* frame);
    const WorldFrame* frame() const { return m_frame; }

    /// Other groups this layer paints with its own, in one go: small groups of one family in
    /// the same colours and body size, none led by the player (batchSmallGroups() in
    /// layerbatches.h). A stress level's thousand squads and convoys then cost a few layers,
    /// not a thousand paints. Empty by default.
    void setBatch(std::vector<int> groups);
    const std::vector<int>& batch() const { return m_batch; }
    /// Painted by another layer's batch: this one draws nothing and covers nothing.
    void setAbsorbed(bool absorbed);
    bool isAbsorbed() const { return m_absorbed; }

    /// What paint() draws at `pixelsPerMetre` for the group's current body size.
    Detail detailAt(double pixelsPerMetre) const;
    /// Whether any shown layer of `layers` whose group in `frame` has bodies (worms) would
    /// draw them as ribbons at `pixelsPerMetre`: the frames then need the bodies' edges
    /// (World::copyFrame's `outlines`; the editor and the render bench ask by this rule).
    static bool anyDrawsRibbons(const QList<AgentLayerItem*>& layers, const WorldFrame& frame,
                                qreal pixelsPerMetre);
    /// What the last paint() drew (tests, the render bench).
    Detail lastDetail() const { return m_lastDetail; }
    /// Agents the last paint() found inside the exposed area.
    int lastVisibleCount() const { return m_lastVisible; }

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option,
               QWidget* widget = nullptr) override;
    int type() const override { return Type; }

private:
    /// How one agent is drawn: its family glyph in one of a few styles.
    enum Variant : std::uint8_t
    {
        kNormal,
        kDim,     ///< a free fish, not yet in the school
        kArrived, ///< a squad member at rest at the target
        kLeader,  ///< agent 0 of a wandering leader-following group
        kPlayer,  ///< the player (agent 0 of a player-led group, or the world layer's)
        kVariantCount
    };
    /// The order dots are drawn in, style by style: the leaders last, on top.
    static constexpr Variant kDotOrder[] = {kDim, kNormal, kArrived, kLeader};
    enum class Glyph : std::uint8_t
    {
        Fish,
        Tank,
        Dart,
        Chevron
    };

    /// One agent to draw: device position, device heading angle, style.
    struct Stamp
    {
        float x;
        float y;
        float angle;
        Variant variant;
    };

    struct Style
    {
        QColor fill;
        QColor outline; ///< also tracks and barrels
        QColor detail;  ///< turret, eye
        qreal scale = 1.0;
    };

    void recomputeBounds();
    /// f(group) for this layer's group and every group of its batch, in the frame.
    template <class F> void forEachPainted(F&& f) const
    {
        f(m_frame->groups[static_cast<std::size_t>(m_group)]);
        for (const int g : m_batch)
            if (g >= 0 && g < static_cast<int>(m_frame->groups.size()))
                f(m_frame->groups[static_cast<std::size_t>(g)]);
    }
    float bodyRadius() const;
    Glyph glyph() const;
    const Style& style(Variant variant) const { return m_styles[variant]; }
    const QColor& dotColor(Variant variant) const
    {
        return variant == kArrived ? m_restingDot : m_styles[variant].fill;
    }
    void updateStyles();
    Variant variantOf(const FrameGroup& group, const FamilyView& view, std::size_t i) const;
    static const QPainterPath& glyphPath(Glyph glyph);
    static const QPolygonF& glyphPolygon(Glyph glyph);
    static qreal glyphExtent(Glyph glyph);
    /// Draws one glyph in glyph units (the painter maps body radii to pixels).
    void drawGlyph(QPainter& painter, Variant variant, qreal radiusPx, qreal outlinePx) const;
    /// The sprite sheet for `variant` at this size, shared by every layer that draws the
    /// same glyph in the same colours (a stress level has hundreds of squads).
    const GlyphSheet& sheet(Variant variant, qreal radiusPx, qreal ratio);
    /// Side of a sprite of `variant`, logical pixels.
    int spriteCell(Variant variant, qreal radiusPx) const;
    /// Dots and centre lines of big groups are written straight into an image of the
    /// device area they cover and blitted once: far cheaper than wide points. False when
    /// nothing of the group is on the device.
    bool beginCanvas(QPainter* painter, const QRectF& exposed);
    void plot(float x, float y, int size, QRgb premultiplied);
    void endCanvas(QPainter* painter);

    struct Frame; // per-paint context (defined in the .cpp)
    template <class F>
    std::size_t forEachVisible(const Frame& f, const FrameGroup& group, const FamilyView& view,
                               F&& visit) const;
    void paintGroup(QPainter* painter, const QRectF& exposed);
    /// Far out: a dot per agent (a canvas for big groups), the player as a ring.
    void paintGroupDots(QPainter* painter, const Frame& f, const FrameGroup& group,
                        const FamilyView& view, const QRectF& exposed);
    /// The dots gathered in m_points, one batch per variant; returns how many.
    int drawDotBatches(QPainter* painter, int dot);
    /// Close up: each agent's glyph, from sprite sheets where they are small enough.
    void paintGroupGlyphs(QPainter* painter, const Frame& f, const FrameGroup& group,
                          const FamilyView& view);
    void paintWorms(QPainter* painter, const QRectF& exposed);
    /// Far out: each body's centre line, sampled a dot apart.
    void paintCentreLines(QPainter* painter, const Frame& f, const AgentBodies& bodies,
                          const QRectF& exposed);
    template <class Put>
    static void sampleCentreLine(const Frame& f, const AgentBodies& bodies, int w, float spacing,
                                 Put&& put);
    /// Close up: each body as a mitred ribbon with seams, a round head and eyes.
    void paintRibbons(QPainter* painter, const Frame& f, const AgentBodies& bodies);
    void drawRibbon(QPainter* painter, const Frame& f, const AgentBodies& bodies, int w);
    void paintWorldLayer(QPainter* painter, const QRectF& exposed);
    void drawPlayerMarker(QPainter* painter, QPointF device, float angle, qreal radiusPx,
                          bool shapes);

    int m_group;
    const WorldFrame* m_frame = nullptr;
    std::vector<int> m_batch; ///< other groups painted with this one
    bool m_absorbed = false;  ///< painted by another layer's batch
    QColor m_body{0x3a, 0xa0, 0xff};
    QColor m_accent{0xff, 0xff, 0xff};
    QRectF m_bounds;
    Detail m_lastDetail = Detail::Dots;
    int m_lastVisible = 0;

    std::array<Style, kVariantCount> m_styles;
    QColor m_restingDot;
    std::array<std::shared_ptr<const GlyphSheet>, kVariantCount> m_sheets;
    QImage m_canvas;
    QPoint m_canvasOrigin;
    QRgb* m_canvasBits = nullptr; ///< m_canvas's pixels while painting
    int m_canvasStride = 0;       ///< pixels per canvas line
    int m_canvasWidth = 0;
    int m_canvasHeight = 0;
    // Per-frame buffers, reused so painting allocates nothing once warm.
    std::vector<Stamp> m_stamps;
    std::array<std::vector<QPointF>, kVariantCount> m_points;
    std::vector<QRect> m_rects;
    std::vector<QPointF> m_polygon;
    std::vector<QLineF> m_lines;
    std::vector<Vec2> m_left;
    std::vector<Vec2> m_right;
};

} // namespace shoal::ui
