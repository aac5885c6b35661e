// SPDX-License-Identifier: MIT
// torch.autograd.Function's node (py/torch/autograd/function.py): the outputs of a custom
// function's forward get a PythonFunctionBackward-style node, named "<Class>Backward" as in
// PyTorch, whose next_functions are the tensor arguments' nodes and which calls the class's
// backward(ctx, *grads) when the engine reaches it.
#include "tensor/autograd.h"
#include "tensor/ops.h"
#include "tensor/shape.h"
#include "torchapi/bindings.h"
#include "torchapi/torch_types.h"

#include <algorithm>

namespace kiln::torchapi {

using lang::builtinTypes;
using lang::CallArgs;
using lang::Interpreter;
using lang::Symbol;
using lang::Value;

namespace {

std::vector<Value> itemsOf(Interpreter& interp, const Value& v) {
    if (v.is(lang::ObjectKind::Tuple)) return v.as<lang::TupleObject>()->items;
    return {v};
}

class CustomFunctionBackward final : public tensor::GradNode {
public:
    struct Output {
        tensor::DimVector sizes;
        tensor::DType dtype;
        tensor::Device device;
    };

    CustomFunctionBackward(Interpreter& interp, std::string name, Value backward, Value ctx,
                           size_t argCount)
        : GradNode("CustomFunctionBackward")
        , m_interp(interp)
        , m_name(std::move(name))
        , m_backward(std::move(backward))
        , m_ctx(std::move(ctx))
        , m_argCount(argCount) {
        setName(m_name);
    }

    /// Per edge in `next`: the forward argument it is, and that argument's sizes.
    std::vector<size_t> argOfEdge;
    std::vector<tensor::DimVector> argSizes;
    /// Per forward output position (tensors only are differentiable).
    std::vector<Output> outputs;

    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        if (m_ctx.isNone())
            m_interp.raise(builtinTypes().runtimeError.get(),
                           "Trying to backward through the graph a second time (or directly "
                           "access saved tensors after they have already been freed). Specify "
                           "retain_graph=True if you need to backward through the graph a "
                           "second time.");
        std::vector<Value> args{m_ctx};
        Value materialize = m_interp.tryGetAttr(m_ctx, Symbol::intern("_materialize_grads"));
        bool zerosForMissing = materialize.isEmpty() || m_interp.truthy(materialize);
        for (size_t i = 0; i < outputs.size(); ++i) {
            if (i < grads.size() && grads[i].defined()) {
                args.push_back(tensorValue(grads[i]));
            } else if (zerosForMissing) {
                const Output& o = outputs[i];
                args.push_back(tensorValue(
                    tensor::zeros(o.sizes, tensor::TensorOptions{o.dtype, o.device, false})));
            } else {
                args.push_back(Value::none());
            }
        }
        lang::CallArgs call;
        call.positional = args;
        std::vector<Value> result = itemsOf(m_interp, m_interp.call(m_backward, call));
        checkCount(result);
        std::vector<Tensor> inputGrads(next.size());
        for (size_t k = 0; k < next.size(); ++k) {
            const Value& g = result[argOfEdge[k]];
            if (g.isNone()) continue;
            if (!g.isTensor())
                m_interp.raiseTypeError("function " + m_name +
                                        " returned a gradient different than None at position " +
                                        std::to_string(argOfEdge[k] + 1) +
                                        ", but the corresponding forward input was not a Variable");
            Tensor t = g.asTensor();
            if (!(t.sizes() == argSizes[k]))
                m_interp.raise(
                    builtinTypes().runtimeError.get(),
                    "Function " + m_name + " returned an invalid gradient at index " +
                        std::to_string(argOfEdge[k]) + " - got " + tensor::shapeString(t.sizes()) +
                        " but expected shape compatible with " + tensor::shapeString(argSizes[k]));
            inputGrads[k] = t;
        }
        return inputGrads;
    }

