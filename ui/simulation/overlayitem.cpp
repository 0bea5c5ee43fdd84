#include "simulation/overlayitem.h"

#include "simulation/labelplacer.h"

#include "simulation/agentlayeritem.h"

#include <shoal/sketch.h>
#include <shoal/world.h>

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace shoal::ui {

namespace {

// Translucent, so the agents stay readable underneath; one meaning per colour throughout.
constexpr QColor kFaint{255, 255, 255, 70};    ///< a radius that is fine
constexpr QColor kNeutral{255, 255, 255, 150}; ///< lines of reference
constexpr QColor kWarm{255, 150, 60, 215};     ///< too close, a hit
constexpr QColor kCool{90, 190, 255, 205};     ///< closing up
constexpr QColor kGoal{255, 214, 90, 225};     ///< targets and goals
constexpr QColor kGood{110, 230, 150, 220};    ///< where an agent wants to be / at rest
constexpr QColor kDanger{255, 90, 90, 200};    ///< zones to keep out of
constexpr QColor kGridLine{120, 200, 255, 60};
constexpr QColor kGridBox{120, 200, 255, 150};
constexpr QColor kLabelBack{10, 16, 24, 170};
constexpr QColor kShade{10, 16, 24, 200};    ///< dark lines over light bodies
constexpr QColor kLight{255, 255, 255, 230}; ///< light marks over dark lines

/// The colour the overlays give a sketch tone.
QColor toneColor(SketchTone tone)
{
    switch (tone) {
    case SketchTone::Faint:
        return kFaint;
    case SketchTone::Reference:
        return kNeutral;
    case SketchTone::Warm:
        return kWarm;
    case SketchTone::Cool:
        return kCool;
    case SketchTone::Goal:
        return kGoal;
    case SketchTone::Good:
        return kGood;
    case SketchTone::Danger:
        return kDanger;
    case SketchTone::Shade:
        return kShade;
    case SketchTone::Light:
        return kLight;
    }
    return kNeutral;
}

QPen pen(const QColor& color, qreal width = 1.0, Qt::PenStyle style = Qt::SolidLine)
{
    QPen p(color, width, style);
    p.setCosmetic(true);
    p.setCapStyle(Qt::FlatCap);
    return p;
}

QColor alpha(QColor color, int a)
{
    color.setAlpha(a);
    return color;
}

QPointF at(Vec2 p)
{
    return sceneFromWorld(p);
}

bool sameStyle(const SketchStyle& a, const SketchStyle& b)
{
    return a.tone == b.tone && a.stroke == b.stroke && a.width == b.width && a.alpha == b.alpha &&
           a.filled == b.filled && a.fillAlpha == b.fillAlpha;
}

/// Sets the painter's pen and brush to a sketch style.
void applyStyle(QPainter* painter, const SketchStyle& style)
{
    const QColor color = toneColor(style.tone);
    if (style.stroke == SketchStroke::None) {
        painter->setPen(Qt::NoPen);
    } else {
        const Qt::PenStyle line = style.stroke == SketchStroke::Dashed   ? Qt::DashLine
                                  : style.stroke == SketchStroke::Dotted ? Qt::DotLine
                                                                         : Qt::SolidLine;
        painter->setPen(pen(style.alpha ? alpha(color, style.alpha) : color, style.width, line));
    }
    if (style.filled)
        painter->setBrush(style.fillAlpha ? alpha(color, style.fillAlpha) : color);
    else
        painter->setBrush(Qt::NoBrush);
}

/// The items of the batch of `style` among the first `used` batches (a new one when none
/// has it yet): each style is one draw call, first seen, first drawn.
template <class Batch>
auto& batchFor(std::vector<Batch>& batches, std::size_t& used, const SketchStyle& style)
{
    for (std::size_t k = 0; k < used; ++k)
        if (sameStyle(batches[k].style, style))
            return batches[k].items;
    if (used == batches.size())
        batches.emplace_back();
    batches[used].style = style;
    batches[used].items.clear();
    return batches[used++].items;
}

/// Unit circles of 12 to 192 sides. Circles are drawn as polygons with one-pixel pens:
/// drawEllipse() flattens a curved path on every call, and a pen wider than one pixel goes
/// through the raster engine's general stroker; with a few thousand circles either one
/// costs more than the whole frame.
const std::vector<QPointF>& unitCircle(int sides)
{
    static const std::array<std::vector<QPointF>, 5> tables = [] {
        std::array<std::vector<QPointF>, 5> out;
        int n = 12;
        for (auto& table : out) {
            for (int k = 0; k < n; ++k)
                table.emplace_back(std::cos(6.283185307179586 * k / n),
                                   std::sin(6.283185307179586 * k / n));
            n *= 2;
        }
        return out;
    }();
    std::size_t index = 0;
    for (int n = 12; n < sides && index + 1 < tables.size(); n *= 2)
        ++index;
    return tables[index];
}

} // namespace

struct OverlayItem::Frame
{
    Frame(QPainter* p, const World& w, qreal pixelsPerMetre, Vec2 lo, Vec2 hi,
          std::vector<QPointF>& polygon)
        : painter(p), world(w), ppm(pixelsPerMetre), minX(lo.x), maxX(hi.x), minY(lo.y), maxY(hi.y),
          scratch(polygon), font(p->font())
    {
        font.setPixelSize(11);
        metrics = QFontMetricsF(font);
    }

    QPainter* painter;
    const World& world;
    qreal ppm;                    ///< device pixels per metre
    float minX, maxX, minY, maxY; ///< exposed area in world coordinates
    std::vector<QPointF>& scratch;
    QFont font;
    QFontMetricsF metrics{QFont()};

    Vec2 lo() const { return {minX, minY}; }
    Vec2 hi() const { return {maxX, maxY}; }

    bool visible(float x, float y, float pad = 0.0f) const
    {
        return x >= minX - pad && x <= maxX + pad && y >= minY - pad && y <= maxY + pad;
    }
    /// Metres that show as `pixels` on screen.
    qreal metres(qreal pixels) const { return pixels / ppm; }

    /// A circle with the current pen and brush, as a polygon fine enough for its size.
    void circle(Vec2 c, qreal r) const
    {
        const std::vector<QPointF>& unit = unitCircle(static_cast<int>(r * ppm * 0.75));
        const QPointF centre = at(c);
        scratch.resize(unit.size());
        for (std::size_t k = 0; k < unit.size(); ++k)
            scratch[k] = centre + unit[k] * r;
        painter->drawPolygon(scratch.data(), static_cast<int>(scratch.size()));
    }

    void cross(Vec2 c, qreal pixels) const
    {
        const qreal d = metres(pixels);
        const QPointF p = at(c);
        painter->drawLine(p + QPointF(-d, -d), p + QPointF(d, d));
        painter->drawLine(p + QPointF(-d, d), p + QPointF(d, -d));
    }

    /// A filled dot `pixels` in radius.
    void dot(Vec2 c, qreal pixels, const QColor& color) const
    {
        painter->setPen(Qt::NoPen);
        painter->setBrush(color);
        circle(c, metres(pixels));
    }

    /// A short text beside a point, on a dark plate, at a fixed pixel size; where it would
    /// cover another plate it goes to another side, or is left out (LabelPlacer).
    void label(Vec2 c, const QString& text, const QColor& color) const
    {
        const QPointF device = painter->worldTransform().map(at(c));
        const QPaintDevice* target = painter->device();
        if (!labels)
            labels.emplace(target ? QRectF(0, 0, target->width(), target->height()) : QRectF());
        const std::optional<QRectF> box = labels->place(
            device, QSizeF(metrics.horizontalAdvance(text) + 8, metrics.height() + 2));
        if (!box)
            return;
        painter->save();
        painter->resetTransform();
        painter->setFont(font);
        painter->setPen(Qt::NoPen);
        painter->setBrush(kLabelBack);
        painter->drawRoundedRect(*box, 3, 3);
        painter->setPen(alpha(color, 255));
        painter->drawText(*box, Qt::AlignCenter, text);
        painter->restore();
    }

    /// The plates of this frame, placed so none covers another.
    mutable std::optional<LabelPlacer> labels;
};

OverlayItem::OverlayItem(OverlayOptions* options, QGraphicsItem* parent)
    : QGraphicsObject(parent), m_options(options)
{
    setZValue(kZValue);
    setFlag(ItemUsesExtendedStyleOption, true);
    setAcceptedMouseButtons(Qt::NoButton);
    if (options)
        connect(options, &OverlayOptions::changed, this, [this] { update(); });
}

void OverlayItem::syncFromWorld(const World* world)
{
    m_world = world;
    recomputeBounds();
    if (m_options && m_options->anyEnabled())
        update();
}

bool OverlayItem::drawsAnything() const
{
    return m_world && m_options && m_options->anyEnabled() && !shownGroups().isEmpty();
}

void OverlayItem::setSelectedGroups(const QList<int>& groups)
{
    if (groups == m_selected)
        return;
    m_selected = groups;
    update();
}

QList<int> OverlayItem::shownGroups() const
{
    QList<int> shown;
    if (!m_world || !m_options)
        return shown;
    if (m_options->scope() == OverlayOptions::Scope::AllGroups) {
        for (int g = 0; g < m_world->groupCount(); ++g)
            shown << g;
        return shown;
    }
    for (int g : m_selected)
        if (g >= 0 && g < m_world->groupCount() && !shown.contains(g))
            shown << g;
    return shown;
}

void OverlayItem::recomputeBounds()
{
    QRectF bounds;
    if (m_world) {
        const Vec2 lo = m_world->boundsMin();
        const Vec2 hi = m_world->boundsMax();
        // Circles around agents near the edge (a squad's close distance, a wander circle)
        // reach past the bounds.
        const float pad = 0.25f * std::max(hi.x - lo.x, hi.y - lo.y) + 25.0f;
        bounds = sceneRectFromWorld({lo.x - pad, lo.y - pad}, {hi.x + pad, hi.y + pad});
    }
    if (bounds != m_bounds) {
        prepareGeometryChange();
        m_bounds = bounds;
    }
}

QRectF OverlayItem::boundingRect() const
{
    return m_bounds;
}

void OverlayItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget)
{
    (void)widget;
    if (!m_world || !m_options || !m_options->anyEnabled())
        return;
    const QList<int> groups = shownGroups();
    if (groups.isEmpty())
        return;
    const QRectF exposed = option ? option->exposedRect : boundingRect();
    const qreal ppm =
        QStyleOptionGraphicsItem::levelOfDetailFromTransform(painter->worldTransform());
    if (ppm <= 0.0)
        return;
    const Vec2 c0 = worldFromScene(exposed.topLeft());
    const Vec2 c1 = worldFromScene(exposed.bottomRight());
    Frame f(painter, *m_world, ppm, {std::min(c0.x, c1.x), std::min(c0.y, c1.y)},
            {std::max(c0.x, c1.x), std::max(c0.y, c1.y)}, m_polygon);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    using O = OverlayOptions::Overlay;
    const OverlayOptions& o = *m_options;
    const SketchRequest request{f.lo(), f.hi(), static_cast<float>(ppm), kMaxCircleAgents};
    // Background first: cells, then vectors and rays, then each family's gizmos.
    if (o.isEnabled(O::Grid))
        for (int g : groups)
            paintGrid(f, g);
    if (o.isEnabled(O::Velocity))
        for (int g : groups)
            paintVelocity(f, m_world->group(g));
    if (o.isEnabled(O::Feelers)) {
        int budget = kMaxFeelerAgents;
        m_sketch.clear();
        for (int g : groups)
            budget -= m_world->sketchFeelers(g, request, budget, m_sketch);
        paintSketch(f, m_sketch);
    }
    for (int g : groups) {
        if (!o.isEnabled(OverlayOptions::familyOverlay(m_world->group(g).kind)))
            continue;
        m_sketch.clear();
        m_world->sketch(g, request, m_sketch);
        paintSketch(f, m_sketch);
    }
    painter->restore();
    m_lastLabels = f.labels ? f.labels->placed() : std::vector<QRectF>();
}

