// SPDX-License-Identifier: MIT
// _kiln_re: the matching engine under the re module (engine/torchapi/py/stdlib/re.py), which
// translates Python's pattern syntax into ECMAScript and keeps every other part of re's
// semantics in Python. std::regex works on UTF-8 bytes: positions are converted to and from
// character offsets here, and a '.' or a class matches one byte of a non-ASCII character.
#include "lang/builtins.h"
#include "lang/signature.h"
#include "torchapi/install.h"

#include <map>
#include <regex>

namespace kiln::torchapi {

using namespace kiln::lang;

namespace {

constexpr int64_t kIgnoreCase = 2; // re.IGNORECASE
constexpr int64_t kMultiline = 8;  // re.MULTILINE
constexpr size_t kCacheLimit = 512;

const std::regex& compiled(Interpreter& interp, const std::string& pattern, int64_t flags) {
    // Compiling is costly and scripts reuse few patterns: keep them (a plain bound, not LRU).
    static std::map<std::pair<std::string, int64_t>, std::regex> cache;
    auto key = std::make_pair(pattern, flags);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
    auto options = std::regex::ECMAScript;
    if (flags & kIgnoreCase) options |= std::regex::icase;
    if (flags & kMultiline) options |= std::regex::multiline;
    try {
        std::regex re(pattern, options);
        if (cache.size() >= kCacheLimit) cache.clear();
        return cache.emplace(key, std::move(re)).first->second;
    } catch (const std::regex_error& e) {
        Value error = interp.libraryAttr("re", "error");
        interp.raise(interp.call(error, {strValue(std::string("bad pattern: ") + e.what())}));
    }
}

/// Byte offset of character \a chars in UTF-8 \a s (clamped to its end).
size_t byteOffset(const std::string& s, int64_t chars) {
    size_t at = 0;
    for (int64_t c = 0; c < chars && at < s.size(); ++c) {
        ++at;
        while (at < s.size() && (static_cast<unsigned char>(s[at]) & 0xC0) == 0x80)
            ++at;
    }
    return at;
}

int64_t charOffset(const std::string& s, size_t bytes) {
    return utf8Length(std::string_view(s).substr(0, bytes));
}

/// match(pattern, flags, string, pos, endpos, mode): mode 0 searches, 1 matches at pos, 2
/// matches all of [pos, endpos). Returns None or [start0, end0, start1, end1, ...] in
/// characters, -1 for groups that did not take part.
Value reMatch(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("match(pattern, flags, string, pos, endpos, mode, /)");
    BoundArgs a = sig.bind(interp, args);
    const std::regex& re = compiled(interp, a.toStr(0), a.toInt(1));
    const std::string& s = a.toStr(2);
    size_t begin = byteOffset(s, a.toInt(3)), end = byteOffset(s, a.toInt(4));
    if (end < begin) end = begin;
    auto flags = std::regex_constants::match_default;
    // Python's ^ matches at the real start of the string, not at pos.
    if (begin > 0) flags |= std::regex_constants::match_prev_avail;
    int64_t mode = a.toInt(5);
    if (mode == 1) flags |= std::regex_constants::match_continuous;
    std::smatch m;
    auto first = s.begin() + static_cast<std::ptrdiff_t>(begin);
    auto last = s.begin() + static_cast<std::ptrdiff_t>(end);
    bool found = mode == 2 ? std::regex_match(first, last, m, re, flags)
                           : std::regex_search(first, last, m, re, flags);
    if (!found) return Value::none();
    std::vector<Value> spans;
    for (size_t g = 0; g < m.size(); ++g) {
        if (!m[g].matched) {
            spans.push_back(Value::fromInt(-1));
            spans.push_back(Value::fromInt(-1));
            continue;
        }
        size_t from = static_cast<size_t>(m[g].first - s.begin());
        size_t to = static_cast<size_t>(m[g].second - s.begin());
        spans.push_back(Value::fromInt(charOffset(s, from)));
        spans.push_back(Value::fromInt(charOffset(s, to)));
    }
    return listValue(std::move(spans));
}

/// groups(pattern, flags): the number of capturing groups (compiling checks the pattern).
Value reGroups(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("groups(pattern, flags, /)");
    BoundArgs a = sig.bind(interp, args);
    return Value::fromInt(
        static_cast<int64_t>(compiled(interp, a.toStr(0), a.toInt(1)).mark_count()));
}

void installReSupport(Interpreter& interp, ModuleObject& module) {
    interp.defineNative(module.globals, "match", reMatch);
    interp.defineNative(module.globals, "groups", reGroups);
}

} // namespace

void installReSupportModule(Interpreter& interp) {
    interp.registerNativeModule("_kiln_re", installReSupport);
}

} // namespace kiln::torchapi
