# Cases a review found where compiled and eager runs disagreed; each must match PyTorch.
import torch

cf = lambda fn: torch.compile(fn, backend="eager")


# A local the trace never read crosses a graph break unguarded: it must not be baked in.
def unread_after_break(x, n, s):
    y = x + 1
    torch._dynamo.graph_break()
    return y * n, s


c = cf(unread_after_break)
for n, s in [(2, "a"), (3, "b"), (4, "c"), (5.5, "d")]:
    r, t = c(torch.ones(2), n, s)
    print("unread", r.tolist(), t)


# A size that became a SymInt is an int to the program.
def size_types(x):
    y = x + 1
    print("size", x.shape[0], type(x.shape[0]).__name__, isinstance(x.shape[0], int))
    return y


c = cf(size_types)
for k in (2, 3, 4):
    c(torch.ones(k))


# An int argument that changed, with no op before a break.
def int_before_break(x, n):
    print("n =", n, type(n).__name__)
    return x * n


c = cf(int_before_break)
for n in (2, 3, 4):
    print(c(torch.ones(2), n).tolist())

# list.append into an argument list, on every call.
def appends(x, lst):
    lst.append(x * 2)
    return x + 1


c = cf(appends)
for i in range(3):
    lst = []
    c(torch.full((2,), float(i)), lst)
    print("append", [t.tolist() for t in lst])

# Python side effects of a frame that is skipped (a break in a loop) happen once.
counter = [0]


def skipped(x):
    counter[0] += 1
    y = x + 1
    for i in range(2):
        y = y + i
        print("loop", i)
    return y


print(cf(skipped)(torch.ones(1)).tolist(), counter)


# Augmented assignment to an item with a break on the right-hand side.
def g(x):
    print("g")
    return x * 2


def aug_item(x, d):
    d["k"] += g(x)
    return d["k"]


c = cf(aug_item)
for i in (1, 2, 3):
    print(c(torch.ones(2) * i, {"k": torch.ones(2)}).tolist())


# In-place through a view of an input.
def view_inplace(x):
    y = x.t()
    y.add_(1)
    return x


x = torch.zeros(2, 2)
print(cf(view_inplace)(x).tolist())


# Recursion with breaks in the middle of the statement, entries reused across depths.
def gb(x):
    torch._dynamo.graph_break()
    return x + 1


def rec(x, n):
    if n == 0:
        return gb(x) - 1
    return rec(x, n - 1) * 2 + gb(x) - rec(x * 0, n - 1)


c = cf(rec)
for n in (0, 1, 2, 3, 2):
    print("rec", n, c(torch.ones(2), n).tolist())
