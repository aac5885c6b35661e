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
/// The functions are SLEEF's deterministic variants: a lane's result depends only on that
/// lane (the plain variants switch the whole vector to a slower reduction when any lane needs
/// it). exp is SLEEF's too, the function PyTorch's vectorised float exp calls.
#pragma once

#include "support/cpu_info.h"
#include "tensor/half.h"
#include "tensor/ops.h"

#include <cstdint>
#include <optional>

namespace kiln::tensor::detail {

enum class VecMath {
    Exp,
    Sigmoid,
    Silu,
    Sin,
    Cos,
    Tan,
    Tanh,
    Erf,
    Erfc,
    Log,
    Log2,
    Log10,
    Log1p,
    Expm1,
    Exp2,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Gelu,
    GeluTanh
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
        if constexpr (std::is_same_v<T, float>)
            return f32;
        else if constexpr (std::is_same_v<T, double>)
            return f64;
        else if constexpr (std::is_same_v<T, BFloat16>)
            return bf16;
        else
            return f16;
    }
};

/// The row reductions of the eager kernels over n contiguous values, and the accumulation of
/// a row into per-column sums. Sums accumulate in double in 16 lanes (lane k takes the
/// elements k, k + 16, ...), combined in lane order, then the tail in order: a fixed
/// association, so every instruction set gives the same bits. max/min keep a NaN.
struct VecReduceKernels {
    double (*sumFloat)(const float* x, int64_t n);
    double (*sumDouble)(const double* x, int64_t n);
    float (*maxFloat)(const float* x, int64_t n);
    float (*minFloat)(const float* x, int64_t n);
    double (*maxDouble)(const double* x, int64_t n);
    double (*minDouble)(const double* x, int64_t n);
    /// acc[i] += x[i] for i < n.
    void (*accumulateFloat)(double* acc, const float* x, int64_t n);
    void (*accumulateDouble)(double* acc, const double* x, int64_t n);
};

/// The kernels of one instruction set (the CPU must support it).
const VecMathKernels& vecMathKernels(CpuIsa isa);
/// The kernels of activeIsa().
const VecMathKernels& vecMath();
const VecReduceKernels& vecReduceKernels(CpuIsa isa);
const VecReduceKernels& vecReduce();
/// The vector function computing a unary op, if it has one.
std::optional<VecMath> vecMathFor(UnaryOp op);

// The per-instruction-set tables, one translation unit each.
const VecMathKernels& vecMathBaseline();
const VecMathKernels& vecMathAvx2();
const VecMathKernels& vecMathAvx512();
const VecReduceKernels& vecReduceBaseline();
const VecReduceKernels& vecReduceAvx2();
const VecReduceKernels& vecReduceAvx512();

} // namespace kiln::tensor::detail
