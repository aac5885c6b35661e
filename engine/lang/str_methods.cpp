// SPDX-License-Identifier: MIT
// Methods of str. Case mapping and character classes cover ASCII; other characters are kept
// as they are (workload scripts format identifiers and numbers).
#include "lang/builtins.h"
#include "lang/signature.h"

#include <algorithm>
#include <cctype>

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

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

Value strJoin(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("join(self, iterable, /)");
    BoundArgs a = sig.bind(interp, args);
    const std::string& sep = a.toStr(0);
    std::string out;
    size_t i = 0;
    for (const Value& item : interp.toVector(a[1])) {
        if (!item.is(ObjectKind::Str))
            interp.raiseTypeError("sequence item " + std::to_string(i) +
                                  ": expected str instance, " + interp.typeName(item) + " found");
        if (i++)
            out += sep;
        out += item.as<StrObject>()->str();
    }
    return strValue(std::move(out));
}

std::vector<Value> splitWhitespace(const std::string& s, int64_t maxsplit) {
    std::vector<Value> parts;
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && isSpace(s[i]))
            ++i;
        if (i >= s.size())
            break;
        if (maxsplit >= 0 && static_cast<int64_t>(parts.size()) == maxsplit) {
            size_t end = s.size();
            while (end > i && isSpace(s[end - 1]))
                --end;
            parts.push_back(strValue(s.substr(i, end - i)));
            return parts;
        }
        size_t j = i;
        while (j < s.size() && !isSpace(s[j]))
            ++j;
        parts.push_back(strValue(s.substr(i, j - i)));
        i = j;
    }
    return parts;
}

Value strSplit(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("split(self, /, sep=None, maxsplit=-1)");
    BoundArgs a = sig.bind(interp, args);
    const std::string& s = a.toStr(0);
    int64_t maxsplit = a.toInt(2);
    if (!a.has(1))
        return listValue(splitWhitespace(s, maxsplit));
    const std::string& sep = a.toStr(1);
    if (sep.empty())
        interp.raiseValueError("empty separator");
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
    static const Signature sig("rsplit(self, /, sep=None, maxsplit=-1)");
    BoundArgs a = sig.bind(interp, args);
    const std::string& s = a.toStr(0);
    int64_t maxsplit = a.toInt(2);
    if (maxsplit < 0)
        return strSplit(interp, args, nullptr);
    std::string sep = a.has(1) ? a.toStr(1) : " ";
    if (sep.empty())
        interp.raiseValueError("empty separator");
    std::vector<Value> parts;
    size_t end = s.size();
    while (static_cast<int64_t>(parts.size()) < maxsplit) {
        size_t pos = end >= sep.size() ? s.rfind(sep, end - sep.size()) : std::string::npos;
        if (pos == std::string::npos)
            break;
        parts.push_back(strValue(s.substr(pos + sep.size(), end - pos - sep.size())));
        end = pos;
    }
    parts.push_back(strValue(s.substr(0, end)));
    std::reverse(parts.begin(), parts.end());
    return listValue(std::move(parts));
}

