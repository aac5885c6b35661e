// SPDX-License-Identifier: MIT
// The vectorised elementary functions for AVX-512 (built with -mavx512f/bw/dq/vl): 16 floats
// or 8 doubles per vector, one SLEEF call each.
#include "tensor/vec_math_targets.h"

#include <immintrin.h>
#include <sleef.h>

#define KILN_VEC_NAMESPACE avx512

namespace kiln::tensor::detail::avx512 {
struct Isa {
    using VF = vec::F16;
    using VD = vec::D8;
#define KILN_VEC_WRAP(name, ulp)                                                                   \
    static VF name(VF x) { return VF(Sleef_finz_##name##f16_##ulp##avx512f(__m512(x))); }          \
    static VD name(VD x) { return VD(Sleef_finz_##name##d8_##ulp##avx512f(__m512d(x))); }
    KILN_VEC_SLEEF_FUNCTIONS(KILN_VEC_WRAP)
#undef KILN_VEC_WRAP
    static VD fma(VD a, VD b, VD c) {
        return VD(_mm512_fmadd_pd(__m512d(a), __m512d(b), __m512d(c)));
    }
};
} // namespace kiln::tensor::detail::avx512

#include "tensor/vec_math_impl.h"

namespace kiln::tensor::detail {
const VecMathKernels& vecMathAvx512() {
    return avx512::kKernels;
}
const VecReduceKernels& vecReduceAvx512() {
    return avx512::kReduceKernels;
}
} // namespace kiln::tensor::detail
