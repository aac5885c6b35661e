// SPDX-License-Identifier: MIT
/// \file
/// Native types of the torch API that layers below `torchapi/` need as well: torch.dtype
/// objects are constants of captured graphs, which the compiler reads. They are created here
/// (as torch.Tensor is in types.h); the torch bindings give them their methods.
#pragma once

#include "lang/objects.h"
#include "tensor/dtype.h"

#include <optional>
#include <string>

namespace kiln::lang {

/// Creates a type implemented in C++ in module `moduleName` (torch.dtype, torch.device, ...).
Ref<TypeObject> makeNativeType(const std::string& name, const std::string& moduleName,
                               ObjectKind instanceKind = ObjectKind::Native,
                               Ref<TypeObject> base = {});

/// A dtype of PyTorch's that Kiln has no tensors of (complex, float8, uint16, quantised, ...):
/// its torch.dtype object exists so that scripts can name, compare and inspect it; asking for
/// a tensor of it raises NotImplementedError (torchapi's dtypeOf).
struct UnsupportedDType {
    const char* name; ///< as printed after "torch.": "complex64"
    int64_t itemSize;
    bool floating;
    bool complex;
    /// "signed", "unsigned", or the RuntimeError message PyTorch 2.3 gives for is_signed.
    const char* signedness;
};

class DTypeObject final : public NativeObject {
public:
    DTypeObject(TypeObject* type, tensor::DType d)
        : NativeObject(type)
        , dtype(d) {}
    DTypeObject(TypeObject* type, const UnsupportedDType* u)
        : NativeObject(type)
        , unsupported(u) {}
    tensor::DType dtype = tensor::DType::Float32; ///< meaningless when unsupported
    const UnsupportedDType* unsupported = nullptr;
};

/// The type torch.dtype.
const Ref<TypeObject>& dtypeType();
/// torch.float32 etc.: one object per dtype, so `x.dtype is torch.float32` holds.
Value dtypeValue(tensor::DType dtype);
/// The dtype of a torch.dtype object; nullopt for any other value and for the dtypes Kiln
/// does not support.
std::optional<tensor::DType> dtypeOfValue(const Value& v);

} // namespace kiln::lang
