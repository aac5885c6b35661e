// SPDX-License-Identifier: MIT
/// \file
/// Copies and conversions: the element-type cast rules (float to int truncates toward zero,
/// anything to bool tests != 0), making tensors contiguous, and reading single elements.
#pragma once

#include "tensor/scalar.h"
#include "tensor/tensor.h"

namespace kiln::tensor {

/// Casts one value to T with PyTorch's rules.
template <typename T, typename S>
inline T castValue(S value) {
    if constexpr (std::is_same_v<T, bool>) {
        return static_cast<ComputeType<S>>(value) != ComputeType<S>(0);
    } else if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
        return T(static_cast<float>(static_cast<ComputeType<S>>(value)));
    } else {
        return static_cast<T>(static_cast<ComputeType<S>>(value));
    }
}

/// Copies `src` into `dst`, broadcasting src to dst's shape and casting to dst's dtype.
/// dst may be any strided view (this is how slice assignment writes).
void copyInto(const Tensor& dst, const Tensor& src);
/// `t` itself when already contiguous, otherwise a contiguous copy.
Tensor contiguous(const Tensor& t);
/// A new contiguous tensor with the same values.
Tensor clone(const Tensor& t);
/// `t` itself when it already has `dtype` (and copy is false), otherwise a converted copy.
Tensor toDType(const Tensor& t, DType dtype, bool copy = false);

/// The element at `ptr` as a Scalar of the natural Python kind.
Scalar readScalar(const char* ptr, DType dtype);
/// Writes `value` cast to `dtype` at `ptr`.
void writeScalar(char* ptr, DType dtype, Scalar value);
/// tensor.item(): RuntimeError "a Tensor with N elements cannot be converted to Scalar".
Scalar item(const Tensor& t);

/// A 0-dim tensor holding `value` as `dtype`.
Tensor scalarTensor(Scalar value, DType dtype);
/// A Python number wrapped to take part in an op (`x + 1`): int64, float64 or bool, flagged so
/// type promotion treats it as a number rather than a tensor.
Tensor wrapNumber(Scalar value);
/// Fills every element of `t` (any strides) with `value`.
void fill(const Tensor& t, Scalar value);

} // namespace kiln::tensor
