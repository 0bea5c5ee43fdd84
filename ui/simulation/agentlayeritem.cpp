#include "simulation/agentlayeritem.h"

#include <shoal/paramspec.h>
#include <shoal/scenedesc.h>
#include <shoal/sketch.h>
#include <shoal/worldframe.h>

#include <QPainter>
#include <QPainterPath>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>

namespace shoal::ui {

namespace {

/// Body radius on screen from which agents are glyphs rather than dots: below it a glyph
/// would be under ~5 px long and read as a blob anyway.
constexpr qreal kShapeRadiusPx = 1.75;
/// Worm width on screen from which worms are ribbons rather than centre lines.
constexpr qreal kRibbonWidthPx = 2.5;
/// Glyphs drawn as paths (only when too big for a sprite) are antialiased up to this many.
constexpr int kVectorLimit = 300;
/// Largest sprite cell, px: beyond it few agents fit on screen and paths are cheap.
constexpr int kMaxSpriteCell = 128;
/// Groups at least this big draw their dots into a canvas image (see beginCanvas).
constexpr std::size_t kCanvasMinAgents = 1000;
/// Sprite sheets kept for reuse across layers and zoom steps, bytes.
constexpr qsizetype kSheetCacheBytes = 48 << 20;
/// Outlines drawn live are one pixel: the raster engine's fast cosmetic stroker takes
/// only those; anything wider goes through the general stroker, which costs more than the
/// fill. Sprites, rendered once, get outlines that grow with the glyph (spriteOutline).
constexpr qreal kOutlineWidth = 1.0;
constexpr qreal kTwoPi = 6.283185307179586;
// Where the world's unit axes land in the scene (sceneFromWorld is linear).
const QPointF kSceneX = sceneFromWorld(1.0, 0.0);
const QPointF kSceneY = sceneFromWorld(0.0, 1.0);

/// Maps world points (metres, y up) to device pixels through the painter's transform
/// (scene -> device, after sceneFromWorld), without building QPointF/QTransform per agent.
struct DeviceMap
{
    explicit DeviceMap(const QTransform& t)
        : ax(static_cast<float>(t.m11() * kSceneX.x() + t.m21() * kSceneX.y())),
          bx(static_cast<float>(t.m11() * kSceneY.x() + t.m21() * kSceneY.y())),
          cx(static_cast<float>(t.dx())),
          ay(static_cast<float>(t.m12() * kSceneX.x() + t.m22() * kSceneX.y())),
          by(static_cast<float>(t.m12() * kSceneY.x() + t.m22() * kSceneY.y())),
          cy(static_cast<float>(t.dy())),
          // The usual view (scale(ppm, -ppm), no rotation): the device angle is -heading.
          axisAligned(ay == 0.0f && bx == 0.0f && ax > 0.0f && by < 0.0f)
    {
    }
    float x(float wx, float wy) const { return ax * wx + bx * wy + cx; }
    float y(float wx, float wy) const { return ay * wx + by * wy + cy; }
    QPointF map(Vec2 p) const { return {x(p.x, p.y), y(p.x, p.y)}; }
    /// Device angle (radians, y down) of a world heading.
    float angle(float heading) const
    {
        if (axisAligned)
            return -heading;
        const float s = std::sin(heading);
        const float c = std::cos(heading);
        return std::atan2(ay * c + by * s, ax * c + bx * s);
    }
    float ax, bx, cx, ay, by, cy;
    bool axisAligned;
};

/// A scene rectangle as a world box, grown by `pad` metres.
struct WorldBox
{
    WorldBox(const QRectF& scene, float pad)
    {
        const Vec2 a = worldFromScene(scene.topLeft());
        const Vec2 b = worldFromScene(scene.bottomRight());
        minX = std::min(a.x, b.x) - pad;
        maxX = std::max(a.x, b.x) + pad;
        minY = std::min(a.y, b.y) - pad;
        maxY = std::max(a.y, b.y) + pad;
    }
    bool contains(float x, float y) const
    {
        return x >= minX && x <= maxX && y >= minY && y <= maxY;
    }
    bool contains(const QRectF& sceneRect) const
    {
        const WorldBox inner(sceneRect, 0.0f);
        return inner.minX >= minX && inner.maxX <= maxX && inner.minY >= minY && inner.maxY <= maxY;
    }
    float minX, maxX, minY, maxY;
};

QPen cosmeticPen(const QColor& color, qreal width)
{
    QPen pen(color, width);
    pen.setCosmetic(true);
    pen.setJoinStyle(Qt::MiterJoin);
    return pen;
}

/// A circle as a polygon: QPainter::drawEllipse builds and flattens a curved path per call,
/// which dominates a frame of a few hundred glyphs.
void drawDisc(QPainter& painter, QPointF centre, qreal radius)
{
    constexpr int kSides = 28;
    static const std::array<QPointF, kSides> unit = [] {
        std::array<QPointF, kSides> points;
        for (int k = 0; k < kSides; ++k)
            points[static_cast<std::size_t>(k)] =
                QPointF(std::cos(kTwoPi * k / kSides), std::sin(kTwoPi * k / kSides));
        return points;
    }();
    std::array<QPointF, kSides> points;
    for (std::size_t k = 0; k < points.size(); ++k)
        points[k] = centre + unit[k] * radius;
    painter.drawPolygon(points.data(), kSides);
}

/// Outline width in a sprite whose glyph unit (body radius) is `unitPx` pixels.
qreal spriteOutline(qreal unitPx)
{
    return std::clamp(0.07 * unitPx, 1.2, 2.0);
}

QColor withAlpha(QColor color, int alpha)
{
    color.setAlpha(alpha);
    return color;
}

qreal defaultPlayerRadius()
{
    const auto& specs = playerParamSpecs();
    const int index = paramIndex(specs, "radius");
    return index < 0 ? 0.35 : specs[static_cast<std::size_t>(index)].defaultValue;
}

/// What makes two sprite sheets the same.
struct SheetKey
{
    int glyph = 0;
    int variant = 0;
    QRgb fill = 0;
    QRgb outline = 0;
    QRgb detail = 0;
    qreal scale = 0;
    qreal radiusPx = 0;
    qreal ratio = 0;
    bool operator==(const SheetKey& o) const
    {
        return glyph == o.glyph && variant == o.variant && fill == o.fill && outline == o.outline &&
               detail == o.detail && scale == o.scale && radiusPx == o.radiusPx && ratio == o.ratio;
    }
};

constexpr QColor kCoinColor{0xff, 0xcc, 0x33};
constexpr qreal kCoinRadius = 0.25; ///< m, as drawn

} // namespace

/// A row of pre-rendered glyphs at evenly spaced angles, for one style and zoom.
struct GlyphSheet
{
    SheetKey key;
    QImage image;
    int cell = 0;     ///< logical pixels per sprite (square)
    int physical = 0; ///< device pixels per sprite
    int angles = 0;   ///< power of two
};

namespace {

/// Sheets in least-recently-used order (the GUI thread is the only user).
std::vector<std::shared_ptr<const GlyphSheet>>& sheetCache()
{
    static std::vector<std::shared_ptr<const GlyphSheet>> cache;
    return cache;
}

} // namespace

QColor toQColor(const Color& color)
{
    return QColor(color.r, color.g, color.b, color.a);
}

AgentLayerItem::AgentLayerItem(int group, QGraphicsItem* parent)
    : QGraphicsItem(parent), m_group(group)
{
    setZValue(kZValue);
    // exposedRect lets paint() skip agents off screen.
    setFlag(ItemUsesExtendedStyleOption, true);
    setAcceptedMouseButtons(Qt::NoButton);
    setAcceptHoverEvents(false);
    updateStyles();
}

AgentLayerItem::~AgentLayerItem() = default;

void AgentLayerItem::setGroupIndex(int group)
{
    if (group == m_group)
        return;
    m_group = group;
    recomputeBounds();
    update();
}

void AgentLayerItem::setColors(const QColor& body, const QColor& accent)
{
    if (body == m_body && accent == m_accent)
        return;
    m_body = body;
    m_accent = accent;
    updateStyles();
    update();
}

void AgentLayerItem::syncFromFrame(const WorldFrame* frame)
{
    m_frame = frame;
    recomputeBounds();
    update();
}

void AgentLayerItem::setBatch(std::vector<int> groups)
{
    if (groups == m_batch)
        return;
    m_batch = std::move(groups);
    recomputeBounds();
    update();
}

void AgentLayerItem::setAbsorbed(bool absorbed)
{
    if (absorbed == m_absorbed)
        return;
    m_absorbed = absorbed;
    recomputeBounds();
    update();
}

void AgentLayerItem::recomputeBounds()
{
    QRectF bounds;
    const bool valid =
        !m_absorbed && m_frame && m_group < m_frame->groupCount() && m_group >= kWorldLayer;
    if (valid && m_group == kWorldLayer) {
        float minX = 0, minY = 0, maxX = 0, maxY = 0;
        bool any = false;
        auto add = [&](Vec2 p) {
            if (!any) {
                minX = maxX = p.x;
                minY = maxY = p.y;
                any = true;
                return;
            }
            minX = std::min(minX, p.x);
            maxX = std::max(maxX, p.x);
            minY = std::min(minY, p.y);
            maxY = std::max(maxY, p.y);
        };
        const PlayerState& player = m_frame->player;
        if (player.enabled && player.group < 0)
            add(player.position);
        for (const PickupState& pickup : m_frame->pickups)
            if (!pickup.taken)
                add(pickup.position);
        if (any) {
            const float pad = static_cast<float>(4.0 * defaultPlayerRadius());
            bounds = sceneRectFromWorld({minX - pad, minY - pad}, {maxX + pad, maxY + pad});
        }
    } else if (valid) {
        float minX = 0, minY = 0, maxX = 0, maxY = 0;
        bool any = false;
        forEachPainted([&](const FrameGroup& group) {
            const FrameAgents& a = group.agents;
            if (a.size() == 0)
                return;
            if (!any) {
                minX = maxX = a.px[0];
                minY = maxY = a.py[0];
                any = true;
            }
            for (std::size_t i = 0; i < a.size(); ++i) {
                minX = std::min(minX, a.px[i]);
                maxX = std::max(maxX, a.px[i]);
                minY = std::min(minY, a.py[i]);
                maxY = std::max(maxY, a.py[i]);
            }
        });
        if (any) {
            float pad = 3.0f * bodyRadius() + 0.1f; // the player's ring reaches ~2.8 radii
            if (const AgentBodies* bodies = m_frame->bodies(m_group)) {
                // Bodies trail behind the heads by up to their length.
                float longest = 0.0f;
                for (int w = 0; w < bodies->bodyCount(); ++w)
                    longest = std::max(longest, bodies->centreLineLength(w));
                pad = longest + bodies->bodyWidth() + 0.1f;
            }
            bounds = sceneRectFromWorld({minX - pad, minY - pad}, {maxX + pad, maxY + pad});
        }
    }
    if (bounds != m_bounds) {
        prepareGeometryChange();
        m_bounds = bounds;
    }
}

QRectF AgentLayerItem::boundingRect() const
{
    return m_bounds;
}

float AgentLayerItem::bodyRadius() const
{
    if (!m_frame || m_group >= m_frame->groupCount())
        return 0.3f;
    if (m_group == kWorldLayer)
        return static_cast<float>(defaultPlayerRadius());
    return m_frame->groups[static_cast<std::size_t>(m_group)].bodyRadius;
}

AgentLayerItem::Detail AgentLayerItem::detailAt(double pixelsPerMetre) const
{
    if (m_frame && m_group >= 0 && m_group < m_frame->groupCount() && m_frame->bodies(m_group))
        return 2.0 * bodyRadius() * pixelsPerMetre >= kRibbonWidthPx ? Detail::Shapes
                                                                     : Detail::Dots;
    return bodyRadius() * pixelsPerMetre >= kShapeRadiusPx ? Detail::Shapes : Detail::Dots;
}

bool AgentLayerItem::anyDrawsRibbons(const QList<AgentLayerItem*>& layers, const WorldFrame& frame,
                                     qreal pixelsPerMetre)
{
    for (const AgentLayerItem* layer : layers) {
        const int g = layer->groupIndex();
        if (g >= 0 && g < frame.groupCount() && frame.bodies(g) && layer->isVisible() &&
            2.0 * frame.groups[static_cast<std::size_t>(g)].bodyRadius * pixelsPerMetre >=
                kRibbonWidthPx)
            return true;
    }
    return false;
}

AgentLayerItem::Glyph AgentLayerItem::glyph() const
{
    if (!m_frame || m_group < 0 || m_group >= m_frame->groupCount())
        return Glyph::Fish;
    switch (familyView(m_frame->groups[static_cast<std::size_t>(m_group)].kind).glyph) {
    case FamilyView::Glyph::Fish:
        return Glyph::Fish;
    case FamilyView::Glyph::Tank:
        return Glyph::Tank;
    case FamilyView::Glyph::Dart:
        return Glyph::Dart;
    case FamilyView::Glyph::Chevron:
        return Glyph::Chevron;
    case FamilyView::Glyph::Ribbon:
        return Glyph::Fish; // ribbons; only a player uses this
    }
    return Glyph::Fish;
}

void AgentLayerItem::updateStyles()
{
    const QColor dark = m_body.darker(175);
    m_styles[kNormal] = {m_body, dark, m_accent, 1.0};
    m_styles[kDim] = {withAlpha(m_body, 100), withAlpha(dark, 130), withAlpha(m_accent, 90), 0.9};
    m_styles[kArrived] = {m_body, dark, m_accent, 1.0}; // an accent turret
    m_styles[kLeader] = {m_accent, m_body.darker(185), m_body.darker(130), 1.45};
    m_styles[kPlayer] = {m_accent, m_body.darker(210), m_body.darker(160), 1.4};
    // Far out a resting tank's accent turret is not visible: it is a lighter dot instead.
    m_restingDot = m_body.lighter(135);
}

AgentLayerItem::Variant AgentLayerItem::variantOf(const FrameGroup& group, const FamilyView& view,
                                                  std::size_t i) const
{
    if (i == 0 && group.playerLed)
        return kPlayer;
    const std::uint8_t flags = group.agents.flags[i];
    if (view.dimUnlessFlag && !(flags & view.dimUnlessFlag))
        return kDim;
    if (view.restingFlag && (flags & view.restingFlag))
        return kArrived;
    if (view.leaderFirst && i == 0)
        return kLeader;
    return kNormal;
}

const QPolygonF& AgentLayerItem::glyphPolygon(Glyph glyph)
{
    // Flattened once: drawing curves makes the raster engine flatten them on every call.
    static const std::array<QPolygonF, 4> polygons = [] {
        std::array<QPolygonF, 4> out;
        for (const Glyph g : {Glyph::Fish, Glyph::Tank, Glyph::Dart, Glyph::Chevron}) {
            constexpr qreal kFine = 64.0; // flatten as if a body radius were 64 px
            out[static_cast<std::size_t>(g)] =
                glyphPath(g).toFillPolygon(QTransform::fromScale(kFine, kFine)) *
                QTransform::fromScale(1.0 / kFine, 1.0 / kFine);
        }
        return out;
    }();
    return polygons[static_cast<std::size_t>(glyph)];
}

const QPainterPath& AgentLayerItem::glyphPath(Glyph glyph)
{
    // Unit glyphs: body radius 1, facing +x.
    static const QPainterPath fish = [] {
        QPainterPath p(QPointF(1.45, 0.0));
        p.cubicTo(1.4, 0.45, 0.6, 0.62, 0.1, 0.56);
        p.cubicTo(-0.4, 0.48, -0.72, 0.22, -0.95, 0.1);
        p.lineTo(-1.42, 0.52);
        p.lineTo(-1.22, 0.0);
        p.lineTo(-1.42, -0.52);
        p.lineTo(-0.95, -0.1);
        p.cubicTo(-0.72, -0.22, -0.4, -0.48, 0.1, -0.56);
        p.cubicTo(0.6, -0.62, 1.4, -0.45, 1.45, 0.0);
        p.closeSubpath();
        return p;
    }();
    static const QPainterPath tank = [] {
        QPainterPath p;
        p.addRoundedRect(QRectF(-1.05, -0.8, 2.1, 1.6), 0.18, 0.18);
        return p;
    }();
    static const QPainterPath dart = [] {
        QPainterPath p(QPointF(1.3, 0.0));
        p.lineTo(-0.9, 0.82);
        p.lineTo(-0.45, 0.0);
        p.lineTo(-0.9, -0.82);
        p.closeSubpath();
        return p;
    }();
    static const QPainterPath chevron = [] {
        QPainterPath p(QPointF(1.15, 0.0));
        p.lineTo(-0.45, 0.95);
        p.lineTo(-1.0, 0.95);
        p.lineTo(0.3, 0.0);
        p.lineTo(-1.0, -0.95);
        p.lineTo(-0.45, -0.95);
        p.closeSubpath();
        return p;
    }();
    switch (glyph) {
    case Glyph::Fish:
        return fish;
    case Glyph::Tank:
        return tank;
    case Glyph::Dart:
        return dart;
    case Glyph::Chevron:
        return chevron;
    }
    return fish;
}

qreal AgentLayerItem::glyphExtent(Glyph glyph)
{
    switch (glyph) {
    case Glyph::Fish:
        return 1.55;
    case Glyph::Tank:
        return 1.5;
    case Glyph::Dart:
        return 1.35;
    case Glyph::Chevron:
        return 1.4;
    }
    return 1.55;
}

void AgentLayerItem::drawGlyph(QPainter& painter, Variant variant, qreal radiusPx,
                               qreal outlinePx) const
{
    // The painter maps glyph units (body radii) to pixels; pens are cosmetic.
    const Style& s = style(variant);
    const Glyph g = glyph();
    const qreal unitPx = radiusPx * s.scale;
    const QPen outline = cosmeticPen(s.outline, outlinePx);
    painter.setPen(outline);
    painter.setBrush(s.fill);
    painter.drawPolygon(glyphPolygon(g));
    switch (g) {
    case Glyph::Fish:
        if (unitPx >= 5.0) {
            painter.setPen(Qt::NoPen);
            painter.setBrush(s.outline);
            drawDisc(painter, QPointF(0.82, 0.2), 0.1);
            drawDisc(painter, QPointF(0.82, -0.2), 0.1);
        }
        break;
    case Glyph::Tank: {
        painter.setPen(Qt::NoPen);
        painter.setBrush(s.outline);
        painter.drawRect(QRectF(-1.0, 0.56, 2.0, 0.2)); // tracks
        painter.drawRect(QRectF(-1.0, -0.76, 2.0, 0.2));
        painter.drawRect(QRectF(0.2, -0.08, 1.3, 0.16)); // barrel
        painter.setPen(outline);
        painter.setBrush(variant == kArrived ? s.detail : s.fill.darker(125));
        drawDisc(painter, QPointF(-0.1, 0.0), 0.4); // turret
        break;
    }
    case Glyph::Dart:
        if (unitPx >= 3.0) {
            painter.setPen(Qt::NoPen);
            painter.setBrush(s.detail);
            drawDisc(painter, QPointF(0.3, 0.0), 0.17);
        }
        break;
    case Glyph::Chevron:
        break;
    }
}

int AgentLayerItem::spriteCell(Variant variant, qreal radiusPx) const
{
    const qreal unitPx = radiusPx * style(variant).scale;
    return static_cast<int>(
               std::ceil(2.0 * (glyphExtent(glyph()) * unitPx + spriteOutline(unitPx)))) +
           2;
}

const GlyphSheet& AgentLayerItem::sheet(Variant variant, qreal radiusPx, qreal ratio)
{
    const Style& st = style(variant);
    SheetKey key;
    key.glyph = static_cast<int>(glyph());
    key.variant = variant;
    key.fill = st.fill.rgba();
    key.outline = st.outline.rgba();
    key.detail = st.detail.rgba();
    key.scale = st.scale;
    key.radiusPx = radiusPx;
    key.ratio = ratio;
    std::shared_ptr<const GlyphSheet>& mine = m_sheets[variant];
    if (mine && mine->key == key)
        return *mine;

    auto& cache = sheetCache();
    const auto found =
        std::find_if(cache.begin(), cache.end(),
                     [&](const std::shared_ptr<const GlyphSheet>& s) { return s->key == key; });
    if (found != cache.end()) {
        mine = *found;
        std::rotate(found, found + 1, cache.end()); // most recently used last
        return *mine;
    }

    auto s = std::make_shared<GlyphSheet>();
    s->key = key;
    const qreal unitPx = radiusPx * st.scale;
    s->cell = spriteCell(variant, radiusPx);
    // Finer angle steps for big sprites, where a 5.6 degree step would show as a jerk.
    s->angles = s->cell <= 24 ? 64 : 128;
    s->physical = static_cast<int>(std::ceil(s->cell * ratio));
    s->image = QImage(s->physical * s->angles, s->physical, QImage::Format_ARGB32_Premultiplied);
    s->image.fill(Qt::transparent);
    QPainter p(&s->image);
    // Rendered once per zoom, so the sprites can afford antialiasing; each frame is a copy.
    p.setRenderHint(QPainter::Antialiasing, true);
    const qreal unit = radiusPx * st.scale * ratio;
    for (int k = 0; k < s->angles; ++k) {
        QTransform t;
        t.translate((k + 0.5) * s->physical, 0.5 * s->physical);
        t.rotateRadians(kTwoPi * k / s->angles);
        t.scale(unit, unit);
        p.setTransform(t);
        drawGlyph(p, variant, radiusPx, spriteOutline(unitPx));
    }
    p.end();
    // Painted in device pixels; drawn back at logical size on a high-density screen.
    s->image.setDevicePixelRatio(ratio);

    cache.push_back(s);
    qsizetype bytes = 0;
    for (const auto& c : cache)
        bytes += c->image.sizeInBytes();
    // Drop the least recently used sheets (layers holding one keep it alive).
    while (bytes > kSheetCacheBytes && cache.size() > 1) {
        bytes -= cache.front()->image.sizeInBytes();
        cache.erase(cache.begin());
    }
    mine = std::move(s);
    return *mine;
}

bool AgentLayerItem::beginCanvas(QPainter* painter, const QRectF& exposed)
{
    const QTransform transform = painter->worldTransform();
    QRect area = transform.mapRect(exposed.intersected(m_bounds)).toAlignedRect();
    if (const QPaintDevice* device = painter->device())
        area &= QRect(0, 0, device->width(), device->height());
    if (area.isEmpty())
        return false;
    if (m_canvas.size() != area.size())
        m_canvas = QImage(area.size(), QImage::Format_ARGB32_Premultiplied);
    m_canvas.fill(0);
    m_canvasOrigin = area.topLeft();
    m_canvasBits = reinterpret_cast<QRgb*>(m_canvas.bits());
    m_canvasStride = static_cast<int>(m_canvas.bytesPerLine() / 4);
    m_canvasWidth = m_canvas.width();
    m_canvasHeight = m_canvas.height();
    return true;
}

inline void AgentLayerItem::plot(float x, float y, int size, QRgb premultiplied)
{
    // floor() by offsetting into positive range (plotted points are near the device).
    constexpr float kOffset = 65536.0f;
    const float half = 0.5f * static_cast<float>(size - 1);
    const float fx = x - half + kOffset;
    const float fy = y - half + kOffset;
    if (!(fx >= 0.0f && fy >= 0.0f && fx < 2.0f * kOffset && fy < 2.0f * kOffset))
        return;
    const int x0 = static_cast<int>(fx) - static_cast<int>(kOffset) - m_canvasOrigin.x();
    const int y0 = static_cast<int>(fy) - static_cast<int>(kOffset) - m_canvasOrigin.y();
    const bool opaque = qAlpha(premultiplied) == 255;
    if (size == 1) {
        if (static_cast<unsigned>(x0) >= static_cast<unsigned>(m_canvasWidth) ||
            static_cast<unsigned>(y0) >= static_cast<unsigned>(m_canvasHeight))
            return;
        QRgb& pixel = m_canvasBits[static_cast<std::ptrdiff_t>(y0) * m_canvasStride + x0];
        pixel = opaque ? premultiplied : premultipliedOver(premultiplied, pixel);
        return;
    }
    const int y1 = std::min(y0 + size, m_canvasHeight);
    const int x1 = std::min(x0 + size, m_canvasWidth);
    for (int yy = std::max(y0, 0); yy < y1; ++yy) {
        QRgb* line = m_canvasBits + static_cast<std::ptrdiff_t>(yy) * m_canvasStride;
        for (int xx = std::max(x0, 0); xx < x1; ++xx)
            line[xx] = opaque ? premultiplied : premultipliedOver(premultiplied, line[xx]);
    }
}

void AgentLayerItem::endCanvas(QPainter* painter)
{
    painter->drawImage(m_canvasOrigin, m_canvas);
    m_canvasBits = nullptr;
}

void AgentLayerItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option,
                           QWidget* widget)
{
    (void)widget;
    m_lastVisible = 0;
    if (m_absorbed || !m_frame || m_group < kWorldLayer || m_group >= m_frame->groupCount())
        return;
    const QRectF exposed = option ? option->exposedRect : boundingRect();
    // Only the transform and the antialiasing hint are restored (pen and brush are set by
    // whoever paints next): the view already protects the painter around each item, and a
    // stress level has hundreds of layers, where a second save/restore each shows.
    const QTransform transform = painter->worldTransform();
    const bool smooth = painter->testRenderHint(QPainter::Antialiasing);
    painter->setRenderHint(QPainter::Antialiasing, false);
    if (m_group == kWorldLayer)
        paintWorldLayer(painter, exposed);
    else if (m_frame->bodies(m_group))
        paintWorms(painter, exposed);
    else
        paintGroup(painter, exposed);
    painter->setWorldTransform(transform);
    painter->setRenderHint(QPainter::Antialiasing, smooth);
}

