#pragma once
/// Eight lanes with AVX2, for the neighbour scans on machines that have it (chosen at run
/// time: World::setLaneWidth). Include only inside a `#pragma GCC target("avx2")` region,
/// after every header the region's code shares with the rest of the runtime (those must
/// stay built for the baseline; see the wide kernels' files).
///
/// The same hash as four lanes: a scan's lane group of eight candidates is the four-lane
/// path's two groups side by side, and a kernel sums them into four-lane sums (V::Sum, a
/// Float4) low half first, then high half, exactly the two adds the four-lane path makes.
/// A high half past the end of a run is all masked off, so it adds +0 to a sum that can
/// never be -0 (it starts at +0, and x + -x is +0): no change. Counts and minima do not
/// depend on order. Arithmetic lane by lane is the same IEEE operation at either width (no
/// FMA: AVX2 alone does not enable it, and the core builds with -ffp-contract=off).

#include "kernels/lanes.h"

#include <immintrin.h>

namespace shoal {

/// A lane mask of eight: all bits set in a lane that is on.
struct Mask8
{
    __m256 v;
};
// (Operations are free functions, not friends defined in the class: GCC 12 builds those
// for the baseline whatever the region says.)
inline Mask8 operator&(Mask8 a, Mask8 b)
{
    return {_mm256_and_ps(a.v, b.v)};
}
inline Mask8 operator|(Mask8 a, Mask8 b)
{
    return {_mm256_or_ps(a.v, b.v)};
}
inline bool any(Mask8 m)
{
    return _mm256_movemask_ps(m.v) != 0;
}
inline Mask8 andNot(Mask8 clear, Mask8 m)
{
    return {_mm256_andnot_ps(clear.v, m.v)};
}
inline int laneBits(Mask8 m)
{
    return _mm256_movemask_ps(m.v);
}

/// Per-lane counts, as Count4.
struct Count8
{
    __m256i v;
    // Written out: an implicit constructor would be built for the baseline.
    Count8() : v(_mm256_setzero_si256()) {}
    void add(Mask8 m) { v = _mm256_sub_epi32(v, _mm256_castps_si256(m.v)); }
    int total() const
    {
        const __m128i halves =
            _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
        const __m128i pairs =
            _mm_add_epi32(halves, _mm_shuffle_epi32(halves, _MM_SHUFFLE(2, 3, 0, 1)));
        return _mm_cvtsi128_si32(
            _mm_add_epi32(pairs, _mm_shuffle_epi32(pairs, _MM_SHUFFLE(1, 0, 3, 2))));
    }
};

/// Eight floats in one AVX register. Its sums are Float4s (see above), so it has no +=.
struct Float8
{
    static constexpr int kWidth = 8;
    using Mask = Mask8;
    using Count = Count8;
    using Sum = Float4;
    __m256 v;

    Float8() : v(_mm256_setzero_ps()) {}
    explicit Float8(float s) : v(_mm256_set1_ps(s)) {}
    explicit Float8(__m256 r) : v(r) {}
    static Float8 load(const float* p) { return Float8(_mm256_loadu_ps(p)); }
    void store(float* p) const { _mm256_storeu_ps(p, v); }
    static Mask loadMask(const std::uint32_t* p)
    {
        return {_mm256_castsi256_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)))};
    }
    struct Slots
    {
        __m256i v;
    };
    static Slots slotsFrom(std::uint32_t first)
    {
        return {_mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(first)),
                                 _mm256_set_epi32(7, 6, 5, 4, 3, 2, 1, 0))};
    }
    static Slots everyLane(std::uint32_t slot)
    {
        return {_mm256_set1_epi32(static_cast<int>(slot))};
    }
    static Slots nextGroup(Slots s) { return {_mm256_add_epi32(s.v, _mm256_set1_epi32(kWidth))}; }
    /// Lanes before `end` that are not `self`.
    static Mask validLanes(Slots lanes, Slots end, Slots self)
    {
        return {_mm256_castsi256_ps(_mm256_andnot_si256(_mm256_cmpeq_epi32(lanes.v, self.v),
                                                        _mm256_cmpgt_epi32(end.v, lanes.v)))};
    }

    float lane(int i) const
    {
        alignas(32) float out[8];
        _mm256_store_ps(out, v);
        return out[i];
    }
    Float4 low() const { return Float4(_mm256_castps256_ps128(v)); }
    Float4 high() const { return Float4(_mm256_extractf128_ps(v, 1)); }
};

