// SPDX-License-Identifier: MIT
// Views and shape ops: view (sizes or dtype), reshape, permute, transpose/swapaxes, t,
// unsqueeze/squeeze, expand, flatten/unflatten, the *_as forms, cat/stack, split/chunk,
// narrow, unbind, repeat, flip, roll, movedim and diagonal.
#include "tensor/grad_node.h"
#include "torchapi/bindings.h"

#include <algorithm>

namespace kiln::torchapi {

using namespace kiln::lang;

namespace {

[[noreturn]] void failRuntime(Interpreter& interp, const std::string& message) {
    interp.raise(builtinTypes().runtimeError.get(), message);
}

/// x.view(dtype): the same bytes read as another element type. With a different element size
/// the last dimension is rescaled, which needs it contiguous and divisible (PyTorch's checks).
Tensor viewAsDType(Interpreter& interp, const Tensor& x, tensor::DType dtype) {
    int64_t from = tensor::itemSize(x.dtype()), to = tensor::itemSize(dtype);
    if (from == to) return Tensor::view(x.storage(), x.offset(), x.sizes(), x.strides(), dtype);
    std::string what = " to view " + std::string(tensor::dtypeLegacyName(x.dtype())) + " as " +
                       std::string(tensor::dtypeLegacyName(dtype)) + " (different element sizes)";
    if (x.dim() == 0) failRuntime(interp, "self.dim() cannot be 0" + what);
    if (x.stride(-1) != 1)
        failRuntime(interp, "self.stride(-1) must be 1" + what + ", but got " +
                                std::to_string(x.stride(-1)));
    tensor::DimVector sizes = x.sizes(), strides = x.strides();
    int64_t last = x.dim() - 1;
    if (from > to) {
        int64_t ratio = from / to;
        sizes[last] *= ratio;
        for (int64_t d = 0; d < last; ++d)
            strides[d] *= ratio;
        return Tensor::view(x.storage(), x.offset() * ratio, sizes, strides, dtype);
    }
    int64_t ratio = to / from;
    if (sizes[last] % ratio != 0)
        failRuntime(interp, "self.size(-1) must be divisible by " + std::to_string(ratio) + what +
                                ", but got " + std::to_string(sizes[last]));
    if (x.offset() % ratio != 0)
        failRuntime(interp, "self.storage_offset() must be divisible by " + std::to_string(ratio) +
                                what + ", but got " + std::to_string(x.offset()));
    for (int64_t d = 0; d < last; ++d) {
        if (strides[d] % ratio != 0)
            failRuntime(interp, "self.stride(" + std::to_string(d) + ") must be divisible by " +
                                    std::to_string(ratio) + what + ", but got " +
                                    std::to_string(strides[d]));
        strides[d] /= ratio;
    }
    sizes[last] /= ratio;
    return Tensor::view(x.storage(), x.offset() / ratio, sizes, strides, dtype);
}

Value viewFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("view(input, *size)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    const auto& items = a[1].as<TupleObject>()->items;
    if (items.size() == 1 && isDType(items[0]))
        return tensorValue(viewAsDType(interp, x, dtypeOf(interp, items[0], "view()")));
    return tensorValue(tensor::view(x, varSizes(a, 1)));
}

Value reshapeFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("reshape(input, *shape)");
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(tensor::reshape(a.toTensor(0), varSizes(a, 1)));
}

Value permuteFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("permute(input, *dims)");
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(tensor::permute(a.toTensor(0), varSizes(a, 1)));
}

Value transposeFn(Interpreter& interp, const CallArgs& args, void* data) {
    // transpose(input, dim0, dim1), swapdims(input, dim0, dim1), swapaxes(input, axis0, axis1)
    static const Signature transposeSig("transpose(input, dim0, dim1)");
    static const Signature swapdimsSig("swapdims(input, dim0, dim1)");
    static const Signature swapaxesSig("swapaxes(input, axis0, axis1)");
    int kind = static_cast<int>(reinterpret_cast<intptr_t>(data));
    const Signature& sig = kind == 0 ? transposeSig : kind == 1 ? swapdimsSig : swapaxesSig;
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(tensor::transpose(a.toTensor(0), a.toInt(1), a.toInt(2)));
}

Value tFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("t(input)");
    return tensorValue(tensor::t(sig.bind(interp, args).toTensor(0)));
}

Value unsqueezeFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("unsqueeze(input, dim)");
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(tensor::unsqueeze(a.toTensor(0), a.toInt(1)));
}