/// What one paint of a layer works in: the view's transform and zoom, the map to device
/// pixels and the exposed area in world coordinates.
struct AgentLayerItem::Frame
{
    Frame(const QTransform& t, const QRectF& exposed, float pad)
        : transform(t), ppm(QStyleOptionGraphicsItem::levelOfDetailFromTransform(t)), map(t),
          box(exposed, pad)
    {
    }
    QTransform transform;
    qreal ppm;
    DeviceMap map;
    WorldBox box;
};

template <class F>
std::size_t AgentLayerItem::forEachVisible(const Frame& f, const FrameGroup& group,
                                           const FamilyView& view, F&& visit) const
{
    // Calls visit(agent, device x, device y, variant) for every agent in the exposed area but
    // the player, whose index it returns (n without one): it is drawn last and on top.
    const FrameAgents& a = group.agents;
    const std::size_t n = a.size();
    const bool everything = f.box.contains(m_bounds);
    std::size_t playerIndex = n;
    for (std::size_t i = 0; i < n; ++i) {
        const float x = a.px[i];
        const float y = a.py[i];
        if (!everything && !f.box.contains(x, y))
            continue;
        const Variant v = variantOf(group, view, i);
        if (v == kPlayer) {
            playerIndex = i;
            continue;
        }
        visit(i, f.map.x(x, y), f.map.y(x, y), v);
    }
    return playerIndex;
}

