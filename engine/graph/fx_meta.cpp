// SPDX-License-Identifier: MIT
// node.meta as Dynamo 2.3 fills it, as far as a backend reads it: 'example_value' (a
// FakeTensor whose dynamic sizes are SymInts printing as their symbols, or a SymInt),
// 'stack_trace', 'source_fn_stack'.
#include "graph/fx_objects.h"
#include "tensor/ops.h"

namespace kiln::graph::fx {

using namespace kiln::lang;

namespace {

/// Up to this many elements the example is a real zero tensor; beyond it a zero expanded to
/// the shape, so a backend looking at meta never allocates an activation-sized buffer.
constexpr int64_t kMaterialisedElements = int64_t(1) << 16;

/// A zero-filled CPU tensor with the node's dtype and (example) sizes: what a FakeTensor
/// answers dtype questions from (its sizes, strides and device are the node's own).
Value exampleTensor(const ValueMeta& meta) {
    std::vector<int64_t> sizes;
    int64_t numel = 1;
    for (const Dim& d : meta.sizes) {
        sizes.push_back(d.value);
        numel *= d.value;
    }
    tensor::TensorOptions options;
    options.dtype = meta.dtype;
    tensor::Tensor t = numel <= kMaterialisedElements
                           ? tensor::zeros(sizes, options)
                           : tensor::expand(tensor::zeros(tensor::IntList(), options), sizes);
    t.impl()->requiresGrad = meta.requiresGrad;
    return Value(t);
}

/// A SymInt (torch._dynamo.sym_int.GraphInputSymInt) of value `d.value` printing as `d`'s
/// expression ("s0"), as the SymInts in PyTorch's metadata do.
Value exampleSymInt(Interpreter& interp, const Dim& d) {
    Ref<ModuleObject> symInt = interp.importModule("torch._dynamo.sym_int");
    const Value* cls = symInt->globals.find(Symbol::intern("GraphInputSymInt"));
    KILN_ASSERT(cls, "torch._dynamo.sym_int defines GraphInputSymInt");
    return interp.call(
        *cls, {Value::fromInt(0), Value::fromInt(-1), Value::fromInt(d.value), strValue(d.str())});
}

/// torch._subclasses.fake_tensor.FakeTensor of the node's dtype, device and sizes.
Value exampleFakeTensor(Interpreter& interp, const ValueMeta& meta) {
    std::vector<Value> sizes;
    for (const Dim& d : meta.sizes)
        sizes.push_back(d.isSymbolic() ? exampleSymInt(interp, d) : Value::fromInt(d.value));
    Ref<ModuleObject> fake = interp.importModule("torch._subclasses.fake_tensor");
    const Value* cls = fake->globals.find(Symbol::intern("FakeTensor"));
    KILN_ASSERT(cls, "torch._subclasses.fake_tensor defines FakeTensor");
    std::vector<Value> strides;
    for (int64_t stride : meta.strides)
        strides.push_back(Value::fromInt(stride));
    return interp.call(*cls, {exampleTensor(meta), tupleValue(std::move(sizes)),
                              tupleValue(std::move(strides)), strValue(meta.device),
                              strValue(meta.gradFn)});
}

Value exampleValue(Interpreter& interp, const ValueMeta& meta) {
    switch (meta.kind) {
    case ValueMeta::Kind::Tensor:
        return exampleFakeTensor(interp, meta);
    case ValueMeta::Kind::SymInt:
        if (!meta.sizes.empty() && meta.sizes[0].isSymbolic())
            return exampleSymInt(interp, meta.sizes[0]);
        return Value::fromInt(meta.sizes.empty() ? 0 : meta.sizes[0].value);
    default:
        return Value();
    }
}

/// One frame of traceback.format_list, as Dynamo records it.
std::string stackTrace(const Node& n) {
    std::string out = "  File \"" + n.sourceFile + "\", line " + std::to_string(n.span.begin.line);
    if (!n.sourceFunction.empty()) out += ", in " + n.sourceFunction;
    out += "\n";
    if (!n.sourceCode.empty()) out += "    " + n.sourceCode + "\n";
    return out;
}

/// [(name, what was called)]: the function, the method name, or the module's class.
Value sourceFnStack(Interpreter& interp, const NodeObject& self) {
    const Node& n = self.node();
    Value called =
        n.op == NodeOp::CallModule ? Value(interp.typeOf(n.callable)) : nodeTarget(interp, self);
    return listValue({tupleValue({strValue(n.name), called})});
}

bool isCall(NodeOp op) {
    return op == NodeOp::CallFunction || op == NodeOp::CallMethod || op == NodeOp::CallModule;
}

} // namespace

Value nodeMeta(Interpreter& interp, const NodeObject& self) {
    const Node& n = self.node();
    auto dict = makeRef<DictObject>();
    auto set = [&](const char* key, Value v) { dict->set(interp, strValue(key), std::move(v)); };
    if (!n.sourceFile.empty()) set("stack_trace", strValue(stackTrace(n)));
    if (isCall(n.op) && !(n.op == NodeOp::CallModule && n.callable.isEmpty()))
        set("source_fn_stack", sourceFnStack(interp, self));
    Value example = exampleValue(interp, n.meta);
    if (!example.isEmpty()) set("example_value", example);
    return Value(dict);
}

} // namespace kiln::graph::fx
