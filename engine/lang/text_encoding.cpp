// SPDX-License-Identifier: MIT
#include "lang/text_encoding.h"

#include "lang/builtins.h"
#include "lang/format_detail.h"
#include "lang/interpreter.h"

#include <cstdio>

namespace kiln::lang {

namespace {

Symbol sym(const char* s) {
    return Symbol::intern(s);
}

bool isSurrogate(char32_t c) {
    return c >= 0xD800 && c <= 0xDFFF;
}

/// The three-byte form of a surrogate starts with 0xED 0xA0..0xBF (a plain UTF-8 text never
/// holds that pair), so texts without it are checked in one pass over the bytes.
bool mayHoldSurrogates(std::string_view text) {
    for (size_t i = 0; i + 1 < text.size(); ++i)
        if (static_cast<unsigned char>(text[i]) == 0xED &&
            static_cast<unsigned char>(text[i + 1]) >= 0xA0)
            return true;
    return false;
}

std::string escapedCodePoint(char32_t c) {
    char buf[16];
    if (c <= 0xFF)
        std::snprintf(buf, sizeof buf, "\\x%02x", unsigned(c));
    else if (c <= 0xFFFF)
        std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(c));
    else
        std::snprintf(buf, sizeof buf, "\\U%08x", unsigned(c));
    return buf;
}

const std::string& strAttr(Interpreter& interp, const Value& self, const char* name) {
    Value v = interp.getAttr(self, sym(name));
    if (!v.is(ObjectKind::Str)) interp.raiseTypeError(std::string(name) + " attribute must be str");
    return v.as<StrObject>()->str();
}

Value unicodeEncodeErrorInit(Interpreter& interp, const CallArgs& args, void*) {
    if (args.positional.size() != 6)
        interp.raiseTypeError("function takes exactly 5 arguments (" +
                              std::to_string(args.positional.size() - 1) + " given)");
    auto* self = args.positional[0].as<InstanceObject>();
    const char* names[] = {"encoding", "object", "start", "end", "reason"};
    for (size_t i = 0; i < 5; ++i) {
        const Value& v = args.positional[i + 1];
        bool isStr = v.is(ObjectKind::Str);
        if ((i == 2 || i == 3) ? !v.isIntLike() : !isStr)
            interp.raiseTypeError("argument " + std::to_string(i + 1) + " must be " +
                                  (i == 2 || i == 3 ? "int" : "str") + ", not " +
                                  interp.typeName(v));
        self->attrs.set(sym(names[i]), v);
    }
    self->attrs.set(sym("args"), tupleValue({args.positional.begin() + 1, args.positional.end()}));
    return Value::none();
}

Value unicodeEncodeErrorStr(Interpreter& interp, const CallArgs& args, void*) {
    const Value& self = args.positional[0];
    const std::string& encoding = strAttr(interp, self, "encoding");
    const std::string& object = strAttr(interp, self, "object");
    const std::string& reason = strAttr(interp, self, "reason");
    int64_t start = interp.getAttr(self, sym("start")).asInt();
    int64_t end = interp.getAttr(self, sym("end")).asInt();
    const int64_t length = static_cast<int64_t>(detail::utf8Length(object));
    if (start >= 0 && start < length && end == start + 1) {
        size_t pos = detail::utf8Prefix(object, static_cast<size_t>(start)).size();
        char32_t c = detail::decodeUtf8(object, pos);
        return strValue("'" + encoding + "' codec can't encode character '" + escapedCodePoint(c) +
                        "' in position " + std::to_string(start) + ": " + reason);
    }
    return strValue("'" + encoding + "' codec can't encode characters in position " +
                    std::to_string(start) + "-" + std::to_string(end - 1) + ": " + reason);
}

} // namespace

std::optional<SurrogateRun> findSurrogates(std::string_view text) {
    if (!mayHoldSurrogates(text)) return std::nullopt;
    size_t index = 0;
    for (size_t pos = 0; pos < text.size(); ++index) {
        if (!isSurrogate(detail::decodeUtf8(text, pos))) continue;
        SurrogateRun run{index, index + 1};
        size_t next = pos;
        while (next < text.size() && isSurrogate(detail::decodeUtf8(text, next))) {
            pos = next;
            ++run.end;
        }
        return run;
    }
    return std::nullopt;
}

std::string backslashReplaceSurrogates(std::string_view text) {
    if (!mayHoldSurrogates(text)) return std::string(text);
    std::string out;
    out.reserve(text.size());
    for (size_t pos = 0; pos < text.size();) {
        size_t begin = pos;
        char32_t c = detail::decodeUtf8(text, pos);
        if (isSurrogate(c))
            out += escapedCodePoint(c);
        else
            out.append(text.substr(begin, pos - begin));
    }
    return out;
}

Value makeSurrogateEncodeError(Interpreter& interp, std::string_view text, SurrogateRun run) {
    return interp.call(Value(builtinTypes().unicodeEncodeError),
                       {strValue("utf-8"), strValue(std::string(text)),
                        Value::fromInt(static_cast<int64_t>(run.start)),
                        Value::fromInt(static_cast<int64_t>(run.end)),
                        strValue("surrogates not allowed")});
}

void installUnicodeErrors(Interpreter& interp) {
    AttrMap& dict = builtinTypes().unicodeEncodeError->dict;
    interp.defineNative(dict, "__init__", unicodeEncodeErrorInit);
    interp.defineNative(dict, "__str__", unicodeEncodeErrorStr);
}

} // namespace kiln::lang
