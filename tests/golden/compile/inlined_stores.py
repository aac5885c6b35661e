# Stores into objects from before the frame made inside an inlined function are replayed after
# the graph, as Dynamo replays them (one graph, no break); when the callee breaks after a store,
# the graph ends before the call and the store happens once; grad mode set inside a callee that
# breaks is what the callee leaves, not what the aborted trace left.
import torch

graphs = []


def counting(gm, example_inputs):
    graphs.append(len(gm.graph.nodes))
    return gm.forward


class Stats:
    pass


stats = Stats()
stats.calls = 0
table = {}
log = []


def note(x):
    stats.calls += 1
    table["last"] = stats.calls
    log.append(stats.calls)
    return x * 2


@torch.compile(backend=counting)
def f(x):
    return note(x) + 1


for i in range(3):
    out = f(torch.ones(2))
print("graphs", len(graphs), "calls", stats.calls, "table", table, "log", log, out)


def note_then_break(x):
    stats.calls += 10
    print("inside", stats.calls)
    return x - 1


@torch.compile(backend=counting)
def g(x):
    return note_then_break(x * 3)


graphs.clear()
print(g(torch.ones(2)), "calls", stats.calls)


def no_grad_then_break(x):
    prev = torch.is_grad_enabled()
    try:
        torch.set_grad_enabled(False)
        y = x * 2
        print("grad inside", torch.is_grad_enabled())
        return y
    finally:
        torch.set_grad_enabled(prev)


@torch.compile(backend=counting)
def h(x):
    return no_grad_then_break(x + 1)


w = torch.ones(2, requires_grad=True)
r = h(w)
print("grad after", torch.is_grad_enabled(), r.requires_grad)