void OverlayItem::paintSketch(Frame& f, const Sketch& sketch)
{
    QPainter* painter = f.painter;
    for (const SketchRing& ring : sketch.rings) {
        QPainterPath band; // one ring per group at most: a path is fine
        band.addEllipse(at(ring.centre), ring.outer, ring.outer);
        band.addEllipse(at(ring.centre), ring.inner, ring.inner);
        band.setFillRule(Qt::OddEvenFill);
        applyStyle(painter, ring.style);
        painter->drawPath(band);
    }
    const SketchStyle* current = nullptr;
    for (const SketchCircle& circle : sketch.circles) {
        if (!current || !sameStyle(*current, circle.style))
            applyStyle(painter, circle.style);
        current = &circle.style;
        f.circle(circle.centre, circle.radius);
    }
    for (const SketchPath& path : sketch.paths) {
        m_points.clear();
        for (std::size_t k = 0; k < path.count; ++k)
            m_points.push_back(at(sketch.points[path.first + k]));
        applyStyle(painter, path.style);
        painter->drawPolyline(m_points.data(), static_cast<int>(m_points.size()));
    }
    std::size_t lineBatches = 0;
    for (const SketchLine& line : sketch.lines)
        batchFor(m_lineBatches, lineBatches, line.style).emplace_back(at(line.from), at(line.to));
    for (std::size_t k = 0; k < lineBatches; ++k) {
        applyStyle(painter, m_lineBatches[k].style);
        const std::vector<QLineF>& lines = m_lineBatches[k].items;
        painter->drawLines(lines.data(), static_cast<int>(lines.size()));
    }
    paintMarks(f, sketch.marks);
    for (const SketchLabel& label : sketch.labels)
        f.label(label.at, QString::fromStdString(label.text), toneColor(label.tone));
}

