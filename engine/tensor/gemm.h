// SPDX-License-Identifier: MIT
/// \file
/// The one matrix-multiply kernel behind mm, bmm, addmm, mv, matmul, linear and einsum. Internal
/// to the tensor library: callers check shapes and dtypes and produce PyTorch's messages first.
#pragma once

#include "tensor/scalar.h"
#include "tensor/tensor.h"

namespace kiln::tensor::detail {

/// out[i] = alpha * (a[i] @ b[i]) + beta * out[i] for 3-D a (B, n, m), b (B, m, p) and a
/// contiguous out (B, n, p), all of one dtype. a and b may have any strides (a stride-0 batch
/// dim included). With beta == 0 out's previous contents are ignored, NaN included, as in BLAS.
/// float32/float64 go through OpenBLAS without copying operands whose matrices are row- or
/// column-major; 16-bit floats compute in float32 and round once; integers use a plain loop.
void batchedGemm(const Tensor& a, const Tensor& b, const Tensor& out, Scalar alpha, Scalar beta);

/// Sum of a[i] * b[i] over two 1-D tensors of one dtype and equal length, as a 0-dim tensor.
Tensor dotProduct(const Tensor& a, const Tensor& b);

} // namespace kiln::tensor::detail
