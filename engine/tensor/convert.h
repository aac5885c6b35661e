// SPDX-License-Identifier: MIT
/// \file
/// Copies and conversions: the element-type cast rules (float to int truncates toward zero,
/// anything to bool tests != 0), making tensors contiguous, and reading single elements.
#pragma once

#include "tensor/scalar.h"
#include "tensor/tensor.h"

#include <cstdint>
#include <limits>
#include <type_traits>

namespace kiln::tensor {

/// x86's truncating conversion (cvttsd2si), which PyTorch's CPU kernels compile to: NaN and
/// values outside I's range give I's minimum (C++ leaves them undefined).
template <typename I>
inline I truncateLikeX86(double v) {
    constexpr double limit = -static_cast<double>(std::numeric_limits<I>::min());
    return v > -limit - 1.0 && v < limit ? static_cast<I>(v) : std::numeric_limits<I>::min();
}

/// A floating value to the integer type I as PyTorch converts on x86: uint8 through int64
/// (c10's cast for uint8), int8 and int16 through int32 (what the compiler emits for a C
/// cast), then wrapped to I's width. So 300.0 is 44 and -1.0 is 255 as uint8.
template <typename I>
inline I floatToInteger(double v) {
    if constexpr (std::is_same_v<I, uint8_t> || std::is_same_v<I, int64_t>)
        return static_cast<I>(truncateLikeX86<int64_t>(v));
    else
        return static_cast<I>(truncateLikeX86<int32_t>(v));
}

/// Casts one value to T with PyTorch's rules.
template <typename T, typename S>
inline T castValue(S value) {
    using C = ComputeType<S>;
    if constexpr (std::is_same_v<T, bool>) {
        return static_cast<C>(value) != C(0);
    } else if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
        return T(static_cast<float>(static_cast<C>(value)));
    } else if constexpr (std::is_integral_v<T> && std::is_floating_point_v<C>) {
        return floatToInteger<T>(static_cast<double>(static_cast<C>(value)));
    } else {
        return static_cast<T>(static_cast<C>(value));
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
/// How a value-range error names the target type: as c10 does ("uint8_t", "int", "int64_t":
/// fill_, full, masked_fill, x[i] = v) or as torch.tensor does ("uint8", "int32").
enum class TypeNaming { CType, DTypeName };
/// PyTorch's check before it stores a Python number into an integer tensor (c10::overflows):
/// RuntimeError "value cannot be converted to type uint8_t without overflow" for an integer
/// outside the type's range (negative integers wrap into uint8 down to -255, as two's
/// complement arithmetic does) or a float outside [lowest, max] or NaN. Arithmetic with
/// numbers does not check (uint8 + 300 wraps); floating and bool targets never fail here.
void checkScalarFits(Scalar value, DType dtype, TypeNaming naming = TypeNaming::CType);
/// Fills every element of `t` (any strides) with `value`, checked by checkScalarFits.
void fill(const Tensor& t, Scalar value);

} // namespace kiln::tensor