Value squeezeFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("squeeze(input, dim=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor r = tensor::squeeze(a.toTensor(0), dimsArg(a, 1));
    // squeeze(dims) with a sequence is a separate overload with its own autograd node.
    if ((a[1].is(ObjectKind::Tuple) || a[1].is(ObjectKind::List)) && r.requiresGrad() &&
        !r.gradFn().empty())
        tensor::renameGradFn(r, "SqueezeBackward2");
    return tensorValue(r);
}

Value expandFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("expand(input, *size)");
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(tensor::expand(a.toTensor(0), varSizes(a, 1)));
}

Value broadcastToFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("broadcast_to(input, size)");
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(tensor::expand(a.toTensor(0), a.toIntList(1)));
}

template <int Kind> // 0 expand_as, 1 view_as, 2 reshape_as
Value asOtherFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(Kind == 0   ? "expand_as(input, other)"
                               : Kind == 1 ? "view_as(input, other)"
                                           : "reshape_as(input, other)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    const tensor::DimVector& sizes = a.toTensor(1).sizes();
    return tensorValue(Kind == 0   ? tensor::expand(x, sizes)
                       : Kind == 1 ? tensor::view(x, sizes)
                                   : tensor::reshape(x, sizes));
}

Value flattenFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("flatten(input, start_dim=0, end_dim=-1)");
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(tensor::flatten(a.toTensor(0), a.toInt(1), a.toInt(2)));
}

Value unflattenFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("unflatten(input, dim, sizes)");
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(tensor::unflatten(a.toTensor(0), a.toInt(1), a.toIntList(2)));
}

Value catFn(Interpreter& interp, const CallArgs& args, void* data) {
    static const Signature catSig("cat(tensors, dim=0, *, out=None)");
    static const Signature concatSig("concat(tensors, dim=0, *, out=None)");
    static const Signature concatenateSig("concatenate(tensors, axis=0, *, out=None)");
    int kind = static_cast<int>(reinterpret_cast<intptr_t>(data));
    const Signature& sig = kind == 0 ? catSig : kind == 1 ? concatSig : concatenateSig;
    BoundArgs a = sig.bind(interp, args);
    Tensor r = tensor::cat(tensorListArg(a, 0), a.toInt(1));
    return resultOrOut(a, 2, r);
}

Value stackFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("stack(tensors, dim=0, *, out=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor r = tensor::stack(tensorListArg(a, 0), a.toInt(1));
    return resultOrOut(a, 2, r);
}

/// torch.hstack / vstack / row_stack / dstack / column_stack: cat after raising each tensor to
/// the rank the stacking needs (PyTorch's atleast_1d/2d/3d; column_stack makes 0-D and 1-D
/// tensors columns).
enum class StackKind { H, V, D, Column };

Tensor atLeast(const Tensor& x, StackKind kind) {
    using tensor::unsqueeze;
    const int64_t r = x.dim();
    switch (kind) {
    case StackKind::H:
        return r == 0 ? unsqueeze(x, 0) : x;
    case StackKind::V:
        return r == 0 ? unsqueeze(unsqueeze(x, 0), 0) : r == 1 ? unsqueeze(x, 0) : x;
    case StackKind::D:
        if (r == 0) return unsqueeze(unsqueeze(unsqueeze(x, 0), 0), 0);
        if (r == 1) return unsqueeze(unsqueeze(x, 0), 2);
        return r == 2 ? unsqueeze(x, 2) : x;
    case StackKind::Column:
        return r == 0 ? unsqueeze(unsqueeze(x, 0), 0) : r == 1 ? unsqueeze(x, 1) : x;
    }
    return x;
}

Value stackFamilyFn(Interpreter& interp, const CallArgs& args, void* data) {
    static const Signature hSig("hstack(tensors, *, out=None)");
    static const Signature vSig("vstack(tensors, *, out=None)");
    static const Signature rowSig("row_stack(tensors, *, out=None)");
    static const Signature dSig("dstack(tensors, *, out=None)");
    static const Signature columnSig("column_stack(tensors, *, out=None)");
    const auto which = static_cast<int>(reinterpret_cast<intptr_t>(data));
    const Signature* sigs[] = {&hSig, &vSig, &rowSig, &dSig, &columnSig};
    const StackKind kinds[] = {StackKind::H, StackKind::V, StackKind::V, StackKind::D,
                               StackKind::Column};
    BoundArgs a = sigs[which]->bind(interp, args);
    const StackKind kind = kinds[which];
    std::vector<Tensor> items = tensorListArg(a, 0);
    if (items.empty())
        interp.raise(builtinTypes().runtimeError.get(),
                     sigs[which]->name() + " expects a non-empty TensorList");
    for (Tensor& t : items)
        t = atLeast(t, kind);
    int64_t dim = kind == StackKind::V ? 0 : kind == StackKind::D ? 2 : 1;
    if (kind == StackKind::H && items[0].dim() == 1) dim = 0;
    return resultOrOut(a, 1, tensor::cat(items, dim));
}

