// SPDX-License-Identifier: MIT
// Where a trace ends: graph breaks, inlining (and unwinding from a break inside a callee), the
// memo of the current statement, the graph's live outputs, and dynamic-shape symbols.
#include "capture/sym_ints.h"
#include "capture/tracer.h"
#include "capture/value_kinds.h"
#include "lang/scope.h"

#include <algorithm>
#include <set>

namespace kiln::capture {

using lang::CallArgs;
using lang::ObjectKind;
using lang::Value;

namespace {

/// The Dynamo VariableTracker class a value would be, as 2.3 spells it in print's reason.
std::string variableClass(lang::Interpreter& interp, const Value& v, bool traced) {
    std::string name = variableTypeName(interp, v, traced);
    std::string cls = name.substr(0, name.find('('));
    const char* module = "user_defined";
    if (cls == "TensorVariable")
        module = "tensor";
    else if (cls == "ConstantVariable")
        module = "constant";
    else if (cls == "ListVariable" || cls == "TupleVariable")
        module = "lists";
    else if (cls == "ConstDictVariable")
        module = "dicts";
    else if (cls == "UserFunctionVariable")
        module = "functions";
    return "<class 'torch._dynamo.variables." + std::string(module) + "." + cls + "'>";
}

bool spanWithin(const SourceSpan& inner, const SourceSpan& outer) {
    auto before = [](const SourcePos& a, const SourcePos& b) {
        return a.line < b.line || (a.line == b.line && a.column <= b.column);
    };
    return before(outer.begin, inner.begin) && before(inner.end, outer.end);
}

} // namespace

BreakReason Tracer::makeReason(BreakKind kind, std::string text) const {
    BreakReason r;
    r.kind = kind;
    r.text = std::move(text);
    r.stack = userStackOf(m_interp.currentFrame(), m_top);
    return r;
}

void Tracer::graphBreak(BreakKind kind, std::string text) {
    BreakReason reason = makeReason(kind, std::move(text));
    if (m_options.fullgraph) m_handler.raiseUnsupported(reason);
    if (m_inlineDepth > 0) throw InlineBreak{{}, std::move(reason)};
    if (m_interp.currentFrame() != m_top || m_top->loopDepth > 0 || m_top->blockDepth > 0) {
        // Comprehensions run as loops in their own frame: a break there is a break in a loop.
        bool inLoop = m_interp.currentFrame() != m_top || m_top->loopDepth > 0;
        std::string where = inLoop ? "a for/while loop" : "a with/try block";
        std::string message = "Skipping frame because there is a graph break in " + where;
        if (m_handler.skipInPlace(reason, message)) return;
        throw SkipFrame{{}, reason, message};
    }
    m_handler.breakAtTop(*this, reason);
}

void Tracer::needValue(const Value&, lang::TensorValueUse use) {
    switch (use) {
    case lang::TensorValueUse::Branch:
        graphBreak(BreakKind::DataDependent, "generic_jump TensorVariable()");
        return;
    case lang::TensorValueUse::Bool:
        graphBreak(BreakKind::ScalarConvert,
                   "call_function BuiltinVariable(bool) [TensorVariable()] {}");
        return;
    case lang::TensorValueUse::Int:
        graphBreak(BreakKind::ScalarConvert,
                   "call_function BuiltinVariable(int) [TensorVariable()] {}");
        return;
    case lang::TensorValueUse::Float:
        graphBreak(BreakKind::ScalarConvert,
                   "call_function BuiltinVariable(float) [TensorVariable()] {}");
        return;
    case lang::TensorValueUse::Format:
        graphBreak(BreakKind::ScalarConvert,
                   "call_function BuiltinVariable(str) [TensorVariable()] {}");
        return;
    case lang::TensorValueUse::Iterate:
        graphBreak(BreakKind::Unsupported, "iteration over a TensorVariable()");
        return;
    }
}

void Tracer::sideEffect(const std::string& builtin, const CallArgs& args) {
    std::string types;
    for (const Value& a : args.positional)
        types += (types.empty() ? "" : ", ") + variableClass(m_interp, a, isTraced(a));
    graphBreak(BreakKind::SideEffect, "builtin: " + builtin + " [" + types + "] " +
                                          (args.keywordNames.empty() ? "False" : "True"));
    concretizeArgs(args); // the builtin runs eagerly: it sees ints, not SymInts
}

namespace {

/// The list or dict a container method is called on: its bound self, or its first argument
/// when called unbound (list.append(xs, v), as call sites do for speed).
const Value* containerOf(const lang::NativeFunctionObject& fn, const CallArgs& args) {
    if (!fn.bound.isEmpty()) return &fn.bound;
    return args.positional.empty() ? nullptr : &args.positional[0];
}

} // namespace

bool Tracer::isContainerMutator(const lang::NativeFunctionObject& fn, const CallArgs& args) const {
    static const std::set<std::string> list = {"append", "extend", "insert", "pop",
                                               "remove", "clear",  "sort",   "reverse"};
    static const std::set<std::string> dict = {"update", "setdefault", "pop", "popitem", "clear"};
    const Value* container = containerOf(fn, args);
    if (!container) return false;
    if (container->is(ObjectKind::List)) return list.count(fn.name) > 0;
    if (container->is(ObjectKind::Dict)) return dict.count(fn.name) > 0;
    return false;
}

void Tracer::containerMutation(const lang::NativeFunctionObject& fn, const CallArgs& args) {
    const Value& container = *containerOf(fn, args);
    const size_t self = fn.bound.isEmpty() ? 1 : 0; // where the method's own arguments start
    noteContainerChange(container, fn.name == "append");
    const SourcePtr* target = sourceOf(container);
    if (!target && !isForeign(container)) return; // made by the trace
    if (target && fn.name == "append" && container.is(ObjectKind::List) &&
        args.positional.size() == self + 1) {
        // list.append on a list from before the frame: replayed after the graph.
        m_sideEffects.push_back(
            SideEffect{SideEffect::Kind::Append, *target, Value(), args.positional[self]});
        concretizeArgs(args);
        return;
    }
    mutationBreak(container, (fn.name + "()").c_str());
    concretizeArgs(args);
}

Value Tracer::mutation(const Value& object, const char* what, const Value& key,
                       const Value& value) {
    if (object.isTensor()) return value;
    // Every store is noted, whichever object it changes: the trace cannot tell all objects
    // from before the frame (one reached through another module's globals), and putting back
    // a store into an object the trace made is harmless.
    const std::string_view change(what);
    if (change.starts_with("attribute") || change.starts_with("item"))
        noteStore(object, key, change.starts_with("attribute"));
    else if (object.is(ObjectKind::List))
        noteContainerChange(object, true); // list += other
    else
        m_storesUndoable = false;
    const SourcePtr* target = sourceOf(object);
    if (std::string_view(what) == "attribute assignment") markModuleDynamic(object);
    // Objects the trace created are free to change (their recipes rebuild them, SymInts
    // included); one that predates the frame but has no source (reached through a closure or
    // another module's globals) cannot be replayed.
    if (!target && !isForeign(object)) return value;
    // What is stored into an object from before the frame stays in the program after the
    // trace: plain values, not SymInts.
    const Value stored = concreteValue(m_interp, value);
    // Stores into plain instances, dicts and lists are replayed after the graph; an object with
    // its own __setattr__ (an nn.Module) would run code the replay cannot see: break.
    const bool attribute = std::string_view(what) == "attribute assignment";
    const Value* setattr =
        attribute ? m_interp.typeOf(object)->lookup(lang::Symbol::intern("__setattr__")) : nullptr;
    const bool item = std::string_view(what) == "item assignment";
    const bool plain =
        attribute
            ? object.is(ObjectKind::Instance) && (!(setattr && setattr->is(ObjectKind::Function)) ||
                                                  moduleStoresPlainly(object, key, stored))
            : item && (object.is(ObjectKind::Dict) || object.is(ObjectKind::List));
    if (target && plain && !key.isTensor()) {
        if (attribute && isModuleObject(m_interp, object) && !replaysModuleStore(object, key))
            return mutationBreak(object, what), stored;
        m_sideEffects.push_back(SideEffect{
            attribute ? SideEffect::Kind::Attribute : SideEffect::Kind::Item, *target, key, value});
        return stored;
    }
    mutationBreak(object, what);
    return stored;
}

bool Tracer::moduleStoresPlainly(const Value& module, const Value& name, const Value& value) {
    // nn.Module.__setattr__ stores a number, string or None like object.__setattr__ unless the
    // name is a parameter, buffer or submodule; Dynamo replays such stores (`self.calls += 1`)
    // after the graph as well.
    if (!isModuleObject(m_interp, module) || !name.is(ObjectKind::Str)) return false;
    if (!(value.isNone() || value.isBool() || value.isInt() || value.isFloat() ||
          value.is(ObjectKind::Str)))
        return false;
    auto* instance = module.as<lang::InstanceObject>();
    for (const char* registry : {"_parameters", "_buffers", "_modules"}) {
        const Value* dict = instance->attrs.find(lang::Symbol::intern(registry));
        if (!dict || !dict->is(ObjectKind::Dict)) return false;
        if (dict->as<lang::DictObject>()->find(m_interp, name)) return false;
    }
    return true;
}

bool Tracer::replaysModuleStore(const Value& object, const Value& name) const {
    // Replayed as a plain store only into an attribute the module has, holding a number, string
    // or None: a new attribute, or one holding an object, breaks. Nothing is guarded for the
    // store itself: a value the trace read (`self.calls` of `self.calls += 1`) is guarded as a
    // read through an unspecialized module (markModuleDynamic), as Dynamo guards it.
    lang::Symbol attr = lang::Symbol::intern(name.as<lang::StrObject>()->str());
    for (const SideEffect& e : m_sideEffects)
        if (e.kind == SideEffect::Kind::Attribute && e.key.is(ObjectKind::Str) &&
            e.key.as<lang::StrObject>()->str() == attr.str() && sourceOf(object) &&
            e.target->str() == (*sourceOf(object))->str())
            return true; // stored before in this frame
    const Value* current = object.as<lang::InstanceObject>()->attrs.find(attr);
    return current && (current->isNone() || current->isBool() || current->isInt() ||
                       current->isFloat() || current->is(ObjectKind::Str));
}

void Tracer::guardForwardHooks(const Value& module, const SourcePtr& source, bool includeEmpty) {
    if (!module.is(ObjectKind::Instance)) return;
    const auto& attrs = module.as<lang::InstanceObject>()->attrs;
    for (const char* name : {"_forward_pre_hooks", "_forward_hooks"}) {
        lang::Symbol attr = lang::Symbol::intern(name);
        const Value* hooks = attrs.find(attr);
        if (!hooks || !hooks->is(ObjectKind::Dict)) continue;
        SourcePtr dictSource = Source::attribute(source, attr);
        const auto* dict = hooks->as<lang::DictObject>();
        if (dict->size() == 0 && !includeEmpty) continue;
        addGuard(Guard::lengthCheck(dictSource, static_cast<int64_t>(dict->size())));
        dict->forEach([&](const Value& key, const Value& hook) {
            addGuard(Guard::idMatch(Source::item(dictSource, key), hook));
        });
    }
}

void Tracer::mutationBreak(const Value& object, const char* what) {
    graphBreak(BreakKind::Mutation,
               std::string(what) + " on " + variableTypeName(m_interp, object, false) +
                   " from outside the compiled frame (it runs code of its own, which a replay "
                   "after the graph would not)");
}

void Tracer::evaluated(const lang::Frame& frame, const lang::Expr& expr, const Value& value) {
    if (expr.kind == lang::ExprKind::Name &&
        static_cast<const lang::NameExpr&>(expr).scope == lang::NameScope::Free)
        noteForeign(value); // a closure value of an inlined function: no source of its own
    if (&frame != m_top) return;
    if (expr.kind == lang::ExprKind::Name) {
        const auto& name = static_cast<const lang::NameExpr&>(expr);
        // Closure values follow the local slots among the frame's inputs.
        const bool free = name.scope == lang::NameScope::Free;
        const auto slot =
            static_cast<size_t>(name.slot) + (free ? frame.code->scope->slots.size() : size_t(0));
        if ((name.scope == lang::NameScope::Local || name.scope == lang::NameScope::Cell || free) &&
            name.slot >= 0 && slot < m_pendingGuards.size() && m_pendingGuards[slot].second) {
            auto [entryValue, source] = std::move(m_pendingGuards[slot]);
            m_pendingGuards[slot] = {};
            guardValue(entryValue, source);
        }
        if (auto it = m_entryGuards.find(slot); it != m_entryGuards.end()) {
            UserStack stack = userStackOf(m_interp.currentFrame(), m_top);
            for (size_t g : it->second)
                if (!stack.empty() && g < m_guards.guards.size()) {
                    GuardOrigin& origin = m_guards.guards[g].origin;
                    origin.file = stack.back().file;
                    origin.line = stack.back().line;
                    origin.function = stack.back().function;
                    origin.code = stack.back().code;
                }
            m_entryGuards.erase(it);
        }
    }
    if (frame.currentStmt != m_memoStatement) {
        m_memo.clear();
        m_memoStatement = frame.currentStmt;
        m_memoReliable = true;
    }
    // Keep only the outermost evaluated sub-expressions: evaluation is post-order, so the
    // parts of `expr` are the entries at the end that lie within its span.
    while (!m_memo.empty() && spanWithin(m_memo.back().first->span, expr.span))
        m_memo.pop_back();
    for (const auto& entry : m_memo)
        if (entry.first == &expr)
            m_memoReliable = false; // evaluated twice in one statement: cannot be replayed
    m_memo.emplace_back(&expr, value);
}

Value Tracer::inlineCall(lang::FunctionObject& fn, const CallArgs& args, const Value* self) {
    size_t snapshot = m_graph.nodes.size();
    NameMark names = nameMark();
    auto memo = m_memo;
    // Stores the callee makes into objects from before the frame are replayed after the graph,
    // as Dynamo replays them; if the call ends the graph before it instead, they are taken back
    // (the call runs again as its own frame).
    const size_t sideEffects = m_sideEffects.size();
    const size_t storeUndos = m_storeUndo.size();
    // So is the grad mode: the break unwinds the callee without running its `finally`
    // (an optimizer step's restoring set_grad_enabled).
    const bool gradMode = tensor::gradModeEnabled();
    const bool recordedGradMode = m_gradMode;
    ++m_inlineDepth;
    try {
        Value v = m_interp.callFunctionDirect(fn, args, self);
        --m_inlineDepth;
        return v;
    } catch (InlineBreak& b) {
        --m_inlineDepth;
        if (m_inlineDepth > 0) throw;
        // The caller's graph ends before this call; the callee then runs as its own frame.
        undoNamesSince(names);
        truncate(snapshot);
        m_memo = std::move(memo);
        undoStoresSince(storeUndos);
        m_sideEffects.resize(sideEffects);
        tensor::setGradModeEnabled(gradMode);
        m_gradMode = recordedGradMode;
        if (m_interp.currentFrame() != m_top || m_top->loopDepth > 0 || m_top->blockDepth > 0) {
            std::string message =
                "Skipping frame because there is a graph break in a for/while loop";
            if (m_handler.skipInPlace(b.reason, message)) return Value();
            throw SkipFrame{{}, b.reason, message};
        }
        m_handler.breakAtTop(*this, b.reason);
        return Value();
    } catch (...) {
        --m_inlineDepth;
        throw;
    }
}

void Tracer::truncate(size_t size) {
    m_graph.truncate(size);
    for (auto it = m_traced.begin(); it != m_traced.end();) {
        if (it->second.node >= static_cast<int32_t>(size) ||
            it->second.tupleNode >= static_cast<int32_t>(size))
            it = m_traced.erase(it);
        else
            ++it;
    }
    std::erase_if(m_placeholders,
                  [&](const PlaceholderRecord& p) { return p.node >= static_cast<int32_t>(size); });
    std::erase_if(m_sizeTuples, [&](const auto& entry) {
        return entry.second.second >= static_cast<int32_t>(size);
    });
    std::erase_if(m_symRoots,
                  [&](const auto& entry) { return entry.first >= static_cast<int32_t>(size); });
    // Later nodes reuse these indices: symbolFree must not answer for the dropped ones.
    std::erase_if(m_symbolFree,
                  [&](const auto& entry) { return entry.first >= static_cast<int32_t>(size); });
}

std::vector<int32_t> Tracer::liveOutputs() {
    // References the tracer itself holds: one in m_traced, one per memo entry.
    std::unordered_map<tensor::TensorImpl*, int32_t> memoRefs;
    for (const auto& [expr, v] : m_memo)
        if (v.isTensor()) ++memoRefs[v.tensorImpl()];
    std::vector<tensor::TensorImpl*> live;
    for (const auto& [impl, tt] : m_traced) {
        auto memo = memoRefs.find(impl);
        // Autograd's saved tensors (the shadow execution's backward graph) are not users.
        int32_t held = 1 + (memo == memoRefs.end() ? 0 : memo->second) + impl->autogradRefs;
        if (impl->refCount() > held || memo != memoRefs.end()) live.push_back(impl);
    }
    std::vector<int32_t> nodes;
    for (tensor::TensorImpl* impl : live) {
        int32_t node = nodeOf(Value(tensor::Tensor(Ref<tensor::TensorImpl>(impl))));
        graph::NodeOp op = m_graph.nodes[static_cast<size_t>(node)].op;
        if (op != graph::NodeOp::Placeholder && op != graph::NodeOp::GetAttr) nodes.push_back(node);
    }
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    return nodes;
}

Value Tracer::valueOfNode(int32_t node) const {
    for (const auto& [impl, tt] : m_traced)
        if (tt.node == node) return Value(tensor::Tensor(Ref<tensor::TensorImpl>(impl)));
    return Value();
}

std::vector<SourcePtr> Tracer::inputSources() const {
    std::vector<SourcePtr> out;
    for (const PlaceholderRecord& p : m_placeholders)
        out.push_back(p.source);
    return out;
}

std::vector<Value> Tracer::exampleInputs() const {
    std::vector<Value> out;
    for (const PlaceholderRecord& p : m_placeholders)
        out.push_back(p.value);
    return out;
}

std::vector<Value> Tracer::backendExampleInputs() {
    // Of no trace (serial 0): a backend computing with one gets ints, records nothing.
    std::vector<Value> out;
    for (const PlaceholderRecord& p : m_placeholders) {
        const graph::Node& n = m_graph.nodes[static_cast<size_t>(p.node)];
        out.push_back(
            n.meta.kind == graph::ValueMeta::Kind::SymInt && p.value.isInt()
                ? makeGraphInputSymInt(m_interp, p.node, p.value.asInt(),
                                       n.meta.sizes.empty() ? std::string() : n.meta.sizes[0].str())
                : p.value);
    }
    return out;
}

} // namespace kiln::capture
