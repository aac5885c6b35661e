# The autograd node each op records, as tensors print it (grad_fn=<...>).
import torch

x = torch.tensor([[1.5, -2.0], [3.0, 4.0]], requires_grad=True)
y = torch.tensor([[2.0, 3.0], [1.0, 5.0]])
cases = [
    ("add", lambda: x + y), ("sub", lambda: x - 1), ("mul", lambda: x * y), ("div", lambda: x / 2),
    ("div_floor", lambda: torch.div(x, y, rounding_mode="floor")), ("neg", lambda: -x),
    ("pow", lambda: x ** 2), ("rpow", lambda: 2 ** x), ("abs", lambda: x.abs()),
    ("exp", lambda: x.exp()), ("log", lambda: y.log() + x), ("sqrt", lambda: (x * x).sqrt()),
    ("sin", lambda: x.sin()), ("tanh", lambda: x.tanh()), ("sigmoid", lambda: x.sigmoid()),
    ("relu", lambda: x.relu()), ("round", lambda: x.round()), ("round_dec", lambda: x.round(decimals=1)),
    ("clamp", lambda: x.clamp(0, 1)), ("clamp_t", lambda: x.clamp(min=y)), ("where", lambda: torch.where(y > 2, x, y)),
    ("masked_fill", lambda: x.masked_fill(y > 2, 0.0)), ("maximum", lambda: torch.maximum(x, y)),
    ("sum", lambda: x.sum()), ("sum_dim", lambda: x.sum(1)), ("mean", lambda: x.mean()), ("mean_dim", lambda: x.mean(0)),
    ("prod", lambda: x.prod()), ("max", lambda: x.max()), ("max_dim", lambda: x.max(1).values),
    ("amax", lambda: x.amax(1)), ("var", lambda: x.var()), ("std", lambda: x.std(0)), ("norm", lambda: x.norm()),
    ("logsumexp", lambda: x.logsumexp(1)), ("cumsum", lambda: x.cumsum(0)), ("softmax", lambda: x.softmax(0)),
    ("log_softmax", lambda: x.log_softmax(0)), ("view", lambda: x.view(4)), ("reshape_copy", lambda: x.t().reshape(4)),
    ("permute", lambda: x.permute(1, 0)), ("transpose", lambda: x.transpose(0, 1)), ("t", lambda: x.t()),
    ("unsqueeze", lambda: x.unsqueeze(0)), ("squeeze", lambda: x[None].squeeze()), ("expand", lambda: x.expand(2, 2, 2)),
    ("flatten", lambda: x.flatten()), ("cat", lambda: torch.cat([x, y])), ("stack", lambda: torch.stack([x, y])),
    ("split", lambda: x.split(1)[0]), ("chunk", lambda: x.chunk(2)[1]), ("narrow", lambda: x.narrow(0, 0, 1)),
    ("unbind", lambda: x.unbind()[0]), ("repeat", lambda: x.repeat(2, 1)), ("flip", lambda: x.flip(0)),
    ("roll", lambda: x.roll(1)), ("diagonal", lambda: x.diagonal()), ("matmul", lambda: x @ y),
    ("mv", lambda: x @ y[0]), ("bmm", lambda: x[None].bmm(y[None])), ("addmm", lambda: torch.addmm(y, x, y)),
    ("dot", lambda: torch.dot(x[0], y[0])), ("gather", lambda: x.gather(1, torch.tensor([[0], [1]]))),
    ("index_select", lambda: x.index_select(0, torch.tensor([1]))), ("select", lambda: x[0]),
    ("slice", lambda: x[:, 1:]), ("index", lambda: x[[0, 1]]), ("mask_index", lambda: x[y > 2]),
    ("to", lambda: x.double()), ("clone", lambda: x.clone()), ("contiguous", lambda: x.t().contiguous()),
    ("tril", lambda: x.tril()), ("topk", lambda: x.topk(1).values), ("sort", lambda: x.sort().values),
    ("lerp", lambda: torch.lerp(x, y, 0.5)), ("outer", lambda: torch.outer(x[0], y[0])),
    ("einsum", lambda: torch.einsum("ij,jk->ik", x, y)), ("T", lambda: x.T), ("mT", lambda: x.mT),
]
for name, fn in cases:
    r = fn()
    print(name, r.grad_fn.name(), r.requires_grad, r.is_leaf)
print((x * 2).sum(1))

# Each grad_fn's class is named after its node and derives from torch.autograd.graph.Node.
node_x = torch.ones(2, requires_grad=True)
node_y = (node_x * 2).sum()
print(type(node_y.grad_fn).__name__, isinstance(node_y.grad_fn, torch.autograd.graph.Node))
print([type(f).__name__ for f, _ in node_y.grad_fn.next_functions], type(node_y.grad_fn) is type((node_x + 1).sum().grad_fn))
print(issubclass(type(node_y.grad_fn), torch.autograd.graph.Node), torch.autograd.graph.Node.__name__)
