#pragma once
/// Lane types for the neighbour kernels: the same kernel source runs four neighbours at a
/// time on the grid (Float4) and one at a time for the brute-force reference (Float1).
///
/// Float4 is SSE2 on x86-64 (part of the baseline, so no special build flags) and a plain
/// array elsewhere, or when SHOAL_PORTABLE_LANES is defined. Both do the same IEEE
/// operations lane by lane (add, subtract, multiply, divide, square root, compare, and
/// min as "a < b ? a : b"), and reduce lanes in one fixed order, so a world's state hash is
/// the same with either: the sanitizer build uses the portable one and checks the pinned
/// hashes to prove it.

#include "math/fastmath.h"
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#if (defined(__SSE2__) || defined(_M_X64)) && !defined(SHOAL_PORTABLE_LANES)
#define SHOAL_SSE2_LANES 1
#include <emmintrin.h>
#endif

// The eight-lane AVX2 kernels (lanes8.h), chosen at run time: x86-64 with GCC, whose
// `#pragma GCC target` regions they are built in.
#if SHOAL_SSE2_LANES && defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define SHOAL_WIDE_LANES 1
#endif

namespace shoal {

/// Arrays a kernel loads Float4 lanes from are this many elements longer than their count,
/// so the last lanes of a run never read past the end (they are masked off): enough for a
/// scan that gives every run two lane groups (see scanNeighbours).
constexpr std::size_t kLanePadding = 7;

/// The one-lane mask.
struct Mask1
{
    bool v;
    friend Mask1 operator&(Mask1 a, Mask1 b) { return {a.v && b.v}; }
    friend Mask1 operator|(Mask1 a, Mask1 b) { return {a.v || b.v}; }
};
inline bool any(Mask1 m)
{
    return m.v;
}
inline Mask1 andNot(Mask1 clear, Mask1 m)
{
    return {m.v && !clear.v};
}
/// Bit l set when lane l of the mask is set.
inline int laneBits(Mask1 m)
{
    return m.v ? 1 : 0;
}

/// Counts lanes that were on, one count per lane (summed once at the end).
struct Count1
{
    int n = 0;
    void add(Mask1 m) { n += m.v ? 1 : 0; }
    int total() const { return n; }
};

/// One float with the lane interface (the brute-force reference: the seed's pair-at-a-time
/// loop).
struct Float1
{
    static constexpr int kWidth = 1;
    using Mask = Mask1;
    using Count = Count1;
    /// What a kernel sums lanes into (see Float8, whose sums stay four lanes wide).
    using Sum = Float1;
    float v = 0.0f;

    Float1() = default;
    explicit Float1(float s) : v(s) {}
    static Float1 load(const float* p) { return Float1(*p); }
    static Mask loadMask(const std::uint32_t* p) { return {*p != 0}; }
    void store(float* p) const { *p = v; }

    friend Float1 operator+(Float1 a, Float1 b) { return Float1(a.v + b.v); }
    friend Float1 operator-(Float1 a, Float1 b) { return Float1(a.v - b.v); }
    friend Float1 operator*(Float1 a, Float1 b) { return Float1(a.v * b.v); }
    friend Float1 operator/(Float1 a, Float1 b) { return Float1(a.v / b.v); }
    friend Float1 operator-(Float1 a) { return Float1(-a.v); }
    friend Float1 abs(Float1 a) { return Float1(__builtin_fabsf(a.v)); }
    Float1& operator+=(Float1 o)
    {
        v += o.v;
        return *this;
    }
    friend Mask operator<(Float1 a, Float1 b) { return {a.v < b.v}; }
    friend Mask operator<=(Float1 a, Float1 b) { return {a.v <= b.v}; }
    friend Mask operator>(Float1 a, Float1 b) { return {a.v > b.v}; }
    friend Mask operator>=(Float1 a, Float1 b) { return {a.v >= b.v}; }
    friend Float1 sqrt(Float1 a) { return Float1(__builtin_sqrtf(a.v)); }
    friend Float1 min(Float1 a, Float1 b) { return Float1(a.v < b.v ? a.v : b.v); }
    friend Float1 max(Float1 a, Float1 b) { return Float1(a.v > b.v ? a.v : b.v); }
    friend Float1 select(Mask m, Float1 a, Float1 b) { return m.v ? a : b; }
    /// Lanes of a where m is off, zero where it is on.
    friend Float1 maskedOff(Mask m, Float1 a) { return m.v ? Float1(0.0f) : a; }
    float sum() const { return v; }
    float lane(int) const { return v; }
};

#if SHOAL_SSE2_LANES

/// A lane mask: all bits set in a lane that is on.
struct Mask4
{
    __m128 v;
    friend Mask4 operator&(Mask4 a, Mask4 b) { return {_mm_and_ps(a.v, b.v)}; }
    friend Mask4 operator|(Mask4 a, Mask4 b) { return {_mm_or_ps(a.v, b.v)}; }
};
inline bool any(Mask4 m)
{
    return _mm_movemask_ps(m.v) != 0;
}
/// Lanes of m not in `clear`.
inline Mask4 andNot(Mask4 clear, Mask4 m)
{
    return {_mm_andnot_ps(clear.v, m.v)};
}
inline int laneBits(Mask4 m)
{
    return _mm_movemask_ps(m.v);
}

/// Per-lane counts: a lane that is on is all ones, -1 as an integer, so counting is one
/// subtraction.
struct Count4
{
    __m128i v = _mm_setzero_si128();
    void add(Mask4 m) { v = _mm_sub_epi32(v, _mm_castps_si128(m.v)); }
    int total() const
    {
        const __m128i pairs = _mm_add_epi32(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1)));
        return _mm_cvtsi128_si32(
            _mm_add_epi32(pairs, _mm_shuffle_epi32(pairs, _MM_SHUFFLE(1, 0, 3, 2))));
    }
};

