// SPDX-License-Identifier: MIT
// Interpreter values meet the formatting library: format(), str % args and str.format.
#include "lang/builtins.h"
#include "lang/format.h"
#include "lang/signature.h"
#include "lang/tensor_bridge.h"

namespace kiln::lang {

namespace {

[[noreturn]] void raiseDiagnostic(Interpreter& interp, const Diagnostic& d) {
    const auto& t = builtinTypes();
    TypeObject* type = d.kind == "TypeError"       ? t.typeError.get()
                       : d.kind == "KeyError"      ? t.keyError.get()
                       : d.kind == "IndexError"    ? t.indexError.get()
                       : d.kind == "OverflowError" ? t.overflowError.get()
                       : d.kind == "MemoryError"   ? t.memoryError.get()
                                                   : t.valueError.get();
    interp.raise(type, d.message);
}

template <typename T>
T orRaise(Interpreter& interp, Expected<T> e) {
    if (!e.ok()) raiseDiagnostic(interp, e.error());
    return std::move(e).value();
}

class ValuePercentArgs final : public PercentArgs {
public:
    ValuePercentArgs(Interpreter& interp, const Value& operand)
        : m_interp(interp)
        , m_operand(operand) {
        if (operand.is(ObjectKind::Tuple))
            m_values = operand.as<TupleObject>()->items;
        else
            m_values.push_back(operand);
    }

    size_t count() const override {
        return m_operand.is(ObjectKind::Tuple) ? m_operand.as<TupleObject>()->items.size() : 1;
    }
    bool isMapping() const override {
        return m_operand.is(ObjectKind::Dict) || m_operand.is(ObjectKind::List) ||
               (m_operand.is(ObjectKind::Instance) &&
                !m_interp.tryGetAttr(m_operand, Symbol::intern("__getitem__")).isEmpty());
    }
    Expected<size_t> lookupKey(std::string_view key) override {
        m_values.push_back(m_interp.getItem(m_operand, strValue(std::string(key))));
        return m_values.size() - 1;
    }
    bool isInt(size_t id) const override {
        return m_values[id].isIntLike() || integralTensor(m_values[id]);
    }
    bool isNumber(size_t id) const override {
        const Value& v = m_values[id];
        return v.isNumber() || (v.isTensor() && v.asTensor().numel() == 1);
    }
    bool isStr(size_t id) const override { return m_values[id].is(ObjectKind::Str); }
    int64_t asInt(size_t id) override {
        const Value& v = m_values[id];
        return v.isTensor() ? tensor::item(v.asTensor()).toInt() : v.asInt();
    }
    double asFloat(size_t id) override {
        const Value& v = m_values[id];
        return v.isTensor() ? tensor::item(v.asTensor()).toDouble() : v.toDouble();
    }
    std::string str(size_t id) override { return m_interp.str(m_values[id]); }
    std::string repr(size_t id) override { return m_interp.repr(m_values[id]); }
    std::string typeName(size_t id) const override { return m_interp.typeName(m_values[id]); }

private:
    static bool integralTensor(const Value& v) {
        if (!v.isTensor()) return false;
        tensor::Tensor t = v.asTensor();
        return t.numel() == 1 && tensor::isIntegral(t.dtype(), true);
    }

