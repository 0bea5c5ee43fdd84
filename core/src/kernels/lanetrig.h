#pragma once
/// vec2.h's sinCos and fastmath.h's fastAtan2 for a lane of angles or vectors: the same
/// reduction, polynomials and quadrant bits, so every lane is bit for bit what the scalar
/// function gives for it (sinCos for |angle| below 2^31 quarter turns, far beyond any
/// heading: headings stay wrapped to (-pi, pi]). SSE2 has the integer conversions and bit
/// operations sinCos needs; elsewhere each lane goes through sinCos itself.

#include "kernels/lanes.h"
#include "math/fastmath.h"
#include <shoal/vec2.h>

namespace shoal {

/// Sine and cosine of each lane (any lane type: one lane at a time).
template <class V> inline void sinCosLanes(V radians, V& sine, V& cosine)
{
    alignas(16) float angles[V::kWidth], sines[V::kWidth], cosines[V::kWidth];
    radians.store(angles);
    for (int l = 0; l < V::kWidth; ++l)
        sinCos(angles[l], sines[l], cosines[l]);
    sine = V::load(sines);
    cosine = V::load(cosines);
}

/// fastAtan2(y, x) of each lane: the same octant reduction and polynomial, operation for
/// operation (the sign is put back by negation, which flips the sign bit as fastAtan2's xor
/// does). Lanes with x = y = 0 give 0, as fastAtan2 does.
template <class V> inline V atan2Lanes(V y, V x)
{
    const V ax = abs(x);
    const V ay = abs(y);
    const typename V::Mask xBigger = ax > ay;
    const V big = select(xBigger, ax, ay);
    const V small = select(xBigger, ay, ax);
    const V t = small / big;
    const V t2 = t * t;
    const V a =
        t * (V(0.99997726f) +
             t2 * (V(-0.33262347f) +
                   t2 * (V(0.19354346f) +
                         t2 * (V(-0.11643287f) + t2 * (V(0.05265332f) + t2 * V(-0.01172120f))))));
    const V b = select(ay > ax, V(1.57079637f) - a, a);
    const V c = select(x < V(0.0f), V(3.14159274f) - b, b);
    const V signed_ = select(y < V(0.0f), -c, c);
    // big is never negative: big <= 0 is big == 0 (a NaN lane stays NaN, as in fastAtan2).
    return select(big <= V(0.0f), V(0.0f), signed_);
}

#if SHOAL_SSE2_LANES

/// Four lanes at once with SSE2: each step mirrors one line of sinCos (floorFast included).
template <> inline void sinCosLanes<Float4>(Float4 radians, Float4& sine, Float4& cosine)
{
    const __m128 x =
        _mm_add_ps(_mm_mul_ps(radians.v, _mm_set1_ps(0.636619772f)), _mm_set1_ps(0.5f));
    // floorFast: truncate, step down where that rounded up, keep x where it is whole (or
    // too large to have a fraction).
    const __m128i truncated = _mm_cvttps_epi32(x);
    const __m128 t = _mm_cvtepi32_ps(truncated);
    const __m128 stepped = _mm_sub_ps(t, _mm_and_ps(_mm_cmpgt_ps(t, x), _mm_set1_ps(1.0f)));
    const __m128 whole =
        _mm_or_ps(_mm_cmpeq_ps(t, x),
                  _mm_cmpnlt_ps(_mm_andnot_ps(_mm_set1_ps(-0.0f), x), _mm_set1_ps(8388608.0f)));
    const __m128 quarterTurns = _mm_or_ps(_mm_and_ps(whole, x), _mm_andnot_ps(whole, stepped));
    const __m128i q = _mm_cvttps_epi32(quarterTurns);

    const __m128 r =
        _mm_sub_ps(_mm_sub_ps(radians.v, _mm_mul_ps(quarterTurns, _mm_set1_ps(1.5703125f))),
                   _mm_mul_ps(quarterTurns, _mm_set1_ps(4.83826794897e-4f)));
    const __m128 r2 = _mm_mul_ps(r, r);
    const __m128 s = _mm_add_ps(
        r,
        _mm_mul_ps(
            _mm_mul_ps(r, r2),
            _mm_add_ps(_mm_set1_ps(-1.66666672e-1f),
                       _mm_mul_ps(r2, _mm_add_ps(_mm_set1_ps(8.33332818e-3f),
                                                 _mm_mul_ps(r2, _mm_set1_ps(-1.98393906e-4f)))))));
    const __m128 c = _mm_add_ps(
        _mm_set1_ps(1.0f),
        _mm_mul_ps(
            r2,
            _mm_add_ps(
                _mm_set1_ps(-0.5f),
                _mm_mul_ps(
                    r2, _mm_add_ps(
                            _mm_set1_ps(4.16666418e-2f),
                            _mm_mul_ps(
                                r2, _mm_add_ps(_mm_set1_ps(-1.38873830e-3f),
                                               _mm_mul_ps(r2, _mm_set1_ps(2.44331568e-5f)))))))));
    // Quadrant q picks (s, c), (c, -s), (-s, -c) or (-c, s).
    const __m128 swap =
        _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(q, _mm_set1_epi32(1)), _mm_set1_epi32(1)));
    const __m128 sineSign =
        _mm_castsi128_ps(_mm_slli_epi32(_mm_and_si128(q, _mm_set1_epi32(2)), 30));
    const __m128 cosineSign = _mm_castsi128_ps(
        _mm_slli_epi32(_mm_and_si128(_mm_add_epi32(q, _mm_set1_epi32(1)), _mm_set1_epi32(2)), 30));
    sine = Float4(_mm_xor_ps(_mm_or_ps(_mm_andnot_ps(swap, s), _mm_and_ps(swap, c)), sineSign));
    cosine = Float4(_mm_xor_ps(_mm_or_ps(_mm_andnot_ps(swap, c), _mm_and_ps(swap, s)), cosineSign));
}

#endif

} // namespace shoal
