#pragma once
/// Deterministic random numbers owned by a World. No std:: distributions: their output
/// differs between standard libraries, and a scene must replay to the same hash everywhere.

#include <cstdint>

namespace shoal {

/// SplitMix64 finaliser: a strong 64-bit mix, used both as a stream and as a counter hash.
constexpr std::uint64_t mix64(std::uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/// Sequential generator (SplitMix64). Used while building a world (spawning) and for
/// any draw whose order is fixed.
class Random
{
public:
    explicit Random(std::uint64_t seed = 0) : m_state(seed) {}

    std::uint64_t nextU64()
    {
        const std::uint64_t z = m_state;
        m_state += 0x9E3779B97F4A7C15ull;
        return mix64(z);
    }
    /// Uniform in [0, 1) with 24 random bits (exact in float).
    float uniform01() { return static_cast<float>(nextU64() >> 40) * (1.0f / 16777216.0f); }
    float uniform(float lo, float hi) { return lo + (hi - lo) * uniform01(); }
    /// Uniform integer in [0, n).
    std::uint32_t below(std::uint32_t n)
    {
        return static_cast<std::uint32_t>((nextU64() >> 32) * n >> 32);
    }
    std::uint64_t state() const { return m_state; }

private:
    std::uint64_t m_state;
};

/// Counter-based draw in [-1, 1): the same (seed, step, agent) always gives the same value,
/// whatever order the agents are processed in. Behaviours use this in their hot loops.
inline float signedNoise(std::uint64_t seed, std::uint64_t step, std::uint64_t agent,
                         std::uint64_t channel = 0)
{
    const std::uint64_t h =
        mix64(seed ^ mix64(step * 0x100000001B3ull ^ mix64(agent * 4 + channel)));
    return static_cast<float>(h >> 40) * (2.0f / 16777216.0f) - 1.0f;
}

} // namespace shoal