inline Float8 operator+(Float8 a, Float8 b)
{
    return Float8(_mm256_add_ps(a.v, b.v));
}
inline Float8 operator-(Float8 a, Float8 b)
{
    return Float8(_mm256_sub_ps(a.v, b.v));
}
inline Float8 operator*(Float8 a, Float8 b)
{
    return Float8(_mm256_mul_ps(a.v, b.v));
}
inline Float8 operator/(Float8 a, Float8 b)
{
    return Float8(_mm256_div_ps(a.v, b.v));
}
inline Float8 operator-(Float8 a)
{
    return Float8(_mm256_xor_ps(a.v, _mm256_set1_ps(-0.0f)));
}
inline Float8 abs(Float8 a)
{
    return Float8(_mm256_andnot_ps(_mm256_set1_ps(-0.0f), a.v));
}
inline Mask8 operator<(Float8 a, Float8 b)
{
    return {_mm256_cmp_ps(a.v, b.v, _CMP_LT_OS)};
}
inline Mask8 operator<=(Float8 a, Float8 b)
{
    return {_mm256_cmp_ps(a.v, b.v, _CMP_LE_OS)};
}
inline Mask8 operator>(Float8 a, Float8 b)
{
    return {_mm256_cmp_ps(a.v, b.v, _CMP_GT_OS)};
}
inline Mask8 operator>=(Float8 a, Float8 b)
{
    return {_mm256_cmp_ps(a.v, b.v, _CMP_GE_OS)};
}
inline Float8 sqrt(Float8 a)
{
    return Float8(_mm256_sqrt_ps(a.v));
}
/// a < b ? a : b per lane, as minps.
inline Float8 min(Float8 a, Float8 b)
{
    return Float8(_mm256_min_ps(a.v, b.v));
}
/// a > b ? a : b per lane, as maxps.
inline Float8 max(Float8 a, Float8 b)
{
    return Float8(_mm256_max_ps(a.v, b.v));
}
inline Float8 select(Mask8 m, Float8 a, Float8 b)
{
    return Float8(_mm256_or_ps(_mm256_and_ps(m.v, a.v), _mm256_andnot_ps(m.v, b.v)));
}
inline Float8 maskedOff(Mask8 m, Float8 a)
{
    return Float8(_mm256_andnot_ps(m.v, a.v));
}

/// A four-lane sum takes eight lanes as the four-lane path's two groups: low, then high.
inline Float4& operator+=(Float4& sum, Float8 lanes)
{
    sum += lanes.low();
    sum += lanes.high();
    return sum;
}

// lanes.h's helpers for Float8, built here in the AVX2 region (the templates there are
// built for the baseline, and cannot inline Float8's operations).

/// Lanes of `a` where m is on, zero elsewhere.
inline Float8 masked(Mask8 m, Float8 a)
{
    return Float8(_mm256_and_ps(m.v, a.v));
}

/// Every lane clamped to [0, 1].
inline Float8 clamp01(Float8 a)
{
    return min(max(a, Float8(0.0f)), Float8(1.0f));
}

template <> inline Mask8 noLanes<Float8>()
{
    return {_mm256_setzero_ps()};
}

/// Smallest lane, in halves, pairs and then lanes (the order does not matter to a minimum of
/// distances, which are never NaN or -0).
inline float minLane(Float8 a)
{
    __m128 m = _mm_min_ps(_mm256_castps256_ps128(a.v), _mm256_extractf128_ps(a.v, 1));
    m = _mm_min_ps(m, _mm_movehl_ps(m, m));
    m = _mm_min_ss(m, _mm_shuffle_ps(m, m, _MM_SHUFFLE(1, 1, 1, 1)));
    return _mm_cvtss_f32(m);
}

} // namespace shoal
