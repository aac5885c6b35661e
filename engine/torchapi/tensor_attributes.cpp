// SPDX-License-Identifier: MIT
// Tensor attributes and the methods that describe or convert a tensor: shape, dtype, device,
// requires_grad, grad_fn, size(), dim(), item(), tolist(), to(), float(), contiguous(), ...
#include "lang/device_ops.h"
#include "runtime/cuda_tensor.h"
#include "tensor/autograd.h"
#include "tensor/device_transfer.h"
#include "tensor/grad_node.h"
#include "torchapi/bindings.h"
#include "torchapi/cuda_support.h"

#include <algorithm>

namespace kiln::torchapi {

using namespace kiln::lang;

namespace {

Tensor self(Interpreter& interp, const CallArgs& args) {
    if (args.positional.empty() || !args.positional[0].isTensor())
        interp.raiseTypeError("descriptor requires a 'torch.Tensor' object");
    return args.positional[0].asTensor();
}

Value propShape(Interpreter& interp, const CallArgs& args, void*) {
    return sizeValue(self(interp, args).sizes());
}
Value propDtype(Interpreter& interp, const CallArgs& args, void*) {
    return dtypeValue(self(interp, args).dtype());
}
Value propDevice(Interpreter& interp, const CallArgs& args, void*) {
    return deviceValue(self(interp, args).device());
}
Value propNdim(Interpreter& interp, const CallArgs& args, void*) {
    return Value::fromInt(self(interp, args).dim());
}
Value propRequiresGrad(Interpreter& interp, const CallArgs& args, void*) {
    Tensor t = self(interp, args);
    tensor::refreshViewGradFn(t); // a view of a base written since
    return Value::fromBool(t.requiresGrad());
}
Value setRequiresGrad(Interpreter& interp, const CallArgs& args, void*) {
    Tensor t = self(interp, args);
    bool flag = interp.truthy(args.positional[1]);
    if (flag && !tensor::isFloating(t.dtype()))
        interp.raise(builtinTypes().runtimeError.get(),
                     "only Tensors of floating point and complex dtype can require gradients");
    if (!flag && !t.gradFn().empty())
        interp.raise(builtinTypes().runtimeError.get(),
                     "you can only change requires_grad flags of leaf variables. If you want to "
                     "use a computed variable in a subgraph that doesn't require differentiation "
                     "use var_no_grad = var.detach().");
    t.impl()->requiresGrad = flag;
    return Value::none();
}
Value propGradFn(Interpreter& interp, const CallArgs& args, void*) {
    Tensor t = self(interp, args);
    tensor::refreshViewGradFn(t); // PyTorch regenerates a view's grad_fn after a write
    return gradFnValue(t);
}
Value propIsLeaf(Interpreter& interp, const CallArgs& args, void*) {
    Tensor t = self(interp, args);
    tensor::refreshViewGradFn(t);
    return Value::fromBool(t.gradFn().empty());
}
/// Tensor._version: the in-place writes to its storage so far (autograd's version counter).
Value propVersion(Interpreter& interp, const CallArgs& args, void*) {
    return Value::fromInt(tensor::storageVersion(self(interp, args)));
}
Value propGetDevice(Interpreter& interp, const CallArgs& args, void*) {
    tensor::Device d = self(interp, args).device();
    return Value::fromInt(d.isCpu() ? -1 : std::max(d.index, 0));
}

Value propIsCuda(Interpreter& interp, const CallArgs& args, void*) {
    return Value::fromBool(self(interp, args).device().isCuda());
}
Value propData(Interpreter& interp, const CallArgs& args, void*) {
    Tensor data = tensor::alias(self(interp, args));
    data.impl()->requiresGrad = false;
    tensor::clearGradFn(data);
    tensor::dropViewBase(data); // .data is no autograd view
    return tensorValue(data);
}
Value setData(Interpreter& interp, const CallArgs& args, void*) {
    Tensor t = self(interp, args);
    if (!args.positional[1].isTensor()) interp.raiseTypeError("data must be a Tensor");
    Tensor src = args.positional[1].asTensor();
    t.impl()->storage = src.storage();
    t.impl()->offset = src.offset();
    t.impl()->sizes = src.sizes();
    t.impl()->strides = src.strides();
    t.impl()->dtype = src.dtype();
    return Value::none();
}
Value propT(Interpreter& interp, const CallArgs& args, void*) {
    Tensor t = self(interp, args);
    std::vector<int64_t> dims;
    for (int64_t d = t.dim() - 1; d >= 0; --d)
        dims.push_back(d);
    return tensorValue(tensor::permute(t, dims));
}
Value propMT(Interpreter& interp, const CallArgs& args, void*) {
    return tensorValue(tensor::transpose(self(interp, args), -2, -1));
}
Value propItemsize(Interpreter& interp, const CallArgs& args, void*) {
    return Value::fromInt(tensor::itemSize(self(interp, args).dtype()));
}
Value propNbytes(Interpreter& interp, const CallArgs& args, void*) {
    Tensor t = self(interp, args);
    return Value::fromInt(t.numel() * tensor::itemSize(t.dtype()));
}

Value methodSize(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("size(self, dim=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor t = a.toTensor(0);
    if (a.has(1)) return Value::fromInt(t.size(a.toInt(1)));
    return sizeValue(t.sizes());
}
Value methodStride(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("stride(self, dim=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor t = a.toTensor(0);
    if (a.has(1)) return Value::fromInt(t.stride(a.toInt(1)));
    std::vector<Value> items;
    for (int64_t s : t.strides())
        items.push_back(Value::fromInt(s));
    return tupleValue(std::move(items));
}
Value methodDim(Interpreter& interp, const CallArgs& args, void*) {
    return Value::fromInt(self(interp, args).dim());
}
Value methodNumel(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("numel(input)");
    return Value::fromInt(sig.bind(interp, args).toTensor(0).numel());
}
Value methodIsContiguous(Interpreter& interp, const CallArgs& args, void*) {
    return Value::fromBool(self(interp, args).isContiguous());
}
Value methodIsFloatingPoint(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("is_floating_point(input)");
    return Value::fromBool(tensor::isFloating(sig.bind(interp, args).toTensor(0).dtype()));
}
Value methodIsSigned(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("is_signed(input)");
    return Value::fromBool(tensor::isSigned(sig.bind(interp, args).toTensor(0).dtype()));
}
/// Kiln has no complex tensors.
Value methodIsComplex(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("is_complex(input)");
    sig.bind(interp, args).toTensor(0);
    return Value::fromBool(false);
}
Value methodStorageOffset(Interpreter& interp, const CallArgs& args, void*) {
    return Value::fromInt(self(interp, args).offset());
}
/// The address of the first element (the storage's on its device plus the offset): equal
/// for tensors that share it, as scripts use it to test aliasing.
Value methodDataPtr(Interpreter& interp, const CallArgs& args, void*) {
    Tensor t = self(interp, args);
    return Value::fromInt(static_cast<int64_t>(reinterpret_cast<intptr_t>(t.devicePointer())));
}
Value methodElementSize(Interpreter& interp, const CallArgs& args, void*) {
    return Value::fromInt(tensor::itemSize(self(interp, args).dtype()));
}
Value methodItem(Interpreter& interp, const CallArgs& args, void*) {
    return scalarValue(tensor::item(tensor::copyToHost(self(interp, args))));
}

Value toListOnHost(const Tensor& t) {
    if (t.dim() == 0) return scalarValue(tensor::item(t));
    std::vector<Value> items;
    items.reserve(static_cast<size_t>(t.size(0)));
    for (int64_t i = 0; i < t.size(0); ++i)
        items.push_back(toListOnHost(tensor::select(t, 0, i)));
    return listValue(std::move(items));
}

Value methodTolist(Interpreter& interp, const CallArgs& args, void*) {
    return toListOnHost(tensor::copyToHost(self(interp, args)));
}

/// `t` converted to `dtype` on `device`. Until eager GPU kernels exist, a dtype conversion of
/// a device tensor goes through a host copy (converted on the CPU, copied back); the device
/// move itself is a copy over the bus.
Value convertTo(Interpreter& interp, const Tensor& t, tensor::DType dtype, bool copy,
                std::optional<tensor::Device> device = {}) {
    tensor::Device target = device ? cudaResolved(interp, *device) : t.device();
    Tensor out;
    if (target == t.device() && t.device().isCpu()) {
        out = tensor::toDType(t, dtype, copy);
    } else if (target == t.device() && dtype == t.dtype() && !copy) {
        out = t;
    } else if (target == t.device() && dtype != t.dtype()) {
        // A conversion on the device: the eager device ops' cast kernel.
        std::vector<Value> operands{tensorValue(t), dtypeValue(dtype)};
        lang::DeviceOpCall call{lang::DeviceOpCall::Form::Method, "to", 0,
                                CallArgs{operands, {}, {}}};
        out = lang::dispatchToDevice(interp, call)->asTensor();
    } else {
        // Convert where the elements can be read (the host), then move. Either step makes a
        // new tensor, so copy=True needs nothing more.
        Tensor host = tensor::copyToHost(t);
        if (dtype != t.dtype()) host = tensor::toDType(host, dtype);
        out = runtime::toDevice(host, target);
    }
    if (!out.sameImpl(t)) {
        tensor::recordGradFn(out, "ToCopyBackward0", {&t});
        tensor::attachCopyDerivative(out, t);
    }
    return tensorValue(out);
}

/// to(dtype), to(device), to(device, dtype), to(other), with keywords dtype=, device=, copy=.
Value methodTo(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(
        "to(self, *args, dtype=None, device=None, non_blocking=False, copy=False)");
    BoundArgs a = sig.bind(interp, args);
    Tensor t = a.toTensor(0);
    std::optional<tensor::DType> dtype = optDType(interp, a[2], "to(): argument 'dtype'");
    std::optional<tensor::Device> device;
    if (a.has(3)) device = deviceOf(interp, a[3]);
    for (const Value& v : a[1].as<TupleObject>()->items) {
        if (isDType(v))
            dtype = dtypeOf(interp, v, "to()");
        else if (v.isTensor())
            dtype = v.asTensor().dtype();
        else if (!v.isNone())
            device = deviceOf(interp, v);
    }
    return convertTo(interp, t, dtype.value_or(t.dtype()), a.toBool(5), device);
}

template <tensor::DType D>
Value castMethod(Interpreter& interp, const CallArgs& args, void*) {
    return convertTo(interp, self(interp, args), D, false);
}

Value methodType(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("type(self, dtype=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor t = a.toTensor(0);
    if (!a.has(1)) return strValue(std::string(legacyTypeName(t.dtype())));
    if (a[1].is(ObjectKind::Str)) {
        auto dtype = dtypeOfLegacyName(a.toStr(1));
        if (!dtype) interp.raiseValueError("invalid type: '" + a.toStr(1) + "'");
        return convertTo(interp, t, *dtype, false);
    }
    if (a[1].is(ObjectKind::Type)) { // a legacy type: x.type(torch.ByteTensor)
        const auto* type = a[1].as<TypeObject>();
        if (auto dtype = dtypeOfLegacyName(type->moduleName + "." + type->name))
            return convertTo(interp, t, *dtype, false);
    }
    return convertTo(interp, t, dtypeOf(interp, a[1], "type()"), false);
}

Value methodTypeAs(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("type_as(self, other)");
    BoundArgs a = sig.bind(interp, args);
    return convertTo(interp, a.toTensor(0), a.toTensor(1).dtype(), false);
}

Value methodCpu(Interpreter& interp, const CallArgs& args, void*) {
    Tensor t = self(interp, args);
    if (t.device().isCpu()) return args.positional[0];
    return convertTo(interp, t, t.dtype(), false, tensor::Device{});
}

Value methodCuda(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("cuda(self, device=None, non_blocking=False)");
    BoundArgs a = sig.bind(interp, args);
    Tensor t = a.toTensor(0);
    tensor::Device device{tensor::DeviceType::CUDA, -1};
    if (a.has(1)) device = deviceOf(interp, a[1]);
    if (!device.isCuda())
        interp.raise(builtinTypes().runtimeError.get(), "Invalid device, must be cuda device");
    return convertTo(interp, t, t.dtype(), false, device);
}

/// A contiguous copy; on a device, the eager device ops' copy kernel (a single-op graph of
/// `contiguous`).
Tensor contiguousCopy(Interpreter& interp, const Tensor& t) {
    if (t.device().isCpu()) return tensor::contiguous(t);
    std::vector<Value> operands{tensorValue(t)};
    lang::DeviceOpCall call{lang::DeviceOpCall::Form::Method, "contiguous", 0,
                            CallArgs{operands, {}, {}}};
    return lang::dispatchToDevice(interp, call)->asTensor();
}

Value methodContiguous(Interpreter& interp, const CallArgs& args, void*) {
    Tensor t = self(interp, args);
    Tensor out = t.isContiguous() ? t : contiguousCopy(interp, t);
    if (!out.sameImpl(t)) {
        tensor::recordGradFn(out, "CloneBackward0", {&t});
        tensor::attachCopyDerivative(out, t);
    }
    return tensorValue(out);
}

Value methodClone(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("clone(input, *, memory_format=None)");
    Tensor t = sig.bind(interp, args).toTensor(0);
    Tensor out;
    if (t.device().isCpu()) {
        out = emptyLike(t, t.dtype());
        tensor::copyInto(out, t);
    } else {
        out = contiguousCopy(interp, t); // a device copy kernel (contiguous, not preserve_format)
    }
    tensor::recordGradFn(out, "CloneBackward0", {&t});
    tensor::attachCopyDerivative(out, t);
    return tensorValue(out);
}

Value methodDetach(Interpreter& interp, const CallArgs& args, void*) {
    Tensor out = tensor::alias(self(interp, args));
    out.impl()->requiresGrad = false;
    tensor::clearGradFn(out);
    tensor::dropViewBase(out); // a view without autograd relation: writes do not rebase
    return tensorValue(out);
}

/// detach_(): the tensor itself leaves its graph, as Optimizer.zero_grad(set_to_none=False) does
/// with a gradient made under create_graph=True (PyTorch refuses views of graph tensors; Kiln does
/// not track which tensors are such views, so it detaches them too).
Value methodDetach_(Interpreter& interp, const CallArgs& args, void*) {
    Tensor t = self(interp, args);
    t.impl()->requiresGrad = false;
    tensor::clearGradFn(t);
    tensor::dropViewBase(t);
    return args.positional[0];
}

Value methodRequiresGrad_(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("requires_grad_(self, requires_grad=True)");
    BoundArgs a = sig.bind(interp, args);
    Tensor t = a.toTensor(0);
    // The method's wording differs from the property setter's (both are PyTorch's).
    if (a.toBool(1) && !tensor::isFloating(t.dtype()))
        interp.raise(builtinTypes().runtimeError.get(),
                     "only Tensors of floating point dtype can require gradients");
    std::vector<Value> pair{a[0], a[1]};
    setRequiresGrad(interp, CallArgs{pair, {}, {}}, nullptr);
    return a[0];
}

Value methodLen(Interpreter& interp, const CallArgs& args, void*) {
    return Value::fromInt(interp.len(args.positional[0]));
}

} // namespace

void installTensorAttributes(Interpreter& interp, ModuleObject& torch) {
    defineTensorProperty(interp, "shape", propShape);
    defineTensorProperty(interp, "dtype", propDtype);
    defineTensorProperty(interp, "device", propDevice);
    defineTensorProperty(interp, "ndim", propNdim);
    defineTensorProperty(interp, "requires_grad", propRequiresGrad, setRequiresGrad);
    defineTensorProperty(interp, "grad_fn", propGradFn);
    defineTensorProperty(interp, "is_leaf", propIsLeaf);
    defineTensorProperty(interp, "_version", propVersion);
    defineTensorProperty(interp, "is_cuda", propIsCuda);
    defineTensorProperty(interp, "data", propData, setData);
    defineTensorProperty(interp, "T", propT);
    defineTensorProperty(interp, "mT", propMT);
    defineTensorProperty(interp, "itemsize", propItemsize);
    defineTensorProperty(interp, "nbytes", propNbytes);
    static const OpEntry ops[] = {
        {"size", methodSize, false, true},
        {"stride", methodStride, false, true},
        {"dim", methodDim, false, true},
        {"ndimension", methodDim, false, true},
        {"numel", methodNumel, true, true},
        {"nelement", methodNumel, false, true},
        {"is_contiguous", methodIsContiguous, false, true},
        {"is_floating_point", methodIsFloatingPoint, true, true},
        {"is_signed", methodIsSigned, true, true},
        {"is_complex", methodIsComplex, true, true},
        {"storage_offset", methodStorageOffset, false, true},
        {"element_size", methodElementSize, false, true},
        {"data_ptr", methodDataPtr, false, true},
        {"item", methodItem, false, true},
        {"tolist", methodTolist, false, true},
        {"to", methodTo, false, true},
        {"float", castMethod<tensor::DType::Float32>, false, true},
        {"double", castMethod<tensor::DType::Float64>, false, true},
        {"half", castMethod<tensor::DType::Float16>, false, true},
        {"bfloat16", castMethod<tensor::DType::BFloat16>, false, true},
        {"long", castMethod<tensor::DType::Int64>, false, true},
        {"int", castMethod<tensor::DType::Int32>, false, true},
        {"bool", castMethod<tensor::DType::Bool>, false, true},
        {"byte", castMethod<tensor::DType::UInt8>, false, true},
        {"char", castMethod<tensor::DType::Int8>, false, true},
        {"short", castMethod<tensor::DType::Int16>, false, true},
        {"type", methodType, false, true},
        {"type_as", methodTypeAs, false, true},
        {"cpu", methodCpu, false, true},
        {"cuda", methodCuda, false, true},
        {"get_device", propGetDevice, false, true},
        {"contiguous", methodContiguous, false, true},
        {"clone", methodClone, true, true},
        {"detach", methodDetach, true, true},
        {"detach_", methodDetach_, true, true},
        {"requires_grad_", methodRequiresGrad_, false, true},
        {"__len__", methodLen, false, true},
    };
    registerOps(interp, &torch.globals, ops);
}

} // namespace kiln::torchapi
