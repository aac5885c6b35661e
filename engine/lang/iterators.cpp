// SPDX-License-Identifier: MIT
#include "lang/iterators.h"

#include "lang/format_detail.h"
#include "lang/interpreter.h"
#include "tensor/ops.h"

namespace kiln::lang {

namespace {

TypeObject* iteratorType() {
    return builtinTypes().iterator.get();
}

} // namespace

SequenceIterator::SequenceIterator(Value sequence)
    : IteratorObject(iteratorType())
    , m_sequence(std::move(sequence)) {}

bool SequenceIterator::next(Interpreter&, Value& out) {
    const auto& items = m_sequence.is(ObjectKind::List) ? m_sequence.as<ListObject>()->items
                                                        : m_sequence.as<TupleObject>()->items;
    if (m_index >= items.size()) return false;
    out = items[m_index++];
    return true;
}

ListReverseIterator::ListReverseIterator(Value list)
    : IteratorObject(iteratorType())
    , m_list(std::move(list))
    , m_index(static_cast<int64_t>(m_list.as<ListObject>()->items.size()) - 1) {}

bool ListReverseIterator::next(Interpreter&, Value& out) {
    const auto& items = m_list.as<ListObject>()->items;
    if (m_index < 0 || m_index >= static_cast<int64_t>(items.size())) {
        m_index = -1; // exhausted for good, as CPython drops the list
        return false;
    }
    out = items[static_cast<size_t>(m_index--)];
    return true;
}

RangeIterator::RangeIterator(int64_t first, int64_t step, uint64_t count)
    : IteratorObject(iteratorType())
    , m_first(first)
    , m_step(step)
    , m_count(count) {}

bool RangeIterator::next(Interpreter&, Value& out) {
    if (m_index >= m_count) return false;
    // Wrapping unsigned arithmetic: exact for every value the range holds.
    out = Value::fromInt(static_cast<int64_t>(static_cast<uint64_t>(m_first) +
                                              m_index * static_cast<uint64_t>(m_step)));
    ++m_index;
    return true;
}

StrIterator::StrIterator(Ref<StrObject> s)
    : IteratorObject(iteratorType())
    , m_str(std::move(s)) {}

bool StrIterator::next(Interpreter&, Value& out) {
    const std::string& s = m_str->str();
    if (m_pos >= s.size()) return false;
    size_t len = 1;
    while (m_pos + len < s.size() && (static_cast<unsigned char>(s[m_pos + len]) & 0xC0) == 0x80)
        ++len;
    out = strValue(s.substr(m_pos, len));
    m_pos += len;
    return true;
}

TensorIterator::TensorIterator(tensor::Tensor t)
    : IteratorObject(iteratorType())
    , m_tensor(std::move(t)) {}

bool TensorIterator::next(Interpreter&, Value& out) {
    if (m_index >= m_tensor.size(0)) return false;
    out = Value(tensor::select(m_tensor, 0, m_index++));
    return true;
}

EnumerateIterator::EnumerateIterator(Value inner, int64_t start)
    : IteratorObject(iteratorType())
    , m_inner(std::move(inner))
    , m_count(start) {}

bool EnumerateIterator::next(Interpreter& interp, Value& out) {
    Value item;
    if (!interp.iterNext(m_inner, item)) return false;
    out = tupleValue({Value::fromInt(m_count++), std::move(item)});
    return true;
}

ZipIterator::ZipIterator(std::vector<Value> inners, bool strict)
    : IteratorObject(iteratorType())
    , m_inners(std::move(inners))
    , m_strict(strict) {}

bool ZipIterator::next(Interpreter& interp, Value& out) {
    if (m_inners.empty()) return false;
    std::vector<Value> items;
    items.reserve(m_inners.size());
    for (size_t i = 0; i < m_inners.size(); ++i) {
        Value item;
        if (!interp.iterNext(m_inners[i], item)) {
            if (m_strict && i > 0)
                interp.raiseValueError("zip() argument " + std::to_string(i + 1) +
                                       " is shorter than argument" +
                                       (i == 1 ? " 1" : "s 1-" + std::to_string(i)));
            if (m_strict) {
                for (size_t j = 1; j < m_inners.size(); ++j) {
                    Value extra;
                    if (interp.iterNext(m_inners[j], extra))
                        interp.raiseValueError("zip() argument " + std::to_string(j + 1) +
                                               " is longer than argument" +
                                               (j == 1 ? " 1" : "s 1-" + std::to_string(j)));
                }
            }
            return false;
        }
        items.push_back(std::move(item));
    }
    out = tupleValue(std::move(items));
    return true;
}

MapIterator::MapIterator(Value function, std::vector<Value> inners)
    : IteratorObject(iteratorType())
    , m_function(std::move(function))
    , m_inners(std::move(inners)) {}

bool MapIterator::next(Interpreter& interp, Value& out) {
    std::vector<Value> args;
    for (Value& inner : m_inners) {
        Value item;
        if (!interp.iterNext(inner, item)) return false;
        args.push_back(std::move(item));
    }
    out = interp.call(m_function, CallArgs{args, {}, {}});
    return true;
}

FilterIterator::FilterIterator(Value predicate, Value inner)
    : IteratorObject(iteratorType())
    , m_predicate(std::move(predicate))
    , m_inner(std::move(inner)) {}

bool FilterIterator::next(Interpreter& interp, Value& out) {
    Value item;
    while (interp.iterNext(m_inner, item)) {
        bool keep = m_predicate.isNone() ? interp.truthy(item)
                                         : interp.truthy(interp.call(m_predicate, {item}));
        if (keep) {
            out = std::move(item);
            return true;
        }
    }
    return false;
}

DictIterator::DictIterator(Ref<DictObject> dict, DictViewObject::Part part)
    : IteratorObject(iteratorType())
    , m_dict(std::move(dict))
    , m_part(part)
    , m_size(m_dict->size()) {}

bool DictIterator::next(Interpreter& interp, Value& out) {
    if (m_dict->size() != m_size) {
        m_size = SIZE_MAX; // stays broken, as in CPython
        interp.raise(builtinTypes().runtimeError.get(), "dictionary changed size during iteration");
    }
    while (m_slot < m_dict->entrySlots()) {
        const DictObject::Entry& e = m_dict->entryAt(m_slot++);
        if (!e.live) continue;
        switch (m_part) {
        case DictViewObject::Part::Keys:
            out = e.key;
            break;
        case DictViewObject::Part::Values:
            out = e.value;
            break;
        case DictViewObject::Part::Items:
            out = tupleValue({e.key, e.value});
            break;
        }
        return true;
    }
    return false;
}

UserIterator::UserIterator(Value object)
    : IteratorObject(iteratorType())
    , m_object(std::move(object)) {}

bool UserIterator::next(Interpreter& interp, Value& out) {
    try {
        out = interp.callMethod(m_object, Symbol::intern("__next__"), {});
        return true;
    } catch (PyException& e) {
        if (interp.isInstance(e.exception, builtinTypes().stopIteration.get())) return false;
        throw;
    }
}

Value Interpreter::getIter(const Value& v) {
    if (v.isTensor()) {
        tensor::Tensor t = v.asTensor();
        if (t.dim() == 0) raiseTypeError("iteration over a 0-d tensor");
        if (m_recorder && m_recorder->isTraced(v)) [[unlikely]] {
            // Traced iteration unpacks the first dimension into indexing nodes, as Dynamo does.
            std::vector<Value> rows;
            for (int64_t i = 0; i < t.size(0); ++i)
                rows.push_back(getItem(v, Value::fromInt(i)));
            return Value(makeRef<SequenceIterator>(listValue(std::move(rows))));
        }
        return Value(makeRef<TensorIterator>(t));
    }
    if (v.isObject()) {
        switch (v.asObject()->kind()) {
        case ObjectKind::List:
        case ObjectKind::Tuple:
            return Value(makeRef<SequenceIterator>(v));
        case ObjectKind::Str:
            return Value(makeRef<StrIterator>(Ref<StrObject>(v.as<StrObject>())));
        case ObjectKind::Range: {
            auto* r = v.as<RangeObject>();
            return Value(makeRef<RangeIterator>(r->start, r->step, r->count()));
        }
        case ObjectKind::Dict:
            return Value(makeRef<DictIterator>(Ref<DictObject>(v.as<DictObject>()),
                                               DictViewObject::Part::Keys));
        case ObjectKind::DictView: {
            auto* view = v.as<DictViewObject>();
            return Value(makeRef<DictIterator>(view->dict, view->part));
        }
        case ObjectKind::Iterator:
            return v;
        case ObjectKind::Instance: {
            Value iterFn = tryGetAttr(v, Symbol::intern("__iter__"));
            if (!iterFn.isEmpty()) {
                Value it = call(iterFn, {});
                if (it.is(ObjectKind::Iterator)) return it;
                if (tryGetAttr(it, Symbol::intern("__next__")).isEmpty())
                    raiseTypeError("iter() returned non-iterator of type '" + typeName(it) + "'");
                return Value(makeRef<UserIterator>(it));
            }
            if (!tryGetAttr(v, Symbol::intern("__getitem__")).isEmpty()) {
                // The old sequence protocol: __getitem__ with 0, 1, ... until IndexError.
                std::vector<Value> items;
                for (int64_t i = 0;; ++i) {
                    try {
                        items.push_back(getItem(v, Value::fromInt(i)));
                    } catch (PyException& e) {
                        if (isInstance(e.exception, builtinTypes().indexError.get())) break;
                        throw;
                    }
                }
                return Value(makeRef<SequenceIterator>(listValue(std::move(items))));
            }
            break;
        }
        case ObjectKind::Type: { // a class whose metaclass defines __iter__ (EnumType)
            Value iterFn = metaclassMethod(v, Symbol::intern("__iter__"));
            if (iterFn.isEmpty()) break;
            Value it = call(iterFn, {});
            if (it.is(ObjectKind::Iterator)) return it;
            if (tryGetAttr(it, Symbol::intern("__next__")).isEmpty())
                raiseTypeError("iter() returned non-iterator of type '" + typeName(it) + "'");
            return Value(makeRef<UserIterator>(it));
        }
        default:
            break;
        }
    }
    raiseTypeError("'" + typeName(v) + "' object is not iterable");
}

bool Interpreter::isIterable(const Value& v) {
    if (v.isTensor()) return true;
    if (!v.isObject()) return false;
    switch (v.asObject()->kind()) {
    case ObjectKind::List:
    case ObjectKind::Tuple:
    case ObjectKind::Str:
    case ObjectKind::Range:
    case ObjectKind::Dict:
    case ObjectKind::DictView:
    case ObjectKind::Iterator:
        return true;
    case ObjectKind::Instance:
        return !tryGetAttr(v, Symbol::intern("__iter__")).isEmpty() ||
               !tryGetAttr(v, Symbol::intern("__getitem__")).isEmpty();
    case ObjectKind::Type:
        return !metaclassMethod(v, Symbol::intern("__iter__")).isEmpty();
    default:
        return false;
    }
}

bool Interpreter::iterNext(const Value& iterator, Value& out) {
    KILN_ASSERT(iterator.is(ObjectKind::Iterator), "iterNext on a non-iterator");
    // Natives loop through here (sum, any, min, sorted, str.join, ...): sum(range(10**15)) stops
    // at Ctrl-C or --timeout like a Python loop does.
    checkCancel();
    return iterator.as<IteratorObject>()->next(*this, out);
}

std::vector<Value> Interpreter::toVector(const Value& iterable) {
    if (iterable.is(ObjectKind::List)) return iterable.as<ListObject>()->items;
    if (iterable.is(ObjectKind::Tuple)) return iterable.as<TupleObject>()->items;
    std::vector<Value> out;
    if (iterable.is(ObjectKind::Range)) {
        // list(range(10**12)) is a MemoryError at once, as CPython's length hint makes it,
        // not a climb through the machine's memory.
        const uint64_t count = iterable.as<RangeObject>()->count();
        if (count > static_cast<uint64_t>(detail::kMaxFieldWidth) / sizeof(Value))
            raise(builtinTypes().memoryError.get(), "");
        out.reserve(count);
    }
    Value it = getIter(iterable);
    Value item;
    while (iterNext(it, item))
        out.push_back(std::move(item));
    return out;
}

} // namespace kiln::lang
