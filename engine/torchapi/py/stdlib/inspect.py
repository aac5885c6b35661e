# inspect for Kiln workloads: signature() of functions, methods and classes (with CPython's
# printing and Signature.bind), and the is*() predicates. Kiln has no code or frame objects,
# so getsource, stack and currentframe are not provided.
import types

import _kiln_stdlib


class _ParameterKind:
    def __init__(self, value, name, description):
        self.value = value
        self.name = name
        self.description = description

    def __str__(self):
        return self.name

    def __repr__(self):
        return f"<_ParameterKind.{self.name}: {self.value}>"

    def __eq__(self, other):
        if isinstance(other, _ParameterKind):
            return self.value == other.value
        return self.value == other

    def __hash__(self):
        return hash(self.value)

    def __lt__(self, other):
        return self.value < other.value


POSITIONAL_ONLY = _ParameterKind(0, "POSITIONAL_ONLY", "positional-only")
POSITIONAL_OR_KEYWORD = _ParameterKind(1, "POSITIONAL_OR_KEYWORD", "positional or keyword")
VAR_POSITIONAL = _ParameterKind(2, "VAR_POSITIONAL", "variadic positional")
KEYWORD_ONLY = _ParameterKind(3, "KEYWORD_ONLY", "keyword-only")
VAR_KEYWORD = _ParameterKind(4, "VAR_KEYWORD", "variadic keyword")
_KINDS = {k.name: k for k in (POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD, VAR_POSITIONAL,
                              KEYWORD_ONLY, VAR_KEYWORD)}


class _empty:
    pass


class _void:
    pass


def formatannotation(annotation):
    if isinstance(annotation, type):
        if annotation.__module__ == "builtins":
            return annotation.__qualname__
        return annotation.__module__ + "." + annotation.__qualname__
    return repr(annotation)


class Parameter:
    empty = _empty
    POSITIONAL_ONLY = POSITIONAL_ONLY
    POSITIONAL_OR_KEYWORD = POSITIONAL_OR_KEYWORD
    VAR_POSITIONAL = VAR_POSITIONAL
    KEYWORD_ONLY = KEYWORD_ONLY
    VAR_KEYWORD = VAR_KEYWORD

    def __init__(self, name, kind, *, default=_empty, annotation=_empty):
        self.name = name
        self.kind = kind
        self.default = default
        self.annotation = annotation

    def replace(self, *, name=None, kind=None, default=_void, annotation=_void):
        return Parameter(self.name if name is None else name, self.kind if kind is None else kind,
                         default=self.default if default is _void else default,
                         annotation=self.annotation if annotation is _void else annotation)

    def __str__(self):
        text = self.name
        if self.annotation is not _empty:
            text += ": " + formatannotation(self.annotation)
        if self.default is not _empty:
            text += (" = " if self.annotation is not _empty else "=") + repr(self.default)
        if self.kind == VAR_POSITIONAL:
            text = "*" + text
        elif self.kind == VAR_KEYWORD:
            text = "**" + text
        return text

    def __repr__(self):
        return f'<Parameter "{self}">'

    def __eq__(self, other):
        return (isinstance(other, Parameter) and self.name == other.name and
                self.kind == other.kind and self.default == other.default and
                self.annotation == other.annotation)


class BoundArguments:
    def __init__(self, signature, arguments):
        self.signature = signature
        self.arguments = arguments

    @property
    def args(self):
        out = []
        for p in self.signature.parameters.values():
            if p.kind in (VAR_KEYWORD, KEYWORD_ONLY) or p.name not in self.arguments:
                break
            if p.kind == VAR_POSITIONAL:
                out.extend(self.arguments[p.name])
            else:
                out.append(self.arguments[p.name])
        return tuple(out)

    @property
    def kwargs(self):
        out = {}
        positional = len(self.args)
        seen = 0
        for p in self.signature.parameters.values():
            if p.name not in self.arguments:
                continue
            if p.kind == VAR_KEYWORD:
                out.update(self.arguments[p.name])
            elif p.kind == KEYWORD_ONLY:
                out[p.name] = self.arguments[p.name]
            elif p.kind != VAR_POSITIONAL:
                seen += 1
        return out

    def apply_defaults(self):
        arguments = {}
        for p in self.signature.parameters.values():
            if p.name in self.arguments:
                arguments[p.name] = self.arguments[p.name]
            elif p.default is not _empty:
                arguments[p.name] = p.default
            elif p.kind == VAR_POSITIONAL:
                arguments[p.name] = ()
            elif p.kind == VAR_KEYWORD:
                arguments[p.name] = {}
        self.arguments = arguments

    def __repr__(self):
        inner = ", ".join(f"{k}={v!r}" for k, v in self.arguments.items())
        return f"<BoundArguments ({inner})>"


