// SPDX-License-Identifier: MIT
// The torch.dtype objects of the dtypes Kiln has no tensors of: complex, float8, the unsigned
// types wider than uint8 and narrower than a byte, the bit types and the quantised types.
// Scripts test for them (hasattr(torch, "complex64"), x.dtype == torch.cfloat) far more often
// than they compute with them, so the objects exist with PyTorch 2.3.1's names and
// attributes; dtypeOf raises NotImplementedError when one is asked to make a tensor.
#include "torchapi/torch_types.h"

namespace kiln::torchapi {

using namespace kiln::lang;

namespace {

constexpr const char* kUnknown = "Unknown ScalarType";
constexpr const char* kBits = "Bits types are undefined";
constexpr const char* kQuantised = "isSignedType not supported for quantized types";

/// PyTorch 2.3.1's list (2.11 adds int1..int7, float8_e8m0fnu and float4_e2m1fn_x2).
constexpr UnsupportedDType kUnsupported[] = {
    {"complex32", 4, false, true, "signed"},
    {"complex64", 8, false, true, "signed"},
    {"complex128", 16, false, true, "signed"},
    {"float8_e4m3fn", 1, true, false, "signed"},
    {"float8_e4m3fnuz", 1, true, false, "signed"},
    {"float8_e5m2", 1, true, false, "signed"},
    {"float8_e5m2fnuz", 1, true, false, "signed"},
    {"uint16", 2, false, false, kUnknown},
    {"uint32", 4, false, false, kUnknown},
    {"uint64", 8, false, false, kUnknown},
    {"uint1", 1, false, false, kUnknown},
    {"uint2", 1, false, false, kUnknown},
    {"uint3", 1, false, false, kUnknown},
    {"uint4", 1, false, false, kUnknown},
    {"uint5", 1, false, false, kUnknown},
    {"uint6", 1, false, false, kUnknown},
    {"uint7", 1, false, false, kUnknown},
    {"bits1x8", 1, false, false, kBits},
    {"bits2x4", 1, false, false, kBits},
    {"bits4x2", 1, false, false, kBits},
    {"bits8", 1, false, false, kBits},
    {"bits16", 2, false, false, kBits},
    {"qint8", 1, false, false, kQuantised},
    {"quint8", 1, false, false, kQuantised},
    {"qint32", 4, false, false, kQuantised},
    {"quint4x2", 1, false, false, kQuantised},
    {"quint2x4", 1, false, false, kQuantised},
};

/// Other names torch gives the same objects.
constexpr std::pair<const char*, const char*> kAliases[] = {
    {"chalf", "complex32"}, {"cfloat", "complex64"}, {"cdouble", "complex128"}, {"bit", "uint1"}};

Value objectOf(const UnsupportedDType& d) {
    // One object per dtype, made on first use, so that `is` and == (identity) hold.
    static const std::vector<Ref<DTypeObject>> objects = [] {
        std::vector<Ref<DTypeObject>> v;
        for (const UnsupportedDType& u : kUnsupported)
            v.push_back(makeRef<DTypeObject>(dtypeType().get(), &u));
        return v;
    }();
    return Value(objects[static_cast<size_t>(&d - kUnsupported)]);
}

} // namespace

void installUnsupportedDTypes(lang::AttrMap& torch) {
    for (const UnsupportedDType& d : kUnsupported)
        torch.set(Symbol::intern(d.name), objectOf(d));
    for (const auto& [alias, name] : kAliases)
        torch.set(Symbol::intern(alias), *torch.find(Symbol::intern(name)));
}

const UnsupportedDType* unsupportedDTypeOf(const Value& v) {
    if (!v.is(ObjectKind::Native) || v.asObject()->type() != dtypeType().get()) return nullptr;
    return v.as<DTypeObject>()->unsupported;
}

void raiseUnsupportedDType(Interpreter& interp, const UnsupportedDType& d) {
    interp.raise(builtinTypes().notImplementedError.get(),
                 "torch." + std::string(d.name) +
                     " is not supported by Kiln yet: tensors can be torch.bool, uint8, int8, "
                     "int16, int32, int64, float16, bfloat16, float32 or float64");
}

} // namespace kiln::torchapi
