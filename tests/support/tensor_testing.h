// SPDX-License-Identifier: MIT
/// \file
/// Helpers for tensor tests: build tensors from literal values, read them back as doubles, and
/// compare against expected values with a tolerance that fits the dtype.
#pragma once

#include "tensor/ops.h"

#include <QString>
#include <vector>

namespace kiln::testing {

/// A contiguous tensor of `dtype` with `values` in row-major order.
tensor::Tensor makeTensor(const std::vector<double>& values, tensor::IntList sizes,
                          tensor::DType dtype = tensor::DType::Float32);
/// Every element of `t` (any strides) in row-major order, as double.
std::vector<double> values(const tensor::Tensor& t);
/// Largest |a - b| / max(1, |b|) tolerance that suits the dtype (float32: 1e-5, ...).
double toleranceFor(tensor::DType dtype);
/// Empty when `t` matches `expected` (shape and values within tolerance); otherwise a message
/// naming the first mismatch. Use as QVERIFY2(msg.isEmpty(), qPrintable(msg)).
QString compareTensor(const tensor::Tensor& t, const std::vector<double>& expected,
                      tensor::IntList expectedSizes, double tolerance = -1);

} // namespace kiln::testing
