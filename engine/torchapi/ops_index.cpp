// SPDX-License-Identifier: MIT
// Selection ops: gather, index_select, masked_select, nonzero (and as_tuple), topk, sort and
// argsort. Subscript indexing (t[...]) lives in lang/tensor_bridge.
#include "torchapi/bindings.h"

namespace kiln::torchapi {

using namespace kiln::lang;

namespace {

Value gatherFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("gather(input, dim, index, *, sparse_grad=False, out=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor r = tensor::gather(a.toTensor(0), a.toInt(1), a.toTensor(2));
    return resultOrOut(a, 4, r);
}

Value indexSelectFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("index_select(input, dim, index, *, out=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor r = tensor::indexSelect(a.toTensor(0), a.toInt(1), a.toTensor(2));
    return resultOrOut(a, 3, r);
}

Value maskedSelectFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("masked_select(input, mask, *, out=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor r = tensor::maskedSelect(a.toTensor(0), a.toTensor(1));
    return resultOrOut(a, 2, r);
}

Value nonzeroFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("nonzero(input, *, out=None, as_tuple=False)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    if (a.toBool(2)) {
        // A 0-dim input counts as 1-d, as PyTorch's as_tuple form does.
        Tensor nz = tensor::nonzero(x.dim() == 0 ? tensor::unsqueeze(x, 0) : x);
        std::vector<Tensor> columns;
        for (int64_t d = 0; d < nz.size(1); ++d)
            columns.push_back(tensor::contiguous(tensor::select(nz, 1, d)));
        return tensorTuple(columns);
    }
    Tensor r = tensor::nonzero(x);
    return resultOrOut(a, 1, r);
}

Value topkFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("topk(input, k, dim=-1, largest=True, sorted=True, *, out=None)");
    static const ReturnType type("topk", {"values", "indices"});
    BoundArgs a = sig.bind(interp, args);
    auto [values, indices] =
        tensor::topk(a.toTensor(0), a.toInt(1), a.toInt(2), a.toBool(3), a.toBool(4));
    return type.make({tensorValue(values), tensorValue(indices)});
}

/// sort(input, dim=-1, descending=False, stable=False): Kiln's sort is always stable, which is
/// one of the orders PyTorch may return for stable=False.
Value sortFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("sort(input, dim=-1, descending=False, stable=False, *, out=None)");
    static const ReturnType type("sort", {"values", "indices"});
    BoundArgs a = sig.bind(interp, args);
    auto [values, indices] = tensor::sort(a.toTensor(0), a.toInt(1), a.toBool(2));
    return type.make({tensorValue(values), tensorValue(indices)});
}

Value argsortFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("argsort(input, dim=-1, descending=False, stable=False)");
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(tensor::sort(a.toTensor(0), a.toInt(1), a.toBool(2)).second);
}

/// unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None) and
/// unique_consecutive(input, return_inverse=False, return_counts=False, dim=None): the values,
/// then the inverse and the counts when asked for (CPU sorts even with sorted=False).
template <bool Consecutive>
Value uniqueFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(
        Consecutive
            ? "unique_consecutive(input, return_inverse=False, return_counts=False, dim=None)"
            : "unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None)");
    BoundArgs a = sig.bind(interp, args);
    const size_t flags = Consecutive ? 1 : 2;
    const bool inverse = a.toBool(flags), counts = a.toBool(flags + 1);
    tensor::UniqueResult r = tensor::unique(a.toTensor(0), a.optInt(flags + 2), Consecutive);
    if (!inverse && !counts) return tensorValue(r.values);
    std::vector<Tensor> parts{r.values};
    if (inverse) parts.push_back(r.inverse);
    if (counts) parts.push_back(r.counts);
    return tensorTuple(parts);
}

} // namespace

void installIndexOps(Interpreter& interp, ModuleObject& torch) {
    static const OpEntry ops[] = {
        {"gather", gatherFn, true, true},
        {"index_select", indexSelectFn, true, true},
        {"masked_select", maskedSelectFn, true, true},
        {"nonzero", nonzeroFn, true, true},
        {"topk", topkFn, true, true},
        {"sort", sortFn, true, true},
        {"argsort", argsortFn, true, true},
        {"unique", uniqueFn<false>, true, true},
        {"unique_consecutive", uniqueFn<true>, true, true},
    };
    registerOps(interp, &torch.globals, ops);
}

} // namespace kiln::torchapi