/// torch.split(tensor, split_size_or_sections, dim=0) and Tensor.split(split_size, dim=0):
/// an int gives equal chunks, a list gives those sizes.
Value splitFn(Interpreter& interp, const CallArgs& args, void* data) {
    static const Signature fnSig("split(tensor, split_size_or_sections, dim=0)");
    static const Signature methodSig("split(input, split_size, dim=0)");
    const Signature& sig = data ? methodSig : fnSig;
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    int64_t dim = a.toInt(2);
    if (a[1].is(ObjectKind::List) || a[1].is(ObjectKind::Tuple))
        return tensorTuple(tensor::splitWithSizes(x, a.toIntList(1), dim));
    return tensorTuple(tensor::split(x, a.toInt(1), dim));
}

Value chunkFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("chunk(input, chunks, dim=0)");
    BoundArgs a = sig.bind(interp, args);
    return tensorTuple(tensor::chunk(a.toTensor(0), a.toInt(1), a.toInt(2)));
}

Value narrowFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("narrow(input, dim, start, length)");
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(tensor::narrow(a.toTensor(0), a.toInt(1), a.toInt(2), a.toInt(3)));
}

Value unbindFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("unbind(input, dim=0)");
    BoundArgs a = sig.bind(interp, args);
    return tensorTuple(tensor::unbind(a.toTensor(0), a.toInt(1)));
}

Value repeatFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("repeat(input, *repeats)");
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(tensor::repeat(a.toTensor(0), varSizes(a, 1)));
}

/// The index [0, 0, 1, 2, 2, ...] that repeats position i counts[i] times.
Tensor repeatIndex(Interpreter& interp, const Tensor& counts) {
    if (counts.dim() > 1 || tensor::isFloating(counts.dtype()))
        failRuntime(interp, "repeat_interleave only accept 1D vector as repeat");
    Tensor c = tensor::contiguous(tensor::toDType(counts, tensor::DType::Int64));
    const int64_t* n = c.data<int64_t>();
    std::vector<tensor::Scalar> index;
    for (int64_t i = 0; i < c.numel(); ++i) {
        if (n[i] < 0) failRuntime(interp, "repeats can not be negative");
        index.insert(index.end(), static_cast<size_t>(n[i]), tensor::Scalar(i));
    }
    const int64_t size[] = {static_cast<int64_t>(index.size())};
    return tensor::fromScalars(index, size, tensor::DType::Int64);
}

/// repeat_interleave(input, repeats, dim=None): an int repeats each element along dim (the
/// flattened input without dim); a tensor gives a count per element.
Value repeatInterleaveFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("repeat_interleave(input, repeats=None, dim=None, *, "
                               "output_size=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    if (!a.has(1)) return tensorValue(repeatIndex(interp, x));
    int64_t dim = 0;
    if (a.has(2))
        dim = tensor::wrapDim(a.toInt(2), std::max<int64_t>(x.dim(), 1));
    else
        x = tensor::flatten(x, 0, -1);
    if (a[1].isTensor() && a[1].asTensor().numel() != 1) {
        Tensor counts = a[1].asTensor();
        if (counts.numel() != x.size(dim))
            failRuntime(interp, "repeats must have the same size as input along dim, but got "
                                "repeats.size(0) = " +
                                    std::to_string(counts.numel()) + " and input.size(" +
                                    std::to_string(dim) + ") = " + std::to_string(x.size(dim)));
        return tensorValue(tensor::indexSelect(x, dim, repeatIndex(interp, counts)));
    }
    int64_t repeats = a[1].isTensor() ? tensor::item(a[1].asTensor()).toInt() : a.toInt(1);
    if (repeats < 0) failRuntime(interp, "Repeats must be non-negative");
    Tensor r;
    {
        NoGradScope noGrad;
        Tensor u = tensor::unsqueeze(x.dim() == 0 ? tensor::unsqueeze(x, 0) : x, dim + 1);
        tensor::DimVector sizes = u.sizes();
        sizes[static_cast<size_t>(dim + 1)] = repeats;
        r = tensor::flatten(tensor::contiguous(tensor::expand(u, sizes)), dim, dim + 1);
    }
    tensor::recordGradFn(r, "ViewBackward0", {&x});
    return tensorValue(r);
}

Value flipFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("flip(input, *dims)");
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(tensor::flip(a.toTensor(0), varSizes(a, 1)));
}

Value rollFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("roll(input, shifts, dims=None)");
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(tensor::roll(a.toTensor(0), a.toIntList(1), dimsArg(a, 2)));
}