void AgentLayerItem::paintGroup(QPainter* painter, const QRectF& exposed)
{
    const FrameGroup& group = m_frame->groups[static_cast<std::size_t>(m_group)];
    if (group.agents.size() == 0 && m_batch.empty())
        return;
    const Frame f(painter->worldTransform(), exposed, 3.0f * bodyRadius());
    m_lastDetail = detailAt(f.ppm);
    const FamilyView& view = familyView(group.kind);
    // Everything below is drawn in device pixels: no per-point transform in the engine, and
    // sprites land on whole pixels.
    painter->resetTransform();
    if (m_lastDetail == Detail::Dots)
        paintGroupDots(painter, f, group, view, exposed);
    else
        paintGroupGlyphs(painter, f, group, view);
}

namespace {

/// A leader's dot beside its followers' `dot`: a size larger, and at least 3 px, so it
/// stands out of a crowd of single pixels.
int leaderDot(int dot)
{
    return std::max(dot, 2) + 1;
}

} // namespace

void AgentLayerItem::paintGroupDots(QPainter* painter, const Frame& f, const FrameGroup& group,
                                    const FamilyView& view, const QRectF& exposed)
{
    const FrameAgents& a = group.agents;
    const std::size_t n = a.size();
    const float radius = bodyRadius();
    const qreal diameterPx = 2.0 * radius * f.ppm;
    const int dot = diameterPx < 1.5 ? 1 : (diameterPx < 2.5 ? 2 : 3);
    int visible = 0;
    // Every dot by style, then each style over the ones before (the leaders last, on top).
    for (auto& points : m_points)
        points.clear();
    auto put = [&](std::size_t, auto dx, auto dy, Variant v) { m_points[v].emplace_back(dx, dy); };
    std::size_t playerIndex = n;
    // A batch of small groups counts whole: 5,000 groups of followers are 100,000 dots,
    // which the engine's point path would map one at a time.
    std::size_t batchAgents = n;
    for (const int g : m_batch)
        if (g < m_frame->groupCount())
            batchAgents += m_frame->groups[static_cast<std::size_t>(g)].agents.size();
    const bool canvas = batchAgents >= kCanvasMinAgents;
    bool onDevice = true;
    if (canvas) {
        painter->setWorldTransform(f.transform);
        onDevice = beginCanvas(painter, exposed);
        painter->resetTransform();
    }
    if (onDevice) {
        playerIndex = forEachVisible(f, group, view, put);
        for (const int g : m_batch)
            if (g < m_frame->groupCount())
                forEachVisible(f, m_frame->groups[static_cast<std::size_t>(g)], view, put);
    }
    if (canvas && onDevice) {
        for (const Variant v : kDotOrder) {
            const QRgb color = qPremultiply(dotColor(v).rgba());
            const int size = v == kLeader ? leaderDot(dot) : dot;
            for (const QPointF& p : m_points[v])
                plot(static_cast<float>(p.x()), static_cast<float>(p.y()), size, color);
            visible += static_cast<int>(m_points[v].size());
        }
        endCanvas(painter);
    } else if (!canvas) {
        visible += drawDotBatches(painter, dot);
    }
    if (playerIndex < n) {
        ++visible;
        drawPlayerMarker(painter, f.map.map({a.px[playerIndex], a.py[playerIndex]}),
                         f.map.angle(a.heading[playerIndex]), radius * f.ppm, false);
    }
    m_lastVisible = visible;
}

