#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generates unicode_props.cpp and unicode_case.cpp from python3.11's own str methods.

Usage: python3.11 engine/lang/unicode_gen.py engine/lang
"""
import sys
import unicodedata
N = 0x110000
CH = [chr(c) for c in range(N)]
def valid(c): return not (0xD800 <= c <= 0xDFFF)

def ranges(pred):
    out = []; start = None
    for c in range(N):
        p = valid(c) and pred(c)
        if p and start is None: start = c
        if not p and start is not None: out.append((start, c - 1)); start = None
    if start is not None: out.append((start, N - 1))
    return out

def cased(c):
    s = CH[c]
    return s.islower() or s.isupper() or s.istitle()

def titleflag(c):
    s = CH[c]
    return s.istitle() and not s.isupper()

def case_ignorable(c):
    if not valid(c): return False
    if cased(c):
        return ("A\u03a3" + CH[c]).lower()[1] == "\u03c2"
    return ("A\u03a3" + CH[c] + "a").lower()[1] == "\u03c3"

props = [
    ("kAlpha", "str.isalpha()", lambda c: CH[c].isalpha()),
    ("kDecimal", "str.isdecimal()", lambda c: CH[c].isdecimal()),
    ("kDigit", "str.isdigit()", lambda c: CH[c].isdigit()),
    ("kNumeric", "str.isnumeric()", lambda c: CH[c].isnumeric()),
    ("kSpace", "str.isspace()", lambda c: CH[c].isspace()),
    ("kLower", "lowercase letters (islower() of one character)", lambda c: CH[c].islower()),
    ("kUpper", "uppercase letters (isupper() of one character)", lambda c: CH[c].isupper()),
    ("kTitle", "titlecase letters (istitle() but not isupper() of one character)", titleflag),
    ("kCaseIgnorable", "case-ignorable characters (for the final sigma rule)", case_ignorable),
    ("kIdStart", "identifier starts (isidentifier() of one character)", lambda c: CH[c].isidentifier()),
    ("kIdContinue", "identifier characters (isidentifier() of 'a' + the character)", lambda c: ("a" + CH[c]).isidentifier()),
    ("kNfkcChanged", "identifier characters that NFKC normalization replaces (the tokenizer normalizes identifiers)",
     lambda c: ("a" + CH[c]).isidentifier() and unicodedata.normalize("NFKC", CH[c]) != CH[c]),
]

def emit_ranges(name, rs):
    items = ["{0x%X, 0x%X}" % r for r in rs]
    lines = []
    cur = "   "
    for it in items:
        piece = " " + it + ","
        if len(cur) + len(piece) > 100:
            lines.append(cur); cur = "   "
        cur += piece
    lines.append(cur)
    return "constexpr Range %s[] = {\n%s\n};\n" % (name, "\n".join(lines))

def cpp_string(s):
    out = '"'
    for b in s.encode("utf-8"):
        out += "\\x%02X" % b
    return out + '"'

def case_runs(mapf):
    ent = []
    for c in range(N):
        if not valid(c): continue
        m = mapf(CH[c])
        if len(m) == 1 and ord(m) != c: ent.append((c, ord(m) - c))
    out = []
    for c, d in ent:
        if out:
            s, e, st, dd = out[-1]
            if dd == d and ((st == 0 and c - e in (1, 2)) or (st and c - e == st)):
                out[-1] = (s, c, c - e if st == 0 else st, dd); continue
        out.append((c, c, 0, d))
    return [(s, e, st or 1, d) for s, e, st, d in out]

def specials(mapf):
    return [(c, mapf(CH[c])) for c in range(N) if valid(c) and len(mapf(CH[c])) > 1]

def fold_specials():
    # casefold() is lower() except for these characters (one or several characters each)
    return [(c, CH[c].casefold()) for c in range(N)
            if valid(c) and CH[c].casefold() != CH[c].lower()]

def emit_runs(name, runs):
    items = ["{0x%X, 0x%X, %d, %d}" % r for r in runs]
    lines = []; cur = "   "
    for it in items:
        piece = " " + it + ","
        if len(cur) + len(piece) > 100:
            lines.append(cur); cur = "   "
        cur += piece
    lines.append(cur)
    return "constexpr Run %s[] = {\n%s\n};\n" % (name, "\n".join(lines))

def emit_specials(name, sp):
    lines = ["    {0x%X, %s}," % (c, cpp_string(s)) for c, s in sp]
    return "constexpr Special %s[] = {\n%s\n};\n" % (name, "\n".join(lines))

HEADER = """// SPDX-License-Identifier: MIT
// %s
// Generated from python3.11's own str methods (Unicode 14.0) by unicode_gen.py;\n// regenerate when Kiln follows a newer Python. Do not edit by hand.
"""

def props_file():
    out = HEADER % "Character classes of CPython 3.11's str methods, as code point ranges."
    out += '#include "lang/unicode.h"\n\n#include <algorithm>\n#include <iterator>\n\nnamespace kiln::lang::unicode {\n\nnamespace {\n\n'
    out += "struct Range {\n    char32_t first;\n    char32_t last;\n};\n\n// clang-format off\n"
    for name, doc, pred in props:
        out += "// %s\n" % doc
        out += emit_ranges(name, ranges(pred)) + "\n"
    out += "// clang-format on\n\n"
    out += """template <size_t N>
