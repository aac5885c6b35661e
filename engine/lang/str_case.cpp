// SPDX-License-Identifier: MIT
// The str methods that depend on Unicode properties: case mapping (upper, lower, casefold,
// capitalize, title, swapcase, with SpecialCasing and the final-sigma rule) and the character
// class tests (isalpha, isdigit, isupper, isidentifier, ...), as CPython 3.11 does them.
#include "lang/builtins.h"
#include "lang/format_detail.h"
#include "lang/signature.h"
#include "lang/unicode.h"

#include <algorithm>
#include <vector>

namespace kiln::lang {

namespace {

constexpr char32_t kCapitalSigma = 0x3A3;

std::vector<char32_t> codePoints(std::string_view s) {
    std::vector<char32_t> out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();)
        out.push_back(detail::decodeUtf8(s, i));
    return out;
}

// The string of a method that takes no arguments besides self.
const std::string& noArgSelf(Interpreter& interp, const CallArgs& args,
                             const BuiltinSignature& sig) {
    BoundArgs a = sig.bind(interp, args);
    if (!a[0].is(ObjectKind::Str))
        interp.raiseTypeError("descriptor '" + sig.name().substr(4) +
                              "' for 'str' objects doesn't apply to a '" + interp.typeName(a[0]) +
                              "' object");
    return a[0].as<StrObject>()->str();
}

// Σ lowers to ς at the end of a word: after a cased letter (skipping case-ignorable ones) and
// not before one.
bool finalSigma(const std::vector<char32_t>& s, size_t i) {
    size_t j = i;
    while (j > 0 && unicode::isCaseIgnorable(s[j - 1]))
        --j;
    if (j == 0 || !unicode::isCased(s[j - 1])) return false;
    size_t k = i + 1;
    while (k < s.size() && unicode::isCaseIgnorable(s[k]))
        ++k;
    return k == s.size() || !unicode::isCased(s[k]);
}

void appendLowerAt(std::string& out, const std::vector<char32_t>& s, size_t i) {
    if (s[i] == kCapitalSigma)
        detail::appendUtf8(out, finalSigma(s, i) ? 0x3C2 : 0x3C3);
    else
        unicode::appendLower(out, s[i]);
}

enum class CaseMap : uint8_t { Upper, Lower, Casefold, Capitalize, Title, Swapcase };

std::string mapCase(const std::string& text, CaseMap how) {
    std::vector<char32_t> s = codePoints(text);
    std::string out;
    out.reserve(text.size());
    bool previousCased = false;
    for (size_t i = 0; i < s.size(); ++i) {
        char32_t c = s[i];
        switch (how) {
        case CaseMap::Upper:
            unicode::appendUpper(out, c);
            break;
        case CaseMap::Lower:
            appendLowerAt(out, s, i);
            break;
        case CaseMap::Casefold:
            unicode::appendCasefold(out, c);
            break;
        case CaseMap::Capitalize:
            if (i == 0)
                unicode::appendTitle(out, c);
            else
                appendLowerAt(out, s, i);
            break;
        case CaseMap::Title:
            if (previousCased)
                appendLowerAt(out, s, i);
            else
                unicode::appendTitle(out, c);
            previousCased = unicode::isCased(c);
            break;
        case CaseMap::Swapcase:
            if (unicode::isUpper(c))
                appendLowerAt(out, s, i);
            else if (unicode::isLower(c))
                unicode::appendUpper(out, c);
            else
                detail::appendUtf8(out, c);
            break;
        }
    }
    return out;
}

const char* caseMethodName(CaseMap how) {
    switch (how) {
    case CaseMap::Upper:
        return "upper";
    case CaseMap::Lower:
        return "lower";
    case CaseMap::Casefold:
        return "casefold";
    case CaseMap::Capitalize:
        return "capitalize";
    case CaseMap::Title:
        return "title";
    case CaseMap::Swapcase:
        return "swapcase";
    }
    return "";
}

template <CaseMap How>
Value caseMethod(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("str." + std::string(caseMethodName(How)) + "(self, /)");
    return strValue(mapCase(noArgSelf(interp, args, sig), How));
}

// isalpha() and friends: non-empty, and every character in the class.
bool allChars(const std::string& text, bool (*pred)(char32_t)) {
    if (text.empty()) return false;
    for (size_t i = 0; i < text.size();)
        if (!pred(detail::decodeUtf8(text, i))) return false;
    return true;
}

bool isAlnumChar(char32_t c) {
    return unicode::isAlpha(c) || unicode::isDecimal(c) || unicode::isDigit(c) ||
           unicode::isNumeric(c);
}

bool isAsciiChar(char32_t c) {
    return c < 0x80;
}

struct CharClass {
    const char* name;
    bool (*test)(char32_t);
};

constexpr CharClass kCharClasses[] = {
    {"isalpha", unicode::isAlpha}, {"isdecimal", unicode::isDecimal},
    {"isdigit", unicode::isDigit}, {"isnumeric", unicode::isNumeric},
    {"isspace", unicode::isSpace}, {"isalnum", isAlnumChar},
};

template <size_t I>
Value charClassMethod(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("str." + std::string(kCharClasses[I].name) + "(self, /)");
    return Value::fromBool(allChars(noArgSelf(interp, args, sig), kCharClasses[I].test));
}

Value strIsascii(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("str.isascii(self, /)");
    const std::string& s = noArgSelf(interp, args, sig);
    return Value::fromBool(s.empty() || allChars(s, isAsciiChar));
}

Value strIsprintable(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("str.isprintable(self, /)");
    const std::string& s = noArgSelf(interp, args, sig);
    return Value::fromBool(s.empty() || allChars(s, detail::isPrintable));
}

// isupper()/islower(): at least one cased character, and none of the other case.
Value caseCheck(Interpreter& interp, const CallArgs& args, const BuiltinSignature& sig,
                bool upper) {
    bool cased = false;
    for (char32_t c : codePoints(noArgSelf(interp, args, sig))) {
        if (unicode::isTitle(c) || (upper ? unicode::isLower(c) : unicode::isUpper(c)))
            return Value::fromBool(false);
        cased |= upper ? unicode::isUpper(c) : unicode::isLower(c);
    }
    return Value::fromBool(cased);
}

Value strIsupper(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("str.isupper(self, /)");
    return caseCheck(interp, args, sig, true);
}

Value strIslower(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("str.islower(self, /)");
    return caseCheck(interp, args, sig, false);
}

// istitle(): uppercase/titlecase characters only after uncased ones, lowercase only after cased.
Value strIstitle(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("str.istitle(self, /)");
    bool cased = false, previousCased = false;
    for (char32_t c : codePoints(noArgSelf(interp, args, sig))) {
        if (unicode::isUpper(c) || unicode::isTitle(c)) {
            if (previousCased) return Value::fromBool(false);
            previousCased = cased = true;
        } else if (unicode::isLower(c)) {
            if (!previousCased) return Value::fromBool(false);
            previousCased = cased = true;
        } else {
            previousCased = false;
        }
    }
    return Value::fromBool(cased);
}

Value strIsidentifier(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("str.isidentifier(self, /)");
    std::vector<char32_t> s = codePoints(noArgSelf(interp, args, sig));
    if (s.empty() || !(s[0] == '_' || unicode::isIdStart(s[0]))) return Value::fromBool(false);
    return Value::fromBool(std::all_of(s.begin() + 1, s.end(), unicode::isIdContinue));
}

} // namespace

