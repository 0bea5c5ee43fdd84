#include "levelrenderer.h"

#include <algorithm>
#include <cmath>

namespace game {

namespace {

constexpr float kWallWidth = 0.3f;     ///< m, as the editor draws walls
constexpr float kWallMinPixels = 5.0f; ///< and never thinner than this
constexpr float kCoinRadius = 0.25f;   ///< m

shoal::Vec2 vec(shoal::Point2 p)
{
    return {static_cast<float>(p.x), static_cast<float>(p.y)};
}

} // namespace

LevelRenderer::LevelRenderer(const shoal::SceneDesc& scene)
    : m_min(vec(scene.bounds.min)), m_max(vec(scene.bounds.max))
{
    for (const shoal::ObstacleDesc& o : scene.obstacles) {
        Obstacle obstacle;
        if (o.shape == shoal::ObstacleShape::Circle) {
            obstacle.centre = vec(o.center);
            obstacle.radius = static_cast<float>(o.radius);
        } else {
            for (const shoal::Point2& p : o.points)
                obstacle.points.push_back(vec(p));
            obstacle.triangles = triangulate(obstacle.points);
        }
        m_obstacles.push_back(std::move(obstacle));
    }
    for (const shoal::WallDesc& w : scene.walls) {
        Wall wall;
        for (const shoal::Point2& p : w.points)
            wall.points.push_back(vec(p));
        wall.closed = w.closed;
        m_walls.push_back(std::move(wall));
    }
    for (const shoal::GroupDesc& g : scene.groups)
        if (g.spawn)
            m_spawnAreas.push_back(
                {vec(g.spawn->area.min), vec(g.spawn->area.max), fromScene(g.color)});
}

void LevelRenderer::drawGround(Canvas& canvas, const Camera& camera) const
{
    const float ppm = camera.pixelsPerMetre();
    const SDL_FPoint topLeft = camera.toScreen({m_min.x, m_max.y});
    const SDL_FPoint bottomRight = camera.toScreen({m_max.x, m_min.y});
    canvas.rect(topLeft.x - 1.0f, topLeft.y - 1.0f, bottomRight.x - topLeft.x + 2.0f,
                bottomRight.y - topLeft.y + 2.0f, kLevelBorder);
    canvas.rect(topLeft.x, topLeft.y, bottomRight.x - topLeft.x, bottomRight.y - topLeft.y, kLevel);
    drawGrid(canvas, camera);

    for (const SpawnArea& area : m_spawnAreas) {
        const SDL_FPoint a = camera.toScreen({area.min.x, area.max.y});
        const SDL_FPoint b = camera.toScreen({area.max.x, area.min.y});
        canvas.rect(a.x, a.y, b.x - a.x, b.y - a.y, withAlpha(area.color, 22));
        const SDL_FPoint corners[4] = {a, {b.x, a.y}, b, {a.x, b.y}};
        for (int k = 0; k < 4; ++k)
            canvas.line(corners[k], corners[(k + 1) % 4], 1.0f, withAlpha(area.color, 70));
    }

    for (const Obstacle& o : m_obstacles) {
        if (o.points.empty()) {
            const SDL_FPoint c = camera.toScreen(o.centre);
            canvas.disc(c, o.radius * ppm + 1.0f, kObstacleEdge);
            canvas.disc(c, std::max(o.radius * ppm - 1.0f, 0.5f), kObstacleFill);
            continue;
        }
        m_screen.clear();
        for (const shoal::Vec2& p : o.points)
            m_screen.push_back(camera.toScreen(p));
        canvas.polyline(m_screen.data(), static_cast<int>(m_screen.size()), 2.5f, kObstacleEdge,
                        true);
        canvas.fillTriangles(m_screen, o.triangles, kObstacleFill);
    }

    const float width = std::max(kWallWidth * ppm, kWallMinPixels);
    for (const Wall& w : m_walls) {
        m_screen.clear();
        for (const shoal::Vec2& p : w.points)
            m_screen.push_back(camera.toScreen(p));
        const int n = static_cast<int>(m_screen.size());
        canvas.polyline(m_screen.data(), n, width + 2.0f, kWallRim, w.closed);
        canvas.polyline(m_screen.data(), n, width, kWallCore, w.closed);
    }
}

void LevelRenderer::drawGrid(Canvas& canvas, const Camera& camera) const
{
    const float ppm = camera.pixelsPerMetre();
    // A line a metre when those are far enough apart to read, every fifth stronger.
    const int step = ppm >= 6.0f ? 1 : 5;
    const int x0 = static_cast<int>(std::ceil(m_min.x / step)) * step;
    const int y0 = static_cast<int>(std::ceil(m_min.y / step)) * step;
    for (int x = x0; static_cast<float>(x) < m_max.x; x += step) {
        if (static_cast<float>(x) <= m_min.x)
            continue;
        const Rgba color = x % 5 == 0 ? kGridMajor : kGridMinor;
        canvas.line(camera.toScreen({static_cast<float>(x), m_min.y}),
                    camera.toScreen({static_cast<float>(x), m_max.y}), 1.0f, color);
    }
    for (int y = y0; static_cast<float>(y) < m_max.y; y += step) {
        if (static_cast<float>(y) <= m_min.y)
            continue;
        const Rgba color = y % 5 == 0 ? kGridMajor : kGridMinor;
        canvas.line(camera.toScreen({m_min.x, static_cast<float>(y)}),
                    camera.toScreen({m_max.x, static_cast<float>(y)}), 1.0f, color);
    }
}

void LevelRenderer::drawItems(Canvas& canvas, const Camera& camera, const shoal::World& world) const
{
    const float ppm = camera.pixelsPerMetre();
    const float coin = std::max(kCoinRadius * ppm, 2.0f);
    for (const shoal::PickupState& pickup : world.pickups()) {
        if (pickup.taken)
            continue;
        const SDL_FPoint p = camera.toScreen(pickup.position);
        if (pickup.kind == shoal::PickupKind::Coin) {
            canvas.disc(p, coin + 1.0f, kCoinEdge);
            canvas.disc(p, coin, kCoin);
            canvas.ring(p, coin * 0.58f, std::max(1.0f, coin * 0.12f), lighter(kCoinEdge, 1.4f));
        } else {
            canvas.disc(p, coin + 1.0f, withAlpha(kFish, 160));
            canvas.disc(p, coin, withAlpha(kFish, 90));
        }
    }
    // Where each squad is sent: a cross in a ring.
    for (int g = 0; g < world.groupCount(); ++g) {
        const shoal::GroupState& group = world.group(g);
        if (group.kind != shoal::BehaviourKind::TankSquad || !group.hasTarget)
            continue;
        const SDL_FPoint t = camera.toScreen(group.target);
        constexpr float r = 9.0f;
        canvas.ring(t, r, 2.0f, kTarget);
        canvas.line({t.x - r - 4.0f, t.y}, {t.x - r + 4.0f, t.y}, 2.0f, kTarget);
        canvas.line({t.x + r - 4.0f, t.y}, {t.x + r + 4.0f, t.y}, 2.0f, kTarget);
        canvas.line({t.x, t.y - r - 4.0f}, {t.x, t.y - r + 4.0f}, 2.0f, kTarget);
        canvas.line({t.x, t.y + r - 4.0f}, {t.x, t.y + r + 4.0f}, 2.0f, kTarget);
    }
}

} // namespace game
