// SPDX-License-Identifier: MIT
// The vectorised elementary functions for AVX2 (built with -mavx2 -mfma -mf16c): 8 floats or
// 4 doubles per vector. Every lane computes what it computes under AVX-512 (the functions are
// lane by lane and both targets fuse the same multiply-adds).
#include "tensor/vec_math_targets.h"

#include <immintrin.h>
#include <sleef.h>

#define KILN_VEC_NAMESPACE avx2

namespace kiln::tensor::detail::avx2 {
struct Isa {
    using VF = vec::F8;
    using VD = vec::D4;
#define KILN_VEC_WRAP(name, ulp)                                                                   \
    static VF name(VF x) { return VF(Sleef_finz_##name##f8_##ulp##avx2(__m256(x))); }              \
    static VD name(VD x) { return VD(Sleef_finz_##name##d4_##ulp##avx2(__m256d(x))); }
    KILN_VEC_SLEEF_FUNCTIONS(KILN_VEC_WRAP)
#undef KILN_VEC_WRAP
    static VD fma(VD a, VD b, VD c) {
        return VD(_mm256_fmadd_pd(__m256d(a), __m256d(b), __m256d(c)));
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
