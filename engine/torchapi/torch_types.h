// SPDX-License-Identifier: MIT
/// \file
/// The small value types of the torch API as interpreter objects: torch.dtype, torch.device,
/// torch.Size (a tuple subclass), the named tuples of torch.return_types, and the grad_fn
/// placeholders tensors report. Plus the argument conversions every binding uses.
#pragma once

#include "lang/interpreter.h"
#include "lang/native_types.h"
#include "tensor/tensor.h"

namespace kiln::torchapi {

using lang::Interpreter;
using lang::Value;

struct TorchTypes {
    Ref<lang::TypeObject> dtype, device, size, gradFn, generator;
};
const TorchTypes& torchTypes();

using lang::dtypeValue; // torch.float32 etc., one object per dtype (lang/native_types.h)
/// Any torch.dtype object, those Kiln does not support included.
bool isDType(const Value& v);
/// The dtype of a torch.dtype (or of float, int, bool); TypeError for other values and
/// NotImplementedError for a dtype Kiln does not support (torch.complex64, ...).
tensor::DType dtypeOf(Interpreter& interp, const Value& v, const std::string& what);
/// None or a torch.dtype.
std::optional<tensor::DType> optDType(Interpreter& interp, const Value& v, const std::string& what);

/// The legacy tensor type name of a dtype ("torch.FloatTensor"), as Tensor.type() and
/// torch.typename() report it.
std::string_view legacyTypeName(tensor::DType dtype);
/// The dtype of a legacy type name ("torch.LongTensor"); nullopt for other strings.
std::optional<tensor::DType> dtypeOfLegacyName(std::string_view name);

Value deviceValue(const tensor::Device& device);
/// A torch.device, "cpu"/"cuda"/"cuda:1", or an int (a CUDA index).
tensor::Device deviceOf(Interpreter& interp, const Value& v);

/// torch.Size(sizes)
Value sizeValue(tensor::IntList sizes);

/// A named-tuple type of torch.return_types (max, sort, topk, ...): a tuple subclass whose
/// fields are also attributes, printed as torch.return_types.max(values=..., indices=...).
/// Bindings keep one as a static and make instances per call.
class ReturnType {
public:
    ReturnType(const std::string& name, const std::vector<std::string>& fields);
    Value make(std::vector<Value> items) const;

private:
    Ref<lang::TypeObject> m_type;
};

/// The object `tensor.grad_fn` returns: prints as <AddBackward0 object at 0x...>.
Value gradFnValue(const tensor::Tensor& t);

/// Sizes given either as varargs (zeros(2, 3)) or as one sequence (zeros((2, 3))).
std::vector<int64_t> sizesFromArgs(Interpreter& interp, const std::vector<Value>& args,
                                   const std::string& fn);

using lang::makeNativeType;

/// torch.complex64, torch.cfloat, torch.float8_e4m3fn, torch.uint16, torch.qint8, ...
/// (unsupported_dtypes.cpp).
void installUnsupportedDTypes(lang::AttrMap& torch);
/// The unsupported dtype `v` is; nullptr for any other value.
const lang::UnsupportedDType* unsupportedDTypeOf(const Value& v);
[[noreturn]] void raiseUnsupportedDType(Interpreter& interp, const lang::UnsupportedDType& d);

void installTorchTypes(Interpreter& interp, lang::ModuleObject& torch);

} // namespace kiln::torchapi
