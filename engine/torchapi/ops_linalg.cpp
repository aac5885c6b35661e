// SPDX-License-Identifier: MIT
// Matrix products: matmul (also the @ operator's method form), mm, bmm, addmm, einsum,
// outer/ger and dot.
#include "torchapi/bindings.h"

namespace kiln::torchapi {

using namespace kiln::lang;

namespace {

enum class Product : uint8_t { Matmul, Mm, Bmm, Outer, Ger, Dot, Vdot };

struct ProductEntry {
    Product kind;
    Signature sig;
};

Value productFn(Interpreter& interp, const CallArgs& args, void* data) {
    const ProductEntry& e = *static_cast<const ProductEntry*>(data);
    if (auto r = runOnDevice(interp, e.sig.name(), args)) return *r; // not via registerOps
    BoundArgs a = e.sig.bind(interp, args);
    Tensor x = a.toTensor(0), y = a.toTensor(1);
    Tensor r;
    switch (e.kind) {
    case Product::Matmul:
        r = tensor::matmul(x, y);
        break;
    case Product::Mm:
        r = tensor::mm(x, y);
        break;
    case Product::Bmm:
        r = tensor::bmm(x, y);
        break;
    case Product::Outer:
    case Product::Ger:
        r = tensor::outer(x, y);
        break;
    case Product::Dot:
    case Product::Vdot:
        r = tensor::dot(x, y);
        break;
    }
    return resultOrOut(a, 2, r);
}

std::span<const ProductEntry> productEntries() {
    static const ProductEntry entries[] = {
        {Product::Matmul, Signature("matmul(input, other, *, out=None)")},
        {Product::Mm, Signature("mm(input, mat2, *, out=None)")},
        {Product::Bmm, Signature("bmm(input, mat2, *, out=None)")},
        {Product::Outer, Signature("outer(input, vec2, *, out=None)")},
        {Product::Ger, Signature("ger(input, vec2, *, out=None)")},
        {Product::Dot, Signature("dot(input, tensor, *, out=None)")},
        {Product::Vdot, Signature("vdot(input, other, *, out=None)")},
    };
    return entries;
}

template <bool InPlace>
Value addmmFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(InPlace ? "addmm_(input, mat1, mat2, *, beta=1, alpha=1)"
                                       : "addmm(input, mat1, mat2, *, beta=1, alpha=1, out=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    Tensor r = tensor::addmm(InPlace ? inPlaceSource(x) : x, a.toTensor(1), a.toTensor(2),
                             scalarArg(a, 3), scalarArg(a, 4));
    if (InPlace) {
        assignInPlace(x, r);
        return a[0];
    }
    return resultOrOut(a, 5, r);
}

/// The add*-products of two operands: baddbmm, addbmm, addmv, addr and their in-place forms.
struct AddProductEntry {
    Tensor (*op)(const Tensor&, const Tensor&, const Tensor&, tensor::Scalar, tensor::Scalar);
    Signature sig;
    bool inPlace;
};

Value addProductFn(Interpreter& interp, const CallArgs& args, void* data) {
    const auto& e = *static_cast<const AddProductEntry*>(data);
    BoundArgs a = e.sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    Tensor r = e.op(e.inPlace ? inPlaceSource(x) : x, a.toTensor(1), a.toTensor(2), scalarArg(a, 3),
                    scalarArg(a, 4));
    if (e.inPlace) {
        assignInPlace(x, r);
        return a[0];
    }
    return resultOrOut(a, 5, r);
}

/// einsum(equation, *operands), also with the operands as one list.
Value einsumFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("einsum(equation, *operands)");
    BoundArgs a = sig.bind(interp, args);
    const std::string& equation = a.toStr(0);
    const auto& items = a[1].as<TupleObject>()->items;
    std::vector<Tensor> operands;
    if (items.size() == 1 && (items[0].is(ObjectKind::List) || items[0].is(ObjectKind::Tuple))) {
        for (const Value& v : interp.toVector(items[0])) {
            if (!v.isTensor())
                interp.raiseTypeError("einsum(): operands must be Tensors, not " +
                                      interp.typeName(v));
            operands.push_back(v.asTensor());
        }
    } else {
        for (const Value& v : items) {
            if (!v.isTensor())
                interp.raiseTypeError("einsum(): argument 'operands' must be tuple of Tensors, "
                                      "but found element of type " +
                                      interp.typeName(v));
            operands.push_back(v.asTensor());
        }
    }
    return tensorValue(tensor::einsum(equation, operands));
}

} // namespace

void installLinalgOps(Interpreter& interp, ModuleObject& torch) {
    AttrMap& tensorDict = builtinTypes().tensor->dict;
    for (const ProductEntry& e : productEntries()) {
        void* data = const_cast<ProductEntry*>(&e);
        interp.defineNative(torch.globals, e.sig.name(), productFn, data);
        interp.defineNative(tensorDict, e.sig.name(), productFn, data);
    }
    static const OpEntry ops[] = {
        {"addmm", addmmFn<false>, true, true},
        {"addmm_", addmmFn<true>, false, true},
        {"einsum", einsumFn, true, false},
    };
    registerOps(interp, &torch.globals, ops);
    static const AddProductEntry addProducts[] = {
        {tensor::baddbmm, Signature("baddbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None)"),
         false},
        {tensor::baddbmm, Signature("baddbmm_(input, batch1, batch2, *, beta=1, alpha=1)"), true},
        {tensor::addbmm, Signature("addbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None)"),
         false},
        {tensor::addbmm, Signature("addbmm_(input, batch1, batch2, *, beta=1, alpha=1)"), true},
        {tensor::addmv, Signature("addmv(input, mat, vec, *, beta=1, alpha=1, out=None)"), false},
        {tensor::addmv, Signature("addmv_(input, mat, vec, *, beta=1, alpha=1)"), true},
        {tensor::addr, Signature("addr(input, vec1, vec2, *, beta=1, alpha=1, out=None)"), false},
        {tensor::addr, Signature("addr_(input, vec1, vec2, *, beta=1, alpha=1)"), true},
    };
    std::vector<OpEntry> addOps;
    for (const AddProductEntry& e : addProducts)
        addOps.push_back({e.sig.name().c_str(), addProductFn, !e.inPlace, true,
                          const_cast<AddProductEntry*>(&e)});
    static const std::vector<OpEntry> addEntries = addOps;
    registerOps(interp, &torch.globals, addEntries);
}

} // namespace kiln::torchapi
