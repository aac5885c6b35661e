// SPDX-License-Identifier: MIT
#include "lang/signature.h"

#include "lang/tensor_bridge.h"

#include <cstdlib>

namespace kiln::lang {

namespace {

std::string trim(std::string_view s) {
    size_t b = s.find_first_not_of(' ');
    size_t e = s.find_last_not_of(' ');
    return b == std::string_view::npos ? std::string() : std::string(s.substr(b, e - b + 1));
}

Value parseDefault(const std::string& text) {
    if (text == "None") return Value::none();
    if (text == "True" || text == "False") return Value::fromBool(text == "True");
    if (!text.empty() && (text[0] == '\'' || text[0] == '"'))
        return strValue(text.substr(1, text.size() - 2));
    if (text.find_first_of(".eE") != std::string::npos &&
        text.find_first_not_of("0123456789.eE-+") == std::string::npos)
        return Value::fromFloat(std::strtod(text.c_str(), nullptr));
    return Value::fromInt(std::strtoll(text.c_str(), nullptr, 10));
}

std::string plural(size_t n, const char* word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

} // namespace

Signature::Signature(std::string_view spec, Messages messages)
    : m_messages(messages) {
    size_t open = spec.find('(');
    KILN_ASSERT(open != std::string_view::npos && spec.back() == ')', "malformed signature");
    m_name = trim(spec.substr(0, open));
    std::string_view body = spec.substr(open + 1, spec.size() - open - 2);
    bool keywordOnly = false;
    size_t start = 0;
    while (start <= body.size()) {
        size_t comma = body.find(',', start);
        std::string item = trim(body.substr(
            start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
        start = comma == std::string_view::npos ? body.size() + 1 : comma + 1;
        if (item.empty()) continue;
        if (item == "/") {
            for (Param& p : m_params)
                p.kind = Parameter::Kind::PositionalOnly;
            continue;
        }
        if (item == "*") {
            keywordOnly = true;
            continue;
        }
        Param p;
        p.kind = keywordOnly ? Parameter::Kind::KeywordOnly : Parameter::Kind::Positional;
        if (item.rfind("**", 0) == 0) {
            p.kind = Parameter::Kind::VarKeywords;
            item = item.substr(2);
        } else if (item[0] == '*') {
            p.kind = Parameter::Kind::VarArgs;
            keywordOnly = true;
            item = item.substr(1);
        }
        size_t eq = item.find('=');
        if (eq != std::string::npos) {
            p.defaultValue = parseDefault(trim(item.substr(eq + 1)));
            item = trim(item.substr(0, eq));
        }
        p.name = Symbol::intern(item);
        m_params.push_back(std::move(p));
    }
}

size_t Signature::implicitArgs() const {
    if (m_params.empty()) return 0;
    const std::string& first = m_params[0].name.str();
    return first == "self" || first == "cls" ? 1 : 0;
}

std::string Signature::shortName() const {
    size_t dot = m_name.rfind('.');
    return dot == std::string::npos ? m_name : m_name.substr(dot + 1);
}

bool Signature::allPositionalOnly() const {
    for (const Param& p : m_params)
        if (p.kind != Parameter::Kind::PositionalOnly) return false;
    return true;
}

// The arity errors of CPython's positional-only builtins: METH_NOARGS, METH_O, and Argument
// Clinic's "expected N arguments". `given` excludes self.
void Signature::positionalOnlyArity(Interpreter& interp, size_t given) const {
    size_t first = implicitArgs();
    size_t total = m_params.size() - first, required = 0;
    for (size_t i = first; i < m_params.size(); ++i)
        required += m_params[i].defaultValue.isEmpty();
    std::string count = "(" + std::to_string(given) + " given)";
    if (total == 0) interp.raiseTypeError(m_name + "() takes no arguments " + count);
    if (total == 1 && required == 1)
        interp.raiseTypeError(m_name + "() takes exactly one argument " + count);
    size_t bound = given < required ? required : total;
    std::string qualifier = required == total ? "" : given < required ? "at least " : "at most ";
    interp.raiseTypeError(shortName() + " expected " + qualifier +
                          plural(bound, "argument").substr(0) + ", got " + std::to_string(given));
}

void Signature::badArgument(Interpreter& interp, size_t i, const char* expected,
                            const Value& v) const {
    if (m_messages == Messages::Builtin) {
        if (std::string_view(expected) == "int" || std::string_view(expected) == "bool")
            interp.raiseTypeError("'" + interp.typeName(v) +
                                  "' object cannot be interpreted as an integer");
        size_t self = implicitArgs();
        interp.raiseTypeError(shortName() + "() argument " + std::to_string(i + 1 - self) +
                              " must be " + expected + ", not " + interp.typeName(v));
    }
    interp.raiseTypeError(m_name + "(): argument '" + m_params[i].name.str() + "' must be " +
                          expected + ", not " + interp.typeName(v));
}

BoundArgs Signature::bind(Interpreter& interp, const CallArgs& args) const {
    const bool builtin = m_messages == Messages::Builtin;
    if (builtin && allPositionalOnly()) {
        size_t self = implicitArgs();
        if (!args.keywordNames.empty())
            interp.raiseTypeError(m_name + "() takes no keyword arguments");
        size_t required = 0;
        for (const Param& p : m_params)
            required += p.defaultValue.isEmpty();
        if (args.positional.size() < self)
            interp.raiseTypeError("unbound method " + m_name + "() needs an argument");
        if (args.positional.size() < required || args.positional.size() > m_params.size())
            positionalOnlyArity(interp, args.positional.size() - self);
    }
    BoundArgs out;
    out.m_interp = &interp;
    out.m_sig = this;
    out.m_values.resize(m_params.size());
    size_t positionalParams = 0;
    int varArgs = -1, varKw = -1;
    for (size_t i = 0; i < m_params.size(); ++i) {
        auto k = m_params[i].kind;
        if (k == Parameter::Kind::Positional || k == Parameter::Kind::PositionalOnly)
            ++positionalParams;
        else if (k == Parameter::Kind::VarArgs)
            varArgs = static_cast<int>(i);
        else if (k == Parameter::Kind::VarKeywords)
            varKw = static_cast<int>(i);
    }
    std::vector<Value> extra;
    for (size_t i = 0; i < args.positional.size(); ++i) {
        if (i < positionalParams)
            out.m_values[i] = args.positional[i];
        else
            extra.push_back(args.positional[i]);
    }
    if (!extra.empty() && varArgs < 0) {
        if (builtin) {
            size_t self = implicitArgs();
            interp.raiseTypeError(shortName() + "() takes at most " +
                                  plural(positionalParams - self, "argument") + " (" +
                                  std::to_string(args.positional.size() - self) + " given)");
        }
        interp.raiseTypeError(m_name + "() takes " +
                              plural(positionalParams, "positional argument") + " but " +
                              std::to_string(args.positional.size()) +
                              (args.positional.size() == 1 ? " was" : " were") + " given");
    }
    if (varArgs >= 0) out.m_values[varArgs] = tupleValue(std::move(extra));
    Ref<DictObject> kw = varKw >= 0 ? makeRef<DictObject>() : Ref<DictObject>();
    for (size_t k = 0; k < args.keywordNames.size(); ++k) {
        Symbol key = args.keywordNames[k];
        int index = -1;
        for (size_t i = 0; i < m_params.size(); ++i)
            if (m_params[i].name == key && m_params[i].kind != Parameter::Kind::VarArgs &&
                m_params[i].kind != Parameter::Kind::VarKeywords &&
                m_params[i].kind != Parameter::Kind::PositionalOnly)
                index = static_cast<int>(i);
        if (index < 0) {
            if (!kw && builtin)
                interp.raiseTypeError("'" + key.str() + "' is an invalid keyword argument for " +
                                      shortName() + "()");
            if (!kw)
                interp.raiseTypeError(m_name + "() got an unexpected keyword argument '" +
                                      key.str() + "'");
            kw->set(interp, strValue(key.str()), args.keywordValues[k]);
            continue;
        }
        if (!out.m_values[index].isEmpty())
            interp.raiseTypeError(
                builtin ? "argument for " + m_name + "() given by name ('" + key.str() +
                              "') and position (" + std::to_string(index + 1) + ")"
                        : m_name + "() got multiple values for argument '" + key.str() + "'");
        out.m_values[index] = args.keywordValues[k];
    }
    if (varKw >= 0) out.m_values[varKw] = Value(kw);
    for (size_t i = 0; i < m_params.size(); ++i) {
        if (!out.m_values[i].isEmpty()) continue;
        if (!m_params[i].defaultValue.isEmpty()) {
            out.m_values[i] = m_params[i].defaultValue;
            continue;
        }
        if (builtin)
            interp.raiseTypeError(shortName() + "() missing required argument '" +
                                  m_params[i].name.str() + "' (pos " + std::to_string(i + 1) + ")");
        bool kwOnly = m_params[i].kind == Parameter::Kind::KeywordOnly;
        interp.raiseTypeError(m_name + "() missing 1 required " +
                              (kwOnly ? "keyword-only" : "positional") + " argument: '" +
                              m_params[i].name.str() + "'");
    }
    return out;
}

int64_t BoundArgs::toInt(size_t i) const {
    const Value& v = m_values[i];
    if (v.isIntLike()) return v.asInt();
    if (auto idx = asIndex(*m_interp, v)) return *idx;
    m_sig->badArgument(*m_interp, i, "int", v);
}

double BoundArgs::toDouble(size_t i) const {
    const Value& v = m_values[i];
    if (v.isNumber()) return v.toDouble();
    if (v.isTensor() && v.asTensor().numel() == 1) return tensor::item(v.asTensor()).toDouble();
    m_sig->badArgument(*m_interp, i, "float", v);
}

bool BoundArgs::toBool(size_t i) const {
    const Value& v = m_values[i];
    if (v.isBool()) return v.asBool();
    if (v.isInt()) return v.asInt() != 0;
    m_sig->badArgument(*m_interp, i, "bool", v);
}

const std::string& BoundArgs::toStr(size_t i) const {
    const Value& v = m_values[i];
    if (!v.is(ObjectKind::Str)) m_sig->badArgument(*m_interp, i, "str", v);
    return v.as<StrObject>()->str();
}

std::optional<int64_t> BoundArgs::optInt(size_t i) const {
    if (!has(i)) return std::nullopt;
    return toInt(i);
}

std::optional<double> BoundArgs::optDouble(size_t i) const {
    if (!has(i)) return std::nullopt;
    return toDouble(i);
}

tensor::Tensor BoundArgs::toTensor(size_t i) const {
    const Value& v = m_values[i];
    if (!v.isTensor())
        m_interp->raiseTypeError(functionName() + "(): argument '" + paramName(i) + "' (position " +
                                 std::to_string(i + 1) + ") must be Tensor, not " +
                                 m_interp->typeName(v));
    return v.asTensor();
}

std::optional<tensor::Tensor> BoundArgs::optTensor(size_t i) const {
    if (!has(i)) return std::nullopt;
    return toTensor(i);
}

std::vector<int64_t> BoundArgs::toIntList(size_t i) const {
    return toIntVector(*m_interp, m_values[i],
                       functionName() + "(): argument '" + paramName(i) + "'");
}

std::vector<int64_t> toIntVector(Interpreter& interp, const Value& v, const std::string& what) {
    if (auto single = asIndex(interp, v); single && !v.isTensor()) return {*single};
    if (v.is(ObjectKind::List) || v.is(ObjectKind::Tuple)) {
        const auto& items =
            v.is(ObjectKind::List) ? v.as<ListObject>()->items : v.as<TupleObject>()->items;
        std::vector<int64_t> out;
        out.reserve(items.size());
        for (size_t k = 0; k < items.size(); ++k) {
            auto idx = asIndex(interp, items[k]);
            if (!idx)
                interp.raiseTypeError(what + " must be tuple of ints, but found element of type " +
                                      interp.typeName(items[k]) + " at pos " + std::to_string(k));
            out.push_back(*idx);
        }
        return out;
    }
    interp.raiseTypeError(what + " must be tuple of ints, not " + interp.typeName(v));
}

} // namespace kiln::lang
