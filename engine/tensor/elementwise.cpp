// SPDX-License-Identifier: MIT
#include "tensor/elementwise.h"

#include "tensor/autograd.h"
#include "tensor/error.h"
#include "tensor/grad_node.h"
#include "tensor/shape.h"

#include <algorithm>
#include <cstdio>
#include <vector>

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
    refreshViewGradFn(out);
    if (gradModeEnabled() && out.requiresGrad() && out.gradFn().empty())
        failRuntime("a leaf Variable that requires grad is being used in an in-place operation.");
    if (!(DimVector(resultShape) == out.sizes()))
        failRuntime("output with shape " + shapeString(out.sizes()) +
                    " doesn't match the broadcast shape " + shapeString(resultShape));
    // Every in-place op checks its target here, just before it writes: a view's errors, the
    // version bump, and the note that lets the op's node rebase a view's base.
    beginInPlaceWrite(out);
}

std::string_view typeMetaName(DType dtype) {
    switch (dtype) {
    case DType::Bool:
        return "bool";
    case DType::UInt8:
        return "unsigned char";
    case DType::Int8:
        return "signed char";
    case DType::Int16:
        return "short int";
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

namespace {

// > 0: dim0 should be stored inside dim1 (have the smaller stride); < 0: keep the order;
// 0: no input decides.
int compareDims(int64_t dim0, int64_t dim1, IntList shape, const std::vector<DimVector>& strides) {
    for (const DimVector& s : strides) {
        int64_t s0 = s[dim0], s1 = s[dim1];
        if (s0 == 0 || s1 == 0) continue; // a broadcast dimension says nothing about memory order
        if (s0 != s1) return s0 < s1 ? -1 : 1;
        if (shape[dim0] > shape[dim1]) return 1;
    }
    return 0;
}

} // namespace

Tensor allocateElementwiseOutput(IntList shape, DType dtype,
                                 std::initializer_list<const Tensor*> inputs) {
    bool allContiguous = true;
    for (const Tensor* t : inputs)
        allContiguous &= t->isContiguous();
    if (allContiguous || shape.size() < 2) return Tensor::empty(shape, dtype);
    std::vector<DimVector> strides;
    for (const Tensor* t : inputs)
        if (t->dim() > 0) strides.push_back(broadcastStrides(*t, shape));
    // Insertion sort of the dims from innermost to outermost, as TensorIterator does it.
    const int64_t rank = static_cast<int64_t>(shape.size());
    DimVector order(static_cast<size_t>(rank));
    for (int64_t i = 0; i < rank; ++i)
        order[static_cast<size_t>(i)] = rank - 1 - i;
    for (int64_t i = 1; i < rank; ++i) {
        for (int64_t j = i; j > 0; --j) {
            int cmp = compareDims(order[j - 1], order[j], shape, strides);
            if (cmp <= 0) break;
            std::swap(order[j - 1], order[j]);
        }
    }
    DimVector outStrides(static_cast<size_t>(rank));
    int64_t stride = 1;
    for (int64_t d : order) {
        outStrides[static_cast<size_t>(d)] = stride;
        stride *= std::max<int64_t>(shape[static_cast<size_t>(d)], 1);
    }
    Tensor dense = Tensor::empty(std::vector<int64_t>{checkedNumel(shape)}, dtype);
    return Tensor::view(dense.storage(), 0, DimVector(shape), std::move(outStrides), dtype);
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
