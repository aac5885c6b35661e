# Sizes read from a dynamic input (x.shape, x.size(d)) stay symbolic in the graph: one graph
# serves every later size, as in PyTorch's automatic dynamic shapes.
import torch
import torch.nn.functional as F

compiles = []


def backend(gm, example_inputs):
    compiles.append(len(compiles))
    return gm.forward


def attention_like(x):
    B, T, C = x.shape
    mask = torch.tril(torch.ones(T, T, dtype=torch.bool))
    att = (x @ x.transpose(1, 2)).masked_fill(~mask, float("-inf"))
    y = F.softmax(att, dim=-1) @ x
    return y.reshape(B * T, C)


def size_arithmetic(x):
    n = x.size(0)
    half = n // 2
    return x[:half].sum(0) + x.new_zeros(n * 2 - 1, x.size(1)).sum(0)


def returns_a_size(x):
    return x.relu(), x.shape[0] + 1


def int_argument(x, n):
    return x * n + n, torch.ones(n).sum() * x, n * 2


for fn, shapes in [(attention_like, [(2, 4, 8), (2, 6, 8), (2, 10, 8), (2, 3, 8)]),
                   (size_arithmetic, [(4, 3), (6, 3), (8, 3), (10, 3)]),
                   (returns_a_size, [(4, 2), (5, 2), (7, 2)])]:
    compiles.clear()
    compiled = torch.compile(fn, backend=backend)
    for shape in shapes:
        x = torch.randn(*shape)
        got, want = compiled(x), fn(x)
        if isinstance(got, tuple):
            same = torch.allclose(got[0], want[0]) and got[1] == want[1] and type(got[1]) is int
        else:
            same = torch.allclose(got, want, atol=1e-6)
        print(fn.__name__, shape, same, len(compiles))

# An int argument is static at first and a SymInt graph input once it changed.
compiles.clear()
compiled = torch.compile(int_argument, backend=backend)
for n in (3, 4, 5, 9):
    x = torch.randn(3)
    got, want = compiled(x, n), int_argument(x, n)
    same = all(torch.allclose(g, w) for g, w in zip(got[:2], want[:2])) and got[2] == want[2]
    print("int_argument", n, same, type(got[2]).__name__, len(compiles))


# Comparisons on sizes are guards on the symbols (one entry per outcome); range() needs the
# value, so each size compiles.
def compares(x):
    T = x.shape[0]
    assert T <= 64
    if T // 2 > 3:
        return x * 2
    return x.sum(0, keepdim=True).expand(T, 2)


def ranges(x):
    return sum(x[i] for i in range(x.shape[0]))


for fn in (compares, ranges):
    compiles.clear()
    compiled = torch.compile(fn, backend=backend)
    for n in (3, 4, 5, 9, 10, 3):
        x = torch.ones(n, 2)
        assert torch.equal(compiled(x), fn(x)), n
    print(fn.__name__, len(compiles))
