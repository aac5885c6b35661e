// SPDX-License-Identifier: MIT
// torch.tensor(data): Python data (numbers, nested lists/tuples/ranges, one-element tensors)
// to a tensor, with PyTorch's dtype inference and its errors. Mirrors torch/csrc/utils/
// tensor_new.cpp: the dtype is the promotion of every leaf's type, the shape follows the first
// element at each depth, and leaves are converted as int(x)/float(x) would convert them.
#include "torchapi/tensor_data.h"

#include "tensor/convert.h"
#include "tensor/grad_node.h"

namespace kiln::torchapi {

using namespace kiln::lang;
using tensor::DType;

namespace {

bool isSequence(const Value& v) {
    return v.is(ObjectKind::List) || v.is(ObjectKind::Tuple) || v.is(ObjectKind::Range);
}

int64_t sequenceLength(const Value& v) {
    if (v.is(ObjectKind::Range)) return v.as<RangeObject>()->length();
    return static_cast<int64_t>(v.is(ObjectKind::List) ? v.as<ListObject>()->items.size()
                                                       : v.as<TupleObject>()->items.size());
}

Value sequenceItem(const Value& v, int64_t i) {
    if (v.is(ObjectKind::Range)) {
        const auto* r = v.as<RangeObject>();
        return Value::fromInt(r->start + i * r->step);
    }
    const auto& items =
        v.is(ObjectKind::List) ? v.as<ListObject>()->items : v.as<TupleObject>()->items;
    return items[static_cast<size_t>(i)];
}

/// The dtype torch.tensor infers: each leaf's own type, promoted over the whole structure;
/// empty sequences leave it to the default float type.
std::optional<DType> inferDType(Interpreter& interp, const Value& v) {
    if (v.isBool()) return DType::Bool;
    if (v.isInt()) return DType::Int64;
    if (v.isFloat()) return tensor::defaultFloatDType();
    if (v.isTensor()) return v.asTensor().dtype();
    if (v.is(ObjectKind::Str)) interp.raiseTypeError("new(): invalid data type 'str'");
    if (!isSequence(v))
        interp.raise(builtinTypes().runtimeError.get(),
                     "Could not infer dtype of " + interp.typeName(v));
    std::optional<DType> out;
    int64_t n = sequenceLength(v);
    for (int64_t i = 0; i < n; ++i) {
        std::optional<DType> d = inferDType(interp, sequenceItem(v, i));
        if (d) out = out ? tensor::promoteTypes(*out, *d) : *d;
    }
    return out;
}

struct Collector {
    Interpreter& interp;
    DType dtype;
    tensor::DimVector sizes;
    std::vector<tensor::Scalar> values;

    /// A leaf converted the way PyTorch's store_scalar converts it: integer targets through
    /// __index__, floating targets through __float__.
    void storeLeaf(const Value& v) {
        if (auto s = asScalar(v)) {
            values.push_back(*s);
            return;
        }
        bool integral = tensor::isIntegral(dtype, true);
        if (v.isTensor()) {
            Tensor t = v.asTensor();
            if (integral && (t.numel() != 1 || !tensor::isIntegral(t.dtype(), true)))
                interp.raiseTypeError("only integer tensors of a single element can be "
                                      "converted to an index");
            if (t.numel() != 1)
                interp.raiseValueError("only one element tensors can be converted to Python "
                                       "scalars");
            values.push_back(tensor::item(t));
            return;
        }
        if (integral)
            interp.raiseTypeError("'" + interp.typeName(v) +
                                  "' object cannot be interpreted as an integer");
        interp.raiseTypeError("must be real number, not " + interp.typeName(v));
    }

    void store(const Value& v, size_t depth) {
        if (depth == sizes.size()) {
            storeLeaf(v);
            return;
        }
        if (v.isTensor()) {
            // A tensor below the top is iterated like any sequence (its first dimension).
            Tensor t = v.asTensor();
            int64_t n = t.dim() == 0 ? -1 : t.size(0);
            checkLength(n, depth);
            for (int64_t i = 0; i < n; ++i)
                store(Value(tensor::select(t, 0, i)), depth + 1);
            return;
        }
        if (!isSequence(v)) interp.raiseTypeError("not a sequence");
        int64_t n = sequenceLength(v);
        checkLength(n, depth);
        for (int64_t i = 0; i < n; ++i)
            store(sequenceItem(v, i), depth + 1);
    }

    void checkLength(int64_t n, size_t depth) {
        if (n != sizes[depth])
            interp.raiseValueError("expected sequence of length " + std::to_string(sizes[depth]) +
                                   " at dim " + std::to_string(depth) + " (got " +
                                   std::to_string(n) + ")");
    }
};

/// The shape follows the first element at each depth, as PyTorch's compute_sizes does.
tensor::DimVector computeSizes(const Value& data) {
    tensor::DimVector sizes;
    Value v = data;
    while (isSequence(v)) {
        int64_t n = sequenceLength(v);
        sizes.push_back(n);
        if (n == 0) break;
        v = sequenceItem(v, 0);
    }
    return sizes;
}

} // namespace

Tensor tensorFromData(Interpreter& interp, const Value& data, std::optional<DType> dtype) {
    if (data.isTensor()) {
        Tensor src = data.asTensor();
        Tensor copy = tensor::toDType(src, dtype.value_or(src.dtype()), true);
        tensor::clearGradFn(copy);
        copy.impl()->requiresGrad = false;
        return copy;
    }
    if (!dtype) dtype = inferDType(interp, data).value_or(tensor::defaultFloatDType());
    Collector c{interp, *dtype, computeSizes(data), {}};
    c.store(data, 0);
    for (const tensor::Scalar& s : c.values)
        tensor::checkScalarFits(s, *dtype, tensor::TypeNaming::DTypeName);
    return tensor::fromScalars(c.values, c.sizes, *dtype);
}

} // namespace kiln::torchapi
