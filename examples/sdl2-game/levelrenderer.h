#pragma once
/// Draws the level as the editor shows it: the bounds and a faint metre grid, the spawn areas
/// (faint), obstacles (filled polygons and circles), walls (thick lines), the pickups still
/// waiting and the squads' targets. The static shapes are prepared once from the scene.

#include "camera.h"
#include "canvas.h"

#include <shoal/scenedesc.h>
#include <shoal/world.h>

#include <vector>

namespace game {

class LevelRenderer
{
public:
    explicit LevelRenderer(const shoal::SceneDesc& scene);

    /// Under the agents: ground, grid, spawn areas, obstacles, walls.
    void drawGround(Canvas& canvas, const Camera& camera) const;
    /// Over the ground, under the agents: pickups and targets as the world has them now.
    void drawItems(Canvas& canvas, const Camera& camera, const shoal::World& world) const;

private:
    struct Obstacle
    {
        std::vector<shoal::Vec2> points; ///< polygon; empty for a circle
        std::vector<int> triangles;      ///< the polygon cut into triangles (index triples)
        shoal::Vec2 centre;              ///< circle
        float radius = 0.0f;
    };
    struct Wall
    {
        std::vector<shoal::Vec2> points;
        bool closed = false;
    };
    struct SpawnArea
    {
        shoal::Vec2 min, max;
        Rgba color;
    };

    void drawGrid(Canvas& canvas, const Camera& camera) const;

    shoal::Vec2 m_min, m_max;
    std::vector<Obstacle> m_obstacles;
    std::vector<Wall> m_walls;
    std::vector<SpawnArea> m_spawnAreas;
    mutable std::vector<SDL_FPoint> m_screen; ///< scratch: points on screen
};

} // namespace game
