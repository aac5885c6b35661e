# re for Kiln workloads. The pattern is translated from Python's syntax into ECMAScript and
# matched by std::regex (_kiln_re); the API (Pattern, Match, search, findall, sub, split, ...)
# and its results follow CPython 3.11. Differences (docs/language.md): no look-behind, no
# conditional groups, non-ASCII characters are matched byte by byte by '.' and classes, and
# error messages are std::regex's.
import _kiln_re

TEMPLATE = T = 1
IGNORECASE = I = 2
LOCALE = L = 4
MULTILINE = M = 8
DOTALL = S = 16
UNICODE = U = 32
VERBOSE = X = 64
DEBUG = 128
ASCII = A = 256
_FLAG_NAMES = [(IGNORECASE, "re.IGNORECASE"), (LOCALE, "re.LOCALE"), (MULTILINE, "re.MULTILINE"),
               (DOTALL, "re.DOTALL"), (VERBOSE, "re.VERBOSE"), (ASCII, "re.ASCII")]
_INLINE = {"i": IGNORECASE, "m": MULTILINE, "s": DOTALL, "x": VERBOSE, "a": ASCII, "u": UNICODE,
           "L": LOCALE}


class error(Exception):
    def __init__(self, msg, pattern=None, pos=None):
        Exception.__init__(self, msg)
        self.msg = msg
        self.pattern = pattern
        self.pos = pos


def _inline_flags(pattern, flags):
    # Leading (?imsx) groups set flags for the whole pattern, as CPython requires them to.
    while pattern.startswith("(?") and len(pattern) > 2 and pattern[2] in _INLINE:
        end = pattern.find(")")
        letters = pattern[2:end]
        if end < 0 or any(c not in _INLINE for c in letters):
            break
        for c in letters:
            flags |= _INLINE[c]
        pattern = pattern[end + 1:]
    return pattern, flags


def _translate(pattern, flags):
    out = []
    names = {}
    group = 0
    i = 0
    in_class = False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            e = pattern[i + 1]
            if not in_class and e == "A":
                out.append("^" if not flags & MULTILINE else "(?:^)")
            elif not in_class and e == "Z":
                out.append("$(?![\\s\\S])")
            else:
                out.append(c + e)
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
            out.append(c)
            i += 1
            continue
        if flags & VERBOSE and c in " \t\n\r\x0b\x0c":
            i += 1
            continue
        if flags & VERBOSE and c == "#":
            while i < len(pattern) and pattern[i] != "\n":
                i += 1
            continue
        if c == "[":
            in_class = True
            out.append(c)
            i += 1
            if i < len(pattern) and pattern[i] == "^":
                out.append("^")
                i += 1
            if i < len(pattern) and pattern[i] == "]":
                out.append("\\]")
                i += 1
            continue
        if c == "(":
            if pattern.startswith("(?P<", i):
                end = pattern.find(">", i)
                group += 1
                names[pattern[i + 4:end]] = group
                out.append("(")
                i = end + 1
                continue
            if pattern.startswith("(?P=", i):
                end = pattern.find(")", i)
                name = pattern[i + 4:end]
                if name not in names:
                    raise error(f"unknown group name '{name}'", pattern, i)
                out.append(f"\\{names[name]}")
                i = end + 1
                continue
            if pattern.startswith("(?<=", i) or pattern.startswith("(?<!", i):
                raise error("look-behind assertions are not supported by Kiln's re", pattern, i)
            if pattern.startswith("(?#", i):
                i = pattern.find(")", i) + 1
                continue
            if not pattern.startswith("(?", i):
                group += 1
            out.append(c)
            i += 1
            continue
        if c == "." and flags & DOTALL:
            out.append("[\\s\\S]")
        elif c == "$" and not flags & MULTILINE:
            out.append("(?=\\n?$(?![\\s\\S]))")  # Python's $ also matches before a final \n
        else:
            out.append(c)
        i += 1
    return "".join(out), names


class Match:
    def __init__(self, pattern, string, spans, pos, endpos):
        self.re = pattern
        self.string = string
        self.pos = pos
        self.endpos = endpos
        self._spans = [(spans[k], spans[k + 1]) for k in range(0, len(spans), 2)]
        self.lastindex = None
        last_end = -1
        for g in range(1, len(self._spans)):
            start, end = self._spans[g]
            if start >= 0 and end >= last_end:
                self.lastindex = g
                last_end = end
        self.lastgroup = None
        for name, index in pattern.groupindex.items():
            if index == self.lastindex:
                self.lastgroup = name

    def _index(self, g):
        if isinstance(g, str):
            if g not in self.re.groupindex:
                raise IndexError("no such group")
            return self.re.groupindex[g]
        if not isinstance(g, int) or g < 0 or g >= len(self._spans):
            raise IndexError("no such group")
        return g

    def _get(self, g, default=None):
        start, end = self._spans[self._index(g)]
        return default if start < 0 else self.string[start:end]

    def group(self, *groups):
        if not groups:
            return self._get(0)
        if len(groups) == 1:
            return self._get(groups[0])
        return tuple(self._get(g) for g in groups)

    def __getitem__(self, g):
        return self._get(g)

    def groups(self, default=None):
        return tuple(self._get(g, default) for g in range(1, len(self._spans)))

    def groupdict(self, default=None):
        return {name: self._get(index, default) for name, index in self.re.groupindex.items()}

    def start(self, group=0):
        return self._spans[self._index(group)][0]

    def end(self, group=0):
        return self._spans[self._index(group)][1]

    def span(self, group=0):
        return self._spans[self._index(group)]

    def expand(self, template):
        return _expand(self, template)

    def __bool__(self):
        return True

    def __repr__(self):
        return f"<re.Match object; span={self.span()!r}, match={self.group()!r}>"


