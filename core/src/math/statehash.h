#pragma once
/// FNV-1a, the 64-bit hash World::stateHash() folds every agent's state into. Behaviours use
/// the same functions for the state they own, so one hash covers a whole world.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace shoal {

constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ull;
constexpr std::uint64_t kFnvPrime = 0x100000001b3ull;

inline void hashBytes(std::uint64_t& h, const void* data, std::size_t size)
{
    const auto* bytes = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i) {
        h ^= bytes[i];
        h *= kFnvPrime;
    }
}

/// The value's bytes (trivially copyable types only: floats, integers, Vec2).
template <class T> void hashValue(std::uint64_t& h, const T& value)
{
    hashBytes(h, &value, sizeof value);
}

template <class T> void hashVector(std::uint64_t& h, const std::vector<T>& values)
{
    hashBytes(h, values.data(), values.size() * sizeof(T));
}

} // namespace shoal
