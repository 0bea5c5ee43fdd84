#pragma once
/// Coloured shapes in screen pixels, batched into triangles and drawn with one
/// SDL_RenderGeometry call per flush(): filled polygons, discs, rings, thick lines and
/// ribbons, which SDL's renderer has no calls of its own for.

#include "palette.h"

#include <shoal/vec2.h>

#include <SDL.h>

#include <vector>

namespace game {

class Canvas
{
public:
    explicit Canvas(SDL_Renderer* renderer) : m_renderer(renderer) {}

    void triangle(SDL_FPoint a, SDL_FPoint b, SDL_FPoint c, Rgba color);
    /// A convex polygon (or one that is star-shaped about its first point), as a fan.
    void fillConvex(const SDL_FPoint* points, int count, Rgba color);
    /// Triangles given as indices into `points` (a triangulated concave polygon).
    void fillTriangles(const std::vector<SDL_FPoint>& points, const std::vector<int>& indices,
                       Rgba color);
    void disc(SDL_FPoint centre, float radius, Rgba color);
    /// A circle's outline `width` px wide, centred on `radius`.
    void ring(SDL_FPoint centre, float radius, float width, Rgba color);
    /// The closed outline of a polygon, `width` px wide (thin: no joins).
    void outline(const SDL_FPoint* points, int count, float width, Rgba color);
    /// A segment `width` px wide with square ends.
    void line(SDL_FPoint a, SDL_FPoint b, float width, Rgba color);
    /// Segments through `points`, `width` px wide, with round joins and ends.
    void polyline(const SDL_FPoint* points, int count, float width, Rgba color, bool closed);
    /// The band between two edges given point by point (a worm's ribbon): quads between
    /// left[k], right[k], left[k + 1], right[k + 1].
    void band(const std::vector<SDL_FPoint>& left, const std::vector<SDL_FPoint>& right,
              Rgba color);
    void rect(float x, float y, float w, float h, Rgba color);

    /// Draws what was batched, in the order it was added.
    void flush();

private:
    int vertex(SDL_FPoint p, Rgba color);
    /// Sides of a disc of `radius` px: smooth at every size, cheap for small ones.
    static int sidesFor(float radius);

    SDL_Renderer* m_renderer;
    std::vector<SDL_Vertex> m_vertices;
    std::vector<int> m_indices;
};

/// Cuts a simple polygon (either winding, convex or not) into triangles by ear clipping;
/// returns index triples into `polygon`. For shapes prepared once (obstacles, glyphs).
std::vector<int> triangulate(const std::vector<shoal::Vec2>& polygon);

} // namespace game
