# One function compiled for several backends: each cache entry is guarded by the backend that
# compiled it (Dynamo's ___check_current_backend), so a call through another torch.compile
# recompiles, while torch.compile with an equal backend (the same custom callable, the same
# built-in name, inductor with the same mode and options) reuses the entry.
import torch

calls = []


def counting(gm, example_inputs):
    calls.append(len(list(gm.graph.nodes)))
    return gm.forward


def other(gm, example_inputs):
    calls.append(-1)
    return gm.forward


def f(x):
    return x.sin() + 1


x = torch.ones(3)
a, b = torch.compile(f, backend=counting), torch.compile(f, backend=counting)
print(a(x).sum().item(), b(x).sum().item(), calls)
print(torch.compile(f, backend=other)(x).sum().item(), calls)
print(a(x).sum().item(), calls)
e1, e2 = torch.compile(f, backend="eager"), torch.compile(f, backend="eager")
print(e1(x).sum().item(), e2(x).sum().item(), a(x).sum().item(), calls)
d1, d2 = torch.compile(f), torch.compile(f)
m = torch.compile(f, mode="max-autotune-no-cudagraphs")
print(d1(x).sum().item(), d2(x).sum().item(), m(x).sum().item(), calls)
explained = torch._dynamo.explain(f)(x)
print("explain:", explained.graph_count, "graph", explained.graph_break_count, "breaks")
