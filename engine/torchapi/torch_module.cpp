// SPDX-License-Identifier: MIT
// The rest of the torch namespace: grad-mode context managers (no_grad, enable_grad,
// inference_mode, set_grad_enabled), torch.cuda, print options, and type checks.
#include "support/matmul_precision.h"
#include "support/parallel.h"
#include "tensor/elementwise.h"
#include "tensor/grad_node.h"
#include "tensor/print.h"
#include "torchapi/bindings.h"
#include "torchapi/cuda_support.h"
#include "torchapi/tensor_data.h"

#include <array>
#include <map>

namespace kiln::torchapi {

using namespace kiln::lang;

namespace {

/// A grad-mode context: entering sets grad mode, leaving restores the previous mode.
class GradModeObject final : public NativeObject {
public:
    GradModeObject(TypeObject* type, bool enabled)
        : NativeObject(type)
        , enabled(enabled) {}
    bool enabled;
    std::vector<bool> saved;
    /// set_grad_enabled switches the mode when constructed; leaving restores the mode from
    /// before construction.
    std::optional<bool> modeBeforeConstruction;
};

Ref<TypeObject>& gradModeType(const char* name) {
    static std::map<std::string, Ref<TypeObject>> types;
    Ref<TypeObject>& t = types[name];
    if (!t) t = makeNativeType(name, "torch.autograd.grad_mode");
    return t;
}

GradModeObject& gradSelf(Interpreter& interp, const CallArgs& args) {
    if (args.positional.empty() || !args.positional[0].is(ObjectKind::Native))
        interp.raiseTypeError("grad-mode method needs its context object");
    return *args.positional[0].as<GradModeObject>();
}

Value gradEnter(Interpreter& interp, const CallArgs& args, void*) {
    GradModeObject& g = gradSelf(interp, args);
    g.saved.push_back(g.modeBeforeConstruction.value_or(tensor::gradModeEnabled()));
    tensor::setGradModeEnabled(g.enabled);
    return Value::none();
}

Value gradExit(Interpreter& interp, const CallArgs& args, void*) {
    GradModeObject& g = gradSelf(interp, args);
    if (!g.saved.empty()) {
        tensor::setGradModeEnabled(g.saved.back());
        g.saved.pop_back();
    }
    return Value::fromBool(false);
}

/// `@torch.no_grad()` on a function: torch.utils._contextlib wraps it with functools.wraps, as
/// PyTorch does, so the function keeps its name and a compiled frame inlines the wrapper.
Value gradCall(Interpreter& interp, const CallArgs& args, void*) {
    if (args.positional.size() != 2)
        interp.raiseTypeError("a grad-mode decorator takes exactly one function");
    Ref<lang::ModuleObject> contextlib = interp.importModule("torch.utils._contextlib");
    const Value* decorate = contextlib->globals.find(Symbol::intern("context_decorator"));
    KILN_ASSERT(decorate, "torch.utils._contextlib defines context_decorator");
    std::array<Value, 2> decorateArgs{args.positional[0], args.positional[1]};
    return interp.call(*decorate, CallArgs{decorateArgs});
}

template <bool Enabled>
Value gradModeFactory(Interpreter& interp, const CallArgs& args, void* data) {
    const char* name = static_cast<const char*>(data);
    Ref<TypeObject>& type = gradModeType(name);
    if (!type->dict.contains(Symbol::intern("__enter__"))) {
        interp.defineNative(type->dict, "__enter__", gradEnter);
        interp.defineNative(type->dict, "__exit__", gradExit);
        interp.defineNative(type->dict, "__call__", gradCall);
    }
    bool enabled = Enabled;
    std::optional<bool> before;
    if (std::string(name) == "set_grad_enabled") {
        static const Signature sig("set_grad_enabled(mode)");
        enabled = sig.bind(interp, args).toBool(0);
        before = tensor::gradModeEnabled();
        tensor::setGradModeEnabled(enabled); // also takes effect as a plain call
    } else if (std::string(name) == "inference_mode") {
        static const Signature sig("inference_mode(mode=True)");
        enabled = !sig.bind(interp, args).toBool(0);
    }
    auto object = makeRef<GradModeObject>(type.get(), enabled);
    object->modeBeforeConstruction = before;
    return Value(object);
}

/// torch._C._set_grad_enabled(mode): the target of the grad-mode nodes in captured graphs.
Value setGradEnabledNode(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("_set_grad_enabled(mode)");
    tensor::setGradModeEnabled(sig.bind(interp, args).toBool(0));
    return Value::none();
}

Value isGradEnabled(Interpreter& interp, const CallArgs& args, void*) {
    return Value::fromBool(tensor::gradModeEnabled());
}

/// torch._C: the few natives of PyTorch's C module that graphs and model code name.
void installTorchC(Interpreter& interp, ModuleObject& c) {
    interp.defineNative(c.globals, "_set_grad_enabled", setGradEnabledNode);
    interp.defineNative(c.globals, "is_grad_enabled", isGradEnabled);
}

/// torch.set_num_threads / get_num_threads: the intra-op threads of kernels and matrix products.
Value setNumThreads(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("set_num_threads(int)");
    BoundArgs a = sig.bind(interp, args);
    if (!a[0].isIntLike())
        interp.raise(builtinTypes().runtimeError.get(),
                     "set_num_threads expects an int, but got " + interp.typeName(a[0]));
    if (a[0].asInt() <= 0)
        interp.raise(builtinTypes().runtimeError.get(),
                     "set_num_threads expects a positive integer");
    setParallelThreads(static_cast<int>(std::min<int64_t>(a[0].asInt(), 1 << 16)));
    return Value::none();
}

Value getNumThreads(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("get_num_threads()");
    sig.bind(interp, args);
    return Value::fromInt(parallelThreads());
}

Value isTensor(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("is_tensor(obj)");
    return Value::fromBool(sig.bind(interp, args)[0].isTensor());
}

/// torch._assert(condition, message): Python's `assert condition, message` (torchvision's
/// models check input sizes with it).
Value assert_(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("_assert(condition, message)");
    BoundArgs a = sig.bind(interp, args);
    if (!interp.truthy(a[0])) interp.raise(builtinTypes().assertionError.get(), interp.str(a[1]));
    return Value::none();
}

Value resultType(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("result_type(tensor, other)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = tensorOrNumber(a, 0), y = tensorOrNumber(a, 1);
    return dtypeValue(tensor::resultType({&x, &y}));
}

Value promoteTypes(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("promote_types(type1, type2)");
    BoundArgs a = sig.bind(interp, args);
    return dtypeValue(
        tensor::promoteTypes(dtypeOf(interp, a[0], "promote_types(): argument 'type1'"),
                             dtypeOf(interp, a[1], "promote_types(): argument 'type2'")));
}

Value canCast(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("can_cast(from_, to)");
    BoundArgs a = sig.bind(interp, args);
    return Value::fromBool(
        tensor::detail::canCast(dtypeOf(interp, a[0], "can_cast(): argument 'from_'"),
                                dtypeOf(interp, a[1], "can_cast(): argument 'to'")));
}

Value setPrintoptions(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("set_printoptions(precision=None, threshold=None, edgeitems=None, "
                               "linewidth=None, profile=None, sci_mode=None)");
    BoundArgs a = sig.bind(interp, args);
    tensor::PrintOptions& o = tensor::printOptions();
    if (a.has(4)) {
        const std::string& profile = a.toStr(4);
        o = tensor::PrintOptions{};
        if (profile == "short") {
            o.precision = 2;
            o.threshold = 1000;
            o.edgeItems = 2;
        } else if (profile == "full") {
            o.threshold = INT64_MAX;
        }
    }
    if (a.has(0)) o.precision = static_cast<int>(a.toInt(0));
    if (a.has(1)) o.threshold = a.toInt(1);
    if (a.has(2)) o.edgeItems = a.toInt(2);
    if (a.has(3)) o.lineWidth = a.toInt(3);
    o.sciMode = a.has(5) ? std::optional<bool>(a.toBool(5)) : std::nullopt;
    return Value::none();
}

/// The legacy constructor torch.Tensor(*sizes) / torch.Tensor(data): an uninitialised tensor
/// of the default float type, or data converted to it; a tensor argument is aliased. The
/// typed ones (torch.ByteTensor, ...) pass their dtype + 1 as `data`.
Value tensorCtor(Interpreter& interp, const CallArgs& args, void* data) {
    static const Signature sig("Tensor(*args, device=None)");
    BoundArgs a = sig.bind(interp, args);
    const auto& items = a[0].as<TupleObject>()->items;
    auto typed = reinterpret_cast<intptr_t>(data);
    tensor::DType dtype =
        typed ? static_cast<tensor::DType>(typed - 1) : tensor::defaultFloatDType();
    if (items.empty()) return tensorValue(Tensor::empty(std::vector<int64_t>{0}, dtype));
    if (items.size() == 1 && items[0].isTensor())
        return tensorValue(tensor::alias(items[0].asTensor()));
    bool sizes = items.size() > 1 || items[0].isIntLike() ||
                 (items[0].isObject() && items[0].asObject()->type() == torchTypes().size.get());
    if (sizes) return tensorValue(Tensor::empty(sizesFromArgs(interp, items, "new"), dtype));
    return tensorValue(tensorFromData(interp, items[0], dtype));
}

/// torch.FloatTensor(...), torch.LongTensor(...), ...: torch.Tensor(...) of the type's dtype.
Value legacyTensorCtor(Interpreter& interp, const CallArgs& args, void* data) {
    auto dtype = static_cast<tensor::DType>(reinterpret_cast<intptr_t>(data));
    // Data is converted (and range-checked) as the type's: torch.ByteTensor([300]) fails.
    Value made =
        tensorCtor(interp, args, reinterpret_cast<void*>(static_cast<intptr_t>(dtype) + 1));
    return tensorValue(tensor::toDType(made.asTensor(), dtype));
}

/// isinstance(t, torch.FloatTensor): a CPU tensor of that dtype, as PyTorch's legacy types.
Value legacyInstanceCheck(Interpreter& interp, const CallArgs& args, void* data) {
    auto dtype = static_cast<tensor::DType>(reinterpret_cast<intptr_t>(data));
    if (args.positional.size() != 2)
        interp.raiseTypeError("__kiln_instancecheck__ takes a class and an object");
    const Value& v = args.positional[1];
    return Value::fromBool(v.isTensor() && v.asTensor().dtype() == dtype &&
                           v.asTensor().device().isCpu());
}

void installLegacyTensorTypes(Interpreter& interp, AttrMap& torch) {
    for (int i = 0; i < tensor::kDTypeCount; ++i) {
        auto dtype = static_cast<tensor::DType>(i);
        std::string_view full = legacyTypeName(dtype); // "torch.FloatTensor"
        std::string name(full.substr(full.find('.') + 1));
        void* data = reinterpret_cast<void*>(static_cast<intptr_t>(i));
        Ref<TypeObject> type = makeNativeType(name, "torch");
        type->constructor = interp.newNative(name, legacyTensorCtor, data);
        type->dict.set(
            Symbol::intern("__kiln_instancecheck__"),
            Value(interp.newNative("__kiln_instancecheck__", legacyInstanceCheck, data)));
        type->dict.set(Symbol::intern("dtype"), dtypeValue(dtype));
        torch.set(Symbol::intern(name), Value(type));
    }
}

Value parameterCtor(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("Parameter(data=None, requires_grad=True)");
    BoundArgs a = sig.bind(interp, args);
    Tensor data = a.has(0) ? a.toTensor(0)
                           : Tensor::empty(std::vector<int64_t>{0}, tensor::defaultFloatDType());
    Tensor p = tensor::alias(data);
    p.impl()->isParameter = true;
    tensor::clearGradFn(p);
    p.impl()->requiresGrad = a.toBool(1);
    if (p.requiresGrad() && !tensor::isFloating(p.dtype()))
        interp.raise(builtinTypes().runtimeError.get(),
                     "Only Tensors of floating point and complex dtype can require gradients");
    return tensorValue(p);
}

Value typename_(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("typename(obj, /)");
    BoundArgs a = sig.bind(interp, args);
    const Value& v = a[0];
    if (v.isTensor()) return strValue(std::string(legacyTypeName(v.asTensor().dtype())));
    TypeObject* t = interp.typeOf(v);
    return strValue(t->moduleName == "builtins" || t->moduleName.empty()
                        ? t->name
                        : t->moduleName + "." + t->name);
}

/// torch.set_float32_matmul_precision("highest" | "high" | "medium"): TF32 for float32
/// products on the GPU from "high" down, as PyTorch.
Value setFloat32MatmulPrecision(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("set_float32_matmul_precision(precision)");
    BoundArgs a = sig.bind(interp, args);
    bool text = a[0].is(ObjectKind::Str);
    std::string p = text ? a[0].as<StrObject>()->str() : std::string();
    if (p == "highest")
        setFloat32MatmulPrecision(Float32MatmulPrecision::Highest);
    else if (p == "high")
        setFloat32MatmulPrecision(Float32MatmulPrecision::High);
    else if (p == "medium")
        setFloat32MatmulPrecision(Float32MatmulPrecision::Medium);
    else
        interp.raise(builtinTypes().runtimeError.get(),
                     "Invalid precision value: " + (text ? p : interp.repr(a[0])) +
                         ". Valid values are: highest, high, medium");
    return Value::none();
}

Value getFloat32MatmulPrecision(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("get_float32_matmul_precision()");
    sig.bind(interp, args);
    return strValue(float32MatmulPrecisionName(float32MatmulPrecision()));
}

void installKilnInternals(Interpreter& interp, ModuleObject& kiln) {
    builtinTypes().parameter->constructor = interp.newNative("Parameter", parameterCtor);
    kiln.globals.set(Symbol::intern("Parameter"), Value(builtinTypes().parameter));
    installAutogradInternals(interp, kiln);
    installAutogradFunction(interp, kiln);
}

} // namespace

void installTorchModule(Interpreter& interp, ModuleObject& torch) {
    AttrMap& g = torch.globals;
    static const char* gradNames[] = {"no_grad", "enable_grad", "set_grad_enabled",
                                      "inference_mode"};
    interp.defineNative(g, "no_grad", gradModeFactory<false>, const_cast<char*>(gradNames[0]));
    interp.defineNative(g, "enable_grad", gradModeFactory<true>, const_cast<char*>(gradNames[1]));
    interp.defineNative(g, "set_grad_enabled", gradModeFactory<true>,
                        const_cast<char*>(gradNames[2]));
    interp.defineNative(g, "inference_mode", gradModeFactory<false>,
                        const_cast<char*>(gradNames[3]));
    interp.defineNative(g, "is_grad_enabled", isGradEnabled);
    interp.defineNative(g, "is_tensor", isTensor);
    interp.defineNative(g, "set_num_threads", setNumThreads);
    interp.defineNative(g, "get_num_threads", getNumThreads);
    interp.defineNative(g, "_assert", assert_);
    interp.defineNative(g, "set_printoptions", setPrintoptions);
    interp.defineNative(g, "result_type", resultType);
    interp.defineNative(g, "promote_types", promoteTypes);
    interp.defineNative(g, "can_cast", canCast);
    interp.defineNative(g, "set_float32_matmul_precision", setFloat32MatmulPrecision);
    interp.defineNative(g, "get_float32_matmul_precision", getFloat32MatmulPrecision);
    g.set(Symbol::intern("Tensor"), Value(builtinTypes().tensor));
    g.set(Symbol::intern("OutOfMemoryError"), Value(builtinTypes().outOfMemoryError));
    builtinTypes().tensor->constructor = interp.newNative("Tensor", tensorCtor);
    g.set(Symbol::intern("__version__"), strValue("2.3.0+kiln"));
    installLegacyTensorTypes(interp, g);
    interp.defineNative(g, "typename", typename_);
    interp.registerNativeModule("torch.cuda", installCudaModule);
    interp.registerNativeModule("torch._kiln", installKilnInternals);
    interp.registerNativeModule("torch._C", installTorchC);
}

} // namespace kiln::torchapi
