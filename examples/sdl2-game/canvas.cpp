#include "canvas.h"

#include <algorithm>
#include <cmath>

namespace game {

namespace {

constexpr float kTwoPi = 6.28318531f;

} // namespace

int Canvas::vertex(SDL_FPoint p, Rgba color)
{
    m_vertices.push_back({p, color, {0.0f, 0.0f}});
    return static_cast<int>(m_vertices.size()) - 1;
}

int Canvas::sidesFor(float radius)
{
    return std::clamp(static_cast<int>(radius * 1.2f) + 8, 8, 64);
}

void Canvas::triangle(SDL_FPoint a, SDL_FPoint b, SDL_FPoint c, Rgba color)
{
    const int first = vertex(a, color);
    vertex(b, color);
    vertex(c, color);
    m_indices.insert(m_indices.end(), {first, first + 1, first + 2});
}

void Canvas::fillConvex(const SDL_FPoint* points, int count, Rgba color)
{
    if (count < 3)
        return;
    const int first = static_cast<int>(m_vertices.size());
    for (int k = 0; k < count; ++k)
        vertex(points[k], color);
    for (int k = 1; k + 1 < count; ++k)
        m_indices.insert(m_indices.end(), {first, first + k, first + k + 1});
}

void Canvas::fillTriangles(const std::vector<SDL_FPoint>& points, const std::vector<int>& indices,
                           Rgba color)
{
    const int first = static_cast<int>(m_vertices.size());
    for (const SDL_FPoint& p : points)
        vertex(p, color);
    for (const int i : indices)
        m_indices.push_back(first + i);
}

void Canvas::disc(SDL_FPoint centre, float radius, Rgba color)
{
    const int sides = sidesFor(radius);
    const int middle = vertex(centre, color);
    for (int k = 0; k < sides; ++k) {
        const float a = kTwoPi * static_cast<float>(k) / static_cast<float>(sides);
        vertex({centre.x + radius * std::cos(a), centre.y + radius * std::sin(a)}, color);
    }
    for (int k = 0; k < sides; ++k)
        m_indices.insert(m_indices.end(), {middle, middle + 1 + k, middle + 1 + (k + 1) % sides});
}

void Canvas::ring(SDL_FPoint centre, float radius, float width, Rgba color)
{
    const int sides = sidesFor(radius);
    const float inner = std::max(radius - 0.5f * width, 0.0f);
    const float outer = radius + 0.5f * width;
    const int first = static_cast<int>(m_vertices.size());
    for (int k = 0; k < sides; ++k) {
        const float a = kTwoPi * static_cast<float>(k) / static_cast<float>(sides);
        const float c = std::cos(a);
        const float s = std::sin(a);
        vertex({centre.x + inner * c, centre.y + inner * s}, color);
        vertex({centre.x + outer * c, centre.y + outer * s}, color);
    }
    for (int k = 0; k < sides; ++k) {
        const int i = first + 2 * k;
        const int j = first + 2 * ((k + 1) % sides);
        m_indices.insert(m_indices.end(), {i, i + 1, j + 1, i, j + 1, j});
    }
}

void Canvas::line(SDL_FPoint a, SDL_FPoint b, float width, Rgba color)
{
    const float dx = b.x - a.x;
    const float dy = b.y - a.y;
    const float length = std::sqrt(dx * dx + dy * dy);
    if (length < 1e-4f)
        return;
    const float nx = -dy / length * 0.5f * width;
    const float ny = dx / length * 0.5f * width;
    const SDL_FPoint quad[4] = {
        {a.x + nx, a.y + ny}, {b.x + nx, b.y + ny}, {b.x - nx, b.y - ny}, {a.x - nx, a.y - ny}};
    fillConvex(quad, 4, color);
}

void Canvas::outline(const SDL_FPoint* points, int count, float width, Rgba color)
{
    for (int k = 0; k < count; ++k)
        line(points[k], points[(k + 1) % count], width, color);
}

void Canvas::polyline(const SDL_FPoint* points, int count, float width, Rgba color, bool closed)
{
    const int segments = closed ? count : count - 1;
    for (int k = 0; k < segments; ++k)
        line(points[k], points[(k + 1) % count], width, color);
    // Round joins and ends: a disc at every point.
    for (int k = 0; k < count; ++k)
        disc(points[k], 0.5f * width, color);
}

void Canvas::band(const std::vector<SDL_FPoint>& left, const std::vector<SDL_FPoint>& right,
                  Rgba color)
{
    const int count = static_cast<int>(std::min(left.size(), right.size()));
    if (count < 2)
        return;
    const int first = static_cast<int>(m_vertices.size());
    for (int k = 0; k < count; ++k) {
        vertex(left[static_cast<std::size_t>(k)], color);
        vertex(right[static_cast<std::size_t>(k)], color);
    }
    for (int k = 0; k + 1 < count; ++k) {
        const int i = first + 2 * k;
        m_indices.insert(m_indices.end(), {i, i + 1, i + 3, i, i + 3, i + 2});
    }
}

void Canvas::rect(float x, float y, float w, float h, Rgba color)
{
    const SDL_FPoint quad[4] = {{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}};
    fillConvex(quad, 4, color);
}

void Canvas::flush()
{
    if (!m_indices.empty())
        SDL_RenderGeometry(m_renderer, nullptr, m_vertices.data(),
                           static_cast<int>(m_vertices.size()), m_indices.data(),
                           static_cast<int>(m_indices.size()));
    m_vertices.clear();
    m_indices.clear();
}

std::vector<int> triangulate(const std::vector<shoal::Vec2>& polygon)
{
    const int n = static_cast<int>(polygon.size());
    std::vector<int> out;
    if (n < 3)
        return out;
    float area = 0.0f;
    for (int k = 0; k < n; ++k)
        area += shoal::cross(polygon[static_cast<std::size_t>(k)],
                             polygon[static_cast<std::size_t>((k + 1) % n)]);
    const float winding = area >= 0.0f ? 1.0f : -1.0f; // counter-clockwise: +1
    std::vector<int> left(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k)
        left[static_cast<std::size_t>(k)] = k;
    auto at = [&](int k) { return polygon[static_cast<std::size_t>(k)]; };
    auto inside = [](shoal::Vec2 p, shoal::Vec2 a, shoal::Vec2 b, shoal::Vec2 c, float w) {
        return w * shoal::cross(b - a, p - a) >= 0.0f && w * shoal::cross(c - b, p - b) >= 0.0f &&
               w * shoal::cross(a - c, p - c) >= 0.0f;
    };
    std::size_t guard = 0;
    while (left.size() > 3 && guard < 4 * left.size() * left.size()) {
        ++guard;
        bool clipped = false;
        const std::size_t m = left.size();
        for (std::size_t k = 0; k < m; ++k) {
            const int ia = left[(k + m - 1) % m], ib = left[k], ic = left[(k + 1) % m];
            const shoal::Vec2 a = at(ia), b = at(ib), c = at(ic);
            if (winding * shoal::cross(b - a, c - b) <= 0.0f)
                continue; // a reflex (or flat) corner is no ear
            bool empty = true;
            for (const int j : left)
                if (j != ia && j != ib && j != ic && inside(at(j), a, b, c, winding)) {
                    empty = false;
                    break;
                }
            if (!empty)
                continue;
            out.insert(out.end(), {ia, ib, ic});
            left.erase(left.begin() + static_cast<std::ptrdiff_t>(k));
            clipped = true;
            break;
        }
        if (!clipped)
            break; // degenerate: what is left goes in as a fan
    }
    for (std::size_t k = 1; k + 1 < left.size(); ++k)
        out.insert(out.end(), {left[0], left[k], left[k + 1]});
    return out;
}

} // namespace game
