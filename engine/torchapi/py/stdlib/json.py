# json for Kiln workloads: dumps() and loads() with CPython's output, options and error
# messages. There are no files, so dump() and load() take only objects with write()/read()
# (sys.stdout, or the script's own classes).


class JSONDecodeError(ValueError):
    def __init__(self, msg, doc, pos):
        lineno = doc[:pos].count("\n") + 1
        colno = pos - doc.rfind("\n", 0, pos)
        ValueError.__init__(self, f"{msg}: line {lineno} column {colno} (char {pos})")
        self.msg = msg
        self.doc = doc
        self.pos = pos
        self.lineno = lineno
        self.colno = colno


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b",
            "\f": "\\f"}


def _encode_string(s, ensure_ascii):
    out = ['"']
    for c in s:
        if c in _ESCAPES:
            out.append(_ESCAPES[c])
            continue
        n = ord(c)
        if n < 0x20 or (ensure_ascii and n > 0x7E):
            if n > 0xFFFF:
                n -= 0x10000
                out.append("\\u%04x\\u%04x" % (0xD800 | (n >> 10), 0xDC00 | (n & 0x3FF)))
            else:
                out.append("\\u%04x" % n)
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def _encode_float(f, allow_nan):
    if f != f:
        text = "NaN"
    elif f == float("inf"):
        text = "Infinity"
    elif f == -float("inf"):
        text = "-Infinity"
    else:
        return repr(f)
    if not allow_nan:
        raise ValueError("Out of range float values are not JSON compliant")
    return text


class JSONEncoder:
    def __init__(self, *, skipkeys=False, ensure_ascii=True, check_circular=True,
                 allow_nan=True, sort_keys=False, indent=None, separators=None, default=None):
        self.skipkeys = skipkeys
        self.ensure_ascii = ensure_ascii
        self.check_circular = check_circular
        self.allow_nan = allow_nan
        self.sort_keys = sort_keys
        if isinstance(indent, int) and not isinstance(indent, bool):
            indent = " " * indent
        self.indent = indent
        if separators is not None:
            self.item_separator, self.key_separator = separators
        elif indent is not None:
            self.item_separator, self.key_separator = ",", ": "
        else:
            self.item_separator, self.key_separator = ", ", ": "
        if default is not None:
            self.default = default

    def default(self, o):
        raise TypeError(f"Object of type {type(o).__name__} is not JSON serializable")

    def encode(self, o):
        out = []
        self._encode(o, out, 0, [])
        return "".join(out)

    def _key(self, key):
        if isinstance(key, str):
            return key
        if isinstance(key, bool):
            return "true" if key else "false"
        if key is None:
            return "null"
        if isinstance(key, int):
            return str(key)
        if isinstance(key, float):
            return _encode_float(key, self.allow_nan)
        if self.skipkeys:
            return None
        raise TypeError(f"keys must be str, int, float, bool or None, not "
                        f"{type(key).__name__}")

    def _open(self, out, bracket, level, markers, o):
        if self.check_circular:
            if any(m is o for m in markers):
                raise ValueError("Circular reference detected")
            markers.append(o)
        out.append(bracket)

    def _newline(self, out, level):
        if self.indent is not None:
            out.append("\n" + self.indent * level)

    def _encode(self, o, out, level, markers):
        if isinstance(o, str):
            out.append(_encode_string(o, self.ensure_ascii))
        elif o is None:
            out.append("null")
        elif o is True:
            out.append("true")
        elif o is False:
            out.append("false")
        elif isinstance(o, int):
            out.append(str(o))
        elif isinstance(o, float):
            out.append(_encode_float(o, self.allow_nan))
        elif isinstance(o, (list, tuple)):
            self._encode_list(o, out, level, markers)
        elif isinstance(o, dict):
            self._encode_dict(o, out, level, markers)
        else:
            if self.check_circular:
                if any(m is o for m in markers):
                    raise ValueError("Circular reference detected")
                markers.append(o)
            self._encode(self.default(o), out, level, markers)
            if self.check_circular:
                markers.pop()

    def _encode_list(self, o, out, level, markers):
        if not o:
            out.append("[]")
            return
        self._open(out, "[", level, markers, o)
        for i, item in enumerate(o):
            if i:
                out.append(self.item_separator)
            self._newline(out, level + 1)
            self._encode(item, out, level + 1, markers)
        self._newline(out, level)
        out.append("]")
        if self.check_circular:
            markers.pop()

    def _encode_dict(self, o, out, level, markers):
        if not o:
            out.append("{}")
            return
        self._open(out, "{", level, markers, o)
        items = list(o.items())
        if self.sort_keys:
            items = sorted(items, key=lambda kv: kv[0])
        first = True
        for key, value in items:
            key = self._key(key)
            if key is None:
                continue
            if not first:
                out.append(self.item_separator)
            first = False
            self._newline(out, level + 1)
            out.append(_encode_string(key, self.ensure_ascii))
            out.append(self.key_separator)
            self._encode(value, out, level + 1, markers)
        self._newline(out, level)
        out.append("}")
        if self.check_circular:
            markers.pop()


def dumps(obj, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True,
          cls=None, indent=None, separators=None, default=None, sort_keys=False, **kw):
    encoder = (cls or JSONEncoder)(skipkeys=skipkeys, ensure_ascii=ensure_ascii,
                                   check_circular=check_circular, allow_nan=allow_nan,
                                   indent=indent, separators=separators, default=default,
                                   sort_keys=sort_keys, **kw)
    return encoder.encode(obj)