void OverlayItem::paintMarks(Frame& f, const std::vector<SketchMark>& marks)
{
    // One batch per shape, size and style, drawn in the order first seen.
    std::size_t used = 0;
    for (const SketchMark& mark : marks) {
        std::size_t k = 0;
        while (k < used &&
               !(m_markBatches[k].shape == mark.shape && m_markBatches[k].pixels == mark.pixels &&
                 sameStyle(m_markBatches[k].style, mark.style)))
            ++k;
        if (k == used) {
            if (used == m_markBatches.size())
                m_markBatches.emplace_back();
            m_markBatches[k] = {mark.shape, mark.pixels, mark.style, {}};
            ++used;
        }
        m_markBatches[k].points.push_back(mark.at);
    }
    QPainter* painter = f.painter;
    for (std::size_t k = 0; k < used; ++k) {
        const MarkBatch& batch = m_markBatches[k];
        applyStyle(painter, batch.style);
        const qreal r = f.metres(batch.pixels);
        switch (batch.shape) {
        case SketchMark::Shape::Dot:
        case SketchMark::Shape::Circle:
            for (const Vec2& p : batch.points)
                f.circle(p, r);
            break;
        case SketchMark::Shape::Cross:
            for (const Vec2& p : batch.points)
                f.cross(p, batch.pixels);
            break;
        case SketchMark::Shape::Square: {
            m_rects.clear();
            for (const Vec2& p : batch.points)
                m_rects.emplace_back(at(p) - QPointF(r, r), QSizeF(2 * r, 2 * r));
            painter->save();
            painter->setRenderHint(QPainter::Antialiasing, false);
            painter->drawRects(m_rects.data(), static_cast<int>(m_rects.size()));
            painter->restore();
            break;
        }
        }
    }
}