void installStrCaseMethods(Interpreter& interp) {
    AttrMap& d = builtinTypes().str->dict;
    struct Entry {
        const char* name;
        NativeFn fn;
    };
    const Entry entries[] = {
        {"upper", caseMethod<CaseMap::Upper>},
        {"lower", caseMethod<CaseMap::Lower>},
        {"casefold", caseMethod<CaseMap::Casefold>},
        {"capitalize", caseMethod<CaseMap::Capitalize>},
        {"title", caseMethod<CaseMap::Title>},
        {"swapcase", caseMethod<CaseMap::Swapcase>},
        {kCharClasses[0].name, charClassMethod<0>},
        {kCharClasses[1].name, charClassMethod<1>},
        {kCharClasses[2].name, charClassMethod<2>},
        {kCharClasses[3].name, charClassMethod<3>},
        {kCharClasses[4].name, charClassMethod<4>},
        {kCharClasses[5].name, charClassMethod<5>},
        {"isascii", strIsascii},
        {"isprintable", strIsprintable},
        {"isupper", strIsupper},
        {"islower", strIslower},
        {"istitle", strIstitle},
        {"isidentifier", strIsidentifier},
    };
    for (const Entry& e : entries)
        interp.defineNative(d, e.name, e.fn);
}

} // namespace kiln::lang
