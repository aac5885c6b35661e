// SPDX-License-Identifier: MIT
// Autograd for scripts: Tensor.backward(), the `.grad` property, tensor hooks (register_hook,
// retain_grad), and the engine entry points torch.autograd (py/torch/autograd/__init__.py)
// calls: torch._kiln._run_backward and _grad.
#include "tensor/autograd.h"
#include "torchapi/bindings.h"
#include "torchapi/torch_types.h"

namespace kiln::torchapi {

using lang::BoundArgs;
using lang::builtinTypes;
using lang::CallArgs;
using lang::Interpreter;
using lang::ObjectKind;
using lang::Signature;
using lang::Value;

namespace {

/// A tensor, a sequence of tensors (None allowed where `noneAllowed`), as a vector.
std::vector<Tensor> tensorList(Interpreter& interp, const Value& v, const char* what,
                               bool noneAllowed) {
    std::vector<Value> items =
        v.isTensor() || v.isNone() ? std::vector<Value>{v} : interp.toVector(v);
    std::vector<Tensor> out;
    for (const Value& item : items) {
        if (item.isNone() && noneAllowed) {
            out.emplace_back();
            continue;
        }
        if (!item.isTensor())
            interp.raiseTypeError(std::string(what) +
                                  " must be a Tensor or a sequence of "
                                  "Tensors, got " +
                                  interp.typeName(item));
        out.push_back(item.asTensor());
    }
    return out;
}

/// retain_graph=None means create_graph's value, as in PyTorch.
bool retainOf(Interpreter& interp, const Value& retain, bool create) {
    return retain.isNone() ? create : interp.truthy(retain);
}

/// backward of `outputs`, into every leaf or (inputs= not None) into `inputs` only.
void runBackwardTo(Interpreter& interp, std::span<const Tensor> outputs,
                   std::span<const Tensor> grads, bool retain, bool create, const Value& inputs) {
    if (inputs.isNone()) return tensor::backward(outputs, grads, retain, create);
    std::vector<Tensor> targets = tensorList(interp, inputs, "inputs", false);
    tensor::backward(outputs, grads, retain, create, targets);
}

Value methodBackward(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(
        "backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor self = a.toTensor(0);
    std::vector<Tensor> grads = tensorList(interp, a[1], "gradient", true);
    bool create = a.toBool(3);
    runBackwardTo(interp, {&self, 1}, grads, retainOf(interp, a[2], create), create, a[4]);
    return Value::none();
}

Value runBackward(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(
        "_run_backward(tensors, grad_tensors, retain_graph, create_graph, inputs=None)");
    BoundArgs a = sig.bind(interp, args);
    std::vector<Tensor> outputs = tensorList(interp, a[0], "tensors", false);
    std::vector<Tensor> grads =
        a[1].isNone() ? std::vector<Tensor>() : tensorList(interp, a[1], "grad_tensors", true);
    bool create = a.toBool(3);
    runBackwardTo(interp, outputs, grads, retainOf(interp, a[2], create), create, a[4]);
    return Value::none();
}

Value autogradGrad(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(
        "_grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused)");
    BoundArgs a = sig.bind(interp, args);
    std::vector<Tensor> outputs = tensorList(interp, a[0], "outputs", false);
    std::vector<Tensor> inputs = tensorList(interp, a[1], "inputs", false);
    std::vector<Tensor> grads =
        a[2].isNone() ? std::vector<Tensor>() : tensorList(interp, a[2], "grad_outputs", true);
    bool create = a.toBool(4);
    std::vector<Tensor> result =
        tensor::grad(outputs, inputs, grads, retainOf(interp, a[3], create), create, a.toBool(5));
    std::vector<Value> items;
    for (const Tensor& g : result)
        items.push_back(g.defined() ? tensorValue(g) : Value::none());
    return lang::tupleValue(std::move(items));
}

/// Where `.grad` lives: a leaf's own, or the slot a non-leaf's retain_grad() made.
Ref<tensor::TensorImpl>& gradSlot(const Tensor& t) {
    if (t.impl()->retainedGrad) return *t.impl()->retainedGrad;
    return t.impl()->grad;
}

Value propGrad(Interpreter& interp, const CallArgs& args, void*) {
    Tensor self = args.positional[0].asTensor();
    const Ref<tensor::TensorImpl>& grad = gradSlot(self);
    if (!grad) return Value::none();
    return tensorValue(Tensor(grad));
}

Value setGrad(Interpreter& interp, const CallArgs& args, void*) {
    Tensor self = args.positional[0].asTensor();
    const Value& v = args.positional[1];
    if (v.isNone()) {
        gradSlot(self) = {};
        return Value::none();
    }
    if (!v.isTensor())
        interp.raiseTypeError("assigned grad expected to be a Tensor or None but got grad of "
                              "type " +
                              interp.typeName(v));
    Tensor g = v.asTensor();
    if (!(g.sizes() == self.sizes()))
        interp.raise(builtinTypes().runtimeError.get(),
                     "assigned grad has data of a different size");
    if (g.dtype() != self.dtype())
        interp.raise(builtinTypes().runtimeError.get(),
                     "assigned grad has data of a different type");
    gradSlot(self) = g.implRef();
    return Value::none();
}

/// Tensor.register_hook(hook): hook(grad) runs when the tensor's gradient is computed and may
/// return a replacement. The handle is torch.utils.hooks.RemovableHandle over a dict holding
/// the hook, which the engine's hook reads each time: remove() empties it.
Value methodRegisterHook(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("register_hook(self, hook)");
    BoundArgs a = sig.bind(interp, args);
    Tensor self = a.toTensor(0);
    if (!self.requiresGrad())
        interp.raise(builtinTypes().runtimeError.get(),
                     "cannot register a hook on a tensor that doesn't require gradient");
    auto table = makeRef<lang::DictObject>();
    Ref<lang::ModuleObject> hooks = interp.importModule("torch.utils.hooks");
    Value handle = interp.call(
        interp.getAttr(Value(hooks), lang::Symbol::intern("RemovableHandle")), {Value(table)});
    Value id = interp.getAttr(handle, lang::Symbol::intern("id"));
    table->set(interp, id, a[1]);
    Interpreter* in = &interp;
    tensor::addGradHook(self, [in, table, id](const Tensor& grad) {
        Value* hook = table->find(*in, id);
        if (!hook) return Tensor(); // removed
        Value result = in->call(*hook, {tensorValue(grad)});
        if (result.isNone()) return Tensor();
        if (!result.isTensor())
            in->raiseTypeError("hook should return None or a Tensor, got " + in->typeName(result));
        return result.asTensor();
    });
    return handle;
}

Value methodRetainGrad(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("retain_grad(self)");
    BoundArgs a = sig.bind(interp, args);
    tensor::retainGrad(a.toTensor(0));
    return Value::none();
}

Value propRetainsGrad(Interpreter&, const CallArgs& args, void*) {
    Tensor self = args.positional[0].asTensor();
    return Value::fromBool(static_cast<bool>(self.impl()->retainedGrad));
}

Value isAnomalyEnabled(Interpreter&, const CallArgs&, void*) {
    return Value::fromBool(tensor::anomalyMode().enabled);
}

Value isAnomalyCheckNanEnabled(Interpreter&, const CallArgs&, void*) {
    return Value::fromBool(tensor::anomalyMode().checkNan);
}

/// torch._kiln._set_anomaly(enabled, check_nan): what torch.autograd.detect_anomaly and
/// set_detect_anomaly switch.
Value setAnomaly(Interpreter& interp, const CallArgs& args, void*) {
    static const lang::Signature sig("_set_anomaly(enabled, check_nan=True)");
    lang::BoundArgs a = sig.bind(interp, args);
    tensor::setAnomalyMode({a.toBool(0), a.toBool(1)});
    return Value::none();
}

} // namespace

void installAutograd(Interpreter& interp, lang::ModuleObject& torch) {
    interp.defineNative(torch.globals, "is_anomaly_enabled", isAnomalyEnabled);
    interp.defineNative(torch.globals, "is_anomaly_check_nan_enabled", isAnomalyCheckNanEnabled);
    defineTensorProperty(interp, "grad", propGrad, setGrad);
    defineTensorProperty(interp, "retains_grad", propRetainsGrad);
    static const OpEntry ops[] = {{"backward", methodBackward, false, true},
                                  {"register_hook", methodRegisterHook, false, true},
                                  {"retain_grad", methodRetainGrad, false, true}};
    registerOps(interp, &torch.globals, ops);
}

void installAutogradInternals(Interpreter& interp, lang::ModuleObject& kiln) {
    interp.defineNative(kiln.globals, "_run_backward", runBackward);
    interp.defineNative(kiln.globals, "_grad", autogradGrad);
    interp.defineNative(kiln.globals, "_set_anomaly", setAnomaly);
    // torch.autograd.graph.Node: the base class of every grad_fn's class.
    kiln.globals.set(lang::Symbol::intern("_GradFnNode"), Value(torchTypes().gradFn));
}

} // namespace kiln::torchapi
