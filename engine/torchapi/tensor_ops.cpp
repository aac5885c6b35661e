// SPDX-License-Identifier: MIT
// Arithmetic and comparison ops as torch functions and Tensor methods (torch.add, x.add_, ...).
#include "torchapi/bindings.h"

#include <map>

namespace kiln::torchapi {

using namespace kiln::lang;

namespace {

struct BinarySpec {
    const char* signature;
    tensor::BinaryOp op;
    bool inPlace;
};

// torch.add(input, other, *, alpha=1) and torch.sub(...) take alpha; the rest do not.
Value binaryWithAlpha(Interpreter& interp, const CallArgs& args, void* data) {
    const BinarySpec& spec = *static_cast<const BinarySpec*>(data);
    static thread_local std::map<const BinarySpec*, Signature> signatures;
    auto it = signatures.find(&spec);
    if (it == signatures.end())
        it = signatures.emplace(&spec, Signature(spec.signature)).first;
    BoundArgs a = it->second.bind(interp, args);
    Tensor self = a.toTensor(0);
    Tensor other = tensorOrNumber(a, 1);
    bool hasAlpha = it->second.size() > 2 && a.has(2) &&
                    !(a[2].isIntLike() && a[2].asInt() == 1);
    if (hasAlpha) {
        auto alpha = asScalar(a[2]);
        if (!alpha)
            interp.raiseTypeError(it->second.name() + "(): argument 'alpha' must be Number");
        other = tensor::binary(tensor::BinaryOp::Mul, other, tensor::wrapNumber(*alpha));
    }
    if (spec.inPlace) {
        tensor::binaryInPlace(spec.op, self, other);
        return a[0];
    }
    return tensorValue(tensor::binary(spec.op, self, other));
}

} // namespace

void installTensorOps(Interpreter& interp, ModuleObject& torch) {
    static const BinarySpec add{"add(input, other, *, alpha=1)", tensor::BinaryOp::Add, false};
    static const BinarySpec add_{"add_(input, other, *, alpha=1)", tensor::BinaryOp::Add, true};
    static const BinarySpec sub{"sub(input, other, *, alpha=1)", tensor::BinaryOp::Sub, false};
    static const BinarySpec sub_{"sub_(input, other, *, alpha=1)", tensor::BinaryOp::Sub, true};
    static const BinarySpec mul{"mul(input, other)", tensor::BinaryOp::Mul, false};
    static const BinarySpec mul_{"mul_(input, other)", tensor::BinaryOp::Mul, true};
    struct Named {
        const char* name;
        const BinarySpec* spec;
        bool function;
    };
    const Named entries[] = {
        {"add", &add, true}, {"add_", &add_, false}, {"sub", &sub, true},
        {"sub_", &sub_, false}, {"mul", &mul, true}, {"mul_", &mul_, false},
    };
    AttrMap& tensorDict = builtinTypes().tensor->dict;
    for (const Named& e : entries) {
        void* data = const_cast<BinarySpec*>(e.spec);
        if (e.function)
            interp.defineNative(torch.globals, e.name, binaryWithAlpha, data);
        interp.defineNative(tensorDict, e.name, binaryWithAlpha, data);
    }
}

} // namespace kiln::torchapi
