# string for Kiln workloads: the constants, capwords, and Template ($-substitution). The
# str.format machinery (string.Formatter) is not provided.
whitespace = " \t\n\r\x0b\x0c"
ascii_lowercase = "abcdefghijklmnopqrstuvwxyz"
ascii_uppercase = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ascii_letters = ascii_lowercase + ascii_uppercase
digits = "0123456789"
hexdigits = digits + "abcdef" + "ABCDEF"
octdigits = "01234567"
punctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
printable = digits + ascii_letters + punctuation + whitespace


def capwords(s, sep=None):
    return (sep or " ").join(word.capitalize() for word in s.split(sep))


def _is_identifier_start(c):
    return c == "_" or c in ascii_letters


def _is_identifier_char(c):
    return c == "_" or c in ascii_letters or c in digits


class Template:
    delimiter = "$"

    def __init__(self, template):
        self.template = template

    def _scan(self, mapping, safe):
        text = self.template
        out = []
        i = 0
        d = self.delimiter
        while i < len(text):
            if not text.startswith(d, i):
                out.append(text[i])
                i += 1
                continue
            j = i + len(d)
            if text.startswith(d, j):
                out.append(d)
                i = j + len(d)
                continue
            braced = j < len(text) and text[j] == "{"
            start = j + 1 if braced else j
            end = start
            if end < len(text) and _is_identifier_start(text[end]):
                end += 1
                while end < len(text) and _is_identifier_char(text[end]):
                    end += 1
            name = text[start:end]
            closed = not braced or (end < len(text) and text[end] == "}")
            if not name or not closed:
                if safe:
                    out.append(d)
                    i = j
                    continue
                line = text[:i].count("\n") + 1
                col = i - (text.rfind("\n", 0, i) + 1) + 1
                raise ValueError(f"Invalid placeholder in string: line {line}, col {col}")
            after = end + 1 if braced else end
            if name in mapping:
                out.append(str(mapping[name]))
            elif safe:
                out.append(text[i:after])
            else:
                raise KeyError(name)
            i = after
        return "".join(out)

    def substitute(self, mapping=None, /, **kws):
        return self._scan(_merge(mapping, kws), False)

    def safe_substitute(self, mapping=None, /, **kws):
        return self._scan(_merge(mapping, kws), True)

    def get_identifiers(self):
        names = []
        text = self.template.replace(self.delimiter * 2, "")
        for piece in text.split(self.delimiter)[1:]:
            piece = piece[1:] if piece.startswith("{") else piece
            end = 0
            while end < len(piece) and _is_identifier_char(piece[end]):
                end += 1
            name = piece[:end]
            if name and _is_identifier_start(name[0]) and name not in names:
                names.append(name)
        return names


def _merge(mapping, kws):
    merged = {}
    if mapping is not None:
        for key in mapping:
            merged[key] = mapping[key]
    merged.update(kws)
    return merged
