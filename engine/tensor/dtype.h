// SPDX-License-Identifier: MIT
/// \file
/// Element types, their C++ counterparts, and PyTorch's type-promotion lattice.
#pragma once

#include "tensor/half.h"

#include <cstdint>
#include <string_view>

namespace kiln::tensor {

/// The order is the promotion order within a category (promoteTypes takes the later of two,
/// except where PyTorch's lattice says otherwise); do not reorder. The values are not stored
/// anywhere: traces and caches spell dtypes by name.
enum class DType : uint8_t {
    Bool,
    UInt8,
    Int8,
    Int16,
    Int32,
    Int64,
    Float16,
    BFloat16,
    Float32,
    Float64
};

constexpr int kDTypeCount = 10;

int64_t itemSize(DType dtype);
bool isFloating(DType dtype);
bool isIntegral(DType dtype, bool includeBool);
/// torch.dtype.is_signed: false for bool and uint8.
bool isSigned(DType dtype);
/// "float32", "int64", ... (the attribute name in the torch module)
std::string_view dtypeName(DType dtype);
/// PyTorch's legacy short names used in messages: "Float", "Long", "Bool", "Half", "BFloat16",
/// "Byte" (uint8), "Char" (int8), "Short" (int16).
std::string_view dtypeLegacyName(DType dtype);
/// torch.promote_types for two dtypes.
DType promoteTypes(DType a, DType b);

/// Maps a DType to the C++ type its elements are stored as.
template <DType D>
struct DTypeTraits;
template <>
struct DTypeTraits<DType::Bool> {
    using type = bool;
};
template <>
struct DTypeTraits<DType::UInt8> {
    using type = uint8_t;
};
template <>
struct DTypeTraits<DType::Int8> {
    using type = int8_t;
};
template <>
struct DTypeTraits<DType::Int16> {
    using type = int16_t;
};
template <>
struct DTypeTraits<DType::Int32> {
    using type = int32_t;
};
template <>
struct DTypeTraits<DType::Int64> {
    using type = int64_t;
};
template <>
struct DTypeTraits<DType::Float16> {
    using type = Half;
};
template <>
struct DTypeTraits<DType::BFloat16> {
    using type = BFloat16;
};
template <>
struct DTypeTraits<DType::Float32> {
    using type = float;
};
template <>
struct DTypeTraits<DType::Float64> {
    using type = double;
};

template <DType D>
using CType = typename DTypeTraits<D>::type;

/// Calls fn.template operator()<DType>() with the runtime dtype as a compile-time constant.
/// Used as: dispatchDType(d, [&]<DType D>() { using T = CType<D>; ... });
template <typename Fn>
decltype(auto) dispatchDType(DType dtype, Fn&& fn) {
    switch (dtype) {
    case DType::Bool:
        return fn.template operator()<DType::Bool>();
    case DType::UInt8:
        return fn.template operator()<DType::UInt8>();
    case DType::Int8:
        return fn.template operator()<DType::Int8>();
    case DType::Int16:
        return fn.template operator()<DType::Int16>();
    case DType::Int32:
        return fn.template operator()<DType::Int32>();
    case DType::Int64:
        return fn.template operator()<DType::Int64>();
    case DType::Float16:
        return fn.template operator()<DType::Float16>();
    case DType::BFloat16:
        return fn.template operator()<DType::BFloat16>();
    case DType::Float32:
        return fn.template operator()<DType::Float32>();
    case DType::Float64:
        break;
    }
    return fn.template operator()<DType::Float64>();
}

/// The type arithmetic is done in: float for the 16-bit floats, the type itself otherwise.
template <typename T>
struct ComputeTypeOf {
    using type = T;
};
template <>
struct ComputeTypeOf<Half> {
    using type = float;
};
template <>
struct ComputeTypeOf<BFloat16> {
    using type = float;
};
template <typename T>
using ComputeType = typename ComputeTypeOf<T>::type;

} // namespace kiln::tensor
