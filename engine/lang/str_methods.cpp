// SPDX-License-Identifier: MIT
// Methods of str (those that need Unicode properties are in str_case.cpp).
#include "lang/builtins.h"
#include "lang/format_detail.h"
#include "lang/signature.h"
#include "lang/unicode.h"

#include <algorithm>
#include <cctype>
#include <optional>

namespace kiln::lang {

namespace {

const std::string& self(Interpreter& interp, const CallArgs& args, const char* method) {
    if (args.positional.empty() || !args.positional[0].is(ObjectKind::Str))
        interp.raiseTypeError(std::string("descriptor '") + method +
                              "' for 'str' objects doesn't apply to a '" +
                              (args.positional.empty() ? std::string("nothing")
                                                       : interp.typeName(args.positional[0])) +
                              "' object");
    return args.positional[0].as<StrObject>()->str();
}

bool isSpaceChar(char32_t c) {
    if (c < 0x80) return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1C && c <= 0x1F);
    return unicode::isSpace(c);
}

// Byte length of the character at s[i] when `accept` takes it, else 0.
template <typename Accept>
size_t matchAt(std::string_view s, size_t i, const Accept& accept) {
    size_t j = i;
    return accept(detail::decodeUtf8(s, j)) ? j - i : 0;
}

// Where the UTF-8 character that ends at s[end - 1] begins.
size_t previousChar(std::string_view s, size_t end) {
    size_t begin = end - 1;
    while (begin > 0 && (static_cast<unsigned char>(s[begin]) & 0xC0) == 0x80)
        --begin;
    return begin;
}

// Byte length of the character that ends at s[end - 1] when `accept` takes it, else 0.
template <typename Accept>
size_t matchBefore(std::string_view s, size_t end, const Accept& accept) {
    size_t begin = previousChar(s, end);
    return matchAt(s, begin, accept) ? end - begin : 0;
}

Value strJoin(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("str.join(self, iterable, /)");
    BoundArgs a = sig.bind(interp, args);
    const std::string& sep = a.toStr(0);
    std::string out;
    size_t i = 0;
    for (const Value& item : interp.toVector(a[1])) {
        if (!item.is(ObjectKind::Str))
            interp.raiseTypeError("sequence item " + std::to_string(i) +
                                  ": expected str instance, " + interp.typeName(item) + " found");
        if (i++) out += sep;
        out += item.as<StrObject>()->str();
    }
    return strValue(std::move(out));
}

std::vector<Value> splitWhitespace(const std::string& s, int64_t maxsplit) {
    std::vector<Value> parts;
    size_t i = 0;
    while (i < s.size()) {
        while (size_t k = i < s.size() ? matchAt(s, i, isSpaceChar) : 0)
            i += k;
        if (i >= s.size()) break;
        if (maxsplit >= 0 && static_cast<int64_t>(parts.size()) == maxsplit) {
            parts.push_back(strValue(s.substr(i))); // the rest keeps its trailing whitespace
            return parts;
        }
        size_t j = i;
        while (j < s.size() && !matchAt(s, j, isSpaceChar))
            detail::decodeUtf8(s, j);
        parts.push_back(strValue(s.substr(i, j - i)));
        i = j;
    }
    return parts;
}

// str.rsplit(None, maxsplit): split from the right; the rest keeps its leading whitespace.
std::vector<Value> rsplitWhitespace(const std::string& s, int64_t maxsplit) {
    std::vector<Value> parts;
    size_t end = s.size();
    while (end > 0) {
        while (size_t k = end > 0 ? matchBefore(s, end, isSpaceChar) : 0)
            end -= k;
        if (end == 0) break;
        if (static_cast<int64_t>(parts.size()) == maxsplit) {
            parts.push_back(strValue(s.substr(0, end)));
            break;
        }
        size_t begin = end;
        while (begin > 0 && !matchBefore(s, begin, isSpaceChar))
            begin = previousChar(s, begin);
        parts.push_back(strValue(s.substr(begin, end - begin)));
        end = begin;
    }
    std::reverse(parts.begin(), parts.end());
    return parts;
}

Value strSplit(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("str.split(self, /, sep=None, maxsplit=-1)");
    BoundArgs a = sig.bind(interp, args);
    const std::string& s = a.toStr(0);
    int64_t maxsplit = a.toInt(2);
    if (!a.has(1)) return listValue(splitWhitespace(s, maxsplit));
    const std::string& sep = a.toStr(1);
    if (sep.empty()) interp.raiseValueError("empty separator");
    std::vector<Value> parts;
    size_t start = 0;
    while (true) {
        size_t pos = (maxsplit < 0 || static_cast<int64_t>(parts.size()) < maxsplit)
                         ? s.find(sep, start)
                         : std::string::npos;
        if (pos == std::string::npos) {
            parts.push_back(strValue(s.substr(start)));
            break;
        }
        parts.push_back(strValue(s.substr(start, pos - start)));
        start = pos + sep.size();
    }
    return listValue(std::move(parts));
}

Value strRsplit(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("str.rsplit(self, /, sep=None, maxsplit=-1)");
    BoundArgs a = sig.bind(interp, args);
    const std::string& s = a.toStr(0);
    int64_t maxsplit = a.toInt(2);
    if (maxsplit < 0) return strSplit(interp, args, nullptr);
    if (!a.has(1)) return listValue(rsplitWhitespace(s, maxsplit));
    std::string sep = a.toStr(1);
    if (sep.empty()) interp.raiseValueError("empty separator");
    std::vector<Value> parts;
    size_t end = s.size();
    while (static_cast<int64_t>(parts.size()) < maxsplit) {
        size_t pos = end >= sep.size() ? s.rfind(sep, end - sep.size()) : std::string::npos;
        if (pos == std::string::npos) break;
        parts.push_back(strValue(s.substr(pos + sep.size(), end - pos - sep.size())));
        end = pos;
    }
    parts.push_back(strValue(s.substr(0, end)));
    std::reverse(parts.begin(), parts.end());
    return listValue(std::move(parts));
}

Value stripImpl(Interpreter& interp, const CallArgs& args, bool left, bool right) {
    static const BuiltinSignature sig("str.strip(self, chars=None, /)");
    BoundArgs a = sig.bind(interp, args);
    const std::string& s = a.toStr(0);
    std::vector<char32_t> chars;
    if (a.has(1))
        for (size_t i = 0; i < a.toStr(1).size();)
            chars.push_back(detail::decodeUtf8(a.toStr(1), i));
    auto accept = [&](char32_t c) {
        return a.has(1) ? std::find(chars.begin(), chars.end(), c) != chars.end() : isSpaceChar(c);
    };
    size_t b = 0, e = s.size();
    if (left)
        while (size_t k = b < e ? matchAt(s, b, accept) : 0)
            b += k;
    if (right)
        while (size_t k = e > b ? matchBefore(s, e, accept) : 0)
            e -= k;
    return strValue(s.substr(b, e - b));
}

Value strStrip(Interpreter& interp, const CallArgs& args, void*) {
    return stripImpl(interp, args, true, true);
}
Value strLstrip(Interpreter& interp, const CallArgs& args, void*) {
    return stripImpl(interp, args, true, false);
}
Value strRstrip(Interpreter& interp, const CallArgs& args, void*) {
    return stripImpl(interp, args, false, true);
}

// The part of self (argument 0) between the optional start and end arguments, which count
// characters and clamp like a slice; nullopt when start is past end.
std::optional<std::string_view> charWindow(const BoundArgs& a, size_t startArg, size_t endArg) {
    const auto* str = a[0].as<StrObject>();
    std::string_view s = str->str();
    int64_t n = str->length();
    int64_t start = a.has(startArg) ? a.toInt(startArg) : 0;
    int64_t end = a.has(endArg) ? a.toInt(endArg) : n;
    if (start < 0) start = std::max<int64_t>(0, start + n);
    if (end < 0) end = std::max<int64_t>(0, end + n);
    end = std::min(end, n);
    if (start > end) return std::nullopt;
    if (str->isAscii())
        return s.substr(static_cast<size_t>(start), static_cast<size_t>(end - start));
    size_t begin = detail::utf8Prefix(s, static_cast<size_t>(start)).size();
    size_t stop = detail::utf8Prefix(s, static_cast<size_t>(end)).size();
    return s.substr(begin, stop - begin);
}

Value affix(Interpreter& interp, const CallArgs& args, bool prefix) {
    static const BuiltinSignature sig("str.startswith(self, prefix, start=None, end=None, /)");
    BoundArgs a = sig.bind(interp, args);
    a.toStr(0);
    std::optional<std::string_view> window = charWindow(a, 2, 3);
    if (!window) return Value::fromBool(false);
    std::string_view s = *window;
    std::vector<Value> candidates =
        a[1].is(ObjectKind::Tuple) ? a[1].as<TupleObject>()->items : std::vector<Value>{a[1]};
    for (const Value& c : candidates) {
        if (!c.is(ObjectKind::Str))
            interp.raiseTypeError(std::string(prefix ? "startswith" : "endswith") +
                                  " first arg must be str or a tuple of str, not " +
                                  interp.typeName(c));
        const std::string& p = c.as<StrObject>()->str();
        bool match =
            p.size() <= s.size() && (prefix ? s.compare(0, p.size(), p) == 0
                                            : s.compare(s.size() - p.size(), p.size(), p) == 0);
        if (match) return Value::fromBool(true);
    }
    return Value::fromBool(false);
}

Value strStartswith(Interpreter& interp, const CallArgs& args, void*) {
    return affix(interp, args, true);
}
Value strEndswith(Interpreter& interp, const CallArgs& args, void*) {
    return affix(interp, args, false);
}

Value strReplace(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("str.replace(self, old, new, count=-1, /)");
    BoundArgs a = sig.bind(interp, args);
    const std::string& s = a.toStr(0);
    const std::string& from = a.toStr(1);
    const std::string& to = a.toStr(2);
    const int64_t count = a.toInt(3);
    // Where the replacements go: before every character and at the end for an empty `old`
    // (character boundaries, not bytes: "é".replace("", "-") is "-é-"), else at each match.
    std::vector<size_t> at;
    auto more = [&] { return count < 0 || static_cast<int64_t>(at.size()) < count; };
    if (from.empty()) {
        for (size_t i = 0; i <= s.size() && more(); ++i)
            if (i == s.size() || (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) at.push_back(i);
    } else {
        for (size_t found = s.find(from); found != std::string::npos && more();
             found = s.find(from, found + from.size()))
            at.push_back(found);
    }
    // The result's size first: ("a" * 10**6).replace("", "b" * 10**6) is a MemoryError at
    // once, as in CPython, not a climb through the machine's memory.
    const double bytes = static_cast<double>(s.size()) +
                         static_cast<double>(at.size()) *
                             (static_cast<double>(to.size()) - static_cast<double>(from.size()));
    if (bytes > static_cast<double>(detail::kMaxFieldWidth))
        interp.raise(builtinTypes().memoryError.get(), "");
    std::string out;
    out.reserve(static_cast<size_t>(bytes));
    size_t pos = 0;
    for (size_t place : at) {
        out.append(s, pos, place - pos);
        out += to;
        pos = place + from.size();
    }
    out.append(s, std::min(pos, s.size()), std::string::npos);
    return strValue(std::move(out));
}

int64_t findImpl(Interpreter& interp, const CallArgs& args, bool reverse) {
    static const BuiltinSignature sig("str.find(self, sub, start=None, end=None, /)");
    BoundArgs a = sig.bind(interp, args);
    const std::string& s = a.toStr(0);
    const std::string& sub = a.toStr(1);
    std::optional<std::string_view> window = charWindow(a, 2, 3);
    if (!window) return -1;
    size_t pos = reverse ? window->rfind(sub) : window->find(sub);
    if (pos == std::string_view::npos) return -1;
    size_t bytes = static_cast<size_t>(window->data() - s.data()) + pos;
    return a[0].as<StrObject>()->isAscii()
               ? static_cast<int64_t>(bytes)
               : static_cast<int64_t>(detail::utf8Length(std::string_view(s).substr(0, bytes)));
}

Value strFind(Interpreter& interp, const CallArgs& args, void*) {
    return Value::fromInt(findImpl(interp, args, false));
}
Value strRfind(Interpreter& interp, const CallArgs& args, void*) {
    return Value::fromInt(findImpl(interp, args, true));
}
Value strIndex(Interpreter& interp, const CallArgs& args, void*) {
    int64_t i = findImpl(interp, args, false);
    if (i < 0) interp.raiseValueError("substring not found");
    return Value::fromInt(i);
}
Value strRindex(Interpreter& interp, const CallArgs& args, void*) {
    int64_t i = findImpl(interp, args, true);
    if (i < 0) interp.raiseValueError("substring not found");
    return Value::fromInt(i);
}

Value strCount(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("str.count(self, sub, /)");
    BoundArgs a = sig.bind(interp, args);
    const std::string& s = a.toStr(0);
    const std::string& sub = a.toStr(1);
    if (sub.empty()) return Value::fromInt(utf8Length(s) + 1);
    int64_t n = 0;
    for (size_t pos = s.find(sub); pos != std::string::npos; pos = s.find(sub, pos + sub.size()))
        ++n;
    return Value::fromInt(n);
}

Value padImpl(Interpreter& interp, const CallArgs& args, char how) {
    static const BuiltinSignature sig("str.ljust(self, width, fillchar=' ', /)");
    BoundArgs a = sig.bind(interp, args);
    const std::string& s = a.toStr(0);
    int64_t width = a.toInt(1);
    const std::string& fill = a.toStr(2);
    if (utf8Length(fill) != 1)
        interp.raiseTypeError("The fill character must be exactly one character long");
    int64_t len = utf8Length(s);
    if (width <= len) return a[0];
    if (width > detail::kMaxFieldWidth) interp.raise(builtinTypes().memoryError.get(), "");
    int64_t pad = width - len;
    int64_t left = how == '<' ? 0 : how == '>' ? pad : pad / 2 + (pad & width & 1);
    std::string out;
    for (int64_t i = 0; i < left; ++i)
        out += fill;
    out += s;
    for (int64_t i = 0; i < pad - left; ++i)
        out += fill;
    return strValue(std::move(out));
}

Value strLjust(Interpreter& interp, const CallArgs& args, void*) {
    return padImpl(interp, args, '<');
}
Value strRjust(Interpreter& interp, const CallArgs& args, void*) {
    return padImpl(interp, args, '>');
}
Value strCenter(Interpreter& interp, const CallArgs& args, void*) {
    return padImpl(interp, args, '^');
}

Value strZfill(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("str.zfill(self, width, /)");
    BoundArgs a = sig.bind(interp, args);
    std::string s = a.toStr(0);
    int64_t width = a.toInt(1);
    int64_t len = utf8Length(s);
    if (width <= len) return a[0];
    if (width > detail::kMaxFieldWidth) interp.raise(builtinTypes().memoryError.get(), "");
    size_t signEnd = (!s.empty() && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
    s.insert(signEnd, static_cast<size_t>(width - len), '0');
    return strValue(std::move(s));
}

Value strExpandtabs(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("str.expandtabs(self, /, tabsize=8)");
    BoundArgs a = sig.bind(interp, args);
    const std::string& s = a.toStr(0);
    int64_t tabsize = a.toInt(1);
    std::string out;
    int64_t column = 0; // in characters since the last line break
    for (char c : s) {
        if (c == '\t') {
            int64_t spaces = tabsize > 0 ? tabsize - column % tabsize : 0;
            out.append(static_cast<size_t>(spaces), ' ');
            column += spaces;
            continue;
        }
        out += c;
        if (c == '\n' || c == '\r')
            column = 0;
        else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80)
            ++column; // count characters, not UTF-8 continuation bytes
    }
    return strValue(std::move(out));
}

Value strSplitlines(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("str.splitlines(self, /, keepends=False)");
    BoundArgs a = sig.bind(interp, args);
    const std::string& s = a.toStr(0);
    bool keep = a.toBool(1);
    std::vector<Value> lines;
    size_t start = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '\n' && s[i] != '\r') continue;
        size_t end = i;
        if (s[i] == '\r' && i + 1 < s.size() && s[i + 1] == '\n') ++i;
        lines.push_back(strValue(s.substr(start, (keep ? i + 1 : end) - start)));
        start = i + 1;
    }
    if (start < s.size()) lines.push_back(strValue(s.substr(start)));
    return listValue(std::move(lines));
}