def dump(obj, fp, **kw):
    fp.write(dumps(obj, **kw))


_WS = " \t\n\r"
_CONSTANTS = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": -float("inf")}
_UNESCAPE = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r",
             "t": "\t"}


class _Decoder:
    def __init__(self, doc, object_hook, parse_float, parse_int, strict):
        self.doc = doc
        self.object_hook = object_hook
        self.parse_float = parse_float or float
        self.parse_int = parse_int or int
        self.strict = strict

    def fail(self, msg, pos):
        raise JSONDecodeError(msg, self.doc, pos)

    def skip(self, i):
        while i < len(self.doc) and self.doc[i] in _WS:
            i += 1
        return i

    def value(self, i):
        doc = self.doc
        if i >= len(doc):
            self.fail("Expecting value", i)
        c = doc[i]
        if c == '"':
            return self.string(i + 1)
        if c == "{":
            return self.object(i + 1)
        if c == "[":
            return self.array(i + 1)
        for word, value in (("null", None), ("true", True), ("false", False)):
            if doc.startswith(word, i):
                return value, i + len(word)
        for word, value in _CONSTANTS.items():
            if doc.startswith(word, i):
                return value, i + len(word)
        return self.number(i)

    def number(self, i):
        doc = self.doc
        j = i
        if j < len(doc) and doc[j] == "-":
            j += 1
        if j < len(doc) and doc[j] == "0":
            j += 1
        elif j < len(doc) and doc[j] in "123456789":
            while j < len(doc) and doc[j].isdigit():
                j += 1
        else:
            self.fail("Expecting value", i)
        integer = True
        if j + 1 < len(doc) and doc[j] == "." and doc[j + 1].isdigit():
            integer = False
            j += 1
            while j < len(doc) and doc[j].isdigit():
                j += 1
        if j < len(doc) and doc[j] in "eE":
            k = j + 1
            if k < len(doc) and doc[k] in "+-":
                k += 1
            if k < len(doc) and doc[k].isdigit():
                integer = False
                j = k
                while j < len(doc) and doc[j].isdigit():
                    j += 1
        text = doc[i:j]
        return (self.parse_int(text) if integer else self.parse_float(text)), j

    def string(self, i):
        doc = self.doc
        start = i - 1
        out = []
        while True:
            if i >= len(doc):
                self.fail("Unterminated string starting at", start)
            c = doc[i]
            if c == '"':
                return "".join(out), i + 1
            if c == "\\":
                i += 1
                if i >= len(doc):
                    self.fail("Unterminated string starting at", start)
                e = doc[i]
                if e == "u":
                    code = self.hex4(i + 1, i - 1)
                    i += 5
                    if 0xD800 <= code <= 0xDBFF and doc.startswith("\\u", i):
                        low = self.hex4(i + 2, i)
                        if 0xDC00 <= low <= 0xDFFF:
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                            i += 6
                    out.append(chr(code))
                    continue
                if e not in _UNESCAPE:
                    self.fail("Invalid \\escape", i - 1)
                out.append(_UNESCAPE[e])
                i += 1
                continue
            if self.strict and ord(c) < 0x20:
                self.fail("Invalid control character at", i)
            out.append(c)
            i += 1

    def hex4(self, i, at):
        digits = self.doc[i:i + 4]
        if len(digits) != 4 or any(d not in "0123456789abcdefABCDEF" for d in digits):
            self.fail("Invalid \\uXXXX escape", at)
        return int(digits, 16)

    def object(self, i):
        doc = self.doc
        result = {}
        i = self.skip(i)
        if i < len(doc) and doc[i] == "}":
            return self.hook(result), i + 1
        while True:
            if i >= len(doc) or doc[i] != '"':
                self.fail("Expecting property name enclosed in double quotes", i)
            key, i = self.string(i + 1)
            i = self.skip(i)
            if i >= len(doc) or doc[i] != ":":
                self.fail("Expecting ':' delimiter", i)
            i = self.skip(i + 1)
            result[key], i = self.value(i)
            i = self.skip(i)
            if i < len(doc) and doc[i] == "}":
                return self.hook(result), i + 1
            if i >= len(doc) or doc[i] != ",":
                self.fail("Expecting ',' delimiter", i)
            i = self.skip(i + 1)

    def hook(self, result):
        return result if self.object_hook is None else self.object_hook(result)

    def array(self, i):
        doc = self.doc
        result = []
        i = self.skip(i)
        if i < len(doc) and doc[i] == "]":
            return result, i + 1
        while True:
            item, i = self.value(i)
            result.append(item)
            i = self.skip(i)
            if i < len(doc) and doc[i] == "]":
                return result, i + 1
            if i >= len(doc) or doc[i] != ",":
                self.fail("Expecting ',' delimiter", i)
            i = self.skip(i + 1)


def loads(s, *, cls=None, object_hook=None, parse_float=None, parse_int=None,
          parse_constant=None, object_pairs_hook=None, strict=True, **kw):
    if not isinstance(s, str):
        raise TypeError(f"the JSON object must be str, bytes or bytearray, not "
                        f"{type(s).__name__}")
    decoder = _Decoder(s, object_hook, parse_float, parse_int, strict)
    i = decoder.skip(0)
    value, end = decoder.value(i)
    end = decoder.skip(end)
    if end != len(s):
        decoder.fail("Extra data", end)
    return value


def load(fp, **kw):
    return loads(fp.read(), **kw)
