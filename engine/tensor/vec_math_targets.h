// SPDX-License-Identifier: MIT
/// \file
/// What vec_math_{baseline,avx2,avx512}.cpp share before they include vec_math_impl.h: the
/// vector types of the targets and the list of SLEEF functions each target wraps.
#pragma once

#include <cstdint>

/// The SLEEF functions the kernels call: name and accuracy suffix (u10 = 1.0 ulp).
#define KILN_VEC_SLEEF_FUNCTIONS(X)                                                                \
    X(exp, u10)                                                                                    \
    X(sin, u10) X(cos, u10) X(tan, u10) X(tanh, u10) X(erf, u10) X(erfc, u15) X(log, u10)          \
        X(log2, u10) X(log10, u10) X(log1p, u10) X(expm1, u10) X(exp2, u10) X(asin, u10)           \
            X(acos, u10) X(atan, u10) X(sinh, u10) X(cosh, u10)

namespace kiln::tensor::detail::vec {
/// The registers of each target: 512-bit (AVX-512), 256-bit (AVX2) and 128-bit (SSE2) vectors.
using F16 = float __attribute__((vector_size(64)));
using D8 = double __attribute__((vector_size(64)));
using F8 = float __attribute__((vector_size(32)));
using D4 = double __attribute__((vector_size(32)));
using F4 = float __attribute__((vector_size(16)));
using D2 = double __attribute__((vector_size(16)));
} // namespace kiln::tensor::detail::vec
