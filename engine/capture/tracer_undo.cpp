// SPDX-License-Identifier: MIT
// What a frame's rerun puts back: a skipped frame runs again from its start, as Dynamo runs it,
// after the stores its trace made (into objects, globals, enclosing functions' variables) are
// undone, newest first, so none of them happens twice (docs/capture.md).
#include "capture/tracer.h"
#include "lang/objects.h"

namespace kiln::capture {

using lang::ObjectKind;
using lang::Value;

void Tracer::noteStore(const Value& object, const Value& key, bool attribute) {
    StoreUndo undo;
    undo.object = object;
    undo.key = key;
    if (attribute) {
        if (!key.is(ObjectKind::Str) || !object.is(ObjectKind::Instance)) {
            m_storesUndoable = false;
            return;
        }
        const Value* old = object.as<lang::InstanceObject>()->attrs.find(
            lang::Symbol::intern(key.as<lang::StrObject>()->str()));
        undo.existed = old != nullptr;
        if (old) undo.old = *old;
    } else if (object.is(ObjectKind::Dict)) {
        undo.kind = StoreUndo::Kind::DictItem;
        Value* old = object.as<lang::DictObject>()->find(m_interp, key);
        undo.existed = old != nullptr;
        if (old) undo.old = *old;
    } else if (!object.is(ObjectKind::List)) {
        m_storesUndoable = false; // an object with a __setitem__ of its own
        return;
    } else {
        const auto& items = object.as<lang::ListObject>()->items;
        const int64_t size = static_cast<int64_t>(items.size());
        int64_t i = key.isIntLike() ? key.asInt() : size;
        if (i < 0) i += size;
        if (i < 0 || i >= size) {
            m_storesUndoable = false; // a slice, or a store that raises
            return;
        }
        undo.kind = StoreUndo::Kind::ListItem;
        undo.index = i;
        undo.existed = true;
        undo.old = items[static_cast<size_t>(i)];
    }
    m_storeUndo.push_back(std::move(undo));
}

void Tracer::noteContainerChange(const Value& container, bool grows) {
    StoreUndo undo;
    undo.object = container;
    undo.existed = true;
    if (container.is(ObjectKind::List)) {
        const auto& items = container.as<lang::ListObject>()->items;
        undo.kind = grows ? StoreUndo::Kind::ListLength : StoreUndo::Kind::ListContents;
        undo.index = static_cast<int64_t>(items.size());
        if (!grows) undo.items = items;
    } else if (container.is(ObjectKind::Dict)) {
        undo.kind = StoreUndo::Kind::DictContents;
        container.as<lang::DictObject>()->forEach([&](const Value& k, const Value& v) {
            undo.items.push_back(k);
            undo.items.push_back(v);
        });
    } else {
        m_storesUndoable = false;
        return;
    }
    m_storeUndo.push_back(std::move(undo));
}

void Tracer::outerNameStore(lang::ModuleObject* module, lang::Symbol name, lang::CellObject* cell) {
    StoreUndo undo;
    undo.existed = true;
    if (cell) {
        undo.kind = StoreUndo::Kind::Cell;
        undo.object = Value(cell);
        undo.old = cell->value;
    } else {
        undo.kind = StoreUndo::Kind::Global;
        undo.object = Value(module);
        undo.key = lang::strValue(std::string(name.str()));
        const Value* old = module->globals.find(name);
        undo.existed = old != nullptr;
        if (old) undo.old = *old;
    }
    m_storeUndo.push_back(std::move(undo));
}

namespace {

/// Puts a name of an instance's attributes or a module's globals back as it was.
void restoreName(lang::AttrMap& names, const Value& name, bool existed, const Value& old) {
    auto symbol = lang::Symbol::intern(name.as<lang::StrObject>()->str());
    if (existed)
        names.set(symbol, old);
    else
        names.erase(symbol);
}

} // namespace

void Tracer::undoStores() {
    undoStoresSince(0);
}

void Tracer::undoStoresSince(size_t first) {
    for (size_t i = m_storeUndo.size(); i-- > first;) {
        StoreUndo& u = m_storeUndo[i];
        switch (u.kind) {
        case StoreUndo::Kind::Attribute:
            restoreName(u.object.as<lang::InstanceObject>()->attrs, u.key, u.existed, u.old);
            break;
        case StoreUndo::Kind::DictItem:
            if (u.existed)
                u.object.as<lang::DictObject>()->set(m_interp, u.key, u.old);
            else
                u.object.as<lang::DictObject>()->erase(m_interp, u.key);
            break;
        case StoreUndo::Kind::ListItem: {
            auto& items = u.object.as<lang::ListObject>()->items;
            if (u.index < static_cast<int64_t>(items.size()))
                items[static_cast<size_t>(u.index)] = u.old;
            break;
        }
        case StoreUndo::Kind::ListContents:
            u.object.as<lang::ListObject>()->items = u.items;
            break;
        case StoreUndo::Kind::DictContents: {
            auto* dict = u.object.as<lang::DictObject>();
            dict->clear();
            for (size_t k = 0; k + 1 < u.items.size(); k += 2)
                dict->set(m_interp, u.items[k], u.items[k + 1]);
            break;
        }
        case StoreUndo::Kind::Global:
            restoreName(u.object.as<lang::ModuleObject>()->globals, u.key, u.existed, u.old);
            break;
        case StoreUndo::Kind::Cell:
            u.object.as<lang::CellObject>()->value = u.old;
            break;
        case StoreUndo::Kind::ListLength: {
            auto& items = u.object.as<lang::ListObject>()->items;
            if (static_cast<int64_t>(items.size()) > u.index)
                items.resize(static_cast<size_t>(u.index));
            break;
        }
        }
    }
    m_storeUndo.resize(first);
}

} // namespace kiln::capture
