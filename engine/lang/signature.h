// SPDX-License-Identifier: MIT
/// \file
/// Signatures of native functions, written in Python syntax and parsed once:
///
///     static const Signature sig("sum(input, dim=None, keepdim=False, *, dtype=None)");
///     BoundArgs a = sig.bind(interp, args);
///
/// Binding follows Python's rules for positional, keyword, `/`, `*`, `*args` and `**kwargs`
/// parameters and raises the same TypeErrors a Python function would. Defaults are literals
/// (None, True, False, numbers, quoted strings).
#pragma once

#include "lang/interpreter.h"

#include <string>
#include <vector>

namespace kiln::lang {

class BoundArgs;

class Signature {
public:
    /// How binding errors are worded: like a Python function's, or like CPython's builtins
    /// ("'x' is an invalid keyword argument for f()", "insert expected 2 arguments, got 1").
    enum class Messages : uint8_t { Python, Builtin };

    explicit Signature(std::string_view spec, Messages messages = Messages::Python);

    const std::string& name() const { return m_name; }
    size_t size() const { return m_params.size(); }
    BoundArgs bind(Interpreter& interp, const CallArgs& args) const;

private:
    struct Param {
        Symbol name;
        Parameter::Kind kind;
        Value defaultValue; ///< Empty when required
    };
    /// The name without its type prefix ("insert" for "list.insert").
    std::string shortName() const;
    /// 1 when the first parameter is a method's self (or a classmethod's cls), else 0.
    size_t implicitArgs() const;
    bool allPositionalOnly() const;
    [[noreturn]] void positionalOnlyArity(Interpreter& interp, size_t given) const;
    [[noreturn]] void badArgument(Interpreter& interp, size_t i, const char* expected,
                                  const Value& v) const;

    std::string m_name;
    std::vector<Param> m_params;
    Messages m_messages;
    friend class BoundArgs;
};

/// The signature of a native function that stands for a CPython builtin (names may carry the
/// type, "list.insert(self, index, object, /)", as CPython's messages do).
class BuiltinSignature : public Signature {
public:
    explicit BuiltinSignature(std::string_view spec)
        : Signature(spec, Messages::Builtin) {}
};

class BoundArgs {
public:
    const Value& operator[](size_t i) const { return m_values[i]; }
    /// True when the argument was given or has a non-None default.
    bool has(size_t i) const { return !m_values[i].isEmpty() && !m_values[i].isNone(); }

    /// Typed accessors that raise TypeError naming the parameter when the value does not fit.
    int64_t toInt(size_t i) const;
    double toDouble(size_t i) const;
    bool toBool(size_t i) const;
    const std::string& toStr(size_t i) const;
    std::optional<int64_t> optInt(size_t i) const;
    std::optional<double> optDouble(size_t i) const;
    tensor::Tensor toTensor(size_t i) const;
    std::optional<tensor::Tensor> optTensor(size_t i) const;
    /// An int or a sequence of ints (sizes, dims); also accepts torch.Size.
    std::vector<int64_t> toIntList(size_t i) const;

    Interpreter& interp() const { return *m_interp; }
    const std::string& functionName() const { return m_sig->m_name; }
    const std::string& paramName(size_t i) const { return m_sig->m_params[i].name.str(); }

private:
    friend class Signature;
    Interpreter* m_interp = nullptr;
    const Signature* m_sig = nullptr;
    std::vector<Value> m_values;
};

/// Converts a Python int or sequence of ints into a vector; raises TypeError otherwise.
std::vector<int64_t> toIntVector(Interpreter& interp, const Value& v, const std::string& what);

} // namespace kiln::lang
