// SPDX-License-Identifier: MIT
/// \file
/// The interpreter's object classes: strings, containers, functions, classes and instances,
/// modules, ranges, slices, iterators and the descriptor types (property, staticmethod,
/// classmethod, super). Each is an Object with an ObjectKind tag and a Python type.
#pragma once

#include "lang/ast.h"
#include "lang/attr_map.h"
#include "lang/value.h"

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace kiln::lang {

class Interpreter;
class TypeObject;
class ModuleObject;

class StrObject final : public Object {
public:
    explicit StrObject(std::string s);
    const std::string& str() const { return m_str; }
    bool isAscii() const { return m_ascii; }
    size_t hash() const;
    /// Length in characters (code points).
    int64_t length() const;

    /// What an instance of a user subclass of str has beyond its characters: its namespace,
    /// and its class, kept alive by the instance as an InstanceObject keeps its own.
    struct SubclassState {
        AttrMap attrs;
        Ref<TypeObject> classRef;
    };
    /// Null for plain strings; set (with the type) by makeStrSubclassInstance.
    std::unique_ptr<SubclassState> subclass;

private:
    std::string m_str;
    mutable size_t m_hash = 0;
    bool m_ascii;
};

class ListObject final : public Object {
public:
    ListObject();
    explicit ListObject(std::vector<Value> items);
    std::vector<Value> items;
};

class TupleObject final : public Object {
public:
    explicit TupleObject(std::vector<Value> items);
    /// A tuple whose Python type is a tuple subclass (torch.Size).
    TupleObject(std::vector<Value> items, TypeObject* type);
    const std::vector<Value> items;
};

/// Python dict: insertion-ordered, keys hashed by Python value semantics (1 == 1.0 == True).
class DictObject final : public Object {
public:
    DictObject();
    struct Entry {
        Value key;
        Value value;
        size_t hash = 0;
        bool live = true;
    };

    /// Throws (through the interpreter) TypeError for unhashable keys.
    Value* find(Interpreter& interp, const Value& key);
    void set(Interpreter& interp, const Value& key, Value value);
    bool erase(Interpreter& interp, const Value& key);
    void clear();
    size_t size() const { return m_live; }
    /// Live entries in insertion order.
    template <typename Fn>
    void forEach(Fn&& fn) const {
        for (const Entry& e : m_entries)
            if (e.live) fn(e.key, e.value);
    }
    std::vector<Value> keys() const;
    /// Entries by position (dead ones included), for iterators that must see changes.
    size_t entrySlots() const { return m_entries.size(); }
    const Entry& entryAt(size_t i) const { return m_entries[i]; }

private:
    int64_t lookup(Interpreter& interp, const Value& key, size_t hash) const;
    void compactIfSparse();

    std::vector<Entry> m_entries;
    std::unordered_multimap<size_t, size_t> m_index;
    size_t m_live = 0;
    /// Counts changes of the entries' layout (insert, erase, clear, compaction): a key's
    /// __eq__ may change the dict while a lookup compares, which then starts over.
    uint64_t m_layoutVersion = 0;
};

/// dict.keys(), dict.values() and dict.items(): live views of a dict.
class DictViewObject final : public Object {
public:
    enum class Part : uint8_t { Keys, Values, Items };
    DictViewObject(Ref<DictObject> dict, Part part);
    Ref<DictObject> dict;
    Part part;
};

class CellObject final : public Object {
public:
    CellObject();
    Value value;
};

/// A `def` or `lambda` closed over its defining environment.
class FunctionObject final : public Object {
public:
    FunctionObject(std::shared_ptr<FunctionCode> code, Ref<ModuleObject> globals);

    std::shared_ptr<FunctionCode> code;
    Ref<ModuleObject> globals;
    std::vector<Value> defaults; ///< one per parameter; Empty where there is no default
    std::vector<Ref<CellObject>> closure;
    /// The class whose body defined it (for super()); held so that super() keeps working after
    /// the class's name is rebound. The class's dict holds the function back: the interpreter
    /// breaks that cycle when it is destroyed.
    Ref<TypeObject> ownerClass;
    AttrMap attrs; ///< function attributes (__name__, markers set by decorators)
};

struct CallArgs {
    std::span<const Value> positional;
    std::span<const Symbol> keywordNames;
    std::span<const Value> keywordValues;

    size_t count() const { return positional.size() + keywordNames.size(); }
};

using NativeFn = Value (*)(Interpreter&, const CallArgs&, void* data);

/// A function implemented in C++ (builtins, torch functions, methods of builtin types).
struct TraceInfo;

/// What a native presents itself as to scripts (its type and repr): CPython's builtin
/// functions, a Python function (most of torch.nn.functional is Python in PyTorch), or a
/// static method of a C++ class (torch's operators, methods of _VariableFunctionsClass).
enum class NativeStyle : uint8_t { Builtin, PythonFunction, VariableFunction };

class NativeFunctionObject final : public Object {
public:
    NativeFunctionObject(std::string name, NativeFn fn, void* data = nullptr);
    std::string name;
    NativeFn fn;
    void* data;
    Value bound; ///< when set, passed as the first positional argument (a bound builtin method)
    /// How torch.compile's tracing treats this function; null: opaque (see capture_hooks.h).
    std::shared_ptr<const TraceInfo> trace;
    NativeStyle style = NativeStyle::Builtin;
    std::string module;   ///< `__module__`; empty: none is shown (CPython's builtins)
    std::string qualname; ///< `__qualname__`; empty: the name
};

/// Makes `fn` look like a Python function (type `function`, `<function qualname at 0x...>`).
void presentAsPythonFunction(NativeFunctionObject& fn, std::string module, std::string qualname);

class BoundMethodObject final : public Object {
public:
    BoundMethodObject(Value self, Value function);
    Value self;
    Value function;
};

class TypeObject final : public Object {
public:
    TypeObject(std::string name, std::vector<Ref<TypeObject>> bases, ObjectKind instanceKind);

    std::string name;
    /// The dotted path from the module ("A.B", "f.<locals>.Local"); empty: the name.
    std::string qualname;
    std::string moduleName = "builtins";
    std::vector<Ref<TypeObject>> bases;
    std::vector<TypeObject*> mro; ///< this type first, object last
    AttrMap dict;
    ObjectKind instanceKind; ///< C++ class of instances (Instance for user classes, Type for
                             ///< metaclasses)
    bool isUserClass = false;
    /// False for a class whose __slots__ (and its bases') leave out __dict__: its instances
    /// take only the attributes `slots` names.
    bool instancesHaveDict = true;
    std::vector<Symbol> slots; ///< this class's and its bases' __slots__ names
    /// A user metaclass (the class's type() when it is not `type`), held so that the class keeps
    /// it alive as an instance keeps its class.
    Ref<TypeObject> metaclass;
    /// Set while the class's own `__abstractmethods__` is non-empty (CPython's
    /// Py_TPFLAGS_IS_ABSTRACT): object.__new__ refuses to instantiate it.
    bool isAbstract = false;
    /// Whether an instance of this type can take attribute `name` (its __slots__ allow it).
    bool acceptsInstanceAttribute(Symbol name) const;
    /// Called when the type itself is called and no Python __init__/__new__ applies
    /// (int("3"), list(x), torch.device("cpu"), built-in exception types use Instance).
    Value constructor;

    /// Attribute lookup along the MRO (no descriptor binding).
    const Value* lookup(Symbol name) const;
    /// Lookup along the MRO up to, not including, `stop`: what a subclass of a built-in type
    /// defines over the built-in's own behaviour (Enum's __hash__ after str in the MRO is not).
    const Value* lookupBefore(Symbol name, const TypeObject* stop) const;
    bool isSubtypeOf(const TypeObject* other) const;
    void computeMro();
    /// "torch.nn.modules.linear.Linear", "__main__.A.B": module and qualified name, for reprs.
    std::string qualifiedName() const;
};

struct TracebackEntry {
    const FunctionCode* code = nullptr;
    const ModuleObject* globals = nullptr; ///< the frame's module (NameError suggestions)
    SourceSpan span;
    SourceSpan emphasis; ///< the operator of a failing binary operation, if any
};

/// Extra state of an exception instance (set on first raise).
struct ExceptionState {
    std::vector<TracebackEntry> traceback; ///< innermost first
    Value cause;
    Value context;
    bool suppressContext = false;
    uint64_t lastRecordedFrame = 0; ///< serial of the frame that last added an entry
};

/// An instance of a user class or of a built-in exception type.
class InstanceObject final : public Object {
public:
    explicit InstanceObject(TypeObject* type);
    AttrMap attrs;
    /// The instance keeps its class alive (as in CPython): a class whose name is deleted or
    /// rebound, or a local class returned from its function, lives as long as its instances.
    Ref<TypeObject> classRef;
    std::unique_ptr<ExceptionState> exception; ///< exceptions only
    ExceptionState& exceptionState();
};

class ModuleObject final : public Object {
public:
    explicit ModuleObject(std::string name);
    std::string name;
    AttrMap globals;
    SourceFilePtr source;
    std::shared_ptr<FunctionCode> code; ///< keeps the AST of a Python-source module alive
};

class RangeObject final : public Object {
public:
    RangeObject(int64_t start, int64_t stop, int64_t step);
    int64_t start, stop, step;
    /// The exact number of elements (up to 2^64 - 1: range(-2**63, 2**63 - 1)).
    uint64_t count() const;
    /// count() as a Python length; saturates at INT64_MAX (len() raises OverflowError there).
    int64_t length() const;
    /// Element k (k < count()), computed without overflow.
    int64_t at(uint64_t k) const {
        return static_cast<int64_t>(static_cast<uint64_t>(start) + k * static_cast<uint64_t>(step));
    }
};

class SliceObject final : public Object {
public:
    SliceObject(Value start, Value stop, Value step);
    Value start, stop, step;
};

/// Iterators over built-in sequences and the lazy builtins (enumerate, zip, map, ...).
class IteratorObject : public Object {
public:
    explicit IteratorObject(TypeObject* type);
    /// Produces the next item into `out`; false when exhausted.
    virtual bool next(Interpreter& interp, Value& out) = 0;
};

class PropertyObject final : public Object {
public:
    PropertyObject(Value getter, Value setter, Value deleter = Value());
    Value getter, setter, deleter; ///< Empty or None when absent
};

class StaticMethodObject final : public Object {
public:
    explicit StaticMethodObject(Value function);
    Value function;
};

class ClassMethodObject final : public Object {
public:
    explicit ClassMethodObject(Value function);
    Value function;
};

class SuperObject final : public Object {
public:
    SuperObject(Ref<TypeObject> startAfter, Value self);
    Ref<TypeObject> startAfter;
    Value self;
};

/// Base for C++ payload objects exposed to scripts (torch.dtype, torch.device, contexts, ...).
class NativeObject : public Object {
public:
    explicit NativeObject(TypeObject* type);
};

Ref<StrObject> makeStr(std::string s);
Value strValue(std::string s);
/// An instance of `type`, a user subclass of str, holding the characters `s`.
Value strSubclassValue(TypeObject* type, std::string s);
/// A str whose type is a user subclass of str (`class Task(str, Enum)`).
bool isStrSubclassInstance(const Value& v);
/// What the user subclass of a str instance `v` defines for `name` over str's own behaviour
/// (found in its MRO before str); null for plain strings and for what str itself decides.
const Value* strSubclassOverride(const Value& v, Symbol name);
/// The namespace of an instance of a user class (an Instance, or a str of a user subclass of
/// str); null for every other value.
AttrMap* instanceNamespace(const Value& v);
Value tupleValue(std::vector<Value> items);
Value listValue(std::vector<Value> items);

} // namespace kiln::lang