Value partitionImpl(Interpreter& interp, const CallArgs& args, bool reverse) {
    static const BuiltinSignature sig("str.partition(self, sep, /)");
    BoundArgs a = sig.bind(interp, args);
    const std::string& s = a.toStr(0);
    const std::string& sep = a.toStr(1);
    if (sep.empty()) interp.raiseValueError("empty separator");
    size_t pos = reverse ? s.rfind(sep) : s.find(sep);
    if (pos == std::string::npos)
        return reverse ? tupleValue({strValue(""), strValue(""), a[0]})
                       : tupleValue({a[0], strValue(""), strValue("")});
    return tupleValue({strValue(s.substr(0, pos)), a[1], strValue(s.substr(pos + sep.size()))});
}

Value strPartition(Interpreter& interp, const CallArgs& args, void*) {
    return partitionImpl(interp, args, false);
}
Value strRpartition(Interpreter& interp, const CallArgs& args, void*) {
    return partitionImpl(interp, args, true);
}

Value removeAffix(Interpreter& interp, const CallArgs& args, bool prefix) {
    static const BuiltinSignature sig("str.removeprefix(self, prefix, /)");
    BoundArgs a = sig.bind(interp, args);
    const std::string& s = a.toStr(0);
    const std::string& p = a.toStr(1);
    bool match =
        p.size() <= s.size() && (prefix ? s.compare(0, p.size(), p) == 0
                                        : s.compare(s.size() - p.size(), p.size(), p) == 0);
    if (!match || p.empty()) return a[0];
    return strValue(prefix ? s.substr(p.size()) : s.substr(0, s.size() - p.size()));
}

