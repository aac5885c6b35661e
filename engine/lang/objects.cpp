// SPDX-License-Identifier: MIT
#include "lang/objects.h"

#include "lang/interpreter.h"
#include "lang/types.h"

#include <algorithm>

namespace kiln::lang {

StrObject::StrObject(std::string s)
    : Object(ObjectKind::Str, builtinTypes().str.get())
    , m_str(std::move(s))
    , m_ascii(std::all_of(m_str.begin(), m_str.end(),
                          [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {}

size_t StrObject::hash() const {
    if (m_hash == 0) m_hash = std::hash<std::string>()(m_str) | 1;
    return m_hash;
}

int64_t StrObject::length() const {
    return m_ascii ? static_cast<int64_t>(m_str.size()) : utf8Length(m_str);
}

ListObject::ListObject()
    : Object(ObjectKind::List, builtinTypes().list.get()) {}

ListObject::ListObject(std::vector<Value> values)
    : Object(ObjectKind::List, builtinTypes().list.get())
    , items(std::move(values)) {}

TupleObject::TupleObject(std::vector<Value> values)
    : Object(ObjectKind::Tuple, builtinTypes().tuple.get())
    , items(std::move(values)) {}

TupleObject::TupleObject(std::vector<Value> values, TypeObject* type)
    : Object(ObjectKind::Tuple, type)
    , items(std::move(values)) {}

DictObject::DictObject()
    : Object(ObjectKind::Dict, builtinTypes().dict.get()) {}

int64_t DictObject::lookup(Interpreter& interp, const Value& key, size_t hash) const {
    // As CPython's lookdict: the candidates are taken before any comparison, each candidate's
    // key is held while its __eq__ runs (it may clear the dict), and a comparison that changed
    // the dict makes the lookup start over on what the dict now holds.
    std::vector<size_t> candidates;
    for (;;) {
        candidates.clear();
        auto range = m_index.equal_range(hash);
        for (auto it = range.first; it != range.second; ++it)
            candidates.push_back(it->second);
        uint64_t version = m_layoutVersion;
        bool changed = false;
        for (size_t slot : candidates) {
            const Entry& e = m_entries[slot];
            if (!e.live) continue;
            if (e.key.identical(key)) return static_cast<int64_t>(slot);
            Value held = e.key;
            bool same = interp.equals(held, key);
            if (m_layoutVersion != version) {
                changed = true;
                break;
            }
            if (same) return static_cast<int64_t>(slot);
        }
        if (!changed) return -1;
    }
}

Value* DictObject::find(Interpreter& interp, const Value& key) {
    size_t h = interp.hash(key);
    int64_t i = lookup(interp, key, h);
    return i < 0 ? nullptr : &m_entries[static_cast<size_t>(i)].value;
}

void DictObject::set(Interpreter& interp, const Value& key, Value value) {
    size_t h = interp.hash(key);
    int64_t i = lookup(interp, key, h);
    if (i >= 0) {
        m_entries[static_cast<size_t>(i)].value = std::move(value);
        return;
    }
    m_entries.push_back({key, std::move(value), h, true});
    m_index.emplace(h, m_entries.size() - 1);
    ++m_live;
    ++m_layoutVersion;
}

bool DictObject::erase(Interpreter& interp, const Value& key) {
    size_t h = interp.hash(key);
    int64_t i = lookup(interp, key, h);
    if (i < 0) return false;
    Entry& e = m_entries[static_cast<size_t>(i)];
    e.live = false;
    // Released after the entry is dead: their destructors may run user code.
    Value releasedKey = std::move(e.key), releasedValue = std::move(e.value);
    e.key = Value();
    e.value = Value();
    --m_live;
    ++m_layoutVersion;
    compactIfSparse();
    return true;
}

void DictObject::clear() {
    // The entries are released after the dict is empty: a key's or value's last reference
    // may be the one dropped here.
    std::vector<Entry> released = std::move(m_entries);
    m_entries.clear();
    m_index.clear();
    m_live = 0;
    ++m_layoutVersion;
}

void DictObject::compactIfSparse() {
    if (m_entries.size() < 16 || m_live * 2 > m_entries.size()) return;
    std::vector<Entry> kept;
    kept.reserve(m_live);
    for (Entry& e : m_entries)
        if (e.live) kept.push_back(std::move(e));
    m_entries = std::move(kept);
    ++m_layoutVersion;
    m_index.clear();
    for (size_t i = 0; i < m_entries.size(); ++i)
        m_index.emplace(m_entries[i].hash, i);
}

std::vector<Value> DictObject::keys() const {
    std::vector<Value> out;
    out.reserve(m_live);
    forEach([&](const Value& k, const Value&) { out.push_back(k); });
    return out;
}

namespace {

TypeObject* dictViewType(DictViewObject::Part part) {
    const BuiltinTypes& t = builtinTypes();
    switch (part) {
    case DictViewObject::Part::Keys:
        return t.dictKeys.get();
    case DictViewObject::Part::Values:
        return t.dictValues.get();
    case DictViewObject::Part::Items:
        return t.dictItems.get();
    }
    return t.dictKeys.get();
}

} // namespace

DictViewObject::DictViewObject(Ref<DictObject> d, Part p)
    : Object(ObjectKind::DictView, dictViewType(p))
    , dict(std::move(d))
    , part(p) {}

CellObject::CellObject()
    : Object(ObjectKind::Cell, builtinTypes().cell.get()) {}

FunctionObject::FunctionObject(std::shared_ptr<FunctionCode> c, Ref<ModuleObject> g)
    : Object(ObjectKind::Function, builtinTypes().function.get())
    , code(std::move(c))
    , globals(std::move(g)) {}

NativeFunctionObject::NativeFunctionObject(std::string n, NativeFn f, void* d)
    : Object(ObjectKind::NativeFunction, builtinTypes().builtinFunction.get())
    , name(std::move(n))
    , fn(f)
    , data(d) {}

void presentAsPythonFunction(NativeFunctionObject& fn, std::string module, std::string qualname) {
    fn.style = NativeStyle::PythonFunction;
    fn.module = std::move(module);
    fn.qualname = std::move(qualname);
    fn.setType(builtinTypes().function.get());
}

BoundMethodObject::BoundMethodObject(Value s, Value f)
    : Object(ObjectKind::BoundMethod, builtinTypes().method.get())
    , self(std::move(s))
    , function(std::move(f)) {}

TypeObject::TypeObject(std::string n, std::vector<Ref<TypeObject>> b, ObjectKind kind)
    : Object(ObjectKind::Type, nullptr)
    , name(std::move(n))
    , bases(std::move(b))
    , instanceKind(kind) {}

const Value* TypeObject::lookup(Symbol attr) const {
    for (TypeObject* t : mro)
        if (const Value* v = t->dict.find(attr)) return v;
    return nullptr;
}

const Value* TypeObject::lookupBefore(Symbol attr, const TypeObject* stop) const {
    for (TypeObject* t : mro) {
        if (t == stop) break;
        if (const Value* v = t->dict.find(attr)) return v;
    }
    return nullptr;
}

bool TypeObject::isSubtypeOf(const TypeObject* other) const {
    return std::find(mro.begin(), mro.end(), other) != mro.end();
}

void TypeObject::computeMro() {
    // C3 linearisation: merge the bases' MROs and the list of bases, keeping local order.
    std::vector<std::vector<TypeObject*>> seqs;
    for (const auto& b : bases)
        seqs.push_back(b->mro);
    std::vector<TypeObject*> direct;
    for (const auto& b : bases)
        direct.push_back(b.get());
    seqs.push_back(direct);
    mro = {this};
    while (true) {
        seqs.erase(std::remove_if(seqs.begin(), seqs.end(), [](auto& s) { return s.empty(); }),
                   seqs.end());
        if (seqs.empty()) return;
        TypeObject* candidate = nullptr;
        for (auto& s : seqs) {
            TypeObject* head = s.front();
            bool inTail = std::any_of(seqs.begin(), seqs.end(), [&](auto& other) {
                return std::find(other.begin() + 1, other.end(), head) != other.end();
            });
            if (!inTail) {
                candidate = head;
                break;
            }
        }
        if (!candidate) {
            mro.clear(); // inconsistent hierarchy; the caller reports it
            return;
        }
        mro.push_back(candidate);
        for (auto& s : seqs)
            if (s.front() == candidate) s.erase(s.begin());
    }
}

std::string TypeObject::qualifiedName() const {
    const std::string& path = qualname.empty() ? name : qualname;
    if (moduleName.empty() || moduleName == "builtins") return path;
    return moduleName + "." + path;
}

bool TypeObject::acceptsInstanceAttribute(Symbol name) const {
    return instancesHaveDict || std::find(slots.begin(), slots.end(), name) != slots.end();
}

InstanceObject::InstanceObject(TypeObject* type)
    : Object(ObjectKind::Instance, type)
    , classRef(type) {}

ExceptionState& InstanceObject::exceptionState() {
    if (!exception) exception = std::make_unique<ExceptionState>();
    return *exception;
}

ModuleObject::ModuleObject(std::string n)
    : Object(ObjectKind::Module, builtinTypes().module.get())
    , name(std::move(n)) {}

RangeObject::RangeObject(int64_t a, int64_t b, int64_t c)
    : Object(ObjectKind::Range, builtinTypes().range.get())
    , start(a)
    , stop(b)
    , step(c) {}

uint64_t RangeObject::count() const {
    // Differences and the step's magnitude in unsigned arithmetic: exact for every int64 pair.
    if (step > 0 && start < stop)
        return (static_cast<uint64_t>(stop) - static_cast<uint64_t>(start) - 1) /
                   static_cast<uint64_t>(step) +
               1;
    if (step < 0 && start > stop)
        return (static_cast<uint64_t>(start) - static_cast<uint64_t>(stop) - 1) /
                   (0 - static_cast<uint64_t>(step)) +
               1;
    return 0;
}

int64_t RangeObject::length() const {
    uint64_t n = count();
    return n > static_cast<uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<int64_t>(n);
}

SliceObject::SliceObject(Value a, Value b, Value c)
    : Object(ObjectKind::Slice, builtinTypes().slice.get())
    , start(std::move(a))
    , stop(std::move(b))
    , step(std::move(c)) {}

IteratorObject::IteratorObject(TypeObject* type)
    : Object(ObjectKind::Iterator, type) {}

PropertyObject::PropertyObject(Value g, Value s, Value d)
    : Object(ObjectKind::Property, builtinTypes().property.get())
    , getter(std::move(g))
    , setter(std::move(s))
    , deleter(std::move(d)) {}

StaticMethodObject::StaticMethodObject(Value f)
    : Object(ObjectKind::StaticMethod, builtinTypes().staticmethod.get())
    , function(std::move(f)) {}

ClassMethodObject::ClassMethodObject(Value f)
    : Object(ObjectKind::ClassMethod, builtinTypes().classmethod.get())
    , function(std::move(f)) {}

SuperObject::SuperObject(Ref<TypeObject> after, Value s)
    : Object(ObjectKind::Super, builtinTypes().super.get())
    , startAfter(std::move(after))
    , self(std::move(s)) {}

NativeObject::NativeObject(TypeObject* type)
    : Object(ObjectKind::Native, type) {}

Ref<StrObject> makeStr(std::string s) {
    return makeRef<StrObject>(std::move(s));
}

Value strValue(std::string s) {
    return Value(makeStr(std::move(s)));
}

Value strSubclassValue(TypeObject* type, std::string s) {
    auto str = makeRef<StrObject>(std::move(s));
    str->setType(type);
    str->subclass = std::make_unique<StrObject::SubclassState>();
    str->subclass->classRef = Ref<TypeObject>(type);
    return Value(str);
}

bool isStrSubclassInstance(const Value& v) {
    return v.is(ObjectKind::Str) && v.as<StrObject>()->subclass != nullptr;
}

const Value* strSubclassOverride(const Value& v, Symbol name) {
    if (!isStrSubclassInstance(v)) return nullptr;
    return v.asObject()->type()->lookupBefore(name, builtinTypes().str.get());
}

AttrMap* instanceNamespace(const Value& v) {
    if (v.is(ObjectKind::Instance)) return &v.as<InstanceObject>()->attrs;
    if (isStrSubclassInstance(v)) return &v.as<StrObject>()->subclass->attrs;
    return nullptr;
}

Value tupleValue(std::vector<Value> items) {
    return Value(makeRef<TupleObject>(std::move(items)));
}

Value listValue(std::vector<Value> items) {
    return Value(makeRef<ListObject>(std::move(items)));
}

} // namespace kiln::lang