/// Four floats in one SSE register.
struct Float4
{
    static constexpr int kWidth = 4;
    using Mask = Mask4;
    using Count = Count4;
    using Sum = Float4;
    __m128 v;

    Float4() : v(_mm_setzero_ps()) {}
    explicit Float4(float s) : v(_mm_set1_ps(s)) {}
    explicit Float4(__m128 r) : v(r) {}
    static Float4 load(const float* p) { return Float4(_mm_loadu_ps(p)); }
    void store(float* p) const { _mm_storeu_ps(p, v); }
    static Mask loadMask(const std::uint32_t* p)
    {
        return {_mm_castsi128_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)))};
    }
    /// The slot index of each lane: kept alongside a scan to mask off the lanes past a
    /// run's end and the agent's own slot.
    struct Slots
    {
        __m128i v;
    };
    /// Lanes first, first + 1, ...; every lane `slot`; the next group's lanes.
    static Slots slotsFrom(std::uint32_t first)
    {
        return {_mm_add_epi32(_mm_set1_epi32(static_cast<int>(first)), _mm_set_epi32(3, 2, 1, 0))};
    }
    static Slots everyLane(std::uint32_t slot) { return {_mm_set1_epi32(static_cast<int>(slot))}; }
    static Slots nextGroup(Slots s) { return {_mm_add_epi32(s.v, _mm_set1_epi32(kWidth))}; }
    /// Lanes before `end` that are not `self`.
    static Mask validLanes(Slots lanes, Slots end, Slots self)
    {
        return {_mm_castsi128_ps(
            _mm_andnot_si128(_mm_cmpeq_epi32(lanes.v, self.v), _mm_cmplt_epi32(lanes.v, end.v)))};
    }

    friend Float4 operator+(Float4 a, Float4 b) { return Float4(_mm_add_ps(a.v, b.v)); }
    friend Float4 operator-(Float4 a, Float4 b) { return Float4(_mm_sub_ps(a.v, b.v)); }
    friend Float4 operator*(Float4 a, Float4 b) { return Float4(_mm_mul_ps(a.v, b.v)); }
    friend Float4 operator/(Float4 a, Float4 b) { return Float4(_mm_div_ps(a.v, b.v)); }
    /// Negation and absolute value flip or clear the sign bit, as -x and fabs(x) do.
    friend Float4 operator-(Float4 a) { return Float4(_mm_xor_ps(a.v, _mm_set1_ps(-0.0f))); }
    friend Float4 abs(Float4 a) { return Float4(_mm_andnot_ps(_mm_set1_ps(-0.0f), a.v)); }
    Float4& operator+=(Float4 o)
    {
        v = _mm_add_ps(v, o.v);
        return *this;
    }
    friend Mask operator<(Float4 a, Float4 b) { return {_mm_cmplt_ps(a.v, b.v)}; }
    friend Mask operator<=(Float4 a, Float4 b) { return {_mm_cmple_ps(a.v, b.v)}; }
    friend Mask operator>(Float4 a, Float4 b) { return {_mm_cmpgt_ps(a.v, b.v)}; }
    friend Mask operator>=(Float4 a, Float4 b) { return {_mm_cmpge_ps(a.v, b.v)}; }
    friend Float4 sqrt(Float4 a) { return Float4(_mm_sqrt_ps(a.v)); }
    /// a < b ? a : b per lane (what minps computes).
    friend Float4 min(Float4 a, Float4 b) { return Float4(_mm_min_ps(a.v, b.v)); }
    /// a > b ? a : b per lane (what maxps computes).
    friend Float4 max(Float4 a, Float4 b) { return Float4(_mm_max_ps(a.v, b.v)); }
    friend Float4 select(Mask m, Float4 a, Float4 b)
    {
        return Float4(_mm_or_ps(_mm_and_ps(m.v, a.v), _mm_andnot_ps(m.v, b.v)));
    }
    friend Float4 maskedOff(Mask m, Float4 a) { return Float4(_mm_andnot_ps(m.v, a.v)); }
    float lane(int i) const
    {
        alignas(16) float out[4];
        _mm_store_ps(out, v);
        return out[i];
    }
    /// (l0 + l1) + (l2 + l3): one fixed order on every build (by shuffles: adding l1 + l0
    /// gives the same bits as l0 + l1).
    float sum() const
    {
        const __m128 pairs = _mm_add_ps(v, _mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 3, 0, 1)));
        return _mm_cvtss_f32(_mm_add_ss(pairs, _mm_movehl_ps(pairs, pairs)));
    }
};

