# warnings for Kiln workloads, with CPython 3.11's filters, registries and output format
# ("file:line: Category: message" and the source line, on stderr). Filter patterns are
# matched by a small matcher that knows literal text, '.', '*', '.*' and '\\' escapes (CPython
# compiles them with re); source lines come from the running script, never from the disk.
import sys

import _kiln_stdlib


class _Pattern:
    def __init__(self, pattern, ignore_case, whole):
        self.pattern = pattern
        self._atoms = _parse(pattern.lower() if ignore_case else pattern)
        self._ignore_case = ignore_case
        self._whole = whole

    def match(self, text):
        if self._ignore_case:
            text = text.lower()
        return _match(self._atoms, 0, text, 0, self._whole)

    def __repr__(self):
        return f"re.compile({self.pattern!r})"


def _parse(pattern):
    atoms = []  # (char or None for '.', repeated)
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            i += 1
            atom = pattern[i]
        elif c == ".":
            atom = None
        elif c == "*" and atoms:
            atoms[-1] = (atoms[-1][0], True)
            i += 1
            continue
        else:
            atom = c
        atoms.append((atom, False))
        i += 1
    return atoms


def _match(atoms, a, text, t, whole):
    if a == len(atoms):
        return t == len(text) or not whole
    atom, repeated = atoms[a]
    if repeated:
        end = t
        while end < len(text) and (atom is None or text[end] == atom):
            end += 1
        while end >= t:
            if _match(atoms, a + 1, text, end, whole):
                return True
            end -= 1
        return False
    if t < len(text) and (atom is None or text[t] == atom):
        return _match(atoms, a + 1, text, t + 1, whole)
    return False


filters = [
    ("default", None, DeprecationWarning, _Pattern("__main__", False, True), 0),
    ("ignore", None, DeprecationWarning, None, 0),
    ("ignore", None, PendingDeprecationWarning, None, 0),
    ("ignore", None, ImportWarning, None, 0),
    ("ignore", None, ResourceWarning, None, 0),
]
defaultaction = "default"
onceregistry = {}
_registries = {}
_version = [1]
_source_lines = {}
_ACTIONS = ("error", "ignore", "always", "default", "module", "once")


def _filters_mutated():
    _version[0] += 1


def _add_filter(item, append):
    if item in filters:
        filters.remove(item)
    if append:
        filters.append(item)
    else:
        filters.insert(0, item)
    _filters_mutated()


def _check_action(action):
    if action not in _ACTIONS:
        raise AssertionError(f"invalid action: {action!r}")  # CPython 3.11 asserts


def filterwarnings(action, message="", category=Warning, module="", lineno=0, append=False):
    _check_action(action)
    if not isinstance(message, str):
        raise TypeError("message must be a string")
    if not (isinstance(category, type) and issubclass(category, Warning)):
        raise TypeError("category must be a Warning subclass")
    if not isinstance(lineno, int) or lineno < 0:
        raise ValueError("lineno must be an int >= 0")
    msg = _Pattern(message, True, False) if message else None
    mod = _Pattern(module, False, True) if module else None
    _add_filter((action, msg, category, mod, lineno), append)


def simplefilter(action, category=Warning, lineno=0, append=False):
    _check_action(action)
    if not isinstance(lineno, int) or lineno < 0:
        raise ValueError("lineno must be an int >= 0")
    _add_filter((action, None, category, None, lineno), append)


def resetwarnings():
    filters.clear()
    _filters_mutated()


class WarningMessage:
    _WARNING_DETAILS = ("message", "category", "filename", "lineno", "file", "line", "source")

    def __init__(self, message, category, filename, lineno, file=None, line=None, source=None):
        self.message = message
        self.category = category
        self.filename = filename
        self.lineno = lineno
        self.file = file
        self.line = line
        self.source = source
        self._category_name = category.__name__ if category else None

    def __str__(self):
        return (f"{{message : {self.message!r}, category : {self._category_name!r}, "
                f"filename : {self.filename!r}, lineno : {self.lineno}, "
                f"line : {self.line!r}}}")