int AgentLayerItem::drawDotBatches(QPainter* painter, int dot)
{
    // One-pixel dots take the raster engine's fast point path; wider ones are filled
    // squares (wide points go through the general stroker).
    int drawn = 0;
    painter->setBrush(Qt::NoBrush);
    for (const Variant v : kDotOrder) {
        std::vector<QPointF>& points = m_points[v];
        if (points.empty())
            continue;
        drawn += static_cast<int>(points.size());
        const QColor& color = dotColor(v);
        const int size = v == kLeader ? leaderDot(dot) : dot;
        if (size == 1) {
            QPen pen(color, 0.0);
            pen.setCosmetic(true);
            painter->setPen(pen);
            painter->drawPoints(points.data(), static_cast<int>(points.size()));
            continue;
        }
        m_rects.clear();
        for (const QPointF& p : points)
            m_rects.emplace_back(static_cast<int>(std::floor(p.x() - 0.5 * size + 0.5)),
                                 static_cast<int>(std::floor(p.y() - 0.5 * size + 0.5)), size,
                                 size);
        painter->setPen(Qt::NoPen);
        painter->setBrush(color);
        painter->drawRects(m_rects.data(), static_cast<int>(m_rects.size()));
    }
    return drawn;
}

void AgentLayerItem::paintGroupGlyphs(QPainter* painter, const Frame& f, const FrameGroup& group,
                                      const FamilyView& view)
{
    const FrameAgents& a = group.agents;
    const std::size_t n = a.size();
    m_stamps.clear();
    const std::size_t playerIndex =
        forEachVisible(f, group, view, [&](std::size_t i, auto dx, auto dy, Variant v) {
            m_stamps.push_back({dx, dy, f.map.angle(a.heading[i]), v});
        });
    for (const int g : m_batch) {
        if (g >= m_frame->groupCount())
            continue;
        const FrameGroup& member = m_frame->groups[static_cast<std::size_t>(g)];
        forEachVisible(f, member, view, [&](std::size_t i, auto dx, auto dy, Variant v) {
            m_stamps.push_back({dx, dy, f.map.angle(member.agents.heading[i]), v});
        });
    }
    m_lastVisible = static_cast<int>(m_stamps.size()) + (playerIndex < n ? 1 : 0);
    // Sprites are cached per quarter pixel of body radius, so a zoom that barely changes
    // reuses them.
    const qreal radiusPx = std::round(bodyRadius() * f.ppm * 4.0) / 4.0;
    const qreal ratio = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
    // Per style: a sprite when its cell is small enough, else a polygon (a big leader
    // among small followers is the one drawn as a polygon).
    std::array<bool, kVariantCount> sprite{};
    for (int v = 0; v < kVariantCount; ++v)
        sprite[v] = spriteCell(Variant(v), radiusPx) <= kMaxSpriteCell;
    painter->setRenderHint(QPainter::Antialiasing,
                           static_cast<int>(m_stamps.size()) <= kVectorLimit);
    for (const Stamp& stamp : m_stamps) {
        if (sprite[stamp.variant]) {
            const GlyphSheet& s = sheet(stamp.variant, radiusPx, ratio);
            const int k =
                static_cast<int>(std::lround(stamp.angle * (s.angles / kTwoPi))) & (s.angles - 1);
            const QPoint topLeft(static_cast<int>(std::floor(stamp.x - 0.5 * s.cell + 0.5)),
                                 static_cast<int>(std::floor(stamp.y - 0.5 * s.cell + 0.5)));
            painter->drawImage(topLeft, s.image, QRect(k * s.physical, 0, s.physical, s.physical));
            continue;
        }
        const qreal unit = radiusPx * style(stamp.variant).scale;
        const qreal c = std::cos(stamp.angle) * unit;
        const qreal sn = std::sin(stamp.angle) * unit;
        painter->setTransform(QTransform(c, sn, -sn, c, stamp.x, stamp.y));
        drawGlyph(*painter, stamp.variant, radiusPx, kOutlineWidth);
        painter->resetTransform();
    }
    if (playerIndex < n)
        drawPlayerMarker(painter, f.map.map({a.px[playerIndex], a.py[playerIndex]}),
                         f.map.angle(a.heading[playerIndex]), radiusPx, true);
}