void OverlayItem::paintVelocity(Frame& f, const GroupState& group)
{
    const AgentArrays& a = group.agents;
    m_lines.clear();
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (!f.visible(a.px[i], a.py[i], 2.0f))
            continue;
        const Vec2 p{a.px[i], a.py[i]};
        const Vec2 v{a.vx[i], a.vy[i]};
        if (v.lengthSquared() < 1e-6f)
            continue;
        m_lines.emplace_back(at(p), at(p + v * kVelocitySeconds));
    }
    QPainter* painter = f.painter;
    painter->save();
    // Thousands of lines: antialiasing would cost more than the rest of the frame.
    painter->setRenderHint(QPainter::Antialiasing, m_lines.size() <= 2000);
    painter->setPen(pen(QColor(255, 255, 255, 150), 1.0));
    painter->drawLines(m_lines.data(), static_cast<int>(m_lines.size()));
    painter->restore();
}

/// An image over the device pixels a grid covers, with the device column and row of a world
/// x and y (the view is axis aligned) and a blend of a colour over a block of pixels.
class OverlayItem::GridCanvas
{
public:
    GridCanvas(QImage& image, const QTransform& transform, const QRect& area)
        : m_bits(reinterpret_cast<QRgb*>(image.bits())),
          m_stride(static_cast<int>(image.bytesPerLine() / 4)), m_width(area.width()),
          m_height(area.height()), m_transform(transform), m_area(area),
          m_sceneX(sceneFromWorld(1.0, 0.0)), m_sceneY(sceneFromWorld(0.0, 1.0))
    {
    }
    int column(float x) const
    {
        return static_cast<int>(
                   std::lround(m_transform.m11() * m_sceneX.x() * x + m_transform.dx())) -
               m_area.left();
    }
    int row(float y) const
    {
        return static_cast<int>(
                   std::lround(m_transform.m22() * m_sceneY.y() * y + m_transform.dy())) -
               m_area.top();
    }
    /// Blends `color` over the half-open block [x0, x1) x [y0, y1), corners in any order.
    void fill(int x0, int y0, int x1, int y1, QRgb color)
    {
        if (x0 > x1)
            std::swap(x0, x1);
        if (y0 > y1)
            std::swap(y0, y1);
        x0 = std::max(x0, 0);
        y0 = std::max(y0, 0);
        x1 = std::min(x1, m_width);
        y1 = std::min(y1, m_height);
        for (int y = y0; y < y1; ++y)
            for (int x = x0; x < x1; ++x) {
                QRgb& pixel = m_bits[static_cast<std::ptrdiff_t>(y) * m_stride + x];
                pixel = premultipliedOver(color, pixel);
            }
    }

private:
    QRgb* m_bits;
    int m_stride;
    int m_width;
    int m_height;
    QTransform m_transform;
    QRect m_area;
    QPointF m_sceneX;
    QPointF m_sceneY;
};

