# torch.compile on a function: one graph, cache hits, results equal to eager.
import torch

torch.manual_seed(0)
graphs = []


def backend(gm, example_inputs):
    graphs.append(gm)
    print("backend called with", len(example_inputs), "inputs:",
          [tuple(t.shape) for t in example_inputs])
    return gm.forward


def describe(node):
    target = node.target
    if node.op == "call_function":
        target = target.__name__
    return f"{node.op} {target}"  # names differ: 2.3 names nodes after ops, newer after variables


def f(x, y):
    a = torch.sin(x) + y
    b = torch.relu(a) * 2
    return b, a.sum()


cf = torch.compile(f, backend=backend)
x, y = torch.randn(4, 4), torch.randn(4, 4)
got, want = cf(x, y), f(x, y)
print(torch.allclose(got[0], want[0]), torch.allclose(got[1], want[1]))
for _ in range(3):
    x2, y2 = torch.randn(4, 4), torch.randn(4, 4)
    got, want = cf(x2, y2), f(x2, y2)
    print(torch.allclose(got[0], want[0]), torch.allclose(got[1], want[1]))
print("graphs:", len(graphs))
for node in graphs[0].graph.nodes:
    print(describe(node))
print(type(graphs[0]).__name__)
meta = [n.meta["example_value"] for n in graphs[0].graph.nodes if n.op == "call_function"]
print([tuple(m.shape) for m in meta], [m.dtype for m in meta])


@torch.compile(backend="eager")
def g(x):
    return torch.cos(x) * x


print(torch.allclose(g(x), torch.cos(x) * x))


@torch.compile
def h(x):
    return x.exp() - 1


print(torch.allclose(h(x), x.exp() - 1))
same = lambda v: v + 1
print(torch.compile(same, disable=True) is same)
