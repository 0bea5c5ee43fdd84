#include "math/assignment.h"

#include <limits>

namespace shoal {

std::vector<int> solveAssignment(const std::vector<float>& cost, std::size_t rows,
                                 std::size_t columns, AssignmentScratch& s)
{
    // Rows are added one at a time; each grows a tree of shortest reduced-cost paths from the
    // new row to a free column (Dijkstra over the columns, costs kept non-negative by the
    // potentials u, v), then flips the matching along it. Arrays are 1-based, 0 the root.
    const std::size_t n = rows, m = columns;
    const double inf = std::numeric_limits<double>::infinity();
    s.u.assign(n + 1, 0.0);
    s.v.assign(m + 1, 0.0);
    s.p.assign(m + 1, 0);
    s.way.assign(m + 1, 0);
    for (std::size_t i = 1; i <= n; ++i) {
        s.p[0] = static_cast<int>(i);
        std::size_t j0 = 0;
        s.minv.assign(m + 1, inf);
        s.used.assign(m + 1, 0);
        do {
            s.used[j0] = 1;
            const std::size_t i0 = static_cast<std::size_t>(s.p[j0]);
            double delta = inf;
            std::size_t j1 = 0;
            for (std::size_t j = 1; j <= m; ++j) {
                if (s.used[j])
                    continue;
                const double reduced =
                    static_cast<double>(cost[(i0 - 1) * m + (j - 1)]) - s.u[i0] - s.v[j];
                if (reduced < s.minv[j]) {
                    s.minv[j] = reduced;
                    s.way[j] = static_cast<int>(j0);
                }
                if (s.minv[j] < delta) {
                    delta = s.minv[j];
                    j1 = j;
                }
            }
            for (std::size_t j = 0; j <= m; ++j) {
                if (s.used[j]) {
                    s.u[static_cast<std::size_t>(s.p[j])] += delta;
                    s.v[j] -= delta;
                } else {
                    s.minv[j] -= delta;
                }
            }
            j0 = j1;
        } while (s.p[j0] != 0);
        do {
            const std::size_t j1 = static_cast<std::size_t>(s.way[j0]);
            s.p[j0] = s.p[j1];
            j0 = j1;
        } while (j0 != 0);
    }
    std::vector<int> taken(n, -1);
    for (std::size_t j = 1; j <= m; ++j)
        if (s.p[j] != 0)
            taken[static_cast<std::size_t>(s.p[j]) - 1] = static_cast<int>(j) - 1;
    return taken;
}

} // namespace shoal
