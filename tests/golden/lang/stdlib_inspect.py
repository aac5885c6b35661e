# inspect: signature() of functions, methods, classes and callables, printed as CPython
# prints them, Signature.bind, and the is*() predicates.
import inspect
from inspect import Parameter, signature


def f(a, b=2, *args, c, d=4, **kw):
    """Does things.

    In detail.
    """


def g(x: int, /, y: "str" = "q", *, z: float = 1.0) -> list:
    pass


class Model:
    def __init__(self, dim, heads=8):
        self.dim = dim

    def forward(self, x, mask=None):
        return x

    def __call__(self, x):
        return x


s = signature(f)
print(s, repr(s), list(s.parameters))
print(s.parameters["b"], repr(s.parameters["b"]), s.parameters["b"].default,
      s.parameters["a"].default is Parameter.empty, s.parameters["args"].kind,
      s.parameters["c"].kind == Parameter.KEYWORD_ONLY, s.parameters["kw"].kind.description)
print(signature(g), signature(g).return_annotation, signature(lambda: 0), signature(lambda x=[1]: x))
print(signature(Model), signature(Model.forward), signature(Model(4).forward), signature(Model(4)))
b = s.bind(1, 2, 3, c=5, e=6)
print(b.arguments, b.args, b.kwargs)
b = signature(Model.forward).bind_partial("self")
b.apply_defaults()
print(b.arguments)
for args, kwargs in (((), {}), ((1, 2), {"c": 1, "b": 3})):
    try:
        s.bind(*args, **kwargs)
    except TypeError as e:
        print("TypeError:", e)
print(inspect.isfunction(f), inspect.isclass(Model), inspect.ismethod(Model(1).forward),
      inspect.isfunction(Model(1).forward), inspect.ismodule(inspect), inspect.isbuiltin(len),
      inspect.isroutine(len), inspect.isfunction(Model), inspect.isclass(3))
print(repr(inspect.getdoc(f)), inspect.getdoc(g), [p.name for p in signature(g).parameters.values()])
print(signature(f) == signature(f), signature(f) == signature(g))
try:
    signature(3)
except TypeError as e:
    print("TypeError:", e)
