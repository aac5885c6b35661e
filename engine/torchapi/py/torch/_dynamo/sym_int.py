# torch.SymInt as Kiln's capture layer uses it: a size (or an int computed from sizes) that
# stays symbolic while torch.compile traces a frame. Arithmetic on it is recorded in the graph;
# anything that needs its Python value (a comparison, range(), formatting, hashing) specialises
# the sizes it comes from, which then get exact guards. Outside the trace that made it, it is
# its value.
import torch._dynamo as _dynamo


class SymInt:
    __kiln_type__ = int  # what type() and isinstance() report, as PyTorch's SymInt is an int

    def __init__(self, trace, node, hint):
        self._kiln_trace = trace
        self._kiln_node = node
        self._kiln_hint = hint

    def _value(self, why):
        return _dynamo._kiln_sym_value(self, why)

    def __index__(self):
        return self._value("index")

    def __int__(self):
        return self._value("int")

    def __float__(self):
        return float(self._value("float"))

    def __bool__(self):
        return self._value("bool") != 0

    def __hash__(self):
        return hash(self._value("hash"))

    def __repr__(self):
        return repr(self._value("repr"))

    def __str__(self):
        return str(self._value("str"))

    def __format__(self, spec):
        return format(self._value("format"), spec)

    def __add__(self, other):
        return _dynamo._kiln_sym_binary("add", self, other)

    def __radd__(self, other):
        return _dynamo._kiln_sym_binary("add", other, self)

    def __sub__(self, other):
        return _dynamo._kiln_sym_binary("sub", self, other)

    def __rsub__(self, other):
        return _dynamo._kiln_sym_binary("sub", other, self)

    def __mul__(self, other):
        return _dynamo._kiln_sym_binary("mul", self, other)

    def __rmul__(self, other):
        return _dynamo._kiln_sym_binary("mul", other, self)

    def __floordiv__(self, other):
        return _dynamo._kiln_sym_binary("floordiv", self, other)

    def __rfloordiv__(self, other):
        return _dynamo._kiln_sym_binary("floordiv", other, self)

    def __mod__(self, other):
        return _dynamo._kiln_sym_binary("mod", self, other)

    def __rmod__(self, other):
        return _dynamo._kiln_sym_binary("mod", other, self)

    def __neg__(self):
        return _dynamo._kiln_sym_binary("mul", self, -1)

    def __pos__(self):
        return self

    def __truediv__(self, other):
        return self._value("truediv") / other

    def __rtruediv__(self, other):
        return other / self._value("truediv")

    def __pow__(self, other):
        return self._value("pow") ** other

    def __eq__(self, other):
        return _dynamo._kiln_sym_compare("==", self, other)

    def __ne__(self, other):
        return _dynamo._kiln_sym_compare("!=", self, other)

    def __lt__(self, other):
        return _dynamo._kiln_sym_compare("<", self, other)

    def __le__(self, other):
        return _dynamo._kiln_sym_compare("<=", self, other)

    def __gt__(self, other):
        return _dynamo._kiln_sym_compare(">", self, other)

    def __ge__(self, other):
        return _dynamo._kiln_sym_compare(">=", self, other)


class SymFloat(SymInt):
    __kiln_type__ = float
    # A float computed from tensor data while torch.compile traces with
    # capture_scalar_outputs=True (x.item()): arithmetic on it is recorded; needing its Python
    # value ends the graph there.

    def __index__(self):
        raise TypeError("'SymFloat' object cannot be interpreted as an integer")

    def __int__(self):
        return int(self._value("int"))


class GraphInputSymInt(SymInt):
    # A backend's example for a SymInt graph input (a size symbol, a dynamic int) and the
    # example_value of a SymInt node: type() calls it SymInt and it prints as its expression
    # ("s0"), as PyTorch's do. Made of no trace, it computes as its value.
    __kiln_type__ = None

    def __init__(self, trace, node, hint, expr=None):
        super().__init__(trace, node, hint)
        self._kiln_expr = str(hint) if expr is None else expr

    def _value(self, why):
        return self._kiln_hint

    def __repr__(self):
        return self._kiln_expr

    def __str__(self):
        return self._kiln_expr

    def __format__(self, spec):
        return self._kiln_expr if spec == "" else format(self._kiln_hint, spec)


GraphInputSymInt.__name__ = "SymInt"
