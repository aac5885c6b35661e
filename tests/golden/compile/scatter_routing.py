# A mixture-of-experts router's bookkeeping under torch.compile: index_add_ and scatter_add
# record into the graph (Inductor falls back to their eager kernels) and match eager; bincount's
# output size depends on the data, so it breaks the graph (dynamic shape operator), as in 2.3.
import torch

graphs = []


def counting(gm, example_inputs):
    graphs.append(len([n for n in gm.graph.nodes if n.op == "call_function"]))
    return gm.forward


def route(x, expert_idx, weights):
    out = torch.zeros(4, x.shape[1])
    out.index_add_(0, expert_idx, x * weights[:, None])
    agg = torch.zeros(4, x.shape[1]).scatter_add(0, expert_idx[:, None].expand(-1, x.shape[1]), x)
    top = torch.zeros(4).scatter_reduce(0, expert_idx, weights, "amax", include_self=False)
    return out, agg, top


def route_inductor(x, expert_idx, weights):
    out = torch.zeros(4, x.shape[1])
    out.index_add_(0, expert_idx, x * weights[:, None])
    agg = torch.zeros(4, x.shape[1]).scatter_add(0, expert_idx[:, None].expand(-1, x.shape[1]), x)
    top = torch.zeros(4).scatter_reduce(0, expert_idx, weights, "amax", include_self=False)
    return out, agg, top


def counts(expert_idx, weights):
    return torch.bincount(expert_idx, minlength=4) * weights.sum()


x = torch.arange(80.0).reshape(10, 8) / 10
idx = torch.tensor([0, 1, 3, 1, 0, 2, 2, 3, 1, 0])
w = torch.linspace(0.1, 1.0, 10)
for fn, backend in [(route, counting), (route_inductor, "inductor")]:
    c = torch.compile(fn, backend=backend)
    for step in range(2):
        got, want = c(x, idx, w), route(x, idx, w)
        print(step, [torch.allclose(p, q) for p, q in zip(got, want)])
print("call_function nodes per graph:", graphs)
explained = torch._dynamo.explain(counts)(idx, w)
print("bincount:", explained.graph_count, "graphs,", explained.graph_break_count, "break")
buf = torch.zeros(3, 2)
inplace = torch.compile(lambda b, i, s: b.index_add_(0, i, s), backend="inductor")
r = inplace(buf, torch.tensor([2, 0, 2]), torch.ones(3, 2))
print(r is buf, buf)
