#pragma once
/// Whether a closed polygon is simple (no two edges meet except neighbours at their shared
/// vertex, and no neighbours fold back onto each other), in O(n log n): a Shamos-Hoey sweep,
/// so a level's 100,000-vertex outline is checked as fast as it is read.

#include <shoal/scenedesc.h>

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace shoal {

/// The first pair of edges found to meet (edge e runs from point e to point e + 1, the last
/// back to point 0), or nothing when the polygon is simple. Points are at least 3.
std::optional<std::pair<std::size_t, std::size_t>>
findPolygonSelfContact(const std::vector<Point2>& points);

/// The same by testing every pair of edges: the reference the sweep is tested against.
std::optional<std::pair<std::size_t, std::size_t>>
findPolygonSelfContactByPairs(const std::vector<Point2>& points);

} // namespace shoal
