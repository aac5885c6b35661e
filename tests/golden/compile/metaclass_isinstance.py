# Classes with metaclasses under torch.compile: isinstance()/issubclass() against an abc.ABC
# (registered virtual subclasses included) and a class whose metaclass defines __len__ and a
# property are answered while tracing, as Dynamo does: constants of the graph, with a
# recompile when the object's class changes. The metaclass hooks' caches are not side effects.
import abc

import torch

graphs = []


def counting(gm, example_inputs):
    graphs.append(len(gm.graph.nodes))
    return gm.forward


class Block(abc.ABC):
    @abc.abstractmethod
    def scale(self):
        ...


class Double(Block):
    def scale(self):
        return 2


class Plain:
    pass


Block.register(Plain)


class Meta(type):
    def __len__(cls):
        return 4

    @property
    def doubled(cls):
        return cls.base * 2


class Scaled(metaclass=Meta):
    base = 3


@torch.compile(backend=counting)
def f(x, obj):
    if isinstance(obj, Block):
        x = x * obj.scale() if isinstance(obj, Double) else x + 100
    if issubclass(type(obj), Block):
        x = x + 1
    x = x * Scaled.base + len(Scaled)
    return x, type(Scaled).__name__, isinstance(Scaled, Meta), Scaled.doubled


x = torch.ones(2)
for obj in [Double(), Plain(), 3, Double(), Plain()]:
    print(type(obj).__name__, f(x, obj), len(graphs))
print(graphs)