    Interpreter& m_interp;
    Value m_operand;
    std::vector<Value> m_values;
};

Value lookupField(Interpreter& interp, const FormatField& field, const CallArgs& args) {
    Value v;
    if (field.argIndex >= 0) {
        // args.positional[0] is the format string itself.
        size_t index = static_cast<size_t>(field.argIndex) + 1;
        if (index >= args.positional.size())
            interp.raise(builtinTypes().indexError.get(),
                         "Replacement index " + std::to_string(field.argIndex) +
                             " out of range for positional args tuple");
        v = args.positional[index];
    } else {
        Symbol key = Symbol::intern(field.keyword);
        for (size_t k = 0; k < args.keywordNames.size() && v.isEmpty(); ++k)
            if (args.keywordNames[k] == key) v = args.keywordValues[k];
        if (v.isEmpty())
            interp.raise(interp.call(Value(builtinTypes().keyError), {strValue(field.keyword)}));
    }
    for (const FieldAccessor& step : field.accessors) {
        if (step.isAttribute)
            v = interp.getAttr(v, Symbol::intern(step.name));
        else
            v = interp.getItem(v,
                               step.index >= 0 ? Value::fromInt(step.index) : strValue(step.name));
    }
    return v;
}

std::string convertField(Interpreter& interp, const Value& v, char conversion, std::string& spec) {
    (void)spec;
    if (conversion == 'r') return interp.repr(v);
    if (conversion == 'a') return asciiEscape(interp.repr(v));
    return interp.str(v);
}

std::string expandFormat(Interpreter& interp, FormatStringParser parser, const CallArgs& args);

std::string formatField(Interpreter& interp, const FormatField& field, const CallArgs& args,
                        const FormatStringParser& parser) {
    Value v = lookupField(interp, field, args);
    std::string spec = field.spec;
    if (field.specHasFields)
        spec = expandFormat(interp, orRaise(interp, parser.nested(field.spec)), args);
    if (field.conversion) v = strValue(convertField(interp, v, field.conversion, spec));
    return formatValue(interp, v, spec);
}

std::string expandFormat(Interpreter& interp, FormatStringParser parser, const CallArgs& args) {
    std::string out;
    while (true) {
        auto piece = orRaise(interp, parser.next());
        if (!piece) return out;
        out += piece->literal;
        if (piece->field) out += formatField(interp, *piece->field, args, parser);
    }
}

} // namespace

std::string formatValue(Interpreter& interp, const Value& value, const std::string& spec) {
    std::string typeName = interp.typeName(value);
    switch (value.tag()) {
    case Value::Tag::Bool:
        return orRaise(
            interp, formatBool(value.asBool(), orRaise(interp, parseFormatSpec(spec, typeName))));
    case Value::Tag::Int:
        return orRaise(interp,
                       formatInt(value.asInt(), orRaise(interp, parseFormatSpec(spec, typeName))));
    case Value::Tag::Float:
        return orRaise(
            interp, formatFloat(value.asFloat(), orRaise(interp, parseFormatSpec(spec, typeName))));
    case Value::Tag::Tensor: {
        tensor::Tensor t = value.asTensor();
        // Tensor.__format__: a 0-dim tensor formats as its Python number, even with no spec.
        if (t.dim() == 0) {
            tensor::Scalar s = tensor::item(t);
            Value v = s.isFloat()  ? Value::fromFloat(s.toDouble())
                      : s.isBool() ? Value::fromBool(s.toBool())
                                   : Value::fromInt(s.toInt());
            return formatValue(interp, v, spec);
        }
        break;
    }
    default:
        break;
    }
    const Value* strOverride = strSubclassOverride(value, Symbol::intern("__format__"));
    // str.__format__ with an empty spec is str(value): a subclass's __str__ shows.
    if (value.is(ObjectKind::Str) && !strOverride && spec.empty()) return interp.str(value);
    if (value.is(ObjectKind::Str) && !strOverride)
        return orRaise(interp, formatString(value.as<StrObject>()->str(),
                                            orRaise(interp, parseFormatSpec(spec, typeName))));
    if (value.is(ObjectKind::Instance) || strOverride) {
        Value method = interp.tryGetAttr(value, Symbol::intern("__format__"));
        if (!method.isEmpty()) {
            Value r = interp.call(method, {strValue(spec)});
            if (!r.is(ObjectKind::Str))
                interp.raiseTypeError("__format__ must return a str, not " + interp.typeName(r));
            return r.as<StrObject>()->str();
        }
    }
    if (!spec.empty())
        interp.raiseTypeError("unsupported format string passed to " + typeName + ".__format__");
    return interp.str(value);
}

Value percentFormatValue(Interpreter& interp, const std::string& format, const Value& args) {
    ValuePercentArgs percentArgs(interp, args);
    return strValue(orRaise(interp, percentFormat(format, percentArgs)));
}

Value strFormatMethod(Interpreter& interp, const CallArgs& args, void*) {
    if (args.positional.empty() || !args.positional[0].is(ObjectKind::Str))
        interp.raiseTypeError("descriptor 'format' of 'str' object needs an argument");
    return strValue(
        expandFormat(interp, FormatStringParser(args.positional[0].as<StrObject>()->str()), args));
}

Value strFormatMapMethod(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("str.format_map(self, mapping, /)");
    BoundArgs a = sig.bind(interp, args);
    if (!a[1].is(ObjectKind::Dict))
        interp.raiseTypeError("format_map() argument must be a mapping, not " +
                              interp.typeName(a[1]));
    std::vector<Symbol> names;
    std::vector<Value> values;
    a[1].as<DictObject>()->forEach([&](const Value& k, const Value& v) {
        if (k.is(ObjectKind::Str)) {
            names.push_back(Symbol::intern(k.as<StrObject>()->str()));
            values.push_back(v);
        }
    });
    std::vector<Value> self{a[0]};
    return strValue(
        expandFormat(interp, FormatStringParser(a.toStr(0)), CallArgs{self, names, values}));
}

} // namespace kiln::lang