Value strRemoveprefix(Interpreter& interp, const CallArgs& args, void*) {
    return removeAffix(interp, args, true);
}
Value strRemovesuffix(Interpreter& interp, const CallArgs& args, void*) {
    return removeAffix(interp, args, false);
}

} // namespace

void installStrMethods(Interpreter& interp) {
    AttrMap& d = builtinTypes().str->dict;
    struct Entry {
        const char* name;
        NativeFn fn;
    };
    const Entry entries[] = {
        {"join", strJoin},
        {"split", strSplit},
        {"rsplit", strRsplit},
        {"strip", strStrip},
        {"lstrip", strLstrip},
        {"rstrip", strRstrip},
        {"startswith", strStartswith},
        {"endswith", strEndswith},
        {"replace", strReplace},
        {"find", strFind},
        {"rfind", strRfind},
        {"index", strIndex},
        {"rindex", strRindex},
        {"count", strCount},
        {"ljust", strLjust},
        {"rjust", strRjust},
        {"center", strCenter},
        {"zfill", strZfill},
        {"expandtabs", strExpandtabs},
        {"splitlines", strSplitlines},
        {"partition", strPartition},
        {"rpartition", strRpartition},
        {"removeprefix", strRemoveprefix},
        {"removesuffix", strRemovesuffix},
        {"format", strFormatMethod},
        {"format_map", strFormatMapMethod},
    };
    for (const Entry& e : entries)
        interp.defineNative(d, e.name, e.fn);
    installStrCaseMethods(interp);
}

} // namespace kiln::lang
