// SPDX-License-Identifier: MIT
// The vectorised elementary functions for x86-64's baseline (SSE2): 4 floats or 2 doubles per
// vector. SSE2 has no FMA, so SLEEF's cinz functions and exp compute with separate roundings:
// their last bit can differ from the AVX2 and AVX-512 paths (which agree with each other).
#include "tensor/vec_math_targets.h"

#include <emmintrin.h>
#include <sleef.h>

#define KILN_VEC_NAMESPACE baseline

namespace kiln::tensor::detail::baseline {
struct Isa {
    using VF = vec::F4;
    using VD = vec::D2;
#define KILN_VEC_WRAP(name, ulp)                                                                   \
    static VF name(VF x) { return VF(Sleef_cinz_##name##f4_##ulp##sse2(__m128(x))); }             \
    static VD name(VD x) { return VD(Sleef_cinz_##name##d2_##ulp##sse2(__m128d(x))); }
    KILN_VEC_SLEEF_FUNCTIONS(KILN_VEC_WRAP)
#undef KILN_VEC_WRAP
    static VD fma(VD a, VD b, VD c) { return a * b + c; } // two roundings: no FMA in SSE2
};
} // namespace kiln::tensor::detail::baseline

#include "tensor/vec_math_impl.h"

namespace kiln::tensor::detail {
const VecMathKernels& vecMathBaseline() {
    return baseline::kKernels;
}
const VecReduceKernels& vecReduceBaseline() {
    return baseline::kReduceKernels;
}
} // namespace kiln::tensor::detail
