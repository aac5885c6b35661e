// SPDX-License-Identifier: MIT
#include "torchapi/torch_types.h"

#include "lang/native_types.h"
#include "lang/signature.h"
#include "lang/tensor_bridge.h"
#include "tensor/grad_node.h"

#include <cstdio>
#include <map>

namespace kiln::torchapi {

using namespace kiln::lang;

namespace {

class DeviceObject final : public NativeObject {
public:
    DeviceObject(TypeObject* type, tensor::Device d)
        : NativeObject(type)
        , device(d) {}
    tensor::Device device;
};

class GradFnObject final : public NativeObject {
public:
    GradFnObject(TypeObject* type, Ref<tensor::GradNode> n)
        : NativeObject(type)
        , node(std::move(n)) {}
    Ref<tensor::GradNode> node;
};

/// The class of a grad_fn: one per node name (type(y.grad_fn).__name__ is "MulBackward0"), all
/// subclasses of torch.autograd.graph.Node, as PyTorch's generated node classes.
TypeObject* nodeType(std::string_view name) {
    static std::map<std::string, Ref<TypeObject>, std::less<>> types;
    auto it = types.find(name);
    if (it == types.end()) {
        const char* module =
            name == "CompiledFunctionBackward" ? "torch.autograd.function" : "builtins";
        it =
            types
                .emplace(std::string(name), makeNativeType(std::string(name), module,
                                                           ObjectKind::Native, torchTypes().gradFn))
                .first;
    }
    return it->second.get();
}

Value nodeValue(const Ref<tensor::GradNode>& node) {
    if (!node) return Value::none();
    return Value(makeRef<GradFnObject>(nodeType(node->name()), node));
}

TorchTypes createTorchTypes() {
    TorchTypes t;
    t.dtype = dtypeType();
    t.device = makeNativeType("device", "torch");
    t.size = makeNativeType("Size", "torch", ObjectKind::Tuple, builtinTypes().tuple);
    t.gradFn = makeNativeType("Node", "torch.autograd.graph");
    t.generator = makeNativeType("Generator", "torch._C");
    return t;
}

const DTypeObject& dtypeSelf(const CallArgs& args) {
    return *args.positional[0].as<DTypeObject>();
}

Value dtypeRepr(Interpreter& interp, const CallArgs& args, void*) {
    const DTypeObject& d = dtypeSelf(args);
    return strValue("torch." +
                    std::string(d.unsupported ? d.unsupported->name : tensor::dtypeName(d.dtype)));
}

/// dtypes are singletons: equality is identity (anything else compares unequal).
template <bool Equal>
Value dtypeEq(Interpreter& interp, const CallArgs& args, void*) {
    return Value::fromBool(args.positional[0].identical(args.positional[1]) == Equal);
}

Value dtypeIsFloating(Interpreter& interp, const CallArgs& args, void*) {
    const DTypeObject& d = dtypeSelf(args);
    return Value::fromBool(d.unsupported ? d.unsupported->floating : tensor::isFloating(d.dtype));
}

Value dtypeIsComplex(Interpreter& interp, const CallArgs& args, void*) {
    const DTypeObject& d = dtypeSelf(args);
    return Value::fromBool(d.unsupported && d.unsupported->complex);
}

Value dtypeIsSigned(Interpreter& interp, const CallArgs& args, void*) {
    const DTypeObject& d = dtypeSelf(args);
    if (!d.unsupported) return Value::fromBool(tensor::isSigned(d.dtype));
    std::string_view s = d.unsupported->signedness;
    if (s != "signed" && s != "unsigned")
        interp.raise(builtinTypes().runtimeError.get(), std::string(s));
    return Value::fromBool(s == "signed");
}

Value dtypeItemsize(Interpreter& interp, const CallArgs& args, void*) {
    const DTypeObject& d = dtypeSelf(args);
    return Value::fromInt(d.unsupported ? d.unsupported->itemSize : tensor::itemSize(d.dtype));
}

Value deviceRepr(Interpreter& interp, const CallArgs& args, void*) {
    const tensor::Device& d = args.positional[0].as<DeviceObject>()->device;
    std::string out = "device(type='" + std::string(d.isCpu() ? "cpu" : "cuda") + "'";
    if (d.index >= 0) out += ", index=" + std::to_string(d.index);
    return strValue(out + ")");
}

Value deviceStr(Interpreter& interp, const CallArgs& args, void*) {
    return strValue(args.positional[0].as<DeviceObject>()->device.str());
}

Value deviceType(Interpreter& interp, const CallArgs& args, void*) {
    return strValue(args.positional[0].as<DeviceObject>()->device.isCpu() ? "cpu" : "cuda");
}

Value deviceIndex(Interpreter& interp, const CallArgs& args, void*) {
    int32_t i = args.positional[0].as<DeviceObject>()->device.index;
    return i < 0 ? Value::none() : Value::fromInt(i);
}

Value deviceEq(Interpreter& interp, const CallArgs& args, void*) {
    const Value& other = args.positional[1];
    if (!other.is(ObjectKind::Native) || other.asObject()->type() != torchTypes().device.get()) {
        if (other.is(ObjectKind::Str))
            return Value::fromBool(args.positional[0].as<DeviceObject>()->device ==
                                   deviceOf(interp, other));
        return notImplementedValue();
    }
    return Value::fromBool(args.positional[0].as<DeviceObject>()->device ==
                           other.as<DeviceObject>()->device);
}

Value deviceCtor(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("device(type, index=None)");
    BoundArgs a = sig.bind(interp, args);
    tensor::Device d = deviceOf(interp, a[0]);
    if (a.has(1)) d.index = static_cast<int32_t>(a.toInt(1));
    return deviceValue(d);
}

Value sizeRepr(Interpreter& interp, const CallArgs& args, void*) {
    std::string out = "torch.Size([";
    const auto& items = args.positional[0].as<TupleObject>()->items;
    for (size_t i = 0; i < items.size(); ++i)
        out += (i ? ", " : "") + interp.repr(items[i]);
    return strValue(out + "])");
}

Value sizeNumel(Interpreter& interp, const CallArgs& args, void*) {
    int64_t n = 1;
    for (const Value& v : args.positional[0].as<TupleObject>()->items)
        n *= v.asInt();
    return Value::fromInt(n);
}

Value sizeCtor(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("Size(sizes=None, /)");
    BoundArgs a = sig.bind(interp, args);
    if (!a.has(0)) return sizeValue({});
    // SymInts stay symbolic, as in PyTorch (a FakeTensor's torch.Size([s0, 2])).
    std::vector<Value> items = interp.toVector(a[0]);
    auto symInt = [&](const Value& v) {
        if (!v.is(ObjectKind::Instance)) return false;
        const auto& mro = interp.typeOf(v)->mro;
        return std::any_of(mro.begin(), mro.end(), [](const TypeObject* t) {
            return t->name == "SymInt" && t->moduleName == "torch._dynamo.sym_int";
        });
    };
    if (std::any_of(items.begin(), items.end(), symInt)) {
        for (Value& item : items)
            if (!symInt(item)) item = Value::fromInt(toIntVector(interp, item, "torch.Size()")[0]);
        return Value(makeRef<TupleObject>(std::move(items), torchTypes().size.get()));
    }
    return sizeValue(toIntVector(interp, a[0], "torch.Size()"));
}

Value gradFnRepr(Interpreter& interp, const CallArgs& args, void*) {
    auto* g = args.positional[0].as<GradFnObject>();
    char buf[32];
    std::snprintf(buf, sizeof buf, "%012llx",
                  static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(g->node.get())));
    return strValue("<" + std::string(g->node->name()) + " object at 0x" + buf + ">");
}

/// Node.name(): the node's class name, except that PyTorch's hand-written C++ nodes (the leaf
/// accumulator, CopySlices, CopyBackwards, NotImplemented) say their C++ names
/// ("torch::autograd::CopySlices"; their reprs stay <CopySlices object ...>).
Value gradFnName(Interpreter& interp, const CallArgs& args, void*) {
    std::string_view name = args.positional[0].as<GradFnObject>()->node->name();
    if (name == "AccumulateGrad" || name == "CopySlices" || name == "CopyBackwards" ||
        name == "NotImplemented")
        return strValue("torch::autograd::" + std::string(name));
    return strValue(std::string(name));
}

/// ((next node or None, input number), ...), as torch's Node.next_functions.
Value gradFnNextFunctions(Interpreter& interp, const CallArgs& args, void*) {
    std::vector<Value> items;
    for (const tensor::GradEdge& e : args.positional[0].as<GradFnObject>()->node->next)
        items.push_back(
            tupleValue({nodeValue(e.node), Value::fromInt(static_cast<int64_t>(e.inputNr))}));
    return tupleValue(std::move(items));
}

/// AccumulateGrad.variable: the leaf it accumulates into.
Value gradFnVariable(Interpreter& interp, const CallArgs& args, void*) {
    auto* acc =
        dynamic_cast<tensor::AccumulateGrad*>(args.positional[0].as<GradFnObject>()->node.get());
    if (!acc)
        interp.raise(builtinTypes().attributeError.get(),
                     "'" + std::string(args.positional[0].as<GradFnObject>()->node->name()) +
                         "' object has no attribute 'variable'");
    return Value(tensor::Tensor(acc->leaf()));
}

/// Node == Node: the same autograd node (each access makes a new wrapper).
Value gradFnEq(Interpreter& interp, const CallArgs& args, void*) {
    const Value& other = args.positional[1];
    if (!other.is(ObjectKind::Native) ||
        !other.asObject()->type()->isSubtypeOf(torchTypes().gradFn.get()))
        return Value::fromBool(false);
    return Value::fromBool(args.positional[0].as<GradFnObject>()->node ==
                           other.as<GradFnObject>()->node);
}

Value returnTypeRepr(Interpreter& interp, const CallArgs& args, void*) {
    const Value& self = args.positional[0];
    TypeObject* type = self.asObject()->type();
    const auto& items = self.as<TupleObject>()->items;
    const Value* fields = type->dict.find(Symbol::intern("_fields"));
    std::string out = "torch.return_types." + type->name + "(";
    const auto& names = fields->as<TupleObject>()->items;
    for (size_t i = 0; i < items.size(); ++i)
        out +=
            std::string(i ? "," : "") + "\n" + interp.str(names[i]) + "=" + interp.repr(items[i]);
    return strValue(out + ")");
}

Value property(Interpreter& interp, const char* name, NativeFn fn) {
    return Value(makeRef<PropertyObject>(interp.newNative(name, fn), Value()));
}

} // namespace

