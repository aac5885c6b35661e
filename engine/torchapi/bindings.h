// SPDX-License-Identifier: MIT
/// \file
/// Helpers shared by the torch bindings. Each op is one NativeFn that parses its arguments with
/// a lang::Signature written exactly as PyTorch documents it, and is registered as a torch
/// function, a Tensor method, or both (the method receives the tensor as `input`/`self`).
#pragma once

#include "lang/signature.h"
#include "lang/tensor_bridge.h"
#include "tensor/ops.h"
#include "torchapi/torch_types.h"

#include <span>

namespace kiln::torchapi {

using lang::BoundArgs;
using lang::CallArgs;
using lang::Signature;
using tensor::Tensor;

struct OpEntry {
    const char* name;
    lang::NativeFn fn;
    bool function; ///< torch.<name>
    bool method;   ///< Tensor.<name>
};

/// Registers each entry into the torch module namespace and/or the Tensor type.
void registerOps(Interpreter& interp, lang::AttrMap* torchModule, std::span<const OpEntry> ops);

/// A property of Tensor computed by `getter` (and optionally assignable through `setter`).
void defineTensorProperty(Interpreter& interp, const char* name, lang::NativeFn getter,
                          lang::NativeFn setter = nullptr);

inline Value tensorValue(Tensor t) {
    return Value(t);
}

/// `dim` arguments: None (all dims), an int, or a sequence of ints.
std::vector<int64_t> dimsArg(const BoundArgs& a, size_t i);
/// A tensor operand that may also be a Python number (torch.add(x, 2), torch.where(c, x, 0.)).
Tensor tensorOrNumber(const BoundArgs& a, size_t i);
/// Python value for a Scalar (item(), tolist()).
Value scalarValue(const tensor::Scalar& s);

/// Registration entry points, one per binding file.
void installTensorCreation(Interpreter& interp, lang::ModuleObject& torch);
void installTensorOps(Interpreter& interp, lang::ModuleObject& torch);
void installTensorAttributes(Interpreter& interp, lang::ModuleObject& torch);
void installTorchModule(Interpreter& interp, lang::ModuleObject& torch);

} // namespace kiln::torchapi