#else

/// The portable mask: all bits set in a lane that is on.
struct Mask4
{
    std::uint32_t v[4];
    friend Mask4 operator&(Mask4 a, Mask4 b)
    {
        return {{a.v[0] & b.v[0], a.v[1] & b.v[1], a.v[2] & b.v[2], a.v[3] & b.v[3]}};
    }
    friend Mask4 operator|(Mask4 a, Mask4 b)
    {
        return {{a.v[0] | b.v[0], a.v[1] | b.v[1], a.v[2] | b.v[2], a.v[3] | b.v[3]}};
    }
};
inline bool any(Mask4 m)
{
    return (m.v[0] | m.v[1] | m.v[2] | m.v[3]) != 0;
}
inline Mask4 andNot(Mask4 clear, Mask4 m)
{
    return {
        {m.v[0] & ~clear.v[0], m.v[1] & ~clear.v[1], m.v[2] & ~clear.v[2], m.v[3] & ~clear.v[3]}};
}
inline int laneBits(Mask4 m)
{
    return (m.v[0] ? 1 : 0) | (m.v[1] ? 2 : 0) | (m.v[2] ? 4 : 0) | (m.v[3] ? 8 : 0);
}

/// The portable per-lane counts.
struct Count4
{
    std::int32_t v[4] = {0, 0, 0, 0};
    void add(Mask4 m)
    {
        for (int i = 0; i < 4; ++i)
            v[i] += m.v[i] ? 1 : 0;
    }
    int total() const { return (v[0] + v[1]) + (v[2] + v[3]); }
};

/// Four floats in a plain array, lane for lane what the SSE2 version computes.
struct Float4
{
    static constexpr int kWidth = 4;
    using Mask = Mask4;
    using Count = Count4;
    using Sum = Float4;
    float v[4];

    Float4() : v{0.0f, 0.0f, 0.0f, 0.0f} {}
    explicit Float4(float s) : v{s, s, s, s} {}
    static Float4 load(const float* p)
    {
        Float4 r;
        std::memcpy(r.v, p, sizeof r.v);
        return r;
    }
    void store(float* p) const { std::memcpy(p, v, sizeof v); }
    static Mask loadMask(const std::uint32_t* p)
    {
        Mask m;
        std::memcpy(m.v, p, sizeof m.v);
        return m;
    }
    /// The slot index of each lane (see the SSE2 version).
    struct Slots
    {
        std::uint32_t v[4];
    };
    static Slots slotsFrom(std::uint32_t first)
    {
        return {{first, first + 1, first + 2, first + 3}};
    }
    static Slots everyLane(std::uint32_t slot) { return {{slot, slot, slot, slot}}; }
    static Slots nextGroup(Slots s) { return {{s.v[0] + 4, s.v[1] + 4, s.v[2] + 4, s.v[3] + 4}}; }
    static Mask validLanes(Slots lanes, Slots end, Slots self)
    {
        Mask m;
        for (int i = 0; i < 4; ++i)
            m.v[i] = (lanes.v[i] < end.v[i] && lanes.v[i] != self.v[i]) ? ~0u : 0u;
        return m;
    }

