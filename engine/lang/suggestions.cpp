// SPDX-License-Identifier: MIT
// "Did you mean: 'x'?" for NameError and AttributeError, and dir(): the candidates and the
// Levenshtein search of CPython 3.11 (Python/suggestions.c), so that Kiln suggests what
// CPython suggests.
#include "lang/suggestions.h"

#include <algorithm>
#include <climits>
#include <set>

namespace kiln::lang {

namespace {

constexpr size_t kMaxCandidates = 750;
constexpr size_t kMaxStringSize = 40;
constexpr size_t kMoveCost = 2;
constexpr size_t kCaseCost = 1;

// What dir() lists for every object (CPython 3.11's object type).
constexpr const char* kObjectNames[] = {
    "__class__",   "__delattr__", "__dir__",           "__doc__",         "__eq__",
    "__format__",  "__ge__",      "__getattribute__",  "__getstate__",    "__gt__",
    "__hash__",    "__init__",    "__init_subclass__", "__le__",          "__lt__",
    "__ne__",      "__new__",     "__reduce__",        "__reduce_ex__",   "__repr__",
    "__setattr__", "__sizeof__",  "__str__",           "__subclasshook__"};

// The module globals CPython creates before a script runs, in dict order.
constexpr const char* kModuleDunders[] = {"__name__",     "__doc__",  "__package__",
                                          "__loader__",   "__spec__", "__annotations__",
                                          "__builtins__", "__file__", "__cached__"};

// CPython 3.11's builtins module, in dict order (ties go to the first candidate).
constexpr const char* kBuiltinNames[] = {"__name__",
                                         "__doc__",
                                         "__package__",
                                         "__loader__",
                                         "__spec__",
                                         "__build_class__",
                                         "__import__",
                                         "abs",
                                         "all",
                                         "any",
                                         "ascii",
                                         "bin",
                                         "breakpoint",
                                         "callable",
                                         "chr",
                                         "compile",
                                         "delattr",
                                         "dir",
                                         "divmod",
                                         "eval",
                                         "exec",
                                         "format",
                                         "getattr",
                                         "globals",
                                         "hasattr",
                                         "hash",
                                         "hex",
                                         "id",
                                         "input",
                                         "isinstance",
                                         "issubclass",
                                         "iter",
                                         "aiter",
                                         "len",
                                         "locals",
                                         "max",
                                         "min",
                                         "next",
                                         "anext",
                                         "oct",
                                         "ord",
                                         "pow",
                                         "print",
                                         "repr",
                                         "round",
                                         "setattr",
                                         "sorted",
                                         "sum",
                                         "vars",
                                         "None",
                                         "Ellipsis",
                                         "NotImplemented",
                                         "False",
                                         "True",
                                         "bool",
                                         "memoryview",
                                         "bytearray",
                                         "bytes",
                                         "classmethod",
                                         "complex",
                                         "dict",
                                         "enumerate",
                                         "filter",
                                         "float",
                                         "frozenset",
                                         "property",
                                         "int",
                                         "list",
                                         "map",
                                         "object",
                                         "range",
                                         "reversed",
                                         "set",
                                         "slice",
                                         "staticmethod",
                                         "str",
                                         "super",
                                         "tuple",
                                         "type",
                                         "zip",
                                         "__debug__",
                                         "BaseException",
                                         "BaseExceptionGroup",
                                         "Exception",
                                         "GeneratorExit",
                                         "KeyboardInterrupt",
                                         "SystemExit",
                                         "ArithmeticError",
                                         "AssertionError",
                                         "AttributeError",
                                         "BufferError",
                                         "EOFError",
                                         "ImportError",
                                         "LookupError",
                                         "MemoryError",
                                         "NameError",
                                         "OSError",
                                         "ReferenceError",
                                         "RuntimeError",
                                         "StopAsyncIteration",
                                         "StopIteration",
                                         "SyntaxError",
                                         "SystemError",
                                         "TypeError",
                                         "ValueError",
                                         "Warning",
                                         "FloatingPointError",
                                         "OverflowError",
                                         "ZeroDivisionError",
                                         "BytesWarning",
                                         "DeprecationWarning",
                                         "EncodingWarning",
                                         "FutureWarning",
                                         "ImportWarning",
                                         "PendingDeprecationWarning",
                                         "ResourceWarning",
                                         "RuntimeWarning",
                                         "SyntaxWarning",
                                         "UnicodeWarning",
                                         "UserWarning",
                                         "BlockingIOError",
                                         "ChildProcessError",
                                         "ConnectionError",
                                         "FileExistsError",
                                         "FileNotFoundError",
                                         "InterruptedError",
                                         "IsADirectoryError",
                                         "NotADirectoryError",
                                         "PermissionError",
                                         "ProcessLookupError",
                                         "TimeoutError",
                                         "IndentationError",
                                         "IndexError",
                                         "KeyError",
                                         "ModuleNotFoundError",
                                         "NotImplementedError",
                                         "RecursionError",
                                         "UnboundLocalError",
                                         "UnicodeError",
                                         "BrokenPipeError",
                                         "ConnectionAbortedError",
                                         "ConnectionRefusedError",
                                         "ConnectionResetError",
                                         "TabError",
                                         "UnicodeDecodeError",
                                         "UnicodeEncodeError",
                                         "UnicodeTranslateError",
                                         "ExceptionGroup",
                                         "EnvironmentError",
                                         "IOError",
                                         "open",
                                         "quit",
                                         "exit",
                                         "copyright",
                                         "credits",
                                         "license",
                                         "help"};

size_t substitutionCost(char a, char b) {
    if ((a & 31) != (b & 31)) return kMoveCost;
    if (a == b) return 0;
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
    return lower(a) == lower(b) ? kCaseCost : kMoveCost;
}

size_t levenshtein(std::string_view a, std::string_view b, size_t maxCost) {
    while (!a.empty() && !b.empty() && a.front() == b.front()) {
        a.remove_prefix(1);
        b.remove_prefix(1);
    }
    while (!a.empty() && !b.empty() && a.back() == b.back()) {
        a.remove_suffix(1);
        b.remove_suffix(1);
    }
    if (a.empty() || b.empty()) return (a.size() + b.size()) * kMoveCost;
    if (a.size() > kMaxStringSize || b.size() > kMaxStringSize) return maxCost + 1;
    if (b.size() < a.size()) std::swap(a, b);
    if ((b.size() - a.size()) * kMoveCost > maxCost) return maxCost + 1;
    size_t row[kMaxStringSize];
    for (size_t i = 0; i < a.size(); ++i)
        row[i] = (i + 1) * kMoveCost;
    size_t result = 0;
    for (size_t bi = 0; bi < b.size(); ++bi) {
        size_t distance = result = bi * kMoveCost;
        size_t minimum = SIZE_MAX;
        for (size_t ai = 0; ai < a.size(); ++ai) {
            size_t substitute = distance + substitutionCost(b[bi], a[ai]);
            distance = row[ai];
            result = std::min(std::min(result, distance) + kMoveCost, substitute);
            row[ai] = result;
            minimum = std::min(minimum, result);
        }
        if (minimum > maxCost) return maxCost + 1;
    }
    return result;
}

// The closest candidate within CPython's distance bound, or "".
std::string closest(const std::vector<std::string>& candidates, const std::string& name) {
    if (candidates.size() >= kMaxCandidates) return "";
    size_t best = SIZE_MAX;
    std::string suggestion;
    for (const std::string& item : candidates) {
        if (item == name) continue;
        size_t maxDistance = (name.size() + item.size() + 3) * kMoveCost / 6;
        if (best != SIZE_MAX) maxDistance = std::min(maxDistance, best - 1);
        size_t d = levenshtein(name, item, maxDistance);
        if (d > maxDistance) continue;
        if (suggestion.empty() || d < best) {
            suggestion = item;
            best = d;
        }
    }
    return suggestion;
}

std::string stringAttr(const InstanceObject& exc, const char* name) {
    const Value* v = exc.attrs.find(Symbol::intern(name));
    return v && v->is(ObjectKind::Str) ? v->as<StrObject>()->str() : "";
}

std::string nameErrorSuggestion(const InstanceObject& exc, const std::string& name) {
    if (!exc.exception || exc.exception->traceback.empty()) return "";
    const TracebackEntry& innermost = exc.exception->traceback.front();
    std::vector<std::string> locals;
    if (innermost.code->scope && innermost.code->scope->kind != ScopeKind::Module)
        for (Symbol s : innermost.code->scope->slots)
            locals.push_back(s.str());
    std::string found = closest(locals, name);
    if (!found.empty() || !innermost.globals) return found;
    std::vector<std::string> globals(std::begin(kModuleDunders), std::end(kModuleDunders));
    for (const auto& e : innermost.globals->globals.entries())
        if (std::find(globals.begin(), globals.end(), e.key.str()) == globals.end())
            globals.push_back(e.key.str());
    found = closest(globals, name);
    if (!found.empty()) return found;
    return closest(std::vector<std::string>(std::begin(kBuiltinNames), std::end(kBuiltinNames)),
                   name);
}

} // namespace

std::vector<std::string> dirNames(Interpreter& interp, const Value& object) {
    std::set<std::string> names;
    auto addAll = [&](const AttrMap& attrs) {
        for (const auto& e : attrs.entries())
            names.insert(e.key.str());
    };
    if (object.is(ObjectKind::Module)) {
        addAll(object.as<ModuleObject>()->globals);
        return {names.begin(), names.end()};
    }
    if (object.is(ObjectKind::Instance)) addAll(object.as<InstanceObject>()->attrs);
    TypeObject* type =
        object.is(ObjectKind::Type) ? object.as<TypeObject>() : interp.typeOf(object);
    for (TypeObject* t : type->mro) {
        addAll(t->dict);
        if (t->isUserClass) {
            names.insert("__dict__");
            names.insert("__weakref__");
        }
    }
    names.erase("__qualname__"); // an attribute of the class object, not listed by dir()
    names.insert(std::begin(kObjectNames), std::end(kObjectNames));
    return {names.begin(), names.end()};
}

std::string suggestionFor(Interpreter& interp, const Value& exception) {
    if (!exception.is(ObjectKind::Instance)) return "";
    const auto* exc = exception.as<InstanceObject>();
    const BuiltinTypes& t = builtinTypes();
    TypeObject* type = exc->type();
    std::string name = stringAttr(*exc, "name");
    if (name.empty()) return "";
    if (type->isSubtypeOf(t.nameError.get()) && !type->isSubtypeOf(t.unboundLocalError.get()))
        return nameErrorSuggestion(*exc, name);
    const Value* obj = exc->attrs.find(Symbol::intern("obj"));
    if (type->isSubtypeOf(t.attributeError.get()) && obj)
        return closest(dirNames(interp, *obj), name);
    return "";
}

} // namespace kiln::lang
