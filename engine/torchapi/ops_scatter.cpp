// SPDX-License-Identifier: MIT
// Index-driven writes: scatter, scatter_add, scatter_reduce, index_add, index_copy, index_fill
// (each with its in-place form) and bincount. The kernels are out of place
// (tensor/scatter.cpp); an in-place form assigns the result to its input.
#include "tensor/autograd.h"
#include "torchapi/bindings.h"

namespace kiln::torchapi {

using namespace kiln::lang;

namespace {

/// The in-place form writes the result into its input and returns it; the other returns it.
Value finish(const BoundArgs& a, bool inPlace, const Tensor& self, const Tensor& result,
             std::optional<size_t> outIndex = std::nullopt) {
    if (!inPlace) return outIndex ? resultOrOut(a, *outIndex, result) : tensorValue(result);
    assignInPlace(self, result);
    return a[0];
}

/// A Python number, or a 0-dim tensor's value (index_fill, scatter's value).
tensor::Scalar scalarOrZeroDim(const BoundArgs& a, size_t i, const char* op) {
    if (!a[i].isTensor()) return scalarArg(a, i);
    Tensor t = a[i].asTensor();
    if (t.dim() != 0)
        a.interp().raise(builtinTypes().runtimeError.get(),
                         std::string(op) +
                             " only supports a 0-dimensional value tensor, but got tensor with " +
                             std::to_string(t.dim()) + " dimension(s).");
    return tensor::item(t);
}

template <bool InPlace>
Value scatterFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(
        InPlace ? "scatter_(input, dim, index, src=None, *, value=None, reduce=None)"
                : "scatter(input, dim, index, src=None, *, value=None, reduce=None, out=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor self = a.toTensor(0);
    const size_t valueAt = a.has(3) ? 3 : 4;
    if (!a.has(valueAt))
        interp.raise(builtinTypes().typeError.get(),
                     "scatter() missing 1 required positional argument: 'src'");
    tensor::ScatterReduce reduce =
        a.has(5) ? tensor::scatterReduceOf(a.toStr(5), true) : tensor::ScatterReduce::None;
    // A tensor src, 0-dim too, is the tensor overload (its dtype and size are checked).
    Tensor r = valueAt == 3 && a[valueAt].isTensor()
                   ? tensor::scatter(self, a.toInt(1), a.toTensor(2), a.toTensor(valueAt), reduce,
                                     true, "scatter")
                   : tensor::scatterValue(self, a.toInt(1), a.toTensor(2),
                                          scalarOrZeroDim(a, valueAt, "scatter"), reduce);
    return finish(a, InPlace, self, r, InPlace ? std::nullopt : std::optional<size_t>(6));
}

template <bool InPlace>
Value scatterAddFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(InPlace ? "scatter_add_(input, dim, index, src)"
                                       : "scatter_add(input, dim, index, src, *, out=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor self = a.toTensor(0);
    Tensor r = tensor::scatter(self, a.toInt(1), a.toTensor(2), a.toTensor(3),
                               tensor::ScatterReduce::Sum, true, "scatter_add");
    return finish(a, InPlace, self, r, InPlace ? std::nullopt : std::optional<size_t>(4));
}

template <bool InPlace>
Value scatterReduceFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(
        InPlace ? "scatter_reduce_(input, dim, index, src, reduce, *, include_self=True)"
                : "scatter_reduce(input, dim, index, src, reduce, *, include_self=True, "
                  "out=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor self = a.toTensor(0);
    Tensor r =
        tensor::scatter(self, a.toInt(1), a.toTensor(2), a.toTensor(3),
                        tensor::scatterReduceOf(a.toStr(4), false), a.toBool(5), "scatter_reduce");
    return finish(a, InPlace, self, r, InPlace ? std::nullopt : std::optional<size_t>(6));
}

template <bool InPlace>
Value indexAddFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(InPlace
                                   ? "index_add_(input, dim, index, source, *, alpha=1)"
                                   : "index_add(input, dim, index, source, *, alpha=1, out=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor self = a.toTensor(0);
    Tensor r = tensor::indexAdd(self, a.toInt(1), a.toTensor(2), a.toTensor(3), scalarArg(a, 4));
    return finish(a, InPlace, self, r, InPlace ? std::nullopt : std::optional<size_t>(5));
}

template <bool InPlace>
Value indexCopyFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(InPlace ? "index_copy_(input, dim, index, source)"
                                       : "index_copy(input, dim, index, source, *, out=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor self = a.toTensor(0);
    Tensor r = tensor::indexCopy(self, a.toInt(1), a.toTensor(2), a.toTensor(3));
    return finish(a, InPlace, self, r, InPlace ? std::nullopt : std::optional<size_t>(4));
}

template <bool InPlace>
Value indexFillFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(InPlace ? "index_fill_(input, dim, index, value)"
                                       : "index_fill(input, dim, index, value)");
    BoundArgs a = sig.bind(interp, args);
    Tensor self = a.toTensor(0);
    Tensor r =
        tensor::indexFill(self, a.toInt(1), a.toTensor(2), scalarOrZeroDim(a, 3, "index_fill_"));
    return finish(a, InPlace, self, r);
}

/// index_put(input, indices, values, accumulate=False) = input[indices] = values, the indices
/// a tuple (or list) of index tensors or masks; accumulate sums values sent to one position.
template <bool InPlace>
Value indexPutFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(InPlace ? "index_put_(input, indices, values, accumulate=False)"
                                       : "index_put(input, indices, values, accumulate=False)");
    BoundArgs a = sig.bind(interp, args);
    Tensor self = a.toTensor(0);
    if (!a[2].isTensor())
        interp.raiseTypeError(sig.name() +
                              "(): argument 'values' (position 2) must be Tensor, "
                              "not " +
                              interp.typeName(a[2]));
    Tensor values = a[2].asTensor();
    std::vector<tensor::IndexItem> items;
    for (const Value& v : interp.toVector(a[1])) {
        if (!v.isTensor() || tensor::isFloating(v.asTensor().dtype()))
            interp.raise(builtinTypes().indexError.get(),
                         "tensors used as indices must be long, int, byte or bool tensors");
        tensor::IndexItem item;
        item.kind = tensor::IndexItem::Kind::Tensor;
        item.tensor = v.asTensor();
        items.push_back(std::move(item));
    }
    if (values.dtype() != self.dtype())
        interp.raise(builtinTypes().runtimeError.get(),
                     "Index put requires the source and destination dtypes match, got " +
                         std::string(tensor::dtypeLegacyName(self.dtype())) +
                         " for the destination and " +
                         std::string(tensor::dtypeLegacyName(values.dtype())) + " for the source.");
    // A copy that keeps self's history: self's gradient flows through the places not written.
    Tensor result = tensor::clone(self);
    tensor::recordGradFn(result, "CloneBackward0", {&self});
    tensor::attachCopyDerivative(result, self);
    if (!a.toBool(3)) {
        tensor::indexPut(result, items, values);
    } else {
        // Each indexed position's linear id, then one index_add over the flat tensor: repeated
        // positions sum, as PyTorch's accumulate does.
        Tensor ids =
            tensor::reshape(tensor::arange(tensor::Scalar(int64_t(0)), tensor::Scalar(self.numel()),
                                           tensor::Scalar(int64_t(1)), tensor::DType::Int64),
                            self.sizes());
        Tensor positions = tensor::index(ids, items);
        Tensor spread = tensor::expand(values, positions.sizes());
        Tensor flat = tensor::reshape(result, tensor::DimVector{self.numel()});
        flat = tensor::indexAdd(
            flat, 0, tensor::reshape(positions, tensor::DimVector{positions.numel()}),
            tensor::reshape(tensor::contiguous(spread), tensor::DimVector{positions.numel()}),
            tensor::Scalar(int64_t(1)));
        result = tensor::reshape(flat, self.sizes());
        tensor::renameGradFn(result, "IndexPutBackward0"); // the node PyTorch shows
    }
    return finish(a, InPlace, self, result);
}