/// The cells of a grid on screen: columns [c0, c1), rows [r0, r1).
struct OverlayItem::CellWindow
{
    int c0, c1, r0, r1;
};

void OverlayItem::paintGrid(Frame& f, int group)
{
    const GridSketch grid = m_world->gridSketch(group);
    if (grid.columns <= 0 || grid.rows <= 0)
        return;
    const Vec2 origin = grid.origin;
    const Vec2 far{origin.x + grid.columns * grid.columnWidth,
                   origin.y + grid.rows * grid.rowHeight};
    QPainter* painter = f.painter;
    const QTransform transform = painter->worldTransform();
    const bool cells = std::min(grid.columnWidth, grid.rowHeight) * f.ppm >= 5.0;

    // The grid is drawn into an image and blitted once. Drawn as lines, every long one is
    // a separate blend the raster engine hands to its thread pool, and a few dozen of those
    // cost tens of milliseconds on two cores. A rotated view falls back to the box alone.
    QRect area =
        transform.mapRect(sceneRectFromWorld(origin, far)).toAlignedRect().adjusted(-1, -1, 1, 1);
    if (const QPaintDevice* device = painter->device())
        area &= QRect(0, 0, device->width(), device->height());
    if (!cells || area.isEmpty() || transform.type() > QTransform::TxScale) {
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing, false);
        painter->setBrush(Qt::NoBrush);
        painter->setPen(pen(kGridBox));
        painter->drawRect(sceneRectFromWorld(origin, far));
        painter->restore();
        return;
    }
    if (m_gridCanvas.size() != area.size())
        m_gridCanvas = QImage(area.size(), QImage::Format_ARGB32_Premultiplied);
    m_gridCanvas.fill(0);
    GridCanvas canvas(m_gridCanvas, transform, area);
    // Only the cells on screen.
    auto clamped = [](float v, int hi) { return std::clamp(static_cast<int>(v), 0, hi); };
    const CellWindow window{
        clamped(std::floor((f.minX - origin.x) / grid.columnWidth), grid.columns),
        clamped(std::ceil((f.maxX - origin.x) / grid.columnWidth), grid.columns),
        clamped(std::floor((f.minY - origin.y) / grid.rowHeight), grid.rows),
        clamped(std::ceil((f.maxY - origin.y) / grid.rowHeight), grid.rows)};
    shadeCells(canvas, grid, window, group);
    drawGridLines(canvas, grid, window);
    painter->save();
    painter->resetTransform();
    painter->drawImage(area.topLeft(), m_gridCanvas);
    painter->restore();
    if ((far.x - origin.x) * f.ppm >= 120.0 && f.visible(far.x, far.y))
        f.label(far,
                OverlayItem::tr("%1: cells %2 x %3 m")
                    .arg(QString::fromStdString(m_world->group(group).name))
                    .arg(static_cast<double>(grid.columnWidth), 0, 'g', 3)
                    .arg(static_cast<double>(grid.rowHeight), 0, 'g', 3),
                kGridBox);
}

