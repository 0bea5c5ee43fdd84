#pragma once
/// The assignment problem: which worker takes which job so that the summed cost is least
/// (the Hungarian method, as shortest augmenting paths with potentials).

#include <cstddef>
#include <vector>

namespace shoal {

/// Solves the assignment for `rows` workers and `columns` >= rows jobs, `cost` row-major
/// (rows x columns, finite). Returns, per row, the column it takes; every row takes one,
/// no column is taken twice, and the summed cost is the least possible. O(rows^2 columns)
/// time; `scratch` keeps its memory between calls. Deterministic: ties go to the lower
/// column.
struct AssignmentScratch
{
    std::vector<double> u, v, minv;
    std::vector<int> p, way;
    std::vector<char> used;
};
std::vector<int> solveAssignment(const std::vector<float>& cost, std::size_t rows,
                                 std::size_t columns, AssignmentScratch& scratch);

} // namespace shoal
