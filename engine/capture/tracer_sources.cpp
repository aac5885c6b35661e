// SPDX-License-Identifier: MIT
// Where a trace's values come from: the frame's inputs (locals, closure values, stack values),
// the sources of objects reached from them (globals, attributes, items), and the guards on
// what the trace read.
#include "capture/sym_ints.h"
#include "capture/tracer.h"
#include "capture/value_kinds.h"
#include "lang/scope.h"

#include <algorithm>

namespace kiln::capture {

using lang::ObjectKind;
using lang::Value;

void Tracer::registerInputs(const lang::FunctionCode& code, const std::vector<Value>& slots) {
    addGuard(Guard::globalState(tensor::gradModeEnabled()));
    addGuard(Guard::backendMatch(currentBackendId()));
    for (size_t i = 0; i < slots.size(); ++i) {
        Value v = slots[i];
        if (v.is(ObjectKind::Cell)) v = v.as<lang::CellObject>()->value;
        if (v.isEmpty()) continue;
        const size_t locals = code.scope->slots.size();
        const bool free = i >= locals; // a closure value, after the local slots
        SourcePtr source =
            Source::local(static_cast<int32_t>(i), free ? code.scope->freeNames[i - locals].str()
                                                        : code.scope->slots[i].str());
        if (!free && v.isInt() && v.asInt() >= 2 && m_options.dynamicInt &&
            m_options.dynamicInt(*source, v.asInt()) && m_top) {
            const size_t guardsBefore = m_guards.guards.size();
            Value sym = intPlaceholder(v, source);
            // Made at the frame's entry, so their line is the def's: the line that first reads
            // the int replaces it (evaluated()), as a static int's guard is made there.
            for (size_t g = guardsBefore; g < m_guards.guards.size(); ++g)
                m_entryGuards[i].push_back(g);
            Value& slot = m_top->slots[i];
            if (slot.is(ObjectKind::Cell))
                slot.as<lang::CellObject>()->value = sym;
            else
                slot = sym;
            continue;
        }
        registerSource(v, source, 0);
        // A cell is read by the closures made from it, not by name: guarded now.
        const auto& cells = code.scope->cellSlots;
        if (!free &&
            (slots[i].is(ObjectKind::Cell) ||
             std::find(cells.begin(), cells.end(), static_cast<int32_t>(i)) != cells.end())) {
            guardValue(v, source);
            continue;
        }
        // Guarded when the frame first reads the local (evaluated()), as Dynamo guards what
        // the trace used: a local the frame never reads does not cause recompiles.
        if (m_pendingGuards.size() <= i) m_pendingGuards.resize(i + 1);
        m_pendingGuards[i] = {v, source};
    }
}

void Tracer::registerInput(const Value& v, const SourcePtr& source) {
    registerSource(v, source, 0);
    guardValue(v, source);
}

void Tracer::seedMemo(const lang::Stmt* statement,
                      std::vector<std::pair<const lang::Expr*, Value>> entries) {
    m_memoStatement = statement;
    m_memo = std::move(entries);
    m_memoReliable = true;
}

void Tracer::registerSource(const Value& v, const SourcePtr& source, int depth) {
    if (v.isTensor()) {
        if (!m_tensorSources.emplace(v.tensorImpl(), source).second)
            m_tensorAliases[v.tensorImpl()].push_back(source);
        return;
    }
    if (!v.isObject() || depth > 4) return;
    m_sourceValues.emplace(source.get(), std::make_pair(source, v));
    if (!m_objectSources.emplace(v.asObject(), source).second) return;
    m_sourcedObjects.push_back(v);
    if (v.is(ObjectKind::List) || v.is(ObjectKind::Tuple)) {
        const auto& items = sequenceItems(v);
        for (size_t i = 0; i < items.size(); ++i)
            registerSource(items[i], Source::item(source, Value::fromInt(static_cast<int64_t>(i))),
                           depth + 1);
    }
}

const SourcePtr* Tracer::moduleSourceOf(const Value& module) {
    if (const SourcePtr* known = sourceOf(module)) return known;
    if (!module.is(ObjectKind::Instance)) return nullptr;
    const lang::Symbol modulesName = lang::Symbol::intern("_modules");
    for (size_t i = 0; i < m_sourcedObjects.size(); ++i) {
        const Value parent = m_sourcedObjects[i];
        if (!parent.is(ObjectKind::Instance)) continue;
        const Value* children = parent.as<lang::InstanceObject>()->attrs.find(modulesName);
        if (!children || !children->is(ObjectKind::Dict)) continue;
        Value name;
        children->as<lang::DictObject>()->forEach([&](const Value& key, const Value& child) {
            if (name.isEmpty() && child.identical(module) && key.is(ObjectKind::Str)) name = key;
        });
        if (name.isEmpty()) continue;
        const SourcePtr* parentSource = sourceOf(parent);
        if (!parentSource) continue;
        registerSource(module,
                       Source::attribute(*parentSource,
                                         lang::Symbol::intern(name.as<lang::StrObject>()->str())),
                       0);
        return sourceOf(module);
    }
    return nullptr;
}

const SourcePtr* Tracer::sourceOf(const Value& v) const {
    if (v.isTensor()) {
        auto it = m_tensorSources.find(v.tensorImpl());
        return it == m_tensorSources.end() ? nullptr : &it->second;
    }
    if (!v.isObject()) return nullptr;
    auto it = m_objectSources.find(v.asObject());
    return it == m_objectSources.end() ? nullptr : &it->second;
}

void Tracer::addGuard(Guard guard, const SourcePtr& subject) {
    // One guard of a kind per source, except the kinds that may hold several (dims, aliases).
    const bool several =
        guard.kind() == Guard::Kind::DimAtLeast || guard.kind() == Guard::Kind::SameObject ||
        guard.kind() == Guard::Kind::DimEquals || guard.kind() == Guard::Kind::SymCompare;
    std::string key = std::to_string(static_cast<int>(guard.kind())) +
                      (several ? guard.expression(m_interp) : guard.source()->str());
    if (!m_guarded.insert(key).second) return;
    if (const SourcePtr& path = subject ? subject : guard.source())
        guard.readThroughModules = modulesAbove(path);
    if (m_top) {
        UserStack stack = userStackOf(m_interp.currentFrame(), m_top);
        if (!stack.empty()) {
            guard.origin.file = stack.back().file;
            guard.origin.line = stack.back().line;
            guard.origin.function = stack.back().function;
            guard.origin.code = stack.back().code;
        }
    }
    m_guards.guards.push_back(std::move(guard));
}

void Tracer::guardValue(const Value& v, const SourcePtr& source) {
    switch (valueKind(m_interp, v)) {
    case ValueKind::Tensor:
        return; // guarded when first used (placeholderFor)
    case ValueKind::Identity:
        addGuard(Guard::idMatch(source, v));
        return;
    case ValueKind::Constant:
        addGuard(Guard::equalsMatch(source, v));
        return;
    case ValueKind::Sequence: {
        addGuard(Guard::typeMatch(source, m_interp.typeOf(v)));
        addGuard(Guard::lengthCheck(source, static_cast<int64_t>(sequenceItems(v).size())));
        const auto& items = sequenceItems(v);
        for (size_t i = 0; i < items.size(); ++i)
            guardValue(items[i], Source::item(source, Value::fromInt(static_cast<int64_t>(i))));
        return;
    }
    case ValueKind::Module:
        addGuard(Guard::idMatch(source, v));
        if (Value training = m_interp.tryGetAttr(v, lang::Symbol::intern("training"));
            !training.isEmpty())
            addGuard(Guard::idMatch(Source::attribute(source, lang::Symbol::intern("training")),
                                    training),
                     source);
        return;
    case ValueKind::Object:
        addGuard(Guard::typeMatch(source, m_interp.typeOf(v)));
        return;
    case ValueKind::Unguarded:
        return;
    }
}

void Tracer::readGlobal(lang::Symbol name, const Value& value) {
    const bool guarded = valueKind(m_interp, value) != ValueKind::Unguarded;
    if (!guarded && !value.is(ObjectKind::Dict) && !value.is(ObjectKind::List)) return;
    // G['x'] names the traced frame's module; globals that inlined functions of other modules
    // read are not guarded (Dynamo reaches them through module attributes).
    const lang::Frame* reader = m_interp.currentFrame();
    if (!m_top || !reader || reader->globals != m_top->globals) {
        noteForeign(value);
        return;
    }
    SourcePtr source = Source::global(name);
    registerSource(value, source, 0); // a source, so stores into it can be replayed
    if (guarded) guardValue(value, source);
}

void Tracer::readAttribute(const Value& object, lang::Symbol name, const Value& value) {
    const SourcePtr* base = sourceOf(object);
    if (!base && isForeign(object)) noteForeign(value);
    if (!base || object.isTensor()) return;
    if (value.isTensor() && m_traced.count(value.tensorImpl())) return;
    SourcePtr source = Source::attribute(*base, name);
    registerSource(value, source, 0);
    if (value.isTensor() && isModuleObject(m_interp, object))
        m_moduleTensors.insert(value.tensorImpl()); // parameters and buffers: get_attr nodes
    else
        guardValue(value, source);
}

void Tracer::readItem(const Value& container, const Value& key, const Value& value) {
    const SourcePtr* base = sourceOf(container);
    if (!base && isForeign(container)) noteForeign(value);
    if (!base || !(key.isIntLike() || key.is(ObjectKind::Str))) return;
    if (value.isTensor() && m_traced.count(value.tensorImpl())) return;
    SourcePtr source = Source::item(*base, key);
    registerSource(value, source, 0);
    guardValue(value, source);
}

void Tracer::noteForeign(const Value& v) {
    if (v.isObject() && !v.isTensor() && !sourceOf(v)) {
        m_foreign.insert(v.asObject());
        m_sourcedObjects.push_back(v); // keeps the address unique while the trace lives
    }
}

bool Tracer::isForeign(const Value& v) const {
    return v.isObject() && m_foreign.count(v.asObject()) > 0;
}

} // namespace kiln::capture
