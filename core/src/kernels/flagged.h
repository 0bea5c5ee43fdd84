#pragma once
/// A loop over the few set flags of a long array of them.

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace shoal {

/// Calls f(i) for each i < n whose flag is set, in order, skipping eight clear flags at a
/// time: most bodies of a step are neither near a wall nor moved by the body pass.
template <class F> void forEachFlagged(const std::uint8_t* flags, std::size_t n, F&& f)
{
    for (std::size_t i = 0; i < n; ++i) {
        if (i + 8 <= n) {
            std::uint64_t eight;
            std::memcpy(&eight, flags + i, sizeof eight);
            if (eight == 0) {
                i += 7;
                continue;
            }
        }
        if (flags[i])
            f(i);
    }
}

} // namespace shoal
