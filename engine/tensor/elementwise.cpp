// SPDX-License-Identifier: MIT
#include "tensor/elementwise.h"

#include "tensor/error.h"
#include "tensor/shape.h"

#include <algorithm>
#include <cstdio>

namespace kiln::tensor::detail {

LoopInput::LoopInput(const Tensor& t, DType dtype, IntList shape)
    : m_strides(broadcastStrides(t, shape)) {
    m_isScalar = std::all_of(m_strides.begin(), m_strides.end(), [](int64_t s) { return s == 0; });
    if (m_isScalar) {
        Scalar value = readScalar(t.rawData(), t.dtype());
        m_scalarFloat = static_cast<float>(value.toDouble());
        if (t.dtype() == dtype) {
            m_data = t.rawData();
            return;
        }
        writeScalar(m_scalar, dtype, value);
        m_data = m_scalar;
        return;
    }
    if (t.dtype() == dtype) {
        m_data = t.rawData();
        return;
    }
    m_converted = toDType(t, dtype);
    m_data = m_converted.rawData();
    m_strides = broadcastStrides(m_converted, shape);
}

bool canCast(DType from, DType to) {
    if (isFloating(from) && isIntegral(to, false)) return false;
    return !(from != DType::Bool && to == DType::Bool);
}

void checkCanCastResult(DType result, DType out) {
    if (!canCast(result, out))
        failRuntime("result type " + std::string(dtypeLegacyName(result)) +
                    " can't be cast to the desired output type " +
                    std::string(dtypeLegacyName(out)));
}

void checkInPlaceTarget(const Tensor& out, IntList resultShape) {
    if (gradModeEnabled() && out.requiresGrad() && out.gradFn().empty())
        failRuntime("a leaf Variable that requires grad is being used in an in-place operation.");
    if (!(DimVector(resultShape) == out.sizes()))
        failRuntime("output with shape " + shapeString(out.sizes()) +
                    " doesn't match the broadcast shape " + shapeString(resultShape));
}

std::string_view typeMetaName(DType dtype) {
    switch (dtype) {
    case DType::Bool:
        return "bool";
    case DType::Int32:
        return "int";
    case DType::Int64:
        return "long int";
    case DType::Float16:
        return "c10::Half";
    case DType::BFloat16:
        return "c10::BFloat16";
    case DType::Float32:
        return "float";
    case DType::Float64:
        break;
    }
    return "double";
}

std::string formatDouble(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", value);
    return buffer;
}

Tensor allocateForFactory(IntList sizes, const TensorOptions& options) {
    if (options.requiresGrad && !isFloating(options.dtype))
        failRuntime("Only Tensors of floating point and complex dtype can require gradients");
    Tensor out = Tensor::empty(sizes, options.dtype, options.device);
    out.impl()->requiresGrad = options.requiresGrad;
    return out;
}

void failNotImplementedFor(std::string_view kernel, DType dtype) {
    fail(ErrorKind::NotImplementedError, "\"" + std::string(kernel) + "\" not implemented for '" +
                                             std::string(dtypeLegacyName(dtype)) + "'");
}

} // namespace kiln::tensor::detail
