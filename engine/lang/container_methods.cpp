// SPDX-License-Identifier: MIT
// Methods of list, tuple and dict (keys/values/items return live DictViewObjects).
#include "lang/builtins.h"
#include "lang/signature.h"

#include <utility>

namespace kiln::lang {

namespace {

ListObject& listSelf(Interpreter& interp, const CallArgs& args, const char* method) {
    if (args.positional.empty() || !args.positional[0].is(ObjectKind::List))
        interp.raiseTypeError(std::string("descriptor '") + method +
                              "' for 'list' objects doesn't apply to this object");
    return *args.positional[0].as<ListObject>();
}

DictObject& dictSelf(Interpreter& interp, const CallArgs& args, const char* method) {
    if (args.positional.empty() || !args.positional[0].is(ObjectKind::Dict))
        interp.raiseTypeError(std::string("descriptor '") + method +
                              "' for 'dict' objects doesn't apply to this object");
    return *args.positional[0].as<DictObject>();
}

// CPython's check for methods that take nothing besides self (METH_NOARGS).
void checkNoArgs(Interpreter& interp, const CallArgs& args, const std::string& qualifiedName) {
    if (!args.keywordNames.empty())
        interp.raiseTypeError(qualifiedName + "() takes no keyword arguments");
    if (args.positional.size() > 1)
        interp.raiseTypeError(qualifiedName + "() takes no arguments (" +
                              std::to_string(args.positional.size() - 1) + " given)");
}

Value listAppend(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("list.append(self, object, /)");
    BoundArgs a = sig.bind(interp, args);
    listSelf(interp, args, "append").items.push_back(a[1]);
    return Value::none();
}

Value listExtend(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("list.extend(self, iterable, /)");
    BoundArgs a = sig.bind(interp, args);
    std::vector<Value> more = interp.toVector(a[1]);
    auto& items = listSelf(interp, args, "extend").items;
    items.insert(items.end(), more.begin(), more.end());
    return Value::none();
}

Value listInsert(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("list.insert(self, index, object, /)");
    BoundArgs a = sig.bind(interp, args);
    auto& items = listSelf(interp, args, "insert").items;
    int64_t i = a.toInt(1); // first: an __index__ may change the list
    int64_t n = static_cast<int64_t>(items.size());
    if (i < 0) i = std::max<int64_t>(0, i + n);
    i = std::min(i, n);
    items.insert(items.begin() + i, a[2]);
    return Value::none();
}

Value listPop(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("list.pop(self, index=-1, /)");
    BoundArgs a = sig.bind(interp, args);
    auto& items = listSelf(interp, args, "pop").items;
    int64_t i = a.toInt(1); // first: an __index__ may change the list
    if (items.empty()) interp.raise(builtinTypes().indexError.get(), "pop from empty list");
    int64_t n = static_cast<int64_t>(items.size());
    if (i < 0) i += n;
    if (i < 0 || i >= n) interp.raise(builtinTypes().indexError.get(), "pop index out of range");
    Value v = std::move(items[static_cast<size_t>(i)]);
    items.erase(items.begin() + i);
    return v;
}

Value listRemove(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("list.remove(self, value, /)");
    BoundArgs a = sig.bind(interp, args);
    auto& items = listSelf(interp, args, "remove").items;
    // An __eq__ may change the list: compare a copy of the item and re-read the size.
    for (size_t i = 0; i < items.size(); ++i) {
        Value item = items[i];
        if (item.identical(a[1]) || interp.equals(item, a[1])) {
            // CPython deletes the slice [i:i+1], which is empty if the list shrank.
            if (i < items.size()) items.erase(items.begin() + static_cast<long>(i));
            return Value::none();
        }
    }
    interp.raiseValueError("list.remove(x): x not in list");
}

Value sequenceIndex(Interpreter& interp, const std::vector<Value>& items, const BoundArgs& a,
                    const char* what) {
    int64_t n = static_cast<int64_t>(items.size());
    int64_t start = a.has(2) ? a.toInt(2) : 0, stop = a.has(3) ? a.toInt(3) : n;
    if (start < 0) start = std::max<int64_t>(0, start + n);
    if (stop < 0) stop = std::max<int64_t>(0, stop + n);
    // An __eq__ may change a list: compare a copy of the item and re-read the size.
    for (int64_t i = start; i < std::min(stop, static_cast<int64_t>(items.size())); ++i) {
        Value item = items[static_cast<size_t>(i)];
        if (item.identical(a[1]) || interp.equals(item, a[1])) return Value::fromInt(i);
    }
    if (std::string(what) == "list") interp.raiseValueError(interp.repr(a[1]) + " is not in list");
    interp.raiseValueError("tuple.index(x): x not in tuple");
}

Value listIndex(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("list.index(self, value, start=None, stop=None, /)");
    BoundArgs a = sig.bind(interp, args);
    return sequenceIndex(interp, listSelf(interp, args, "index").items, a, "list");
}

Value tupleIndex(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("tuple.index(self, value, start=None, stop=None, /)");
    BoundArgs a = sig.bind(interp, args);
    return sequenceIndex(interp, a[0].as<TupleObject>()->items, a, "tuple");
}

Value countIn(Interpreter& interp, const std::vector<Value>& items, const Value& x) {
    int64_t n = 0;
    // An __eq__ may change a list: compare a copy of the item and re-read the size.
    for (size_t i = 0; i < items.size(); ++i) {
        Value item = items[i];
        n += item.identical(x) || interp.equals(item, x);
    }
    return Value::fromInt(n);
}

Value listCount(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("list.count(self, value, /)");
    BoundArgs a = sig.bind(interp, args);
    return countIn(interp, listSelf(interp, args, "count").items, a[1]);
}

Value tupleCount(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("tuple.count(self, value, /)");
    BoundArgs a = sig.bind(interp, args);
    return countIn(interp, a[0].as<TupleObject>()->items, a[1]);
}

Value listSort(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("list.sort(self, /, *, key=None, reverse=False)");
    BoundArgs a = sig.bind(interp, args);
    // As in CPython, the list is empty while its items are sorted: a key or comparison that
    // looks at it sees [], one that changes it cannot invalidate the items being sorted, and
    // the change is detected afterwards (any allocation in the emptied list).
    std::vector<Value>& listItems = listSelf(interp, args, "sort").items;
    std::vector<Value> items = std::exchange(listItems, {});
    bool modified = false;
    {
        // Puts the items back however the sort ends (a key function or __lt__ may raise).
        struct PutBack {
            std::vector<Value>& list;
            std::vector<Value>& items;
            bool& modified;
            ~PutBack() {
                modified = !list.empty() || list.capacity() != 0;
                list = std::move(items);
            }
        } putBack{listItems, items, modified};
        sortValues(interp, items, a[1], a.toBool(2));
    }
    if (modified) interp.raiseValueError("list modified during sort");
    return Value::none();
}

Value listReverse(Interpreter& interp, const CallArgs& args, void*) {
    auto& items = listSelf(interp, args, "reverse").items;
    checkNoArgs(interp, args, "list.reverse");
    std::reverse(items.begin(), items.end());
    return Value::none();
}

Value listCopy(Interpreter& interp, const CallArgs& args, void*) {
    checkNoArgs(interp, args, "list.copy");
    return listValue(listSelf(interp, args, "copy").items);
}

Value listClear(Interpreter& interp, const CallArgs& args, void*) {
    checkNoArgs(interp, args, "list.clear");
    listSelf(interp, args, "clear").items.clear();
    return Value::none();
}

Value dictView(Interpreter& interp, const CallArgs& args, const char* method,
               DictViewObject::Part part) {
    DictObject& d = dictSelf(interp, args, method);
    checkNoArgs(interp, args, std::string("dict.") + method);
    return Value(makeRef<DictViewObject>(Ref<DictObject>(&d), part));
}

Value dictKeys(Interpreter& interp, const CallArgs& args, void*) {
    return dictView(interp, args, "keys", DictViewObject::Part::Keys);
}

Value dictValues(Interpreter& interp, const CallArgs& args, void*) {
    return dictView(interp, args, "values", DictViewObject::Part::Values);
}

Value dictItems(Interpreter& interp, const CallArgs& args, void*) {
    return dictView(interp, args, "items", DictViewObject::Part::Items);
}

Value dictGet(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("dict.get(self, key, default=None, /)");
    BoundArgs a = sig.bind(interp, args);
    Value* v = dictSelf(interp, args, "get").find(interp, a[1]);
    return v ? *v : a[2];
}

Value dictPop(Interpreter& interp, const CallArgs& args, void*) {
    if (args.positional.size() < 2 || args.positional.size() > 3)
        interp.raiseTypeError("pop expected at least 1 argument, got " +
                              std::to_string(args.positional.size() - 1));
    DictObject& d = dictSelf(interp, args, "pop");
    Value* v = d.find(interp, args.positional[1]);
    if (!v) {
        if (args.positional.size() == 3) return args.positional[2];
        interp.raise(interp.call(Value(builtinTypes().keyError), {args.positional[1]}));
    }
    Value out = *v;
    d.erase(interp, args.positional[1]);
    return out;
}

Value dictPopitem(Interpreter& interp, const CallArgs& args, void*) {
    DictObject& d = dictSelf(interp, args, "popitem");
    checkNoArgs(interp, args, "dict.popitem");
    if (d.size() == 0)
        interp.raise(interp.call(Value(builtinTypes().keyError),
                                 {strValue("popitem(): dictionary is empty")}));
    Value key = d.keys().back();
    Value value = *d.find(interp, key);
    d.erase(interp, key);
    return tupleValue({key, value});
}

Value dictSetdefault(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("dict.setdefault(self, key, default=None, /)");
    BoundArgs a = sig.bind(interp, args);
    DictObject& d = dictSelf(interp, args, "setdefault");
    if (Value* v = d.find(interp, a[1])) return *v;
    d.set(interp, a[1], a[2]);
    return a[2];
}

Value dictUpdate(Interpreter& interp, const CallArgs& args, void*) {
    DictObject& d = dictSelf(interp, args, "update");
    if (args.positional.size() > 2)
        interp.raiseTypeError("update expected at most 1 argument, got " +
                              std::to_string(args.positional.size() - 1));
    if (args.positional.size() == 2) {
        Value tmp = interp.call(Value(builtinTypes().dict), {args.positional[1]});
        tmp.as<DictObject>()->forEach([&](const Value& k, const Value& v) { d.set(interp, k, v); });
    }
    for (size_t k = 0; k < args.keywordNames.size(); ++k)
        d.set(interp, strValue(args.keywordNames[k].str()), args.keywordValues[k]);
    return Value::none();
}

Value dictCopy(Interpreter& interp, const CallArgs& args, void*) {
    checkNoArgs(interp, args, "dict.copy");
    auto copy = makeRef<DictObject>();
    dictSelf(interp, args, "copy").forEach([&](const Value& k, const Value& v) {
        copy->set(interp, k, v);
    });
    return Value(copy);
}

Value dictClear(Interpreter& interp, const CallArgs& args, void*) {
    checkNoArgs(interp, args, "dict.clear");
    dictSelf(interp, args, "clear").clear();
    return Value::none();
}

Value dictFromkeys(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("dict.fromkeys(cls, iterable, value=None, /)");
    BoundArgs a = sig.bind(interp, args);
    auto d = makeRef<DictObject>();
    for (const Value& k : interp.toVector(a[1]))
        d->set(interp, k, a[2]);
    return Value(d);
}

} // namespace

void installContainerMethods(Interpreter& interp) {
    const BuiltinTypes& t = builtinTypes();
    struct Entry {
        const char* name;
        NativeFn fn;
    };
    const Entry listEntries[] = {
        {"append", listAppend}, {"extend", listExtend}, {"insert", listInsert},
        {"pop", listPop},       {"remove", listRemove}, {"index", listIndex},
        {"count", listCount},   {"sort", listSort},     {"reverse", listReverse},
        {"copy", listCopy},     {"clear", listClear},
    };
    for (const Entry& e : listEntries)
        interp.defineNative(t.list->dict, e.name, e.fn);
    interp.defineNative(t.tuple->dict, "index", tupleIndex);
    interp.defineNative(t.tuple->dict, "count", tupleCount);
    const Entry dictEntries[] = {
        {"keys", dictKeys},
        {"values", dictValues},
        {"items", dictItems},
        {"get", dictGet},
        {"pop", dictPop},
        {"popitem", dictPopitem},
        {"setdefault", dictSetdefault},
        {"update", dictUpdate},
        {"copy", dictCopy},
        {"clear", dictClear},
    };
    for (const Entry& e : dictEntries)
        interp.defineNative(t.dict->dict, e.name, e.fn);
    t.dict->dict.set(Symbol::intern("fromkeys"),
                     Value(makeRef<ClassMethodObject>(interp.newNative("fromkeys", dictFromkeys))));
}

} // namespace kiln::lang
