# os.path for Kiln workloads: the functions that only compute on strings, as CPython's
# posixpath. Those that would look at the file system or the process (exists, isfile, abspath,
# expanduser, getsize, ...) raise NotImplementedError: workloads cannot read the machine.
sep = "/"
curdir = "."
pardir = ".."
extsep = "."


def _check(p, fn):
    if not isinstance(p, str):
        raise TypeError(f"{fn}() argument must be str, bytes, or os.PathLike object, not "
                        f"'{type(p).__name__}'")
    return p


def isabs(s):
    return _check(s, "isabs").startswith("/")


def join(a, *p):
    path = _check(a, "join")
    for b in p:
        b = _check(b, "join")
        if b.startswith("/"):
            path = b
        elif not path or path.endswith("/"):
            path += b
        else:
            path += "/" + b
    return path


def split(p):
    p = _check(p, "split")
    i = p.rfind("/") + 1
    head, tail = p[:i], p[i:]
    if head and head != "/" * len(head):
        head = head.rstrip("/")
    return head, tail


def basename(p):
    return split(p)[1]


def dirname(p):
    return split(p)[0]


def splitext(p):
    p = _check(p, "splitext")
    sep_index = p.rfind("/")
    dot_index = p.rfind(".")
    if dot_index > sep_index:
        filename_index = sep_index + 1
        while filename_index < dot_index:
            if p[filename_index] != ".":
                return p[:dot_index], p[dot_index:]
            filename_index += 1
    return p, ""


def normpath(path):
    path = _check(path, "normpath")
    if path == "":
        return "."
    initial = 0
    if path.startswith("/"):
        initial = 2 if path.startswith("//") and not path.startswith("///") else 1
    comps = []
    for comp in path.split("/"):
        if comp in ("", "."):
            continue
        if comp != ".." or (not initial and not comps) or (comps and comps[-1] == ".."):
            comps.append(comp)
        elif comps:
            comps.pop()
    path = "/".join(comps)
    if initial:
        path = "/" * initial + path
    return path or "."


def commonprefix(m):
    if not m:
        return ""
    s1 = min(m)
    s2 = max(m)
    for i, c in enumerate(s1):
        if c != s2[i]:
            return s1[:i]
    return s1


def _unavailable(name):
    def fn(*args, **kwargs):
        raise NotImplementedError(
            f"os.path.{name}() is not available in Kiln workloads: scripts cannot read the "
            "file system or the process's environment")
    fn.__name__ = name
    return fn


exists = _unavailable("exists")
lexists = _unavailable("lexists")
isfile = _unavailable("isfile")
isdir = _unavailable("isdir")
islink = _unavailable("islink")
getsize = _unavailable("getsize")
getmtime = _unavailable("getmtime")
abspath = _unavailable("abspath")
realpath = _unavailable("realpath")
relpath = _unavailable("relpath")
expanduser = _unavailable("expanduser")
expandvars = _unavailable("expandvars")