void AgentLayerItem::drawPlayerMarker(QPainter* painter, QPointF device, float angle,
                                      qreal radiusPx, bool shapes)
{
    // One agent: antialiased, with a ring so the player is found at any zoom.
    painter->setRenderHint(QPainter::Antialiasing, true);
    const Style& s = style(kPlayer);
    const qreal ring = std::max(2.0 * s.scale * radiusPx, 6.0);
    painter->setBrush(Qt::NoBrush);
    painter->setPen(cosmeticPen(withAlpha(s.outline, 150), 3.0));
    painter->drawEllipse(device, ring, ring);
    painter->setPen(cosmeticPen(withAlpha(m_accent, 220), 1.5));
    painter->drawEllipse(device, ring, ring);
    if (shapes) {
        const qreal unit = radiusPx * s.scale;
        const qreal c = std::cos(angle) * unit;
        const qreal sn = std::sin(angle) * unit;
        painter->setTransform(QTransform(c, sn, -sn, c, device.x(), device.y()));
        drawGlyph(*painter, kPlayer, radiusPx, kOutlineWidth);
        painter->resetTransform();
    } else {
        painter->setPen(cosmeticPen(s.outline, 1.0));
        painter->setBrush(s.fill);
        painter->drawEllipse(device, 2.5, 2.5);
    }
    painter->setRenderHint(QPainter::Antialiasing, false);
}

