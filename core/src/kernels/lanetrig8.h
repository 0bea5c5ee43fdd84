#pragma once
/// lanetrig.h's sinCosLanes for eight lanes (AVX2): the four-lane SSE2 code line for line,
/// so every lane is bit for bit what sinCos gives for it. Include only inside a
/// `#pragma GCC target("avx2")` region, after kernels/lanes8.h and kernels/lanetrig.h.

#include "kernels/lanes8.h"
#include "kernels/lanetrig.h"

#include <immintrin.h>

namespace shoal {

template <> inline void sinCosLanes<Float8>(Float8 radians, Float8& sine, Float8& cosine)
{
    const __m256 x =
        _mm256_add_ps(_mm256_mul_ps(radians.v, _mm256_set1_ps(0.636619772f)), _mm256_set1_ps(0.5f));
    // floorFast: truncate, step down where that rounded up, keep x where it is whole (or
    // too large to have a fraction). The predicates are SSE2's: cmpgt, cmpeq and cmpnlt.
    const __m256i truncated = _mm256_cvttps_epi32(x);
    const __m256 t = _mm256_cvtepi32_ps(truncated);
    const __m256 stepped =
        _mm256_sub_ps(t, _mm256_and_ps(_mm256_cmp_ps(t, x, _CMP_GT_OS), _mm256_set1_ps(1.0f)));
    const __m256 whole = _mm256_or_ps(_mm256_cmp_ps(t, x, _CMP_EQ_OQ),
                                      _mm256_cmp_ps(_mm256_andnot_ps(_mm256_set1_ps(-0.0f), x),
                                                    _mm256_set1_ps(8388608.0f), _CMP_NLT_US));
    const __m256 quarterTurns =
        _mm256_or_ps(_mm256_and_ps(whole, x), _mm256_andnot_ps(whole, stepped));
    const __m256i q = _mm256_cvttps_epi32(quarterTurns);

    const __m256 r = _mm256_sub_ps(
        _mm256_sub_ps(radians.v, _mm256_mul_ps(quarterTurns, _mm256_set1_ps(1.5703125f))),
        _mm256_mul_ps(quarterTurns, _mm256_set1_ps(4.83826794897e-4f)));
    const __m256 r2 = _mm256_mul_ps(r, r);
    const __m256 s = _mm256_add_ps(
        r, _mm256_mul_ps(
               _mm256_mul_ps(r, r2),
               _mm256_add_ps(
                   _mm256_set1_ps(-1.66666672e-1f),
                   _mm256_mul_ps(
                       r2, _mm256_add_ps(_mm256_set1_ps(8.33332818e-3f),
                                         _mm256_mul_ps(r2, _mm256_set1_ps(-1.98393906e-4f)))))));
    const __m256 c = _mm256_add_ps(
        _mm256_set1_ps(1.0f),
        _mm256_mul_ps(
            r2, _mm256_add_ps(
                    _mm256_set1_ps(-0.5f),
                    _mm256_mul_ps(
                        r2, _mm256_add_ps(
                                _mm256_set1_ps(4.16666418e-2f),
                                _mm256_mul_ps(
                                    r2, _mm256_add_ps(_mm256_set1_ps(-1.38873830e-3f),
                                                      _mm256_mul_ps(r2, _mm256_set1_ps(
                                                                            2.44331568e-5f)))))))));
    // Quadrant q picks (s, c), (c, -s), (-s, -c) or (-c, s).
    const __m256i one = _mm256_set1_epi32(1);
    const __m256i two = _mm256_set1_epi32(2);
    const __m256 swap = _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(q, one), one));
    const __m256 sineSign = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_and_si256(q, two), 30));
    const __m256 cosineSign =
        _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_and_si256(_mm256_add_epi32(q, one), two), 30));
    sine = Float8(
        _mm256_xor_ps(_mm256_or_ps(_mm256_andnot_ps(swap, s), _mm256_and_ps(swap, c)), sineSign));
    cosine = Float8(
        _mm256_xor_ps(_mm256_or_ps(_mm256_andnot_ps(swap, c), _mm256_and_ps(swap, s)), cosineSign));
}

} // namespace shoal
