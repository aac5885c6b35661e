// SPDX-License-Identifier: MIT
// The vectorised elementary functions for x86-64's baseline (SSE2): four SLEEF calls per 16
// floats or 8 doubles. SLEEF's SSE2 functions compute without FMA, so their last bit can
// differ from the AVX2 and AVX-512 paths (which agree with each other).
#include "tensor/vec_math_targets.h"

#include <emmintrin.h>
#include <sleef.h>

#define KILN_VEC_NAMESPACE baseline

namespace kiln::tensor::detail::baseline {
using vec::VD;
using vec::VD2;
using vec::VF;
using vec::VF4;

template <auto F>
VF quarters(VF x) {
    VF4 q[4] = {
        __builtin_shufflevector(x, x, 0, 1, 2, 3), __builtin_shufflevector(x, x, 4, 5, 6, 7),
        __builtin_shufflevector(x, x, 8, 9, 10, 11), __builtin_shufflevector(x, x, 12, 13, 14, 15)};
    for (VF4& v : q)
        v = VF4(F(__m128(v)));
    VF out;
    for (int i = 0; i < 16; ++i)
        out[i] = q[i / 4][i % 4];
    return out;
}

template <auto F>
VD quarters(VD x) {
    VD2 q[4] = {__builtin_shufflevector(x, x, 0, 1), __builtin_shufflevector(x, x, 2, 3),
                __builtin_shufflevector(x, x, 4, 5), __builtin_shufflevector(x, x, 6, 7)};
    for (VD2& v : q)
        v = VD2(F(__m128d(v)));
    VD out;
    for (int i = 0; i < 8; ++i)
        out[i] = q[i / 2][i % 2];
    return out;
}

struct Isa {
#define KILN_VEC_WRAP(name, ulp)                                                                   \
    static VF name(VF x) {                                                                         \
        return quarters<&Sleef_cinz_##name##f4_##ulp##sse2>(x);                                    \
    }                                                                                              \
    static VD name(VD x) {                                                                         \
        return quarters<&Sleef_cinz_##name##d2_##ulp##sse2>(x);                                    \
    }
    KILN_VEC_SLEEF_FUNCTIONS(KILN_VEC_WRAP)
#undef KILN_VEC_WRAP
    static VD fma(VD a, VD b, VD c) {
        return a * b + c;
    } // two roundings: no FMA in SSE2
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
