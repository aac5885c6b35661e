// SPDX-License-Identifier: MIT
/// \file
/// Internal to gemm.cpp: the libraries behind batchedGemm, one translation unit each (oneDNN's
/// C++ header is large; it is included in gemm_onednn.cpp only). Operands arrive 3-D (batch,
/// rows, cols) with each matrix row- or column-major (gemm.cpp copies any other layout first);
/// out is contiguous and of the operands' dtype.
#pragma once

#include "tensor/gemm.h"

#include <string>

namespace kiln::tensor::detail {

/// out = epilogue(alpha * a @ b + bias + beta * out) through oneDNN's matmul, where bias (1-D,
/// p elements) is nullptr or alpha is 1. False when oneDNN has no implementation of the dtype
/// for this CPU (16-bit floats without bf16/fp16 instructions): the caller computes another way.
bool onednnMatmul(const Tensor& a, const Tensor& b, const Tensor& out, float alpha, float beta,
                  const Tensor* bias, GemmEpilogue epilogue);
/// "oneDNN 2.6.3 (avx512_core_bf16)".
std::string onednnDescription();
/// Whether oneDNN computes products of this 16-bit dtype natively on this CPU (else they go
/// through float32 copies, which is faster than oneDNN's emulation).
bool onednnNativeHalf(DType dtype);

/// out = alpha * a @ b + beta * out for float64 through BLIS (strided operands as they are).
void blisGemm(const Tensor& a, const Tensor& b, const Tensor& out, double alpha, double beta);
/// "BLIS 0.9.0 (zen3)".
std::string blisDescription();

} // namespace kiln::tensor::detail
