#include "agentrenderer.h"

#include "palette.h"

#include <shoal/paramspec.h>

#include <algorithm>
#include <cmath>

namespace game {

namespace {

using Glyph = shoal::FamilyView::Glyph;

/// Body radius on screen (px) from which agents are glyphs rather than dots.
constexpr float kShapeRadiusPx = 1.75f;
constexpr float kPi = 3.14159265f;

/// A glyph's outline at body radius 1, facing +x (the editor's shapes), cut into triangles.
struct Shape
{
    std::vector<shoal::Vec2> points;
    std::vector<int> triangles;
};

/// Points of the cubic Bezier from `a` (not included) to `d`.
void appendCubic(std::vector<shoal::Vec2>& out, shoal::Vec2 a, shoal::Vec2 b, shoal::Vec2 c,
                 shoal::Vec2 d)
{
    constexpr int kSteps = 6;
    for (int k = 1; k <= kSteps; ++k) {
        const float t = static_cast<float>(k) / kSteps;
        const float u = 1.0f - t;
        out.push_back(a * (u * u * u) + b * (3.0f * u * u * t) + c * (3.0f * u * t * t) +
                      d * (t * t * t));
    }
}

Shape makeShape(std::vector<shoal::Vec2> points)
{
    Shape shape;
    shape.triangles = triangulate(points);
    shape.points = std::move(points);
    return shape;
}

const Shape& shapeOf(Glyph glyph)
{
    static const Shape fish = [] {
        std::vector<shoal::Vec2> p{{1.45f, 0.0f}};
        appendCubic(p, p.back(), {1.4f, 0.45f}, {0.6f, 0.62f}, {0.1f, 0.56f});
        appendCubic(p, p.back(), {-0.4f, 0.48f}, {-0.72f, 0.22f}, {-0.95f, 0.1f});
        p.insert(p.end(), {{-1.42f, 0.52f}, {-1.22f, 0.0f}, {-1.42f, -0.52f}, {-0.95f, -0.1f}});
        appendCubic(p, p.back(), {-0.72f, -0.22f}, {-0.4f, -0.48f}, {0.1f, -0.56f});
        appendCubic(p, p.back(), {0.6f, -0.62f}, {1.4f, -0.45f}, {1.45f, 0.0f});
        p.pop_back(); // back at the nose
        return makeShape(std::move(p));
    }();
    static const Shape hull =
        makeShape({{1.05f, -0.8f}, {1.05f, 0.8f}, {-1.05f, 0.8f}, {-1.05f, -0.8f}});
    static const Shape dart =
        makeShape({{1.3f, 0.0f}, {-0.9f, 0.82f}, {-0.45f, 0.0f}, {-0.9f, -0.82f}});
    static const Shape chevron = makeShape({{1.15f, 0.0f},
                                            {-0.45f, 0.95f},
                                            {-1.0f, 0.95f},
                                            {0.3f, 0.0f},
                                            {-1.0f, -0.95f},
                                            {-0.45f, -0.95f}});
    switch (glyph) {
    case Glyph::Tank:
        return hull;
    case Glyph::Dart:
        return dart;
    case Glyph::Chevron:
        return chevron;
    case Glyph::Fish:
    case Glyph::Ribbon:
        break;
    }
    return fish;
}

/// Maps glyph units to screen pixels: rotate by the heading, scale, flip y (the world is y up).
struct GlyphTransform
{
    GlyphTransform(SDL_FPoint at, float heading, float unitPx)
        : x(at.x), y(at.y), c(std::cos(heading) * unitPx), s(std::sin(heading) * unitPx)
    {
    }
    SDL_FPoint operator()(shoal::Vec2 p) const
    {
        return {x + c * p.x - s * p.y, y - (s * p.x + c * p.y)};
    }
    float x, y, c, s;
};

void fillShape(Canvas& canvas, const Shape& shape, const GlyphTransform& t, Rgba fill, Rgba outline,
               std::vector<SDL_FPoint>& scratch)
{
    scratch.clear();
    for (const shoal::Vec2& p : shape.points)
        scratch.push_back(t(p));
    canvas.fillTriangles(scratch, shape.triangles, fill);
    canvas.outline(scratch.data(), static_cast<int>(scratch.size()), 1.2f, outline);
}

/// An axis-aligned box of the glyph (glyph units), turned with it.
void fillBox(Canvas& canvas, const GlyphTransform& t, float x0, float y0, float x1, float y1,
             Rgba color)
{
    const SDL_FPoint quad[4] = {t({x0, y0}), t({x1, y0}), t({x1, y1}), t({x0, y1})};
    canvas.fillConvex(quad, 4, color);
}

} // namespace

AgentRenderer::Palette AgentRenderer::paletteOf(Rgba body, Rgba accent)
{
    Palette p;
    p.body = body;
    p.accent = accent;
    const Rgba dark = darker(body, 1.75f);
    p.styles[kNormal] = {body, dark, accent, 1.0f};
    p.styles[kDim] = {withAlpha(body, 100), withAlpha(dark, 130), withAlpha(accent, 90), 0.9f};
    p.styles[kArrived] = {body, dark, accent, 1.0f};
    p.styles[kLeader] = {accent, darker(body, 1.85f), darker(body, 1.3f), 1.45f};
    p.styles[kPlayer] = {accent, darker(body, 2.1f), darker(body, 1.6f), 1.4f};
    return p;
}

AgentRenderer::AgentRenderer(const shoal::SceneDesc& scene, float playerRadius)
    : m_lonePlayer(paletteOf({0xff, 0xff, 0xff, 255}, {0xff, 0x8c, 0x42, 255})),
      m_playerRadius(playerRadius)
{
    for (const shoal::GroupDesc& g : scene.groups)
        m_palettes.push_back(paletteOf(fromScene(g.color), fromScene(g.accent)));
}

void AgentRenderer::draw(Canvas& canvas, const Camera& camera, const shoal::World& world,
                         float alpha)
{
    for (int g = 0; g < world.groupCount(); ++g) {
        if (world.bodies(g))
            drawWorms(canvas, camera, world, g);
        else
            drawGroup(canvas, camera, world, g, alpha);
    }
    // The player over everyone, so it is found in a crowd.
    const shoal::PlayerState& player = world.player();
    if (!player.enabled)
        return;
    const bool lone = player.group < 0;
    const Palette& palette =
        lone ? m_lonePlayer : m_palettes[static_cast<std::size_t>(player.group)];
    const float radiusPx =
        (lone ? m_playerRadius : world.bodyRadius(player.group)) * camera.pixelsPerMetre();
    const SDL_FPoint at =
        camera.toScreen(lone ? world.interpolatedPlayerPosition(alpha)
                             : world.interpolatedPosition(player.group, 0, alpha));
    const float heading = lone ? player.heading : world.interpolatedHeading(player.group, 0, alpha);
    drawPlayerRing(canvas, palette, at, radiusPx);
    const Glyph glyph =
        lone ? Glyph::Fish : shoal::familyView(world.group(player.group).kind).glyph;
    if (radiusPx >= kShapeRadiusPx)
        drawGlyph(canvas, glyph, palette.styles[kPlayer], kPlayer, at, heading, radiusPx);
    else
        canvas.disc(at, 2.5f, palette.styles[kPlayer].fill);
}

void AgentRenderer::drawGroup(Canvas& canvas, const Camera& camera, const shoal::World& world,
                              int g, float alpha)
{
    const shoal::GroupState& group = world.group(g);
    const shoal::FamilyView& view = shoal::familyView(group.kind);
    const Palette& palette = m_palettes[static_cast<std::size_t>(g)];
    const shoal::AgentArrays& a = group.agents;
    const float radiusPx = world.bodyRadius(g) * camera.pixelsPerMetre();
    const bool shapes = radiusPx >= kShapeRadiusPx;
    const shoal::Vec2 lo = camera.visibleMin();
    const shoal::Vec2 hi = camera.visibleMax();
    const float pad = 3.0f * world.bodyRadius(g);
    // Followers and free fish first, the leader over them.
    for (int pass = 0; pass < 2; ++pass)
        for (std::size_t i = 0; i < a.size(); ++i) {
            Variant variant = kNormal;
            if (i == 0 && group.playerLed)
                variant = kPlayer;
            else if (view.dimUnlessFlag && !(a.flags[i] & view.dimUnlessFlag))
                variant = kDim;
            else if (view.restingFlag && (a.flags[i] & view.restingFlag))
                variant = kArrived;
            else if (view.leaderFirst && i == 0)
                variant = kLeader;
            if (variant == kPlayer)
                continue; // drawn last, by draw()
            if ((variant == kLeader) != (pass == 1))
                continue;
            const shoal::Vec2 p = world.interpolatedPosition(g, i, alpha);
            if (p.x < lo.x - pad || p.x > hi.x + pad || p.y < lo.y - pad || p.y > hi.y + pad)
                continue;
            const SDL_FPoint at = camera.toScreen(p);
            const Style& style = palette.styles[variant];
            if (shapes) {
                drawGlyph(canvas, view.glyph, style, variant, at,
                          world.interpolatedHeading(g, i, alpha), radiusPx);
            } else {
                const float half = variant == kLeader ? 1.5f : 1.0f;
                canvas.rect(at.x - half, at.y - half, 2.0f * half, 2.0f * half, style.fill);
            }
        }
}

void AgentRenderer::drawGlyph(Canvas& canvas, Glyph glyph, const Style& style, Variant variant,
                              SDL_FPoint at, float heading, float radiusPx)
{
    const float unitPx = radiusPx * style.scale;
    const GlyphTransform t(at, heading, unitPx);
    fillShape(canvas, shapeOf(glyph), t, style.fill, style.outline, m_points);
    switch (glyph) {
    case Glyph::Fish:
    case Glyph::Ribbon:
        if (unitPx >= 5.0f) { // eyes
            canvas.disc(t({0.82f, 0.2f}), 0.1f * unitPx, style.outline);
            canvas.disc(t({0.82f, -0.2f}), 0.1f * unitPx, style.outline);
        }
        break;
    case Glyph::Tank:
        fillBox(canvas, t, -1.0f, 0.56f, 1.0f, 0.76f, style.outline); // tracks
        fillBox(canvas, t, -1.0f, -0.76f, 1.0f, -0.56f, style.outline);
        fillBox(canvas, t, 0.2f, -0.08f, 1.5f, 0.08f, style.outline); // barrel
        canvas.disc(t({-0.1f, 0.0f}), 0.4f * unitPx + 1.0f, style.outline);
        canvas.disc(t({-0.1f, 0.0f}), 0.4f * unitPx,
                    variant == kArrived ? style.detail : darker(style.fill, 1.25f));
        break;
    case Glyph::Dart:
        if (unitPx >= 3.0f)
            canvas.disc(t({0.3f, 0.0f}), 0.17f * unitPx, style.detail);
        break;
    case Glyph::Chevron:
        break;
    }
}

void AgentRenderer::drawPlayerRing(Canvas& canvas, const Palette& palette, SDL_FPoint at,
                                   float radiusPx)
{
    const Style& s = palette.styles[kPlayer];
    const float ring = std::max(2.0f * s.scale * radiusPx, 6.0f);
    canvas.ring(at, ring, 3.0f, withAlpha(s.outline, 150));
    canvas.ring(at, ring, 1.5f, withAlpha(palette.accent, 220));
}

void AgentRenderer::drawWorms(Canvas& canvas, const Camera& camera, const shoal::World& world,
                              int g)
{
    const shoal::AgentBodies& bodies = *world.bodies(g);
    const Palette& palette = m_palettes[static_cast<std::size_t>(g)];
    const float ppm = camera.pixelsPerMetre();
    const float width = bodies.bodyWidth();
    const float widthPx = width * ppm;
    const Rgba edge = darker(palette.body, 1.7f);
    const Rgba joint = withAlpha(darker(palette.body, 1.5f), 150);
    for (int w = 0; w < bodies.bodyCount(); ++w) {
        if (widthPx < 2.5f) { // far out: the centre line
            m_points.clear();
            for (int k = 0; k < bodies.pointCount(w); ++k)
                m_points.push_back(camera.toScreen(bodies.point(w, k)));
            canvas.polyline(m_points.data(), static_cast<int>(m_points.size()), 1.5f, palette.body,
                            false);
            continue;
        }
        bodies.outline(w, m_left, m_right);
        m_leftPx.clear();
        m_rightPx.clear();
        for (std::size_t k = 0; k < m_left.size(); ++k) {
            m_leftPx.push_back(camera.toScreen(m_left[k]));
            m_rightPx.push_back(camera.toScreen(m_right[k]));
        }
        // A rounded head: half a disc ahead of the first joint. Forward is 90 degrees
        // clockwise of (left - right).
        const shoal::Vec2 head = bodies.point(w, 0);
        const shoal::Vec2 across = m_left[0] - m_right[0];
        const shoal::Vec2 forward = shoal::Vec2{across.y, -across.x}.normalizedOr({1.0f, 0.0f});
        const shoal::Vec2 side = forward.perp();
        constexpr int kCapPoints = 8;
        m_points.clear();
        for (int k = 0; k <= kCapPoints; ++k) {
            const float t = static_cast<float>(k) / kCapPoints * kPi;
            m_points.push_back(camera.toScreen(head + side * (0.5f * width * std::cos(t)) +
                                               forward * (0.5f * width * std::sin(t))));
        }
        // The outline: cap, right edge to the tail, left edge back.
        std::vector<SDL_FPoint>& rim = m_points;
        const std::size_t capEnd = rim.size();
        for (std::size_t k = 1; k < m_rightPx.size(); ++k)
            rim.push_back(m_rightPx[k]);
        for (std::size_t k = m_leftPx.size() - 1; k >= 1; --k)
            rim.push_back(m_leftPx[k]);
        canvas.polyline(rim.data(), static_cast<int>(rim.size()), 2.0f, edge, true);
        canvas.fillConvex(rim.data(), static_cast<int>(capEnd), palette.body);
        canvas.band(m_leftPx, m_rightPx, palette.body);
        for (std::size_t k = 1; k + 1 < m_leftPx.size(); ++k)
            canvas.line(m_leftPx[k], m_rightPx[k], 1.0f, joint);
        if (widthPx >= 6.0f) // eyes
            for (const float sign : {1.0f, -1.0f})
                canvas.disc(camera.toScreen(head - forward * (0.05f * width) +
                                            side * (sign * 0.24f * width)),
                            0.11f * widthPx, palette.accent);
    }
}

} // namespace game
