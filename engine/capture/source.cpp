// SPDX-License-Identifier: MIT
#include "capture/source.h"

#include <cctype>

namespace kiln::capture {

using lang::Value;

SourcePtr Source::local(int32_t slot, std::string name) {
    auto s = std::make_shared<Source>();
    s->m_kind = Kind::Local;
    s->m_slot = slot;
    s->m_localName = std::move(name);
    return s;
}

SourcePtr Source::global(lang::Symbol name) {
    auto s = std::make_shared<Source>();
    s->m_kind = Kind::Global;
    s->m_name = name;
    return s;
}

SourcePtr Source::attribute(SourcePtr base, lang::Symbol name) {
    auto s = std::make_shared<Source>();
    s->m_kind = Kind::Attribute;
    s->m_base = std::move(base);
    s->m_name = name;
    return s;
}

SourcePtr Source::size(SourcePtr tensor, int64_t dim) {
    auto s = std::make_shared<Source>();
    s->m_kind = Kind::Size;
    s->m_base = std::move(tensor);
    s->m_dim = dim;
    return s;
}

SourcePtr Source::item(SourcePtr base, Value key) {
    auto s = std::make_shared<Source>();
    s->m_kind = Kind::Item;
    s->m_key = std::move(key);
    if (base->m_kind == Kind::Attribute && s->m_key.is(lang::ObjectKind::Str)) {
        const std::string& table = base->m_name.str();
        if (table == "_modules" || table == "_parameters" || table == "_buffers")
            s->m_named = attribute(base->m_base,
                                   lang::Symbol::intern(s->m_key.as<lang::StrObject>()->str()));
    }
    s->m_base = std::move(base);
    return s;
}

namespace {

std::string keyText(const Value& key) {
    if (key.isIntLike()) return std::to_string(key.asInt());
    if (key.is(lang::ObjectKind::Str)) return "'" + key.as<lang::StrObject>()->str() + "'";
    return "?";
}

} // namespace

std::string Source::str() const {
    if (m_named) return m_named->str();
    switch (m_kind) {
    case Kind::Local:
        return "L['" + m_localName + "']";
    case Kind::Global:
        return "G['" + m_name.str() + "']";
    case Kind::Attribute:
        return m_base->str() + "." + m_name.str();
    case Kind::Item:
        return m_base->str() + "[" + keyText(m_key) + "]";
    case Kind::Size:
        return m_base->str() + ".size()[" + std::to_string(m_dim) + "]";
    }
    return "?";
}

std::string Source::rootName() const {
    if (m_base) return m_base->rootName();
    return m_kind == Kind::Local ? "L:" + m_localName : "G:" + m_name.str();
}

std::string Source::shortStr() const {
    if (m_named) return m_named->shortStr();
    switch (m_kind) {
    case Kind::Local:
        return m_localName;
    case Kind::Global:
        return m_name.str();
    case Kind::Attribute:
        return m_base->shortStr() + "." + m_name.str();
    case Kind::Item:
        return m_base->shortStr() + "[" + keyText(m_key) + "]";
    case Kind::Size:
        return m_base->shortStr() + ".size()[" + std::to_string(m_dim) + "]";
    }
    return "?";
}

std::string Source::identifier() const {
    if (m_named) return m_named->identifier();
    switch (m_kind) {
    case Kind::Local:
        // A resume point's stack values (___stack0) are L_stack0_ in Dynamo's graphs.
        if (m_localName.rfind("___stack", 0) == 0) return "L_" + m_localName.substr(3) + "_";
        return "L_" + m_localName + "_";
    case Kind::Global:
        return "G_" + m_name.str() + "_";
    case Kind::Attribute:
        return m_base->identifier() + m_name.str() + "_";
    case Kind::Item: {
        std::string k = keyText(m_key);
        std::string clean;
        for (char c : k)
            if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') clean += c;
        return m_base->identifier() + clean + "_";
    }
    case Kind::Size:
        return m_base->identifier() + "size_" + std::to_string(m_dim) + "_";
    }
    return "unknown_";
}

std::string Source::moduleAttributeName() const {
    // Dynamo's module_key_name strips the L[...]/G[...] of a root: G['head'] is `head`.
    if (m_kind == Kind::Local) return m_localName;
    if (m_kind == Kind::Global) return m_name.str();
    std::string out = str();
    for (char& c : out)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return out;
}

Value Source::fetch(lang::Interpreter& interp, const std::vector<Value>& slots,
                    lang::ModuleObject& globals) const {
    switch (m_kind) {
    case Kind::Local:
        if (m_slot < 0 || static_cast<size_t>(m_slot) >= slots.size()) return Value();
        if (slots[static_cast<size_t>(m_slot)].is(lang::ObjectKind::Cell))
            return slots[static_cast<size_t>(m_slot)].as<lang::CellObject>()->value;
        return slots[static_cast<size_t>(m_slot)];
    case Kind::Global: {
        const Value* v = globals.globals.find(m_name);
        return v ? *v : Value();
    }
    case Kind::Attribute: {
        Value base = m_base->fetch(interp, slots, globals);
        return base.isEmpty() ? Value() : interp.tryGetAttr(base, m_name);
    }
    case Kind::Item: {
        Value base = m_base->fetch(interp, slots, globals);
        if (base.isEmpty()) return Value();
        if (base.is(lang::ObjectKind::List) || base.is(lang::ObjectKind::Tuple)) {
            const auto& items = base.is(lang::ObjectKind::List)
                                    ? base.as<lang::ListObject>()->items
                                    : base.as<lang::TupleObject>()->items;
            if (!m_key.isInt()) return Value();
            int64_t i = m_key.asInt();
            if (i < 0) i += static_cast<int64_t>(items.size()); // dims[-1], as Python indexes
            return i >= 0 && static_cast<size_t>(i) < items.size() ? items[static_cast<size_t>(i)]
                                                                   : Value();
        }
        if (base.is(lang::ObjectKind::Dict)) {
            Value* v = base.as<lang::DictObject>()->find(interp, m_key);
            return v ? *v : Value();
        }
        // Anything else indexes through its __getitem__, as Dynamo's guards evaluate
        // `L['self'].layers[0]` (ModuleList, Sequential, ModuleDict, a user container); a
        // lookup that raises no longer resolves.
        try {
            return interp.getItem(base, m_key);
        } catch (lang::PyException& e) {
            if (!interp.isInstance(e.exception, lang::builtinTypes().exception.get())) throw;
            return Value();
        }
    }
    case Kind::Size: {
        Value base = m_base->fetch(interp, slots, globals);
        if (!base.isTensor() || m_dim >= base.asTensor().dim()) return Value();
        return Value::fromInt(base.asTensor().sizes()[static_cast<size_t>(m_dim)]);
    }
    }
    return Value();
}

} // namespace kiln::capture
