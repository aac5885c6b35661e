# torch._dynamo.explain: graph and break counts for a function with three breaks.
import torch


def fn(x, y):
    a = torch.sin(x) + y
    print("checkpoint")
    if a.sum() > 0:
        b = torch.relu(a)
    else:
        b = -a
    s = b.mean().item()
    return b * s + torch.cos(y)


torch.manual_seed(0)
x, y = torch.randn(4, 4), torch.randn(4, 4)
eo = torch._dynamo.explain(fn)(x, y)
print(eo.graph_count, eo.graph_break_count, eo.op_count)
print([len(g.graph.nodes) for g in eo.graphs])
print([len(ops) for ops in eo.ops_per_graph])
print([len(r.user_stack) for r in eo.break_reasons])
print([r.user_stack[-1].lineno for r in eo.break_reasons])
print(str(eo).splitlines()[:3])
