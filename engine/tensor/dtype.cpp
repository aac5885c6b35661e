// SPDX-License-Identifier: MIT
#include "tensor/dtype.h"

namespace kiln::tensor {

int64_t itemSize(DType dtype) {
    switch (dtype) {
    case DType::Bool:
    case DType::UInt8:
    case DType::Int8:
        return 1;
    case DType::Int16:
    case DType::Float16:
    case DType::BFloat16:
        return 2;
    case DType::Int32:
    case DType::Float32:
        return 4;
    case DType::Int64:
    case DType::Float64:
        return 8;
    }
    return 8;
}

bool isFloating(DType dtype) {
    return dtype == DType::Float16 || dtype == DType::BFloat16 || dtype == DType::Float32 ||
           dtype == DType::Float64;
}

bool isIntegral(DType dtype, bool includeBool) {
    switch (dtype) {
    case DType::UInt8:
    case DType::Int8:
    case DType::Int16:
    case DType::Int32:
    case DType::Int64:
        return true;
    case DType::Bool:
        return includeBool;
    default:
        return false;
    }
}

bool isSigned(DType dtype) {
    return dtype != DType::Bool && dtype != DType::UInt8;
}

std::string_view dtypeName(DType dtype) {
    switch (dtype) {
    case DType::Bool:
        return "bool";
    case DType::UInt8:
        return "uint8";
    case DType::Int8:
        return "int8";
    case DType::Int16:
        return "int16";
    case DType::Int32:
        return "int32";
    case DType::Int64:
        return "int64";
    case DType::Float16:
        return "float16";
    case DType::BFloat16:
        return "bfloat16";
    case DType::Float32:
        return "float32";
    case DType::Float64:
        return "float64";
    }
    return "float32";
}

std::string_view dtypeLegacyName(DType dtype) {
    switch (dtype) {
    case DType::Bool:
        return "Bool";
    case DType::UInt8:
        return "Byte";
    case DType::Int8:
        return "Char";
    case DType::Int16:
        return "Short";
    case DType::Int32:
        return "Int";
    case DType::Int64:
        return "Long";
    case DType::Float16:
        return "Half";
    case DType::BFloat16:
        return "BFloat16";
    case DType::Float32:
        return "Float";
    case DType::Float64:
        return "Double";
    }
    return "Float";
}

DType promoteTypes(DType a, DType b) {
    if (a == b) return a;
    auto either = [&](DType x, DType y) { return (a == x && b == y) || (a == y && b == x); };
    // The two 16-bit float formats cannot represent each other; PyTorch meets them at float32.
    if (either(DType::Float16, DType::BFloat16)) return DType::Float32;
    // Nor can uint8 and int8: the smallest type holding both is int16.
    if (either(DType::UInt8, DType::Int8)) return DType::Int16;
    return static_cast<uint8_t>(a) > static_cast<uint8_t>(b) ? a : b;
}

} // namespace kiln::tensor
