// SPDX-License-Identifier: MIT
#include "capture/recipe.h"

#include "capture/sym_ints.h"
#include "capture/tracer.h"
#include "capture/value_kinds.h"

#include <algorithm>

namespace kiln::capture {

using lang::ObjectKind;
using lang::Value;

RecipeBuilder::RecipeBuilder(lang::Interpreter& interp, Tracer& tracer,
                             std::vector<int32_t>& outputNodes)
    : m_interp(interp)
    , m_tracer(tracer)
    , m_outputNodes(outputNodes) {}

std::optional<Recipe> RecipeBuilder::build(const Value& v, int depth) {
    Recipe r;
    if (depth > 8) {
        m_failure = "value nested too deeply";
        return std::nullopt;
    }
    if (v.isEmpty()) return r;
    if (auto s = symIntOf(m_interp, v)) {
        if (s->trace != m_tracer.serial()) {
            r.kind = Recipe::Kind::Constant; // from an older trace: just its value
            r.constant = s->value;
            return r;
        }
        // An int input is read from the next call's frame; any other SymInt leaving the graph
        // is one of its outputs, as Dynamo returns sym outputs.
        if (const SourcePtr* input = m_tracer.placeholderSource(s->node)) {
            r.kind = Recipe::Kind::FromSource;
            r.source = *input;
            return r;
        }
        auto out = std::find(m_outputNodes.begin(), m_outputNodes.end(), s->node);
        if (out == m_outputNodes.end()) out = m_outputNodes.insert(m_outputNodes.end(), s->node);
        r.kind = Recipe::Kind::Output;
        r.output = static_cast<int32_t>(out - m_outputNodes.begin());
        return r;
    }
    if (v.isTensor()) {
        int32_t node = m_tracer.nodeOf(v);
        auto out = std::find(m_outputNodes.begin(), m_outputNodes.end(), node);
        if (node >= 0 && out != m_outputNodes.end()) {
            r.kind = Recipe::Kind::Output;
            r.output = static_cast<int32_t>(out - m_outputNodes.begin());
            return r;
        }
    }
    if (const SourcePtr* source = m_tracer.sourceOf(v)) {
        r.kind = Recipe::Kind::FromSource;
        r.source = *source;
        return r;
    }
    if (v.isTensor() && !m_tracer.isTraced(v)) {
        // Computed during the trace without a graph node (an op the tracer did not see): a
        // cached copy would go stale, so the frame cannot be cached.
        m_failure = "a tensor the trace computed outside the graph";
        return std::nullopt;
    }
    if (m_tracer.isForeign(v) || !v.isObject()) {
        // None, bools, numbers; or an object that predates the frame without a source (a
        // closure value): the very object, not a copy.
        r.kind = Recipe::Kind::Constant;
        r.constant = v;
        return r;
    }
    switch (v.asObject()->kind()) {
    case ObjectKind::Tuple:
    case ObjectKind::List: {
        r.kind = v.is(ObjectKind::List) ? Recipe::Kind::List : Recipe::Kind::Tuple;
        if (v.is(ObjectKind::Tuple)) r.constant = Value(v.asObject()->type());
        for (const Value& item : sequenceItems(v)) {
            auto ir = build(item, depth + 1);
            if (!ir) return std::nullopt;
            r.items.push_back(std::move(*ir));
        }
        return r;
    }
    case ObjectKind::Dict: {
        r.kind = Recipe::Kind::Dict;
        bool ok = true;
        v.as<lang::DictObject>()->forEach([&](const Value& key, const Value& value) {
            if (!ok) return;
            auto ir = build(value, depth + 1);
            if (!ir || key.isTensor()) {
                ok = false;
                return;
            }
            r.keys.push_back(key);
            r.items.push_back(std::move(*ir));
        });
        if (!ok) return std::nullopt;
        return r;
    }
    case ObjectKind::Cell: {
        r.kind = Recipe::Kind::Cell;
        auto ir = build(v.as<lang::CellObject>()->value, depth + 1);
        if (!ir) return std::nullopt;
        r.items.push_back(std::move(*ir));
        return r;
    }
    case ObjectKind::Function:
        if (!v.as<lang::FunctionObject>()->closure.empty()) {
            m_failure = "a closure created by the compiled frame";
            return std::nullopt;
        }
        [[fallthrough]];
    case ObjectKind::Str:
    case ObjectKind::NativeFunction:
    case ObjectKind::Type:
    case ObjectKind::Module:
    case ObjectKind::Range:
    case ObjectKind::Slice:
    case ObjectKind::Native:
        r.kind = Recipe::Kind::Constant;
        r.constant = v;
        return r;
    default:
        m_failure =
            "an object of type '" + m_interp.typeName(v) + "' created by the compiled frame";
        return std::nullopt;
    }
}

Value materialise(lang::Interpreter& interp, const Recipe& recipe,
                  const std::vector<Value>& outputs, const std::vector<Value>& slots,
                  lang::ModuleObject& globals) {
    switch (recipe.kind) {
    case Recipe::Kind::Empty:
        return Value();
    case Recipe::Kind::Output:
        return outputs.at(static_cast<size_t>(recipe.output));
    case Recipe::Kind::FromSource:
        return recipe.source->fetch(interp, slots, globals);
    case Recipe::Kind::Constant:
        return recipe.constant;
    case Recipe::Kind::Tuple:
    case Recipe::Kind::List: {
        std::vector<Value> items;
        items.reserve(recipe.items.size());
        for (const Recipe& item : recipe.items)
            items.push_back(materialise(interp, item, outputs, slots, globals));
        if (recipe.kind == Recipe::Kind::List) return lang::listValue(std::move(items));
        auto* type = recipe.constant.isEmpty() ? nullptr : recipe.constant.as<lang::TypeObject>();
        if (type && type != lang::builtinTypes().tuple.get())
            return Value(makeRef<lang::TupleObject>(std::move(items), type));
        return lang::tupleValue(std::move(items));
    }
    case Recipe::Kind::Dict: {
        auto dict = makeRef<lang::DictObject>();
        for (size_t i = 0; i < recipe.keys.size(); ++i)
            dict->set(interp, recipe.keys[i],
                      materialise(interp, recipe.items[i], outputs, slots, globals));
        return Value(dict);
    }
    case Recipe::Kind::Cell: {
        auto cell = makeRef<lang::CellObject>();
        cell->value = materialise(interp, recipe.items[0], outputs, slots, globals);
        return Value(cell);
    }
    }
    return Value();
}

} // namespace kiln::capture