Value stripImpl(Interpreter& interp, const CallArgs& args, bool left, bool right) {
    static const Signature sig("strip(self, chars=None, /)");
    BoundArgs a = sig.bind(interp, args);
    const std::string& s = a.toStr(0);
    std::string chars = a.has(1) ? a.toStr(1) : " \t\n\r\v\f";
    size_t b = 0, e = s.size();
    if (left)
        while (b < e && chars.find(s[b]) != std::string::npos)
            ++b;
    if (right)
        while (e > b && chars.find(s[e - 1]) != std::string::npos)
            --e;
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

template <int (*Fn)(int)>
Value mapChars(Interpreter& interp, const CallArgs& args, const char* name) {
    std::string s = self(interp, args, name);
    for (char& c : s)
        if (static_cast<unsigned char>(c) < 0x80)
            c = static_cast<char>(Fn(static_cast<unsigned char>(c)));
    return strValue(std::move(s));
}

Value strUpper(Interpreter& interp, const CallArgs& args, void*) {
    return mapChars<std::toupper>(interp, args, "upper");
}
Value strLower(Interpreter& interp, const CallArgs& args, void*) {
    return mapChars<std::tolower>(interp, args, "lower");
}

Value strCapitalize(Interpreter& interp, const CallArgs& args, void*) {
    std::string s = self(interp, args, "capitalize");
    for (size_t i = 0; i < s.size(); ++i)
        s[i] = static_cast<char>(i == 0 ? std::toupper(static_cast<unsigned char>(s[i]))
                                        : std::tolower(static_cast<unsigned char>(s[i])));
    return strValue(std::move(s));
}

Value strTitle(Interpreter& interp, const CallArgs& args, void*) {
    std::string s = self(interp, args, "title");
    bool previousCased = false;
    for (char& c : s) {
        unsigned char u = static_cast<unsigned char>(c);
        c = static_cast<char>(previousCased ? std::tolower(u) : std::toupper(u));
        previousCased = std::isalpha(u) != 0;
    }
    return strValue(std::move(s));
}

Value affix(Interpreter& interp, const CallArgs& args, bool prefix) {
    static const Signature sig("startswith(self, prefix, start=None, end=None, /)");
    BoundArgs a = sig.bind(interp, args);
    std::string s = a.toStr(0);
    int64_t n = static_cast<int64_t>(s.size());
    int64_t start = a.has(2) ? a.toInt(2) : 0, end = a.has(3) ? a.toInt(3) : n;
    if (start < 0)
        start = std::max<int64_t>(0, start + n);
    if (end < 0)
        end = std::max<int64_t>(0, end + n);
    end = std::min(end, n);
    if (start > end)
        return Value::fromBool(false);
    s = s.substr(static_cast<size_t>(start), static_cast<size_t>(end - start));
    std::vector<Value> candidates =
        a[1].is(ObjectKind::Tuple) ? a[1].as<TupleObject>()->items : std::vector<Value>{a[1]};
    for (const Value& c : candidates) {
        if (!c.is(ObjectKind::Str))
            interp.raiseTypeError(std::string(prefix ? "startswith" : "endswith") +
                                  " first arg must be str or a tuple of str, not " +
                                  interp.typeName(c));
        const std::string& p = c.as<StrObject>()->str();
        bool match = p.size() <= s.size() &&
                     (prefix ? s.compare(0, p.size(), p) == 0
                             : s.compare(s.size() - p.size(), p.size(), p) == 0);
        if (match)
            return Value::fromBool(true);
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
    static const Signature sig("replace(self, old, new, count=-1, /)");
    BoundArgs a = sig.bind(interp, args);
    const std::string& s = a.toStr(0);
    const std::string& from = a.toStr(1);
    const std::string& to = a.toStr(2);
    int64_t count = a.toInt(3);
    std::string out;
    size_t pos = 0;
    int64_t done = 0;
    if (from.empty()) {
        for (size_t i = 0; i <= s.size(); ++i) {
            if (count < 0 || done < count) {
                out += to;
                ++done;
            }
            if (i < s.size())
                out += s[i];
        }
        return strValue(std::move(out));
    }
    while (count < 0 || done < count) {
        size_t found = s.find(from, pos);
        if (found == std::string::npos)
            break;
        out += s.substr(pos, found - pos) + to;
        pos = found + from.size();
        ++done;
    }
    out += s.substr(pos);
    return strValue(std::move(out));
}

int64_t findImpl(Interpreter& interp, const CallArgs& args, bool reverse) {
    static const Signature sig("find(self, sub, start=None, end=None, /)");
    BoundArgs a = sig.bind(interp, args);
    const std::string& s = a.toStr(0);
    const std::string& sub = a.toStr(1);
    int64_t n = static_cast<int64_t>(s.size());
    int64_t start = a.has(2) ? a.toInt(2) : 0, end = a.has(3) ? a.toInt(3) : n;
    if (start < 0)
        start = std::max<int64_t>(0, start + n);
    if (end < 0)
        end = std::max<int64_t>(0, end + n);
    end = std::min(end, n);
    if (start > end || static_cast<int64_t>(sub.size()) > end - start)
        return -1;
    std::string_view window = std::string_view(s).substr(static_cast<size_t>(start),
                                                          static_cast<size_t>(end - start));
    size_t pos = reverse ? window.rfind(sub) : window.find(sub);
    return pos == std::string_view::npos ? -1 : start + static_cast<int64_t>(pos);
}

Value strFind(Interpreter& interp, const CallArgs& args, void*) {
    return Value::fromInt(findImpl(interp, args, false));
}
Value strRfind(Interpreter& interp, const CallArgs& args, void*) {
    return Value::fromInt(findImpl(interp, args, true));
}
Value strIndex(Interpreter& interp, const CallArgs& args, void*) {
    int64_t i = findImpl(interp, args, false);
    if (i < 0)
        interp.raiseValueError("substring not found");
    return Value::fromInt(i);
}
Value strRindex(Interpreter& interp, const CallArgs& args, void*) {
    int64_t i = findImpl(interp, args, true);
    if (i < 0)
        interp.raiseValueError("substring not found");
    return Value::fromInt(i);
}

Value strCount(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("count(self, sub, /)");
    BoundArgs a = sig.bind(interp, args);
    const std::string& s = a.toStr(0);
    const std::string& sub = a.toStr(1);
    if (sub.empty())
        return Value::fromInt(utf8Length(s) + 1);
    int64_t n = 0;
    for (size_t pos = s.find(sub); pos != std::string::npos; pos = s.find(sub, pos + sub.size()))
        ++n;
    return Value::fromInt(n);
}

template <int (*Pred)(int)>
Value classify(Interpreter& interp, const CallArgs& args, const char* name) {
    const std::string& s = self(interp, args, name);
    if (s.empty())
        return Value::fromBool(false);
    return Value::fromBool(std::all_of(s.begin(), s.end(), [](char c) {
        return Pred(static_cast<unsigned char>(c)) != 0;
    }));
}

Value strIsdigit(Interpreter& interp, const CallArgs& args, void*) {
    return classify<std::isdigit>(interp, args, "isdigit");
}
Value strIsalpha(Interpreter& interp, const CallArgs& args, void*) {
    return classify<std::isalpha>(interp, args, "isalpha");
}
Value strIsalnum(Interpreter& interp, const CallArgs& args, void*) {
    return classify<std::isalnum>(interp, args, "isalnum");
}
Value strIsspace(Interpreter& interp, const CallArgs& args, void*) {
    return classify<std::isspace>(interp, args, "isspace");
}

Value caseCheck(Interpreter& interp, const CallArgs& args, bool upper) {
    const std::string& s = self(interp, args, upper ? "isupper" : "islower");
    bool cased = false;
    for (char c : s) {
        unsigned char u = static_cast<unsigned char>(c);
        if (upper ? std::islower(u) : std::isupper(u))
            return Value::fromBool(false);
        cased |= std::isalpha(u) != 0;
    }
    return Value::fromBool(cased);
}

Value strIsupper(Interpreter& interp, const CallArgs& args, void*) {
    return caseCheck(interp, args, true);
}
Value strIslower(Interpreter& interp, const CallArgs& args, void*) {
    return caseCheck(interp, args, false);
}

Value strIsidentifier(Interpreter& interp, const CallArgs& args, void*) {
    const std::string& s = self(interp, args, "isidentifier");
    bool ok = !s.empty() && !std::isdigit(static_cast<unsigned char>(s[0])) &&
              std::all_of(s.begin(), s.end(), [](char c) {
                  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
              });
    return Value::fromBool(ok);
}

Value padImpl(Interpreter& interp, const CallArgs& args, char how) {
    static const Signature sig("ljust(self, width, fillchar=' ', /)");
    BoundArgs a = sig.bind(interp, args);
    const std::string& s = a.toStr(0);
    int64_t width = a.toInt(1);
    const std::string& fill = a.toStr(2);
    if (utf8Length(fill) != 1)
        interp.raiseTypeError("The fill character must be exactly one character long");
    int64_t len = utf8Length(s);
    if (width <= len)
        return a[0];
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
    static const Signature sig("zfill(self, width, /)");
    BoundArgs a = sig.bind(interp, args);
    std::string s = a.toStr(0);
    int64_t width = a.toInt(1);
    int64_t len = utf8Length(s);
    if (width <= len)
        return a[0];
    size_t signEnd = (!s.empty() && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
    s.insert(signEnd, static_cast<size_t>(width - len), '0');
    return strValue(std::move(s));
}

Value strSplitlines(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("splitlines(self, /, keepends=False)");
    BoundArgs a = sig.bind(interp, args);
    const std::string& s = a.toStr(0);
    bool keep = a.toBool(1);
    std::vector<Value> lines;
    size_t start = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '\n' && s[i] != '\r')
            continue;
        size_t end = i;
        if (s[i] == '\r' && i + 1 < s.size() && s[i + 1] == '\n')
            ++i;
        lines.push_back(strValue(s.substr(start, (keep ? i + 1 : end) - start)));
        start = i + 1;
    }
    if (start < s.size())
        lines.push_back(strValue(s.substr(start)));
    return listValue(std::move(lines));
}

Value partitionImpl(Interpreter& interp, const CallArgs& args, bool reverse) {
    static const Signature sig("partition(self, sep, /)");
    BoundArgs a = sig.bind(interp, args);
    const std::string& s = a.toStr(0);
    const std::string& sep = a.toStr(1);
    if (sep.empty())
        interp.raiseValueError("empty separator");
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
    static const Signature sig("removeprefix(self, prefix, /)");
    BoundArgs a = sig.bind(interp, args);
    const std::string& s = a.toStr(0);
    const std::string& p = a.toStr(1);
    bool match = p.size() <= s.size() &&
                 (prefix ? s.compare(0, p.size(), p) == 0
                         : s.compare(s.size() - p.size(), p.size(), p) == 0);
    if (!match || p.empty())
        return a[0];
    return strValue(prefix ? s.substr(p.size()) : s.substr(0, s.size() - p.size()));
}

Value strRemoveprefix(Interpreter& interp, const CallArgs& args, void*) {
    return removeAffix(interp, args, true);
}
Value strRemovesuffix(Interpreter& interp, const CallArgs& args, void*) {
    return removeAffix(interp, args, false);
}

Value strSwapcase(Interpreter& interp, const CallArgs& args, void*) {
    std::string s = self(interp, args, "swapcase");
    for (char& c : s) {
        unsigned char u = static_cast<unsigned char>(c);
        c = static_cast<char>(std::isupper(u) ? std::tolower(u) : std::toupper(u));
    }
    return strValue(std::move(s));
}

} // namespace

