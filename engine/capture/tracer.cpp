// SPDX-License-Identifier: MIT
// Recording: how values of a traced frame become graph nodes.
#include "capture/tracer.h"

#include "capture/sym_ints.h"
#include "capture/value_kinds.h"
#include "tensor/convert.h"
#include "tensor/grad_node.h"
#include "tensor/storage.h"

#include <algorithm>
#include <cctype>

namespace kiln::capture {

using lang::CallArgs;
using lang::ObjectKind;
using lang::Value;

namespace {

std::string lastComponent(const std::string& dotted) {
    size_t dot = dotted.rfind('.');
    return dot == std::string::npos ? dotted : dotted.substr(dot + 1);
}

bool containsTensor(const Value& v, int depth = 0) {
    if (v.isTensor()) return true;
    if (depth > 3) return false;
    for (const Value& item : sequenceItems(v))
        if (containsTensor(item, depth + 1)) return true;
    return false;
}

/// The `operator` module function for a Python operator (its fx target and node name).
std::string operatorFunctionName(lang::OperatorCall call, uint8_t code) {
    static const char* const binary[] = {"add",  "sub", "mul",    "truediv", "floordiv",
                                         "mod",  "pow", "matmul", "lshift",  "rshift",
                                         "and_", "or_", "xor"};
    static const char* const inplace[] = {"iadd", "isub", "imul",    "itruediv", "ifloordiv",
                                          "imod", "ipow", "imatmul", "ilshift",  "irshift",
                                          "iand", "ior",  "ixor"};
    static const char* const unary[] = {"neg", "pos", "not_", "invert"};
    static const char* const compare[] = {"eq", "ne",  "lt",     "le",       "gt",
                                          "ge", "is_", "is_not", "contains", "not_contains"};
    switch (call) {
    case lang::OperatorCall::Binary:
        return binary[code];
    case lang::OperatorCall::InplaceBinary:
        return inplace[code];
    case lang::OperatorCall::Unary:
        return unary[code];
    case lang::OperatorCall::Compare:
        return compare[code];
    case lang::OperatorCall::GetItem:
        return "getitem";
    case lang::OperatorCall::SetItem:
        return "setitem";
    }
    return "call";
}

} // namespace

Tracer::Tracer(lang::Interpreter& interp, BreakHandler& handler, TraceOptions options)
    : m_interp(interp)
    , m_handler(handler)
    , m_options(std::move(options)) {
    static uint64_t traces = 0;
    m_serial = ++traces;
    m_generatorsBefore = interp.generatorsMade();
}

void Tracer::install() {
    // The frame's grad mode before its first op: placeholders (a SymInt's is made at entry) run
    // in no mode.
    const bool opsRecorded =
        std::any_of(m_graph.nodes.begin(), m_graph.nodes.end(),
                    [](const graph::Node& n) { return n.op != graph::NodeOp::Placeholder; });
    if (!m_installed && !opsRecorded) m_gradMode = tensor::gradModeEnabled();
    m_interp.setRecorder(this);
    m_installed = true;
}

void Tracer::uninstall() {
    if (m_interp.recorder() == this) m_interp.setRecorder(nullptr);
    m_installed = false;
}

bool Tracer::installed() const {
    return m_installed;
}

Value Tracer::runUnrecorded(const std::function<Value()>& run) {
    // Natives and eager operators compute the shadow values; anything they call back into must
    // not be recorded a second time.
    m_interp.setRecorder(nullptr);
    m_interp.enterShadowExecution();
    ++m_unrecorded;
    struct Restore {
        Tracer& t;
        ~Restore() {
            t.m_interp.leaveShadowExecution();
            --t.m_unrecorded;
            if (t.m_installed) t.m_interp.setRecorder(&t);
        }
    } restore{*this};
    return run();
}

// --- nodes

void Tracer::setSourceInfo(graph::Node& node) const {
    // The innermost frame of user code: torch's own Python (SymInt arithmetic, module
    // containers) is not where a user looks.
    const lang::Frame* f = m_interp.currentFrame();
    while (f && !(f->code && f->code->source && !(f->function && isLibraryFunction(*f->function))))
        f = f->parent;
    if (!f) return;
    node.span = f->at;
    node.sourceFile = f->code->source->path();
    node.sourceFunction = f->code->name.str();
    std::string_view line = f->code->source->line(f->at.begin.line);
    size_t b = line.find_first_not_of(" \t");
    node.sourceCode = b == std::string_view::npos ? "" : std::string(line.substr(b));
}

void Tracer::recordGradMode() {
    const bool enabled = tensor::gradModeEnabled();
    if (enabled == m_gradMode) return;
    // Dynamo records grad-mode changes (with torch.no_grad(): ...) as graph nodes, so the
    // graph runs its ops in the mode the frame ran them in.
    m_gradMode = enabled;
    graph::Node node;
    node.op = graph::NodeOp::CallFunction;
    node.target = "torch._C._set_grad_enabled";
    node.name = "_set_grad_enabled";
    node.callable =
        *m_interp.importModule("torch._C")->globals.find(lang::Symbol::intern("_set_grad_enabled"));
    node.args.push_back(graph::Arg::ofConstant(Value::fromBool(enabled)));
    setSourceInfo(node);
    node.name = m_graph.uniqueName(node.name);
    m_graph.add(std::move(node));
}

int32_t Tracer::addNode(graph::Node node) {
    if (node.op == graph::NodeOp::CallFunction || node.op == graph::NodeOp::CallMethod ||
        node.op == graph::NodeOp::CallModule)
        recordGradMode();
    if (node.op != graph::NodeOp::Placeholder) setSourceInfo(node);
    node.name = m_graph.uniqueName(node.name);
    return m_graph.add(std::move(node));
}

graph::ValueMeta Tracer::metaOf(const Value& v) const {
    graph::ValueMeta meta;
    if (!v.isTensor()) {
        meta.kind = v.isNone() ? graph::ValueMeta::Kind::None : graph::ValueMeta::Kind::Other;
        return meta;
    }
    tensor::Tensor t = v.asTensor();
    meta.kind = graph::ValueMeta::Kind::Tensor;
    meta.dtype = t.dtype();
    meta.requiresGrad = t.requiresGrad();
    if (t.impl()->gradFn) meta.gradFn = t.impl()->gradFn->name();
    meta.device = t.device().str();
    for (int64_t d = 0; d < t.dim(); ++d) {
        graph::Dim dim;
        dim.value = t.sizes()[static_cast<size_t>(d)];
        meta.sizes.push_back(dim);
        meta.strides.push_back(t.strides()[static_cast<size_t>(d)]);
    }
    symbolise(meta);
    return meta;
}

int32_t Tracer::placeholderFor(const Value& tensor, const SourcePtr& source) {
    tensor::Tensor t = tensor.asTensor();
    graph::Node node;
    bool parameter = m_moduleTensors.count(tensor.tensorImpl()) > 0;
    if (parameter) {
        node.op = graph::NodeOp::GetAttr;
        node.target = source->moduleAttributeName();
        node.name = node.target;
        std::transform(node.name.begin(), node.name.end(), node.name.begin(),
                       [](unsigned char c) { return std::tolower(c); });
        node.callable = tensor;
    } else {
        std::vector<bool> dynamic =
            m_options.dynamicDims ? m_options.dynamicDims(*source, t) : std::vector<bool>();
        dynamic.resize(static_cast<size_t>(t.dim()), false);
        for (size_t d = 0; d < dynamic.size(); ++d) {
            if (dynamic[d] && t.sizes()[d] < 2)
                dynamic[d] = false; // sizes 0 and 1 stay specialised
            if (dynamic[d]) newSymbol(source, static_cast<int64_t>(d), t.sizes()[d]);
        }
        addGuard(Guard::tensorMatch(source, t, dynamic));
        // The graph reads this one placeholder wherever the tensor was: later calls must pass
        // one tensor at all those places too.
        auto aliases = m_tensorAliases.find(tensor.tensorImpl());
        if (aliases != m_tensorAliases.end())
            for (const SourcePtr& alias : aliases->second)
                addGuard(Guard::sameObject(alias, source));
        for (size_t d = 0; d < dynamic.size(); ++d) {
            if (!dynamic[d]) continue;
            const SymbolInfo* sym = symbolInfo(*source, static_cast<int64_t>(d));
            if (sym->duck) { // the symbol's first dim is bounded already; this one equals it
                const SymbolInfo* first = duckSymbol(sym->hint);
                addGuard(Guard::dimEquals(source, static_cast<int64_t>(d), first->source,
                                          first->dim, sym->name));
                continue;
            }
            addGuard(Guard::dimAtLeast(source, static_cast<int64_t>(d), 2, sym->name));
        }
        node.op = graph::NodeOp::Placeholder;
        node.target = source->identifier();
        node.name = node.target;
        std::transform(node.name.begin(), node.name.end(), node.name.begin(),
                       [](unsigned char c) { return std::tolower(c); });
        node.sourceName = source->str();
    }
    node.meta = metaOf(tensor);
    if (!parameter) {
        // An input's dims carry its own symbols, even when another input has the same size
        // (metaOf can only guess those by value).
        for (size_t d = 0; d < node.meta.sizes.size(); ++d)
            node.meta.sizes[d].symbol = symbolFor(*source, static_cast<int64_t>(d));
    }
    int32_t index = addNode(std::move(node));
    if (!parameter) {
        m_placeholders.push_back(PlaceholderRecord{index, tensor, source});
        m_inputUseOrder.emplace(index, m_inputUseOrder.size());
    }
    m_traced[tensor.tensorImpl()] =
        TracedTensor{index, -1, 0, Ref<tensor::TensorImpl>(tensor.tensorImpl())};
    applyPendingNames(tensor.tensorImpl(), index);
    return index;
}

int32_t Tracer::constantTensorNode(const Value& tensor) {
    graph::Node node;
    node.op = graph::NodeOp::GetAttr;
    node.target = "_tensor_constant" + std::to_string(m_constantCount++);
    node.name = node.target;
    node.callable = tensor;
    node.meta = metaOf(tensor);
    int32_t index = addNode(std::move(node));
    m_traced[tensor.tensorImpl()] =
        TracedTensor{index, -1, 0, Ref<tensor::TensorImpl>(tensor.tensorImpl())};
    return index;
}

int32_t Tracer::nodeOf(const Value& tensor) {
    auto it = m_traced.find(tensor.tensorImpl());
    if (it == m_traced.end()) return -1;
    TracedTensor& tt = it->second;
    if (tt.node >= 0) return tt.node;
    graph::Node node;
    node.op = graph::NodeOp::CallFunction;
    node.operatorKind = graph::OperatorKind::GetItem;
    node.target = "operator.getitem";
    node.name = "getitem";
    node.args = {graph::Arg::ofNode(tt.tupleNode),
                 graph::Arg::ofConstant(Value::fromInt(tt.tupleIndex))};
    node.meta = metaOf(tensor);
    deriveUnknownSizes(node.meta, m_graph.nodes[static_cast<size_t>(tt.tupleNode)]);
    int32_t index = addNode(std::move(node));
    m_traced[tensor.tensorImpl()].node = index;
    return index;
}

int32_t Tracer::sizeConstruction(const Value& size) {
    // Dynamo passes a torch.Size it has no node for (x.shape[-2:]) as torch.Size([...]).
    std::vector<graph::Arg> items;
    for (const Value& item : sequenceItems(size))
        items.push_back(argOf(item));
    graph::Node n;
    n.op = graph::NodeOp::CallFunction;
    n.target = "torch.Size";
    n.name = "size";
    n.callable = Value(m_interp.typeOf(size));
    n.args = {graph::Arg::ofSequence(graph::Arg::Kind::List, std::move(items))};
    n.meta.kind = graph::ValueMeta::Kind::Other;
    const int32_t node = addNode(std::move(n));
    m_sizeTuples[size.asObject()] = {size, node};
    return node;
}

graph::Arg Tracer::argOf(const Value& v) {
    if (v.isTensor()) {
        int32_t node = nodeOf(v);
        if (node >= 0) return graph::Arg::ofNode(node);
        auto src = m_tensorSources.find(v.tensorImpl());
        if (src != m_tensorSources.end()) return graph::Arg::ofNode(placeholderFor(v, src->second));
        return graph::Arg::ofNode(constantTensorNode(v));
    }
    if (auto s = ownSymInt(v)) return graph::Arg::ofNode(s->node);
    if (auto s = symIntOf(m_interp, v)) return graph::Arg::ofConstant(s->value); // older trace
    if (v.is(ObjectKind::Slice) && holdsSymInt(v)) {
        const auto* slice = v.as<lang::SliceObject>();
        return graph::Arg::ofSequence(
            graph::Arg::Kind::Slice, {argOf(slice->start), argOf(slice->stop), argOf(slice->step)});
    }
    if (auto size = m_sizeTuples.find(v.isObject() ? v.asObject() : nullptr);
        size != m_sizeTuples.end())
        return graph::Arg::ofNode(size->second.second);
    if (v.is(ObjectKind::Tuple) && holdsSymInt(v) && m_interp.typeName(v) == "Size")
        return graph::Arg::ofNode(sizeConstruction(v));
    if ((v.is(ObjectKind::List) || v.is(ObjectKind::Tuple)) &&
        (containsTensor(v) || holdsSymInt(v))) {
        std::vector<graph::Arg> items;
        for (const Value& item : sequenceItems(v))
            items.push_back(argOf(item));
        return graph::Arg::ofSequence(v.is(ObjectKind::List) ? graph::Arg::Kind::List
                                                             : graph::Arg::Kind::Tuple,
                                      std::move(items));
    }
    specializeEmbedded(v);
    return graph::Arg::ofConstant(v);
}

namespace {

bool truthy(const Value& v) {
    return (v.isBool() || v.isInt()) && v.asInt() != 0;
}

/// `inplace=True` among the keywords (F.relu(x, inplace=True), F.dropout(..., inplace=True)).
bool inplaceKeyword(const CallArgs& args) {
    if (args.positional.empty()) return false;
    for (size_t i = 0; i < args.keywordNames.size(); ++i)
        if (args.keywordNames[i].str() == "inplace") return truthy(args.keywordValues[i]);
    return false;
}

} // namespace

void Tracer::registerResult(const Value& result, int32_t node) {
    graph::Node& n = m_graph.nodes[static_cast<size_t>(node)];
    n.meta = metaOf(result);
    deriveUnknownSizes(n.meta, n);
    specializeBroadcastSymbols(n);
    if (result.isTensor()) {
        tensor::TensorImpl* impl = result.tensorImpl();
        if (m_traced.count(impl) || m_tensorSources.count(impl))
            return; // an in-place op returns its input: later uses keep referring to it
        m_traced[impl] = TracedTensor{node, -1, 0, Ref<tensor::TensorImpl>(impl)};
        return;
    }
    const auto& items = sequenceItems(result);
    for (size_t i = 0; i < items.size(); ++i) {
        if (!items[i].isTensor()) continue;
        tensor::TensorImpl* impl = items[i].tensorImpl();
        if (m_traced.count(impl)) continue;
        m_traced[impl] =
            TracedTensor{-1, node, static_cast<int32_t>(i), Ref<tensor::TensorImpl>(impl)};
    }
}

bool Tracer::isTraced(const Value& v) const {
    if (v.isTensor())
        return m_traced.count(v.tensorImpl()) || m_tensorSources.count(v.tensorImpl());
    if (v.is(ObjectKind::List) || v.is(ObjectKind::Tuple)) {
        for (const Value& item : sequenceItems(v))
            if (item.isTensor() && isTraced(item)) return true;
    }
    return false;
}

bool Tracer::argsTraced(const CallArgs& args) const {
    for (const Value& v : args.positional)
        if (isTraced(v)) return true;
    for (const Value& v : args.keywordValues)
        if (isTraced(v)) return true;
    return false;
}

void Tracer::noteInPlace(const Value& target) {
    if (!target.isTensor()) return;
    tensor::TensorImpl* impl = target.tensorImpl();
    auto it = m_traced.find(impl);
    bool preExisting = it == m_traced.end() ||
                       m_graph.nodes[static_cast<size_t>(std::max(it->second.node, 0))].op ==
                           graph::NodeOp::Placeholder ||
                       m_graph.nodes[static_cast<size_t>(std::max(it->second.node, 0))].op ==
                           graph::NodeOp::GetAttr;
    if (!preExisting) {
        // A view of an input (x.t().add_(1)) writes the input's storage: save the input.
        for (const PlaceholderRecord& p : m_placeholders)
            if (p.value.isTensor() && p.value.tensorImpl()->storage == impl->storage &&
                m_undoSaved.insert(p.value.tensorImpl()).second)
                saveForUndo(p.value.asTensor());
        for (tensor::TensorImpl* param : m_moduleTensors)
            if (param->storage == impl->storage && m_undoSaved.insert(param).second)
                saveForUndo(tensor::Tensor{Ref<tensor::TensorImpl>(param)});
        return;
    }
    if (m_undoSaved.insert(impl).second) saveForUndo(target.asTensor());
}

void Tracer::saveForUndo(const tensor::Tensor& t) {
    m_undo.push_back({t, tensor::clone(t), t.storage()->version()});
}

void Tracer::undoInPlaceChanges() {
    if (!m_undo.empty()) tensor::runAllPendingFills(); // deferred ops saw the changed values
    for (size_t i = m_undo.size(); i-- > 0;) {
        tensor::copyInto(m_undo[i].target, m_undo[i].saved);
        m_undo[i].target.storage()->restoreVersion(m_undo[i].version);
    }
    m_undo.clear();
    m_undoSaved.clear();
}

Value Tracer::callNative(lang::NativeFunctionObject& fn, const CallArgs& args) {
    const lang::TraceInfo* info = fn.trace.get();
    auto run = [&] { return fn.fn(m_interp, args, fn.data); };
    if (!info) {
        // Builtins: what they do to tensors goes through the hooked protocols; list and dict
        // methods that change a container from before the frame are side effects.
        if (isContainerMutator(fn, args)) containerMutation(fn, args);
        return run();
    }
    switch (info->kind) {
    case lang::TraceKind::Metadata:
        return metadataRead(fn, args, runUnrecorded(run));
    case lang::TraceKind::Break:
        if (m_options.captureScalarOutputs && fn.name == "item" && argsTraced(args)) {
            Value value = runUnrecorded(run);
            if (value.isInt() || value.isFloat()) return recordItem(args.positional[0], value);
        }
        if (info->always || argsTraced(args)) {
            graphBreak(static_cast<BreakKind>(info->breakKind), info->reason);
            concretizeArgs(args); // it runs eagerly
        }
        return run();
    case lang::TraceKind::Opaque:
        if (argsTraced(args)) {
            graphBreak(BreakKind::Unsupported,
                       "call_function " + fn.name + " (not supported by torch.compile capture)");
            concretizeArgs(args);
        }
        return run();
    case lang::TraceKind::Record:
        // torch.where(cond) alone is nonzero(cond, as_tuple=True): its shape depends on data.
        if (info->target == "torch.where" && args.positional.size() == 1 &&
            args.keywordNames.empty() && argsTraced(args)) {
            graphBreak(BreakKind::DynamicShapeOp, "dynamic shape operator: aten.nonzero.default");
            concretizeArgs(args);
            return run();
        }
        break;
    }
    if (info->inPlace && !args.positional.empty()) noteInPlace(args.positional[0]);
    for (size_t i = 0; i < args.positional.size() && i < 8; ++i)
        if (info->writesArgs & (1u << i)) noteInPlace(args.positional[i]);
    bool flaggedInPlace = !info->inPlace && inplaceKeyword(args);
    if (flaggedInPlace) noteInPlace(args.positional[0]);
    Value result = runUnrecorded([&] { return runOnValues(fn, args); });
    if (!containsTensor(result)) return result;
    graph::Node node;
    if (info->attribute && info->target == "grad") {
        // x.grad of an input or parameter is an input of its own (source L['x'].grad), as in
        // Dynamo: a compiled optimizer step reads it. A fallback reading it from the graph's
        // buffer of x would find none.
        const SourcePtr* base = sourceOf(args.positional[0]);
        if (base && result.isTensor() && !m_traced.count(result.tensorImpl())) {
            registerSource(result, Source::attribute(*base, lang::Symbol::intern("grad")), 0);
            return result;
        }
    }
    if (info->attribute) {
        // A tensor-valued property: getattr(x, 'T'), as Dynamo records attribute reads.
        node.target = "getattr";
        node.name = "getattr";
        node.callable = *m_interp.builtinsModule().globals.find(lang::Symbol::intern("getattr"));
        node.op = graph::NodeOp::CallFunction;
        node.args.push_back(argOf(args.positional[0]));
        node.args.push_back(graph::Arg::ofConstant(lang::strValue(info->target)));
        registerResult(result, addNode(std::move(node)));
        return result;
    }
    node.op = info->method ? graph::NodeOp::CallMethod : graph::NodeOp::CallFunction;
    node.target = info->target;
    node.name = lastComponent(info->target);
    if (!info->method) node.callable = Value(&fn);
    for (const Value& a : args.positional)
        node.args.push_back(argOf(a));
    for (size_t i = 0; i < args.keywordNames.size(); ++i)
        node.kwargs.emplace_back(args.keywordNames[i].str(), argOf(args.keywordValues[i]));
    int32_t id = addNode(std::move(node));
    registerResult(result, id);
    deriveSizes(id, args.positional, false);
    deriveSizes(id, args.keywordValues, false);
    if (flaggedInPlace) rebindWritten(args, result, id);
    return result;
}

Value Tracer::recordLibraryCall(const Value& callee, const std::string& target, graph::NodeOp op,
                                const CallArgs& args, const std::function<Value()>& run) {
    // nn.ReLU(inplace=True) and the like write their input and return it.
    lang::Value inplace = op == graph::NodeOp::CallModule
                              ? m_interp.tryGetAttr(callee, lang::Symbol::intern("inplace"))
                              : lang::Value();
    bool flaggedInPlace = !args.positional.empty() && truthy(inplace);
    if (flaggedInPlace) noteInPlace(args.positional[0]);
    // A called module may update its buffers (BatchNorm's running stats in training): the
    // trace runs it on real values, so they are put back with the other in-place changes, or
    // the first call would update them twice (once here, once in the compiled graph).
    if (op == graph::NodeOp::CallModule) {
        const Value buffers = m_interp.tryGetAttr(callee, lang::Symbol::intern("_buffers"));
        if (buffers.is(ObjectKind::Dict))
            buffers.as<lang::DictObject>()->forEach(
                [&](const Value&, const Value& buffer) { noteInPlace(buffer); });
    }
    Value result = runUnrecorded(run);
    if (!containsTensor(result)) return result;
    graph::Node node;
    node.op = op;
    node.target = target;
    node.name = op == graph::NodeOp::CallModule ? target : lastComponent(target);
    if (op == graph::NodeOp::CallModule)
        std::transform(node.name.begin(), node.name.end(), node.name.begin(),
                       [](unsigned char c) { return std::tolower(c); });
    node.callable = callee;
    if (op == graph::NodeOp::CallModule)
        if (const SourcePtr* source = sourceOf(callee)) node.modulePath = (*source)->shortStr();
    for (const Value& a : args.positional)
        node.args.push_back(argOf(a));
    for (size_t i = 0; i < args.keywordNames.size(); ++i)
        node.kwargs.emplace_back(args.keywordNames[i].str(), argOf(args.keywordValues[i]));
    int32_t id = addNode(std::move(node));
    registerResult(result, id);
    if (flaggedInPlace) rebindWritten(args, result, id);
    return result;
}

void Tracer::rebindWritten(const CallArgs& args, const Value& result, int32_t node) {
    // The call wrote its first argument and returned it: the tensor now holds the node's value,
    // so later uses read the node (F.relu(x, inplace=True) is relu_(x), not a dead node).
    if (!result.isTensor() || args.positional.empty() || !args.positional[0].isTensor() ||
        result.tensorImpl() != args.positional[0].tensorImpl())
        return;
    tensor::TensorImpl* impl = result.tensorImpl();
    m_traced[impl] = TracedTensor{node, -1, 0, Ref<tensor::TensorImpl>(impl)};
}

Value Tracer::callOperator(lang::OperatorCall call, uint8_t code, std::span<const Value> args,
                           const std::function<Value()>& compute) {
    if (call == lang::OperatorCall::InplaceBinary || call == lang::OperatorCall::SetItem)
        noteInPlace(args[0]);
    Value result = runUnrecorded(compute);
    if (result.isEmpty() && call != lang::OperatorCall::SetItem) {
        // The tensor operator does not take these operands (a SymInt is not a number to it):
        // with SymInts of this trace it computes on their values, else the caller goes on to
        // the operands' own methods.
        if (!std::any_of(args.begin(), args.end(), [&](const Value& a) { return holdsSymInt(a); }))
            return result;
        result = runUnrecorded([&] { return operateOnValues(call, code, args); });
    }
    graph::Node node;
    node.op = graph::NodeOp::CallFunction;
    node.operatorKind = static_cast<graph::OperatorKind>(static_cast<uint8_t>(call) + 1);
    node.operatorCode = code;
    node.target = "operator." + operatorFunctionName(call, code);
    node.name = operatorFunctionName(call, code);
    for (const Value& a : args)
        node.args.push_back(argOf(a));
    int32_t index = addNode(std::move(node));
    if (call == lang::OperatorCall::SetItem) {
        m_graph.nodes[static_cast<size_t>(index)].meta = metaOf(Value::none());
        return result;
    }
    registerResult(result, index);
    deriveSizes(index, args, call == lang::OperatorCall::GetItem);
    return result;
}

} // namespace kiln::capture