void OverlayItem::shadeCells(GridCanvas& canvas, const GridSketch& grid, const CellWindow& w,
                             int group) const
{
    // Occupied cells shaded by how full they are (1-2, 3-6, 7+ agents).
    const std::array<QRgb, 3> shades = {qPremultiply(alpha(kGridBox, 22).rgba()),
                                        qPremultiply(alpha(kGridBox, 44).rgba()),
                                        qPremultiply(alpha(kGridBox, 66).rgba())};
    for (int r = w.r0; r < w.r1; ++r) {
        const float y = grid.origin.y + r * grid.rowHeight;
        for (int c = w.c0; c < w.c1; ++c) {
            const std::uint32_t count = m_world->gridCellCount(group, r * grid.columns + c);
            if (count == 0)
                continue;
            const float x = grid.origin.x + c * grid.columnWidth;
            canvas.fill(canvas.column(x), canvas.row(y), canvas.column(x + grid.columnWidth),
                        canvas.row(y + grid.rowHeight),
                        shades[count <= 2 ? 0 : (count <= 6 ? 1 : 2)]);
        }
    }
}

void OverlayItem::drawGridLines(GridCanvas& canvas, const GridSketch& grid, const CellWindow& w)
{
    // Cell lines, and the grid's own edges brighter.
    const QRgb line = qPremultiply(kGridLine.rgba());
    const QRgb box = qPremultiply(kGridBox.rgba());
    const Vec2 o = grid.origin;
    const int top = canvas.row(o.y + w.r0 * grid.rowHeight);
    const int bottom = canvas.row(o.y + w.r1 * grid.rowHeight);
    const int left = canvas.column(o.x + w.c0 * grid.columnWidth);
    const int right = canvas.column(o.x + w.c1 * grid.columnWidth);
    for (int c = w.c0; c <= w.c1; ++c) {
        const int x = canvas.column(o.x + c * grid.columnWidth);
        canvas.fill(x, top, x + 1, bottom + 1, (c == 0 || c == grid.columns) ? box : line);
    }
    for (int r = w.r0; r <= w.r1; ++r) {
        const int y = canvas.row(o.y + r * grid.rowHeight);
        canvas.fill(left, y, right + 1, y + 1, (r == 0 || r == grid.rows) ? box : line);
    }
}

} // namespace shoal::ui
