# re: the common subset (compile, search, match, fullmatch, findall, finditer, sub with
# backreferences and functions, split, named groups, flags, escape), CPython's results.
import re

m = re.search(r"(\d+)-(\d+)", "pages 10-20 and 30-40")
print(m, m.group(), m.group(1, 2), m.groups(), m.span(2), m.start(), m.end(1), m[0], m.lastindex)
print(re.match(r"\w+", "hello world").group(), re.match(r"world", "hello world"))
print(re.fullmatch(r"[a-z]+\d?", "abc1"), re.fullmatch(r"[a-z]+", "abc1"))
print(re.findall(r"\d+", "a1b22c333"), re.findall(r"(\w)=(\d)", "a=1, b=2"),
      re.findall(r"x(y)?", "x xy"))
print([m.span() for m in re.finditer(r"o", "foo boo")], re.findall(r"", "ab"))
print(re.sub(r"\s+", " ", "a   b \t c"), re.sub(r"(\w+)@(\w+)", r"\2 at \1", "me@home"),
      re.sub(r"(?P<word>\w+)", r"<\g<word>>", "hi there"), re.sub("x*", "-", "abxd"))
print(re.sub(r"\d", lambda m: str(int(m.group()) * 2), "a1b2c3"), re.subn("a", "b", "aaa", 2))
print(re.split(r",\s*", "a, b,c,   d"), re.split(r"(,)", "a,b"), re.split(r"\s", "a b c", 1))
p = re.compile(r"(?P<key>[a-z_]+)\s*=\s*(?P<value>\d+)")
m = p.search("config: n_layer = 12")
print(p, p.groups, p.groupindex, m.groupdict(), m.group("value"), m.lastgroup)
print(re.compile("abc", re.IGNORECASE | re.MULTILINE), re.compile("a").flags, int(re.I | re.S))
print(re.findall(r"^\w+", "one\ntwo\nthree", re.M), re.findall(r"^\w+", "one\ntwo"),
      re.search(r"a.b", "a\nb"), re.search(r"a.b", "a\nb", re.S).group() == "a\nb")
print(re.search("HELLO", "say hello", re.I).group(), re.search(r"(?i)hello", "HeLLo").group())
print(re.search(r"end$", "the end\n") is not None, re.search(r"end\Z", "the end\n"),
      re.match(r"\Aab", "ab").group())
print(re.escape("a.b*c?"), re.escape("path/to file"), re.compile(re.escape("1+1=2")).search(
    "is 1+1=2?").group())
verbose = re.compile(r"""
    (\d{3})   # area
    [-\s]?
    (\d{4})   # number
""", re.VERBOSE)
print(verbose.search("call 555-1234 now").groups())
print(re.match(r"(a)(b)?", "a").groups(), re.match(r"(a)(b)?", "a").groups("-"),
      re.match(r"(?:ab)+", "ababx").group(), re.search(r"(\w)\1", "abccd").group())
print(re.search(r"(?P<ch>\w)(?P=ch)", "xyzzy").group(), re.search(r"a(?=b)", "acab").start(),
      re.search(r"[^\]a]+", "]]bcd").group(), re.compile(r"\d").search("ab12", 3).group())
try:
    re.compile("(unclosed")
except re.error:
    print("re.error raised")