    /// After a backward without retain_graph: ctx (and what it saved) is let go, which also
    /// breaks the cycle of a ctx that saved the function's own output.
    void releaseSaved() override {
        if (!m_ctx.isNone())
            m_interp.setAttr(m_ctx, Symbol::intern("_released"), Value::fromBool(true));
        m_ctx = Value::none();
    }

private:
    /// As many gradients as forward took arguments (more only if the extra ones are None).
    void checkCount(const std::vector<Value>& result) {
        bool extraNone = true;
        for (size_t i = m_argCount; i < result.size(); ++i)
            extraNone = extraNone && result[i].isNone();
        if (result.size() < m_argCount || !extraNone)
            m_interp.raise(
                builtinTypes().runtimeError.get(),
                "function " + m_name + " returned an incorrect number of gradients (expected " +
                    std::to_string(m_argCount) + ", got " + std::to_string(result.size()) + ")");
    }

    Interpreter& m_interp;
    std::string m_name;
    Value m_backward;
    Value m_ctx;
    size_t m_argCount;
};

/// The tensors ctx.mark_non_differentiable() named.
std::vector<const tensor::TensorImpl*> nonDifferentiable(Interpreter& interp, const Value& ctx) {
    std::vector<const tensor::TensorImpl*> out;
    Value marked = interp.tryGetAttr(ctx, Symbol::intern("_non_differentiable"));
    if (marked.isEmpty()) return out;
    for (const Value& v : itemsOf(interp, marked))
        if (v.isTensor()) out.push_back(v.asTensor().impl());
    return out;
}

/// _function_node(name, backward, ctx, args, outputs): `outputs` with the custom node as
/// their grad_fn when grad mode is on and a tensor argument requires grad.
Value functionNode(Interpreter& interp, const CallArgs& args, void*) {
    static const lang::Signature sig("_function_node(name, backward, ctx, args, outputs)");
    lang::BoundArgs a = sig.bind(interp, args);
    std::vector<Value> inputs = itemsOf(interp, a[3]);
    auto node = makeRef<CustomFunctionBackward>(interp, a.toStr(0), a[1], a[2], inputs.size());
    bool anyRequiresGrad = false;
    std::vector<const tensor::TensorImpl*> inputImpls;
    for (size_t j = 0; j < inputs.size(); ++j) {
        if (!inputs[j].isTensor()) continue;
        Tensor t = inputs[j].asTensor();
        inputImpls.push_back(t.impl());
        node->next.push_back(tensor::gradEdgeOf(t));
        node->argOfEdge.push_back(j);
        node->argSizes.push_back(t.sizes());
        anyRequiresGrad = anyRequiresGrad || t.requiresGrad();
    }
    if (!anyRequiresGrad || !tensor::gradModeEnabled()) return a[4];
    const bool tuple = a[4].is(lang::ObjectKind::Tuple);
    std::vector<Value> outputs = itemsOf(interp, a[4]);
    std::vector<const tensor::TensorImpl*> skip = nonDifferentiable(interp, a[2]);
    node->outputCount = static_cast<uint32_t>(outputs.size());
    for (size_t i = 0; i < outputs.size(); ++i) {
        if (!outputs[i].isTensor()) {
            node->outputs.push_back({});
            continue;
        }
        Tensor out = outputs[i].asTensor();
        node->outputs.push_back({out.sizes(), out.dtype(), out.device()});
        if (std::find(skip.begin(), skip.end(), out.impl()) != skip.end()) continue;
        // An argument returned as it is becomes a new tensor (a view of it): its own history
        // must not change.
        if (std::find(inputImpls.begin(), inputImpls.end(), out.impl()) != inputImpls.end())
            out =
                Tensor::view(out.storage(), out.offset(), out.sizes(), out.strides(), out.dtype());
        tensor::setGradNode(out, node, static_cast<uint32_t>(i));
        outputs[i] = tensorValue(out);
    }
    return tuple ? lang::tupleValue(std::move(outputs)) : outputs[0];
}

} // namespace

void installAutogradFunction(Interpreter& interp, lang::ModuleObject& kiln) {
    interp.defineNative(kiln.globals, "_function_node", functionNode);
}

} // namespace kiln::torchapi