namespace {

/// Whether body w of `bodies` may show in `box`: its head within its length (plus `pad`).
bool bodyOnScreen(const AgentBodies& bodies, int w, const WorldBox& box, float pad)
{
    const Vec2 head = bodies.point(w, 0);
    const float reach = bodies.centreLineLength(w) + pad;
    return !(head.x + reach < box.minX || head.x - reach > box.maxX || head.y + reach < box.minY ||
             head.y - reach > box.maxY);
}

} // namespace

void AgentLayerItem::paintWorms(QPainter* painter, const QRectF& exposed)
{
    const AgentBodies* bodies = m_frame->bodies(m_group);
    if (!bodies || bodies->bodyCount() == 0)
        return;
    const Frame f(painter->worldTransform(), exposed, bodies->bodyWidth());
    m_lastDetail = detailAt(f.ppm);
    painter->resetTransform();
    // A frame copied while the view was far out has no ribbon edges: centre lines until the
    // next (SimulationLayers asks for edges once a worm layer would draw ribbons).
    const FrameGroup& group = m_frame->groups[static_cast<std::size_t>(m_group)];
    if (m_lastDetail == Detail::Dots || !group.bodies.hasOutlines())
        paintCentreLines(painter, f, *bodies, exposed);
    else
        paintRibbons(painter, f, *bodies);
}

