// SPDX-License-Identifier: MIT
/// \file
/// The one matrix-multiply kernel behind mm, bmm, addmm, mv, matmul, linear and einsum, and the
/// compiled graphs' extern products. Internal to the tensor library and the compiler's runtime:
/// callers check shapes and dtypes and produce PyTorch's messages first.
///
/// float32, bfloat16 and float16 products go to oneDNN's matmul (its JIT picks the code path
/// from the CPU's features at run time, whoever made the CPU); float64 goes to BLIS (its OpenMP
/// build, which also dispatches on the CPU at run time); integers use a wrapping loop. 16-bit
/// floats accumulate in float32 and round once, natively where the CPU has bf16/fp16
/// instructions and through float32 copies elsewhere. docs/compiler.md has the measurements
/// behind this choice (kiln-bench-gemm).
#pragma once

#include "tensor/scalar.h"
#include "tensor/tensor.h"

#include <string>

namespace kiln::tensor::detail {

/// out[i] = alpha * (a[i] @ b[i]) + beta * out[i] for 3-D a (B, n, m), b (B, m, p) and a
/// contiguous out (B, n, p), all of one dtype. a and b may have any strides (a stride-0 batch
/// dim included). With beta == 0 out's previous contents are ignored, NaN included, as in BLAS.
void batchedGemm(const Tensor& a, const Tensor& b, const Tensor& out, Scalar alpha, Scalar beta);

/// A pointwise function a product can apply to each element before storing it.
enum class GemmEpilogue { None, Relu, Gelu, GeluTanh };

/// out = epilogue(a @ b + bias) for 2-D a (n, m), b (m, p), an optional bias of p elements
/// (1-D, or (1, p)) added to every row, and a contiguous 2-D out (n, p) of a's floating dtype.
/// One pass over the output where the library fuses the bias and the epilogue (oneDNN's
/// post-ops), else the product followed by one elementwise pass.
void gemmBiasEpilogue(const Tensor& a, const Tensor& b, const Tensor* bias, GemmEpilogue epilogue,
                      const Tensor& out);

/// Sum of a[i] * b[i] over two 1-D tensors of one dtype and equal length, as a 0-dim tensor.
Tensor dotProduct(const Tensor& a, const Tensor& b);

} // namespace kiln::tensor::detail

namespace kiln::tensor {

/// Which library computes products of each floating dtype here, with its version and the code
/// path it dispatched to on this CPU ("oneDNN 2.6.3 (avx512_core_bf16)").
struct MatmulLibraries {
    std::string float32;  ///< also bfloat16 and float16
    std::string bfloat16; ///< "... native" or "... through float32"
    std::string float64;
};
const MatmulLibraries& matmulLibraries();

} // namespace kiln::tensor
