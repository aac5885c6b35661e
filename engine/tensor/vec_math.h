// SPDX-License-Identifier: MIT
/// \file
/// Internal to the tensor library: the eager kernels of the elementary functions, vectorised
/// with SLEEF (its 1.0-ulp functions, 1.5 ulp for erfc) and compiled once per instruction set
/// (baseline SSE2, AVX2, AVX-512), picked at run time by activeIsa().
///
/// Every element goes through the same vector function whatever its position, the tensor's
/// layout or the number of threads (strided and broadcast inputs are gathered into a block),
/// and the AVX2 and AVX-512 paths give bit-identical results: both compute 16 float (8
/// double) lanes with the same operations and no contraction into FMAs beyond SLEEF's own.
/// exp, sigmoid and SiLU use Kiln's float exp (fast_math.h), the same bits as the scalar code.
#pragma once

#include "support/cpu_info.h"
#include "tensor/half.h"
#include "tensor/ops.h"

#include <cstdint>
#include <optional>

namespace kiln::tensor::detail {

enum class VecMath {
    Exp, Sigmoid, Silu, Sin, Cos, Tan, Tanh, Erf, Erfc, Log, Log2, Log10, Log1p, Expm1, Exp2,
    Asin, Acos, Atan, Sinh, Cosh, Gelu, GeluTanh
};

/// out[i * outStride] = f(in[i * inStride]) for i < n; strides in bytes (0: a broadcast input).
template <typename T>
using VecMathKernel = void (*)(VecMath, const char* in, int64_t inStride, char* out,
                               int64_t outStride, int64_t n);

struct VecMathKernels {
    VecMathKernel<float> f32;
    VecMathKernel<double> f64;
    VecMathKernel<BFloat16> bf16;
    VecMathKernel<Half> f16;

    template <typename T>
    VecMathKernel<T> forType() const {
        if constexpr (std::is_same_v<T, float>) return f32;
        else if constexpr (std::is_same_v<T, double>) return f64;
        else if constexpr (std::is_same_v<T, BFloat16>) return bf16;
        else return f16;
    }
};

/// The kernels of one instruction set (the CPU must support it).
const VecMathKernels& vecMathKernels(CpuIsa isa);
/// The kernels of activeIsa().
const VecMathKernels& vecMath();
/// The vector function computing a unary op, if it has one.
std::optional<VecMath> vecMathFor(UnaryOp op);

// The per-instruction-set tables, one translation unit each.
const VecMathKernels& vecMathBaseline();
const VecMathKernels& vecMathAvx2();
const VecMathKernels& vecMathAvx512();

} // namespace kiln::tensor::detail