const TorchTypes& torchTypes() {
    static const TorchTypes t = createTorchTypes();
    return t;
}

bool isDType(const Value& v) {
    return v.is(ObjectKind::Native) && v.asObject()->type() == dtypeType().get();
}

tensor::DType dtypeOf(Interpreter& interp, const Value& v, const std::string& what) {
    if (isDType(v)) {
        const auto* d = v.as<DTypeObject>();
        if (d->unsupported) raiseUnsupportedDType(interp, *d->unsupported);
        return d->dtype;
    }
    if (v.is(ObjectKind::Type)) {
        const auto& t = builtinTypes();
        if (v.asObject() == t.floatType.get()) return tensor::DType::Float64;
        if (v.asObject() == t.intType.get()) return tensor::DType::Int64;
        if (v.asObject() == t.boolType.get()) return tensor::DType::Bool;
    }
    interp.raiseTypeError(what + " must be torch.dtype, not " + interp.typeName(v));
}

std::optional<tensor::DType> optDType(Interpreter& interp, const Value& v,
                                      const std::string& what) {
    if (v.isNone() || v.isEmpty()) return std::nullopt;
    return dtypeOf(interp, v, what);
}

namespace {
/// Indexed by DType.
constexpr std::string_view kLegacyNames[] = {
    "torch.BoolTensor",  "torch.ByteTensor",  "torch.CharTensor", "torch.ShortTensor",
    "torch.IntTensor",   "torch.LongTensor",  "torch.HalfTensor", "torch.BFloat16Tensor",
    "torch.FloatTensor", "torch.DoubleTensor"};
static_assert(std::size(kLegacyNames) == tensor::kDTypeCount);
} // namespace