Value bincountFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("bincount(input, weights=None, minlength=0)");
    BoundArgs a = sig.bind(interp, args);
    std::optional<Tensor> weights = a.optTensor(1);
    return tensorValue(tensor::bincount(a.toTensor(0), weights ? &*weights : nullptr, a.toInt(2)));
}

} // namespace

void installScatterOps(Interpreter& interp, ModuleObject& torch) {
    static const OpEntry ops[] = {
        {"scatter", scatterFn<false>, true, true},
        {"scatter_", scatterFn<true>, false, true},
        {"scatter_add", scatterAddFn<false>, true, true},
        {"scatter_add_", scatterAddFn<true>, false, true},
        {"scatter_reduce", scatterReduceFn<false>, true, true},
        {"scatter_reduce_", scatterReduceFn<true>, false, true},
        {"index_add", indexAddFn<false>, true, true},
        {"index_add_", indexAddFn<true>, false, true},
        {"index_copy", indexCopyFn<false>, true, true},
        {"index_copy_", indexCopyFn<true>, false, true},
        {"index_fill", indexFillFn<false>, true, true},
        {"index_fill_", indexFillFn<true>, false, true},
        {"index_put", indexPutFn<false>, true, true},
        {"index_put_", indexPutFn<true>, false, true},
        {"bincount", bincountFn, true, true},
    };
    registerOps(interp, &torch.globals, ops);
}

} // namespace kiln::torchapi
