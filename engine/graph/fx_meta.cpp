// SPDX-License-Identifier: MIT
// node.meta as Dynamo 2.3 fills it, as far as a backend reads it: 'example_value' (and 'val',
// which later passes add), 'stack_trace', 'source_fn_stack'; plus Kiln's 'shape' and
// 'sym_shape' (the sizes with their symbols, which a real tensor cannot carry).
#include "graph/fx_objects.h"
#include "tensor/ops.h"

namespace kiln::graph::fx {

using namespace kiln::lang;

namespace {

/// Up to this many elements the example is a real zero tensor; beyond it a zero expanded to
/// the shape, so a backend looking at meta never allocates an activation-sized buffer.
constexpr int64_t kMaterialisedElements = int64_t(1) << 16;

/// A zero-filled CPU tensor with the node's dtype and (example) sizes. fx gives a FakeTensor
/// on the traced device; Kiln's tensor layer has CPU storage only.
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

Value exampleValue(const ValueMeta& meta) {
    switch (meta.kind) {
    case ValueMeta::Kind::Tensor:
        return exampleTensor(meta);
    case ValueMeta::Kind::SymInt:
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

Value symbolicShape(const ValueMeta& meta) {
    std::vector<Value> dims;
    for (const Dim& d : meta.sizes)
        dims.push_back(d.isSymbolic() ? strValue(d.symbol) : Value::fromInt(d.value));
    return listValue(std::move(dims));
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
    Value example = exampleValue(n.meta);
    if (example.isEmpty()) return Value(dict);
    set("example_value", example);
    set("val", example);
    if (n.meta.kind == ValueMeta::Kind::Tensor) {
        Value shape = interp.tryGetAttr(example, Symbol::intern("shape"));
        if (!shape.isEmpty()) set("shape", shape);
        set("sym_shape", symbolicShape(n.meta));
    }
    return Value(dict);
}

} // namespace kiln::graph::fx