std::string_view legacyTypeName(tensor::DType dtype) {
    return kLegacyNames[static_cast<size_t>(dtype)];
}

std::optional<tensor::DType> dtypeOfLegacyName(std::string_view name) {
    for (int i = 0; i < tensor::kDTypeCount; ++i)
        if (kLegacyNames[i] == name) return static_cast<tensor::DType>(i);
    return std::nullopt;
}

Value deviceValue(const tensor::Device& device) {
    return Value(makeRef<DeviceObject>(torchTypes().device.get(), device));
}

tensor::Device deviceOf(Interpreter& interp, const Value& v) {
    if (v.is(ObjectKind::Native) && v.asObject()->type() == torchTypes().device.get())
        return v.as<DeviceObject>()->device;
    if (v.isIntLike())
        return tensor::Device{tensor::DeviceType::CUDA, static_cast<int32_t>(v.asInt())};
    if (!v.is(ObjectKind::Str))
        interp.raiseTypeError("device() received an invalid combination of arguments - got (" +
                              interp.typeName(v) + ")");
    const std::string& s = v.as<StrObject>()->str();
    if (s == "cpu") return tensor::Device{};
    if (s.rfind("cuda", 0) == 0) {
        tensor::Device d{tensor::DeviceType::CUDA, -1};
        if (s.size() > 5 && s[4] == ':')
            d.index = std::atoi(s.c_str() + 5);
        else if (s.size() != 4)
            interp.raise(builtinTypes().runtimeError.get(), "Invalid device string: '" + s + "'");
        return d;
    }
    interp.raise(builtinTypes().runtimeError.get(),
                 "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, "
                 "fpga, maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type "
                 "at start of device string: " +
                     s);
}

