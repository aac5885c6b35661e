// SPDX-License-Identifier: MIT
/// \file
/// Helpers shared by the torch bindings. Each op is one NativeFn that parses its arguments with
/// a lang::Signature written exactly as PyTorch documents it, and is registered as a torch
/// function, a Tensor method, or both (the method receives the tensor as `input`/`self`).
///
/// Families of similar ops (the unary math functions, the binary arithmetic, their in-place
/// forms) share one NativeFn and a table of entries; the entry travels as the `data` pointer.
/// The binding files are split by area, each with its own install function declared here.
#pragma once

#include "lang/signature.h"
#include "lang/tensor_bridge.h"
#include "tensor/ops.h"
#include "torchapi/torch_types.h"

#include <optional>
#include <span>
#include <string_view>

namespace kiln::torchapi {

using lang::BoundArgs;
using lang::CallArgs;
using lang::Signature;
using tensor::Tensor;

struct OpEntry {
    const char* name;
    lang::NativeFn fn;
    bool function;        ///< torch.<name>
    bool method;          ///< Tensor.<name>
    void* data = nullptr; ///< passed to fn (the table entry of a family of ops)
};

/// Registers each entry into the torch module namespace and/or the Tensor type. Unless the op
/// only reads metadata or moves data between devices itself, its tensor operands are checked
/// first (one device; no device tensors for CPU kernels). Entries must live for the process.
void registerOps(Interpreter& interp, lang::AttrMap* torchModule, std::span<const OpEntry> ops);

/// The one check at op dispatch: operands on different devices are PyTorch's RuntimeError, and
/// device operands go to the eager device ops (lang/device_ops.h), so no CPU kernel ever sees a
/// device pointer. Returns the op's result when it ran on the device, nullopt for host
/// operands. registerOps makes the check; natives registered otherwise call it first.
std::optional<Value> runOnDevice(Interpreter& interp, std::string_view op, const CallArgs& args,
                                 bool method = false);

/// A property of Tensor computed by `getter` (and optionally assignable through `setter`).
void defineTensorProperty(Interpreter& interp, const char* name, lang::NativeFn getter,
                          lang::NativeFn setter = nullptr);

inline Value tensorValue(Tensor t) {
    return Value(t);
}

/// A tuple of tensors (split, chunk, unbind, nonzero(as_tuple=True)).
Value tensorTuple(const std::vector<Tensor>& tensors);

/// `dim` arguments: None (all dims), an int, or a sequence of ints.
std::vector<int64_t> dimsArg(const BoundArgs& a, size_t i);
/// A tensor operand that may also be a Python number (torch.add(x, 2), torch.where(c, x, 0.)).
Tensor tensorOrNumber(const BoundArgs& a, size_t i);
/// A Python number argument (fill values, clamp bounds given as numbers); a one-element
/// tensor is accepted as PyTorch accepts it for Scalar parameters.
tensor::Scalar scalarArg(const BoundArgs& a, size_t i);
/// Python value for a Scalar (item(), tolist()).
Value scalarValue(const tensor::Scalar& s);
/// A list or tuple of tensors (cat, stack, einsum operands).
std::vector<Tensor> tensorListArg(const BoundArgs& a, size_t i);
/// Sizes given as varargs or as one sequence, from a `*size` parameter (view, reshape, expand).
std::vector<int64_t> varSizes(const BoundArgs& a, size_t i);

/// A new uninitialised tensor shaped like `t`, keeping t's memory layout when t is dense and
/// non-overlapping (a transposed or permuted tensor), as PyTorch's preserve_format does for
/// clone() and the *_like factories; contiguous otherwise.
Tensor emptyLike(const Tensor& t, tensor::DType dtype);

/// Writes `result` into `self` as an in-place op does: self keeps its dtype and shape (the
/// RuntimeErrors of PyTorch when the result cannot be cast or broadcast back), and takes over
/// the result's autograd node.
void assignInPlace(const Tensor& self, const Tensor& result);
/// What an in-place op computes its result from before assignInPlace: `x` itself, or when x
/// has autograd history and grad mode is on, a copy of its values that carries that history
/// (x's grad_fn). The op's node then reads the values as they were and does not hold x, which
/// takes the node after the write (holding x was a reference cycle, and a false "modified by
/// an inplace operation" error at backward).
Tensor inPlaceSource(const Tensor& x);
/// `result`, or, when the `out=` argument at `outIndex` was given, that tensor with the result
/// written into it (resized first when its shape differs, as PyTorch does).
Value resultOrOut(const BoundArgs& a, size_t outIndex, const Tensor& result);

/// Turns grad mode off for a scope, so an op built from several tensor ops records only the
/// node PyTorch shows for it.
class NoGradScope {
public:
    NoGradScope()
        : m_previous(tensor::gradModeEnabled()) {
        tensor::setGradModeEnabled(false);
    }
    ~NoGradScope() { tensor::setGradModeEnabled(m_previous); }
    NoGradScope(const NoGradScope&) = delete;
    NoGradScope& operator=(const NoGradScope&) = delete;

private:
    bool m_previous;
};

/// Registration entry points, one per binding file.
void installTensorCreation(Interpreter& interp, lang::ModuleObject& torch);
void installTensorAttributes(Interpreter& interp, lang::ModuleObject& torch);
/// Tensor.backward() and `.grad` (autograd_bindings.cpp).
void installAutograd(Interpreter& interp, lang::ModuleObject& torch);
/// The engine entry points torch.autograd calls, in torch._kiln.
void installAutogradInternals(Interpreter& interp, lang::ModuleObject& kiln);
/// torch._kiln._function_node, the node of torch.autograd.Function (autograd_function.cpp).
void installAutogradFunction(Interpreter& interp, lang::ModuleObject& kiln);
void installPointwiseOps(Interpreter& interp, lang::ModuleObject& torch);
void installTernaryOps(Interpreter& interp, lang::ModuleObject& torch);
void installReduceOps(Interpreter& interp, lang::ModuleObject& torch);
void installShapeOps(Interpreter& interp, lang::ModuleObject& torch);
void installIndexOps(Interpreter& interp, lang::ModuleObject& torch);
void installScatterOps(Interpreter& interp, lang::ModuleObject& torch);
void installLinalgOps(Interpreter& interp, lang::ModuleObject& torch);
void installInPlaceOps(Interpreter& interp, lang::ModuleObject& torch);
void installTorchModule(Interpreter& interp, lang::ModuleObject& torch);
void installDTypeInfo(Interpreter& interp, lang::ModuleObject& torch);

} // namespace kiln::torchapi