void installStrMethods(Interpreter& interp) {
    AttrMap& d = builtinTypes().str->dict;
    struct Entry {
        const char* name;
        NativeFn fn;
    };
    const Entry entries[] = {
        {"join", strJoin},           {"split", strSplit},         {"rsplit", strRsplit},
        {"strip", strStrip},         {"lstrip", strLstrip},       {"rstrip", strRstrip},
        {"upper", strUpper},         {"lower", strLower},         {"casefold", strLower},
        {"capitalize", strCapitalize}, {"title", strTitle},       {"swapcase", strSwapcase},
        {"startswith", strStartswith}, {"endswith", strEndswith}, {"replace", strReplace},
        {"find", strFind},           {"rfind", strRfind},         {"index", strIndex},
        {"rindex", strRindex},       {"count", strCount},         {"isdigit", strIsdigit},
        {"isdecimal", strIsdigit},   {"isnumeric", strIsdigit},   {"isalpha", strIsalpha},
        {"isalnum", strIsalnum},     {"isspace", strIsspace},     {"isupper", strIsupper},
        {"islower", strIslower},     {"isidentifier", strIsidentifier}, {"ljust", strLjust},
        {"rjust", strRjust},         {"center", strCenter},       {"zfill", strZfill},
        {"splitlines", strSplitlines}, {"partition", strPartition}, {"rpartition", strRpartition},
        {"removeprefix", strRemoveprefix}, {"removesuffix", strRemovesuffix},
        {"format", strFormatMethod},
    };
    for (const Entry& e : entries)
        interp.defineNative(d, e.name, e.fn);
}

} // namespace kiln::lang