def formatwarning(message, category, filename, lineno, line=None):
    s = f"{filename}:{lineno}: {category.__name__}: {message}\n"
    if line is None:
        line = _source_lines.get((filename, lineno))
    if line:
        s += f"  {line.strip()}\n"
    return s


def showwarning(message, category, filename, lineno, file=None, line=None):
    text = formatwarning(message, category, filename, lineno, line)
    (sys.stderr if file is None else file).write(text)


_recorders = []


def _show(message, category, filename, lineno):
    if _recorders and _recorders[-1] is not None:
        _recorders[-1].append(WarningMessage(message, category, filename, lineno))
        return
    showwarning(message, category, filename, lineno)


def _action_for(text, category, module, lineno):
    for action, msg, cat, mod, ln in filters:
        if ((msg is None or msg.match(text)) and issubclass(category, cat) and
                (mod is None or mod.match(module)) and (ln == 0 or lineno == ln)):
            return action
    return defaultaction


def warn_explicit(message, category, filename, lineno, module=None, registry=None,
                  module_globals=None, source=None):
    if module is None:
        module = filename or "<unknown>"
        if module.endswith(".py"):
            module = module[:-3]
    if registry is None:
        registry = {}
    if registry.get("version", 0) != _version[0]:
        registry.clear()
        registry["version"] = _version[0]
    if isinstance(message, Warning):
        text = str(message)
        category = message.__class__
    else:
        text = message
        message = category(message)
    key = (text, category, lineno)
    if registry.get(key):
        return
    action = _action_for(text, category, module, lineno)
    if action == "ignore":
        return
    if action == "error":
        raise message
    if action == "once":
        registry[key] = 1
        once_key = (text, category)
        if onceregistry.get(once_key):
            return
        onceregistry[once_key] = 1
    elif action == "module":
        registry[key] = 1
        module_key = (text, category, 0)
        if registry.get(module_key):
            return
        registry[module_key] = 1
    elif action == "default":
        registry[key] = 1
    _show(message, category, filename, lineno)


def warn(message, category=None, stacklevel=1, source=None):
    if isinstance(message, Warning):
        category = message.__class__
    if category is None:
        category = UserWarning
    if not (isinstance(category, type) and issubclass(category, Warning)):
        raise TypeError(f"category must be a Warning subclass, not '{type(category).__name__}'")
    where = _kiln_stdlib.caller(stacklevel)
    if where is None:
        filename, lineno, module, line = "sys", 1, "sys", ""
    else:
        filename, lineno, module, line = where
    _source_lines[(filename, lineno)] = line
    registry = _registries.setdefault(module, {})
    warn_explicit(message, category, filename, lineno, module, registry)


class catch_warnings:
    def __init__(self, *, record=False, module=None, action=None, category=Warning, lineno=0,
                 append=False):
        self._record = record
        self._filter = None if action is None else (action, category, lineno, append)
        self._entered = False

    def __repr__(self):
        args = ["record=True"] if self._record else []
        return f"{type(self).__name__}({', '.join(args)})"

    def __enter__(self):
        if self._entered:
            raise RuntimeError(f"Cannot enter {self!r} twice")
        self._entered = True
        self._saved = list(filters)
        self._saved_show = showwarning
        _filters_mutated()
        if self._filter is not None:
            simplefilter(*self._filter)
        log = [] if self._record else None
        _recorders.append(log)
        return log

    def __exit__(self, *exc_info):
        filters[:] = self._saved
        _filters_mutated()
        _recorders.pop()
        _restore_showwarning(self._saved_show)


def _restore_showwarning(saved_show):
    # showwarning may have been replaced inside the block; the block's end restores it.
    global showwarning
    showwarning = saved_show