def _expand(match, template):
    out = []
    i = 0
    while i < len(template):
        c = template[i]
        if c != "\\" or i + 1 == len(template):
            out.append(c)
            i += 1
            continue
        e = template[i + 1]
        if e == "g" and template.startswith("<", i + 2):
            end = template.find(">", i)
            ref = template[i + 3:end]
            out.append(match._get(int(ref) if ref.isdigit() else ref) or "")
            i = end + 1
        elif e.isdigit():
            j = i + 1
            while j < len(template) and j < i + 3 and template[j].isdigit():
                j += 1
            index = int(template[i + 1:j])
            if index >= len(match._spans):
                raise error(f"invalid group reference {index}", template, i + 1)
            out.append(match._get(index) or "")
            i = j
        else:
            out.append({"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "f": "\f", "v": "\v",
                        "a": "\a"}.get(e, "\\" + e))
            i += 2
    return "".join(out)


class Pattern:
    def __init__(self, pattern, flags):
        self.pattern = pattern
        body, all_flags = _inline_flags(pattern, flags)
        if not all_flags & ASCII:
            all_flags |= UNICODE
        self.flags = all_flags
        self._source, self.groupindex = _translate(body, all_flags)
        self.groups = _kiln_re.groups(self._source, all_flags)

    def _run(self, string, pos, endpos, mode):
        if not isinstance(string, str):
            raise TypeError(f"expected string or bytes-like object, got '{type(string).__name__}'")
        n = len(string)
        pos = min(max(pos, 0), n)
        endpos = n if endpos is None else min(max(endpos, 0), n)
        spans = _kiln_re.match(self._source, self.flags, string, pos, endpos, mode)
        return None if spans is None else Match(self, string, spans, pos, endpos)

    def search(self, string, pos=0, endpos=None):
        return self._run(string, pos, endpos, 0)

    def match(self, string, pos=0, endpos=None):
        return self._run(string, pos, endpos, 1)

    def fullmatch(self, string, pos=0, endpos=None):
        return self._run(string, pos, endpos, 2)

    def _matches(self, string, pos=0, endpos=None):
        found = []
        n = len(string) if endpos is None else endpos
        while pos <= n:
            m = self._run(string, pos, endpos, 0)
            if m is None:
                break
            found.append(m)
            pos = m.end() + 1 if m.end() == m.start() else m.end()
        return found

    def finditer(self, string, pos=0, endpos=None):
        return iter(self._matches(string, pos, endpos))

    def findall(self, string, pos=0, endpos=None):
        out = []
        for m in self._matches(string, pos, endpos):
            if self.groups == 0:
                out.append(m.group())
            elif self.groups == 1:
                out.append(m.group(1) or "")
            else:
                out.append(m.groups(""))
        return out

    def subn(self, repl, string, count=0):
        out = []
        last = 0
        n = 0
        for m in self._matches(string):
            if count and n >= count:
                break
            out.append(string[last:m.start()])
            out.append(repl(m) if callable(repl) else _expand(m, repl))
            last = m.end()
            n += 1
        out.append(string[last:])
        return "".join(out), n

    def sub(self, repl, string, count=0):
        return self.subn(repl, string, count)[0]

    def split(self, string, maxsplit=0):
        out = []
        last = 0
        n = 0
        for m in self._matches(string):
            if maxsplit and n >= maxsplit:
                break
            out.append(string[last:m.start()])
            out.extend(m.groups())
            last = m.end()
            n += 1
        out.append(string[last:])
        return out

    def __repr__(self):
        shown = [name for bit, name in _FLAG_NAMES if self.flags & bit]
        if not shown:
            return f"re.compile({self.pattern!r})"
        return f"re.compile({self.pattern!r}, {'|'.join(shown)})"

    def __eq__(self, other):
        return isinstance(other, Pattern) and (self.pattern, self.flags) == (other.pattern,
                                                                              other.flags)

    def __hash__(self):
        return hash((self.pattern, self.flags))


_cache = {}


def compile(pattern, flags=0):
    if isinstance(pattern, Pattern):
        if flags:
            raise ValueError("cannot process flags argument with a compiled pattern")
        return pattern
    if not isinstance(pattern, str):
        raise TypeError("first argument must be string or compiled pattern")
    key = (pattern, flags)
    if key not in _cache:
        if len(_cache) >= 512:
            _cache.clear()
        _cache[key] = Pattern(pattern, flags)
    return _cache[key]


def search(pattern, string, flags=0):
    return compile(pattern, flags).search(string)


def match(pattern, string, flags=0):
    return compile(pattern, flags).match(string)


def fullmatch(pattern, string, flags=0):
    return compile(pattern, flags).fullmatch(string)


def findall(pattern, string, flags=0):
    return compile(pattern, flags).findall(string)


def finditer(pattern, string, flags=0):
    return compile(pattern, flags).finditer(string)


def sub(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).sub(repl, string, count)


def subn(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).subn(repl, string, count)


def split(pattern, string, maxsplit=0, flags=0):
    return compile(pattern, flags).split(string, maxsplit)


_SPECIAL = "()[]{}?*+-|^$\\.&~# \t\n\r\x0b\x0c"


def escape(pattern):
    return "".join("\\" + c if c in _SPECIAL else c for c in pattern)


def purge():
    _cache.clear()