bool inRanges(const Range (&table)[N], char32_t c) {
    auto it = std::lower_bound(std::begin(table), std::end(table), c,
                               [](const Range& r, char32_t v) { return r.last < v; });
    return it != std::end(table) && it->first <= c;
}

} // namespace

"""
    fns = [("isAlpha","kAlpha"),("isDecimal","kDecimal"),("isDigit","kDigit"),("isNumeric","kNumeric"),("isSpace","kSpace"),("isLower","kLower"),("isUpper","kUpper"),("isTitle","kTitle"),("isCaseIgnorable","kCaseIgnorable"),("isIdStart","kIdStart"),("isIdContinue","kIdContinue"),("changesUnderNfkc","kNfkcChanged")]
    for fn, tab in fns:
        out += "bool %s(char32_t c) {\n    return inRanges(%s, c);\n}\n\n" % (fn, tab)
    out += "} // namespace kiln::lang::unicode\n"
    return out

def case_file():
    out = HEADER % "Case mappings of CPython 3.11's str.upper/lower/title/casefold (full, with SpecialCasing)."
    out += '#include "lang/unicode.h"\n\n#include "lang/format_detail.h"\n\n#include <algorithm>\n#include <iterator>\n\nnamespace kiln::lang::unicode {\n\nnamespace {\n\nusing detail::appendUtf8;\n\n'
    out += "// Code points first..last, every `stride`-th, map to themselves plus `delta`.\nstruct Run {\n    char32_t first;\n    char32_t last;\n    int32_t stride;\n    int32_t delta;\n};\n\n"
    out += "// Characters whose mapping is several characters (UTF-8).\nstruct Special {\n    char32_t c;\n    const char* utf8;\n};\n\n// clang-format off\n"
    fold = lambda s: s.casefold()
    for kind, f in [("Upper", str.upper), ("Lower", str.lower), ("Title", str.title), ("Fold", fold)]:
        if kind != "Fold":
            out += emit_runs("k%sRuns" % kind, case_runs(f)) + "\n"
        sp = fold_specials() if kind == "Fold" else specials(f)
        out += emit_specials("k%sSpecial" % kind, sp) + "\n"
    out += "// clang-format on\n\n"
    out += """template <size_t N>
char32_t mapRun(const Run (&table)[N], char32_t c) {
    auto it = std::lower_bound(std::begin(table), std::end(table), c,
                               [](const Run& r, char32_t v) { return r.last < v; });
    if (it == std::end(table) || c < it->first || (c - it->first) % it->stride != 0)
        return c;
    return static_cast<char32_t>(static_cast<int32_t>(c) + it->delta);
}

template <size_t N>
const char* special(const Special (&table)[N], char32_t c) {
    auto it = std::lower_bound(std::begin(table), std::end(table), c,
                               [](const Special& s, char32_t v) { return s.c < v; });
    return it != std::end(table) && it->c == c ? it->utf8 : nullptr;
}

template <size_t R, size_t S>
void appendMapped(std::string& out, char32_t c, const Run (&runs)[R], const Special (&specials)[S]) {
    if (const char* s = special(specials, c))
        out += s;
    else
        appendUtf8(out, mapRun(runs, c));
}

} // namespace

void appendUpper(std::string& out, char32_t c) {
    appendMapped(out, c, kUpperRuns, kUpperSpecial);
}

void appendLower(std::string& out, char32_t c) {
    appendMapped(out, c, kLowerRuns, kLowerSpecial);
}

void appendTitle(std::string& out, char32_t c) {
    appendMapped(out, c, kTitleRuns, kTitleSpecial);
}

void appendCasefold(std::string& out, char32_t c) {
    if (const char* s = special(kFoldSpecial, c))
        out += s;
    else
        appendLower(out, c);
}

} // namespace kiln::lang::unicode
"""
    return out

if __name__ == "__main__":
    d = sys.argv[1]
    open(d + "/unicode_props.cpp", "w").write(props_file())
    open(d + "/unicode_case.cpp", "w").write(case_file())