void AgentLayerItem::paintCentreLines(QPainter* painter, const Frame& f, const AgentBodies& bodies,
                                      const QRectF& exposed)
{
    // Far out a worm is its centre line, sampled every dot width into one batch (a canvas
    // for many worms): thousands of short polylines cost far more as lines.
    const bool canvas = static_cast<std::size_t>(bodies.bodyCount()) >= kCanvasMinAgents;
    if (canvas) {
        painter->setWorldTransform(f.transform);
        const bool onDevice = beginCanvas(painter, exposed);
        painter->resetTransform();
        if (!onDevice) {
            m_lastVisible = 0;
            return;
        }
    }
    std::vector<QPointF>& points = m_points[kNormal];
    points.clear();
    const int dot = bodies.bodyWidth() * f.ppm < 1.5 ? 1 : 2;
    const QRgb color = qPremultiply(m_body.rgba());
    int visible = 0;
    for (int w = 0; w < bodies.bodyCount(); ++w) {
        if (!bodyOnScreen(bodies, w, f.box, 0.0f))
            continue;
        ++visible;
        sampleCentreLine(f, bodies, w, static_cast<float>(dot), [&](float x, float y) {
            if (canvas)
                plot(x, y, dot, color);
            else
                points.emplace_back(x, y);
        });
    }
    if (canvas) {
        endCanvas(painter);
    } else if (dot == 1) {
        painter->setPen(QPen(m_body, 0.0));
        painter->drawPoints(points.data(), static_cast<int>(points.size()));
    } else {
        // Wide points go through the general stroker; squares are filled spans.
        m_rects.clear();
        for (const QPointF& p : points)
            m_rects.emplace_back(static_cast<int>(std::floor(p.x() - 0.5)),
                                 static_cast<int>(std::floor(p.y() - 0.5)), 2, 2);
        painter->setPen(Qt::NoPen);
        painter->setBrush(m_body);
        painter->drawRects(m_rects.data(), static_cast<int>(m_rects.size()));
    }
    m_lastVisible = visible;
}

template <class Put>
void AgentLayerItem::sampleCentreLine(const Frame& f, const AgentBodies& bodies, int w,
                                      float spacing, Put&& put)
{
    // Joints are at least segmentLength apart (but for the two ends): visit every stride-th,
    // so consecutive ones are about a sample apart.
    const float segmentPx = static_cast<float>(bodies.segmentLength() * f.ppm);
    const int stride =
        std::max(1, static_cast<int>(std::ceil(spacing / std::max(segmentPx, 1e-3f))));
    const float shortChord2 = 2.25f * spacing * spacing;
    const int count = bodies.pointCount(w);
    const Vec2 head = bodies.point(w, 0);
    float px = f.map.x(head.x, head.y);
    float py = f.map.y(head.x, head.y);
    put(px, py);
    float carry = 0.0f; // distance since the last sample
    for (int k = std::min(stride, count - 1); k < count;
         k = (k == count - 1) ? count : std::min(k + stride, count - 1)) {
        const Vec2 j = bodies.point(w, k);
        const float nx = f.map.x(j.x, j.y);
        const float ny = f.map.y(j.x, j.y);
        const float dx = nx - px;
        const float dy = ny - py;
        const float d2 = dx * dx + dy * dy;
        if (d2 <= shortChord2) {
            // Most chords far out: one sample at the joint keeps the line unbroken.
            put(nx, ny);
            carry = 0.0f;
        } else {
            const float length = std::sqrt(d2);
            float t = spacing - carry;
            for (; t <= length; t += spacing)
                put(px + dx * t / length, py + dy * t / length);
            carry = length - (t - spacing);
        }
        px = nx;
        py = ny;
    }
}