class Signature:
    empty = _empty

    def __init__(self, parameters=None, *, return_annotation=_empty):
        self.parameters = {p.name: p for p in (parameters or [])}
        self.return_annotation = return_annotation

    def replace(self, *, parameters=_void, return_annotation=_void):
        return Signature(list(self.parameters.values()) if parameters is _void else parameters,
                         return_annotation=self.return_annotation
                         if return_annotation is _void else return_annotation)

    def __str__(self):
        parts = []
        need_slash = False
        star_done = False
        for p in self.parameters.values():
            if p.kind == POSITIONAL_ONLY:
                need_slash = True
            elif need_slash:
                parts.append("/")
                need_slash = False
            if p.kind == KEYWORD_ONLY and not star_done:
                parts.append("*")
                star_done = True
            if p.kind == VAR_POSITIONAL:
                star_done = True
            parts.append(str(p))
        if need_slash:
            parts.append("/")
        text = "(" + ", ".join(parts) + ")"
        if self.return_annotation is not _empty:
            text += " -> " + formatannotation(self.return_annotation)
        return text

    def __repr__(self):
        return f"<Signature {self}>"

    def __eq__(self, other):
        return (isinstance(other, Signature) and
                list(self.parameters.values()) == list(other.parameters.values()) and
                self.return_annotation == other.return_annotation)

    def _bind(self, args, kwargs, partial):
        arguments = {}
        params = list(self.parameters.values())
        i = 0
        args = list(args)
        kwargs = dict(kwargs)
        for p in params:
            if p.kind in (POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD) and i < len(args):
                if p.name in kwargs and p.kind == POSITIONAL_OR_KEYWORD:
                    raise TypeError(f"multiple values for argument {p.name!r}")
                arguments[p.name] = args[i]
                i += 1
            elif p.kind == VAR_POSITIONAL:
                arguments[p.name] = tuple(args[i:])
                i = len(args)
            elif p.kind == VAR_KEYWORD:
                rest = {k: v for k, v in kwargs.items() if k not in arguments}
                arguments[p.name] = rest
                kwargs = {}
            elif p.kind != POSITIONAL_ONLY and p.name in kwargs:
                arguments[p.name] = kwargs.pop(p.name)
            elif not partial and p.default is _empty:
                what = "keyword-only " if p.kind == KEYWORD_ONLY else ""
                raise TypeError(f"missing a required {what}argument: {p.name!r}")
        if i < len(args):
            raise TypeError("too many positional arguments")
        for key in kwargs:
            if key not in arguments:
                raise TypeError(f"got an unexpected keyword argument {key!r}")
        return BoundArguments(self, arguments)

    def bind(self, *args, **kwargs):
        return self._bind(args, kwargs, False)

    def bind_partial(self, *args, **kwargs):
        return self._bind(args, kwargs, True)


def _function_signature(fn, skip_first):
    annotations = getattr(fn, "__annotations__", None)
    if annotations is None:  # a Kiln native presented as a Python function (F.relu)
        raise ValueError(f"no signature found for {fn!r}")
    params = []
    for name, kind, has_default, default in _kiln_stdlib.parameters(fn):
        params.append(Parameter(name, _KINDS[kind], default=default if has_default else _empty,
                                annotation=annotations.get(name, _empty)))
    if skip_first:
        params = params[1:]
    return Signature(params, return_annotation=annotations.get("return", _empty))


def signature(obj, *, follow_wrapped=True):
    if not callable(obj):
        raise TypeError(f"{obj!r} is not a callable object")
    if follow_wrapped:
        while hasattr(obj, "__wrapped__") and isfunction(obj):
            obj = obj.__wrapped__
    if isfunction(obj):
        return _function_signature(obj, False)
    if ismethod(obj):
        return _function_signature(obj.__func__, True)
    if isclass(obj):
        init = getattr(obj, "__init__", None)
        if isfunction(init):
            return _function_signature(init, True)
    call = getattr(type(obj), "__call__", None)
    if not isclass(obj) and isfunction(call):
        return _function_signature(call, True)
    raise ValueError(f"no signature found for {obj!r}")


def isfunction(obj):
    return isinstance(obj, types.FunctionType)


def ismethod(obj):
    return isinstance(obj, types.MethodType)


def isclass(obj):
    return isinstance(obj, type)


def ismodule(obj):
    return type(obj).__name__ == "module"


def isbuiltin(obj):
    return isinstance(obj, types.BuiltinFunctionType)


def isroutine(obj):
    return isfunction(obj) or ismethod(obj) or isbuiltin(obj)


def isgeneratorfunction(obj):
    while ismethod(obj) or type(obj).__name__ == "partial":
        obj = obj.__func__ if ismethod(obj) else obj.func
    return _kiln_stdlib.is_generator_function(obj)


def isgenerator(obj):
    return isinstance(obj, types.GeneratorType)


def iscoroutinefunction(obj):
    return False


def isabstract(obj):
    return bool(getattr(obj, "__abstractmethods__", ()))


def cleandoc(doc):
    lines = doc.expandtabs().split("\n")
    margin = None
    for line in lines[1:]:
        content = len(line.lstrip())
        if content:
            indent = len(line) - content
            margin = indent if margin is None else min(margin, indent)
    if lines:
        lines[0] = lines[0].lstrip()
    if margin is not None:
        for i in range(1, len(lines)):
            lines[i] = lines[i][margin:]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return "\n".join(lines)


def getdoc(obj):
    doc = getattr(obj, "__doc__", None)
    if not isinstance(doc, str):
        return None
    return cleandoc(doc)
