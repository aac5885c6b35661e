// SPDX-License-Identifier: MIT
// The vectorised elementary functions for AVX2 (built with -mavx2 -mfma -mf16c): two SLEEF
// calls per 16 floats or 8 doubles, so each lane computes what it computes under AVX-512.
#include "tensor/vec_math_targets.h"

#include <immintrin.h>
#include <sleef.h>

#define KILN_VEC_NAMESPACE avx2

namespace kiln::tensor::detail::avx2 {
using vec::VD;
using vec::VD4;
using vec::VF;
using vec::VF8;

template <auto F>
VF halves(VF x) {
    VF8 lo = __builtin_shufflevector(x, x, 0, 1, 2, 3, 4, 5, 6, 7);
    VF8 hi = __builtin_shufflevector(x, x, 8, 9, 10, 11, 12, 13, 14, 15);
    lo = VF8(F(__m256(lo)));
    hi = VF8(F(__m256(hi)));
    return __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}

template <auto F>
VD halves(VD x) {
    VD4 lo = __builtin_shufflevector(x, x, 0, 1, 2, 3);
    VD4 hi = __builtin_shufflevector(x, x, 4, 5, 6, 7);
    lo = VD4(F(__m256d(lo)));
    hi = VD4(F(__m256d(hi)));
    return __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7);
}

struct Isa {
#define KILN_VEC_WRAP(name, ulp)                                                                   \
    static VF name(VF x) {                                                                         \
        return halves<&Sleef_finz_##name##f8_##ulp##avx2>(x);                                      \
    }                                                                                              \
    static VD name(VD x) {                                                                         \
        return halves<&Sleef_finz_##name##d4_##ulp##avx2>(x);                                      \
    }
    KILN_VEC_SLEEF_FUNCTIONS(KILN_VEC_WRAP)
#undef KILN_VEC_WRAP
    static VD fma(VD a, VD b, VD c) {
        VD4 lo = VD4(_mm256_fmadd_pd(__m256d(__builtin_shufflevector(a, a, 0, 1, 2, 3)),
                                     __m256d(__builtin_shufflevector(b, b, 0, 1, 2, 3)),
                                     __m256d(__builtin_shufflevector(c, c, 0, 1, 2, 3))));
        VD4 hi = VD4(_mm256_fmadd_pd(__m256d(__builtin_shufflevector(a, a, 4, 5, 6, 7)),
                                     __m256d(__builtin_shufflevector(b, b, 4, 5, 6, 7)),
                                     __m256d(__builtin_shufflevector(c, c, 4, 5, 6, 7))));
        return __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7);
    }
};
} // namespace kiln::tensor::detail::avx2

#include "tensor/vec_math_impl.h"

namespace kiln::tensor::detail {
const VecMathKernels& vecMathAvx2() {
    return avx2::kKernels;
}
const VecReduceKernels& vecReduceAvx2() {
    return avx2::kReduceKernels;
}
} // namespace kiln::tensor::detail