Value sizeValue(tensor::IntList sizes) {
    std::vector<Value> items;
    items.reserve(sizes.size());
    for (int64_t s : sizes)
        items.push_back(Value::fromInt(s));
    return Value(makeRef<TupleObject>(std::move(items), torchTypes().size.get()));
}

ReturnType::ReturnType(const std::string& name, const std::vector<std::string>& fields) {
    m_type = makeNativeType(name, "torch.return_types", ObjectKind::Tuple, builtinTypes().tuple);
    std::vector<Value> names;
    for (size_t i = 0; i < fields.size(); ++i) {
        names.push_back(strValue(fields[i]));
        // Field access by name: a property reading the tuple item.
        auto getter = makeRef<NativeFunctionObject>(
            fields[i],
            [](Interpreter&, const CallArgs& args, void* data) {
                return args.positional[0].as<TupleObject>()->items[reinterpret_cast<size_t>(data)];
            },
            reinterpret_cast<void*>(i));
        m_type->dict.set(Symbol::intern(fields[i]),
                         Value(makeRef<PropertyObject>(Value(getter), Value())));
    }
    m_type->dict.set(Symbol::intern("_fields"), tupleValue(std::move(names)));
    m_type->dict.set(Symbol::intern("__repr__"),
                     Value(makeRef<NativeFunctionObject>("__repr__", returnTypeRepr)));
}

Value ReturnType::make(std::vector<Value> items) const {
    return Value(makeRef<TupleObject>(std::move(items), m_type.get()));
}

Value gradFnValue(const tensor::Tensor& t) {
    return nodeValue(t.gradNode());
}