    template <class Op> static Float4 map(Float4 a, Float4 b, Op op)
    {
        Float4 r;
        for (int i = 0; i < 4; ++i)
            r.v[i] = op(a.v[i], b.v[i]);
        return r;
    }
    template <class Op> static Mask compare(Float4 a, Float4 b, Op op)
    {
        Mask m;
        for (int i = 0; i < 4; ++i)
            m.v[i] = op(a.v[i], b.v[i]) ? ~0u : 0u;
        return m;
    }
    friend Float4 operator+(Float4 a, Float4 b)
    {
        return map(a, b, [](float x, float y) { return x + y; });
    }
    friend Float4 operator-(Float4 a, Float4 b)
    {
        return map(a, b, [](float x, float y) { return x - y; });
    }
    friend Float4 operator*(Float4 a, Float4 b)
    {
        return map(a, b, [](float x, float y) { return x * y; });
    }
    friend Float4 operator/(Float4 a, Float4 b)
    {
        return map(a, b, [](float x, float y) { return x / y; });
    }
    friend Float4 operator-(Float4 a)
    {
        return map(a, a, [](float x, float) { return -x; });
    }
    friend Float4 abs(Float4 a)
    {
        return map(a, a, [](float x, float) { return __builtin_fabsf(x); });
    }
    Float4& operator+=(Float4 o) { return *this = *this + o; }
    friend Mask operator<(Float4 a, Float4 b)
    {
        return compare(a, b, [](float x, float y) { return x < y; });
    }
    friend Mask operator<=(Float4 a, Float4 b)
    {
        return compare(a, b, [](float x, float y) { return x <= y; });
    }
    friend Mask operator>(Float4 a, Float4 b)
    {
        return compare(a, b, [](float x, float y) { return x > y; });
    }
    friend Mask operator>=(Float4 a, Float4 b)
    {
        return compare(a, b, [](float x, float y) { return x >= y; });
    }
    friend Float4 sqrt(Float4 a)
    {
        return map(a, a, [](float x, float) { return __builtin_sqrtf(x); });
    }
    friend Float4 min(Float4 a, Float4 b)
    {
        return map(a, b, [](float x, float y) { return x < y ? x : y; });
    }
    friend Float4 max(Float4 a, Float4 b)
    {
        return map(a, b, [](float x, float y) { return x > y ? x : y; });
    }
    friend Float4 select(Mask m, Float4 a, Float4 b)
    {
        Float4 r;
        for (int i = 0; i < 4; ++i) {
            std::uint32_t ab, bb;
            std::memcpy(&ab, &a.v[i], 4);
            std::memcpy(&bb, &b.v[i], 4);
            const std::uint32_t bits = (m.v[i] & ab) | (~m.v[i] & bb);
            std::memcpy(&r.v[i], &bits, 4);
        }
        return r;
    }
    friend Float4 maskedOff(Mask m, Float4 a) { return select(m, Float4(0.0f), a); }
    float lane(int i) const { return v[i]; }
    float sum() const { return (v[0] + v[1]) + (v[2] + v[3]); }
};

#endif

/// A mask with every lane off.
template <class V> typename V::Mask noLanes()
{
    return V(0.0f) < V(0.0f);
}

/// Lanes of `a` where m is on, zero elsewhere (a bitwise and: whatever a masked-off lane
/// holds, infinities and NaNs included, becomes zero).
template <class V> V masked(typename V::Mask m, V a)
{
    return select(m, a, V(0.0f));
}

/// Lanes of `a` where m is on, of `b` elsewhere (masks).
template <class M> M selectMask(M m, M a, M b)
{
    return (m & a) | andNot(m, b);
}

/// Every lane clamped to [0, 1].
template <class V> V clamp01(V a)
{
    return min(max(a, V(0.0f)), V(1.0f));
}

/// Smallest lane.
template <class V> float minLane(V a)
{
    float m = a.lane(0);
    for (int i = 1; i < V::kWidth; ++i)
        m = a.lane(i) < m ? a.lane(i) : m;
    return m;
}

} // namespace shoal