std::string dimsText(const std::vector<int64_t>& dims) {
    std::string s = "[";
    for (size_t i = 0; i < dims.size(); ++i)
        s += (i ? ", " : "") + std::to_string(dims[i]);
    return s + "]";
}

/// movedim(input, source, destination) with ints or sequences: the moved dims land at their
/// destinations, the others keep their order.
Value movedimFn(Interpreter& interp, const CallArgs& args, void* data) {
    static const Signature movedimSig("movedim(input, source, destination)");
    static const Signature moveaxisSig("moveaxis(input, source, destination)");
    BoundArgs a = (data ? moveaxisSig : movedimSig).bind(interp, args);
    Tensor x = a.toTensor(0);
    std::vector<int64_t> src = a.toIntList(1), dst = a.toIntList(2);
    if (src.size() != dst.size())
        failRuntime(interp, "movedim: Invalid source or destination dims: source (" +
                                dimsText(src) +
                                " dims) should contain the same number of dims "
                                "as destination (" +
                                dimsText(dst) + " dims)");
    int64_t rank = x.dim();
    std::vector<int64_t> order(static_cast<size_t>(rank), -1);
    std::vector<bool> used(static_cast<size_t>(rank), false);
    for (size_t i = 0; i < src.size(); ++i) {
        int64_t s = tensor::wrapDim(src[i], std::max<int64_t>(rank, 1));
        int64_t d = tensor::wrapDim(dst[i], std::max<int64_t>(rank, 1));
        if (rank == 0) continue;
        if (used[static_cast<size_t>(s)])
            failRuntime(interp, "movedim: repeated dim in `source` (" + dimsText(src) + ")");
        if (order[static_cast<size_t>(d)] >= 0)
            failRuntime(interp, "movedim: repeated dim in `destination` (" + dimsText(dst) + ")");
        order[static_cast<size_t>(d)] = s;
        used[static_cast<size_t>(s)] = true;
    }
    int64_t next = 0;
    for (int64_t& o : order) {
        if (o >= 0) continue;
        while (used[static_cast<size_t>(next)])
            ++next;
        o = next++;
    }
    return tensorValue(rank == 0 ? tensor::alias(x) : tensor::permute(x, order));
}

Value diagonalFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("diagonal(input, offset=0, dim1=0, dim2=1)");
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(tensor::diagonal(a.toTensor(0), a.toInt(1), a.toInt(2), a.toInt(3)));
}

} // namespace

void installShapeOps(Interpreter& interp, ModuleObject& torch) {
    static const auto tag = [](intptr_t i) { return reinterpret_cast<void*>(i); };
    static const OpEntry ops[] = {
        {"view", viewFn, false, true},
        {"reshape", reshapeFn, true, true},
        {"permute", permuteFn, true, true},
        {"transpose", transposeFn, true, true, tag(0)},
        {"swapdims", transposeFn, true, true, tag(1)},
        {"swapaxes", transposeFn, true, true, tag(2)},
        {"t", tFn, true, true},
        {"unsqueeze", unsqueezeFn, true, true},
        {"squeeze", squeezeFn, true, true},
        {"expand", expandFn, false, true},
        {"broadcast_to", broadcastToFn, true, true},
        {"expand_as", asOtherFn<0>, false, true},
        {"view_as", asOtherFn<1>, false, true},
        {"reshape_as", asOtherFn<2>, false, true},
        {"flatten", flattenFn, true, true},
        {"unflatten", unflattenFn, true, true},
        {"cat", catFn, true, false, tag(0)},
        {"concat", catFn, true, false, tag(1)},
        {"concatenate", catFn, true, false, tag(2)},
        {"stack", stackFn, true, false},
        {"hstack", stackFamilyFn, true, false, tag(0)},
        {"vstack", stackFamilyFn, true, false, tag(1)},
        {"row_stack", stackFamilyFn, true, false, tag(2)},
        {"dstack", stackFamilyFn, true, false, tag(3)},
        {"column_stack", stackFamilyFn, true, false, tag(4)},
        {"split", splitFn, true, false, tag(0)},
        {"split", splitFn, false, true, tag(1)},
        {"chunk", chunkFn, true, true},
        {"narrow", narrowFn, true, true},
        {"unbind", unbindFn, true, true},
        {"repeat", repeatFn, false, true},
        {"repeat_interleave", repeatInterleaveFn, true, true},
        {"flip", flipFn, true, true},
        {"roll", rollFn, true, true},
        {"movedim", movedimFn, true, true, tag(0)},
        {"moveaxis", movedimFn, true, true, tag(1)},
        {"diagonal", diagonalFn, true, true},
    };
    registerOps(interp, &torch.globals, ops);
}

} // namespace kiln::torchapi