std::vector<int64_t> sizesFromArgs(Interpreter& interp, const std::vector<Value>& args,
                                   const std::string& fn) {
    if (args.size() == 1 && (args[0].is(ObjectKind::Tuple) || args[0].is(ObjectKind::List)))
        return toIntVector(interp, args[0], fn + "(): argument 'size'");
    std::vector<int64_t> sizes;
    for (size_t i = 0; i < args.size(); ++i) {
        auto v = asIndex(interp, args[i]);
        if (!v || args[i].isTensor())
            interp.raiseTypeError(fn + "(): argument 'size' failed to unpack the object at pos " +
                                  std::to_string(i + 1) +
                                  " with error \"type must be tuple of ints,but got " +
                                  interp.typeName(args[i]) + "\"");
        sizes.push_back(*v);
    }
    return sizes;
}

void installTorchTypes(Interpreter& interp, ModuleObject& torch) {
    const TorchTypes& t = torchTypes();
    interp.defineNative(t.dtype->dict, "__repr__", dtypeRepr);
    interp.defineNative(t.dtype->dict, "__eq__", dtypeEq<true>);
    interp.defineNative(t.dtype->dict, "__ne__", dtypeEq<false>);
    t.dtype->dict.set(Symbol::intern("is_floating_point"),
                      property(interp, "is_floating_point", dtypeIsFloating));
    t.dtype->dict.set(Symbol::intern("itemsize"), property(interp, "itemsize", dtypeItemsize));
    t.dtype->dict.set(Symbol::intern("is_complex"), property(interp, "is_complex", dtypeIsComplex));
    t.dtype->dict.set(Symbol::intern("is_signed"), property(interp, "is_signed", dtypeIsSigned));
    interp.defineNative(t.device->dict, "__repr__", deviceRepr);
    interp.defineNative(t.device->dict, "__str__", deviceStr);
    interp.defineNative(t.device->dict, "__eq__", deviceEq);
    t.device->dict.set(Symbol::intern("type"), property(interp, "type", deviceType));
    t.device->dict.set(Symbol::intern("index"), property(interp, "index", deviceIndex));
    t.device->constructor = interp.newNative("device", deviceCtor);
    interp.defineNative(t.size->dict, "__repr__", sizeRepr);
    interp.defineNative(t.size->dict, "numel", sizeNumel);
    t.size->constructor = interp.newNative("Size", sizeCtor);
    interp.defineNative(t.gradFn->dict, "__repr__", gradFnRepr);
    interp.defineNative(t.gradFn->dict, "name", gradFnName);
    interp.defineNative(t.gradFn->dict, "__eq__", gradFnEq);
    t.gradFn->dict.set(Symbol::intern("next_functions"),
                       property(interp, "next_functions", gradFnNextFunctions));
    t.gradFn->dict.set(Symbol::intern("variable"), property(interp, "variable", gradFnVariable));
    AttrMap& g = torch.globals;
    for (int i = 0; i < tensor::kDTypeCount; ++i) {
        auto d = static_cast<tensor::DType>(i);
        g.set(Symbol::intern(std::string(tensor::dtypeName(d))), dtypeValue(d));
    }
    const std::pair<const char*, tensor::DType> aliases[] = {
        {"float", tensor::DType::Float32}, {"double", tensor::DType::Float64},
        {"half", tensor::DType::Float16},  {"long", tensor::DType::Int64},
        {"int", tensor::DType::Int32},     {"bool", tensor::DType::Bool},
        {"short", tensor::DType::Int16},
    };
    for (const auto& [name, d] : aliases)
        g.set(Symbol::intern(name), dtypeValue(d));
    installUnsupportedDTypes(g);
    g.set(Symbol::intern("dtype"), Value(t.dtype));
    g.set(Symbol::intern("device"), Value(t.device));
    g.set(Symbol::intern("Size"), Value(t.size));
}

} // namespace kiln::torchapi