void AgentLayerItem::paintRibbons(QPainter* painter, const Frame& f, const AgentBodies& bodies)
{
    const float width = bodies.bodyWidth();
    // Count first: few worms on screen can afford antialiased ribbons.
    int onScreen = 0;
    for (int w = 0; w < bodies.bodyCount(); ++w)
        onScreen += bodyOnScreen(bodies, w, f.box, width) ? 1 : 0;
    painter->setRenderHint(QPainter::Antialiasing, onScreen <= kVectorLimit);
    for (int w = 0; w < bodies.bodyCount(); ++w)
        if (bodyOnScreen(bodies, w, f.box, width))
            drawRibbon(painter, f, bodies, w);
    m_lastVisible = onScreen;
}

void AgentLayerItem::drawRibbon(QPainter* painter, const Frame& f, const AgentBodies& bodies, int w)
{
    const float width = bodies.bodyWidth();
    const qreal widthPx = width * f.ppm;
    const DeviceMap& map = f.map;
    const Vec2 head = bodies.point(w, 0);
    bodies.outline(w, m_left, m_right);
    const std::size_t count = m_left.size();
    // Forward is 90 degrees clockwise of (left - right).
    const Vec2 across = m_left[0] - m_right[0];
    const Vec2 forward = Vec2{across.y, -across.x}.normalizedOr({1.0f, 0.0f});
    const Vec2 side = forward.perp();
    const float half = 0.5f * width;
    constexpr int kCapPoints = 7; // rounded head
    m_polygon.clear();
    for (int k = 0; k <= kCapPoints; ++k) {
        const float t = static_cast<float>(k) / kCapPoints * 3.14159265f;
        const Vec2 p = head + side * (half * std::cos(t)) + forward * (half * std::sin(t));
        m_polygon.push_back(map.map(p));
    }
    for (std::size_t k = 1; k < count; ++k)
        m_polygon.push_back(map.map(m_right[k]));
    for (std::size_t k = count - 1; k >= 1; --k)
        m_polygon.push_back(map.map(m_left[k]));
    painter->setPen(cosmeticPen(m_body.darker(170), kOutlineWidth));
    painter->setBrush(m_body);
    painter->drawPolygon(m_polygon.data(), static_cast<int>(m_polygon.size()));
    if (count > 2) {
        m_lines.clear();
        for (std::size_t k = 1; k + 1 < count; ++k)
            m_lines.emplace_back(map.map(m_left[k]), map.map(m_right[k]));
        painter->setPen(cosmeticPen(withAlpha(m_body.darker(150), 150), 1.0));
        painter->drawLines(m_lines.data(), static_cast<int>(m_lines.size()));
    }
    if (widthPx >= 6.0) { // eyes
        painter->setPen(Qt::NoPen);
        painter->setBrush(m_accent);
        const qreal eye = 0.11 * widthPx;
        for (const float sign : {1.0f, -1.0f})
            drawDisc(*painter,
                     map.map(head - forward * (0.05f * width) + side * (sign * 0.24f * width)),
                     eye);
    }
}

void AgentLayerItem::paintWorldLayer(QPainter* painter, const QRectF& exposed)
{
    const QTransform transform = painter->worldTransform();
    const qreal ppm = QStyleOptionGraphicsItem::levelOfDetailFromTransform(transform);
    const DeviceMap map(transform);
    const float radius = static_cast<float>(defaultPlayerRadius());
    const WorldBox view(exposed, 3.0f * radius);
    const Detail detail = detailAt(ppm);
    m_lastDetail = detail;
    painter->resetTransform();
    int visible = 0;

    // Coins (and free fish when no school is player-led) still waiting in the level.
    const qreal coinPx = kCoinRadius * ppm;
    std::vector<QPointF>& coins = m_points[kNormal];
    std::vector<QPointF>& fish = m_points[kDim];
    coins.clear();
    fish.clear();
    for (const PickupState& pickup : m_frame->pickups) {
        if (pickup.taken || !view.contains(pickup.position.x, pickup.position.y))
            continue;
        (pickup.kind == PickupKind::Coin ? coins : fish).push_back(map.map(pickup.position));
    }
    visible += static_cast<int>(coins.size() + fish.size());
    if (coinPx >= 2.0) {
        painter->setRenderHint(QPainter::Antialiasing, coins.size() + fish.size() <= kVectorLimit);
        painter->setPen(cosmeticPen(kCoinColor.darker(160), 1.0));
        painter->setBrush(kCoinColor);
        for (const QPointF& p : coins)
            drawDisc(*painter, p, coinPx);
        painter->setPen(cosmeticPen(withAlpha(m_body, 160), 1.0));
        painter->setBrush(withAlpha(m_body, 90));
        for (const QPointF& p : fish)
            drawDisc(*painter, p, coinPx);
        painter->setRenderHint(QPainter::Antialiasing, false);
    } else {
        QPen pen(kCoinColor, coinPx < 0.75 ? 0.0 : 2.0);
        pen.setCosmetic(true);
        painter->setPen(pen);
        painter->drawPoints(coins.data(), static_cast<int>(coins.size()));
        pen.setColor(withAlpha(m_body, 140));
        painter->setPen(pen);
        painter->drawPoints(fish.data(), static_cast<int>(fish.size()));
    }

    const PlayerState& player = m_frame->player;
    if (player.enabled && player.group < 0 && view.contains(player.position.x, player.position.y)) {
        ++visible;
        drawPlayerMarker(painter, map.map(player.position), map.angle(player.heading), radius * ppm,
                         detail == Detail::Shapes);
    }
    m_lastVisible = visible;
}

} // namespace shoal::ui
