# Derivatives of the neural-network ops a transformer trains through, each checked by a
# float64 numerical gradcheck as PyTorch's: layer_norm, embedding (padding_idx rows get none),
# cross_entropy and nll_loss (weights, ignore_index, label smoothing, 1-D and 3-D inputs), cat,
# stack, where, masked_fill, clamp, index_select, gather, split/chunk/unbind views,
# scaled_dot_product_attention (plain, causal, masked); dropout's MulBackward0; then a tiny
# GPT-style model trained by hand-written SGD on fixed data, its losses as PyTorch's.
import torch
import torch.nn.functional as F
from torch.autograd import gradcheck

torch.manual_seed(0)
# Thousands of tiny float64 ops: one thread, so a busy 2-core machine (CI runs two tests at a
# time) does not leave a second OpenMP thread waiting on every call.
torch.set_num_threads(1)
def r(*s):
    return torch.randn(*s, dtype=torch.float64, requires_grad=True)

x = r(4, 6); w = r(6); b = r(6)
print("layer_norm", gradcheck(lambda x, w, b: F.layer_norm(x, (6,), w, b), (x, w, b)))
x3 = r(2, 3, 4); w2 = r(3, 4)
print("layer_norm 2d", gradcheck(lambda x, w: F.layer_norm(x, (3, 4), w), (x3, w2)))
emb = r(5, 3)
idx = torch.tensor([[0, 2, 2], [4, 1, 0]])
print("embedding", gradcheck(lambda e: F.embedding(idx, e), (emb,)))
F.embedding(idx, emb, padding_idx=2).sum().backward()
print("embedding pad", emb.grad)
logits = r(5, 4)
t = torch.tensor([0, 3, 1, -100, 2])
cw = torch.tensor([1.0, 2.0, 0.5, 1.5], dtype=torch.float64)
for red in ("mean", "sum", "none"):
    print("ce", red, gradcheck(lambda a: F.cross_entropy(a, t, reduction=red), (logits,)),
          gradcheck(lambda a: F.cross_entropy(a, t, weight=cw, reduction=red, label_smoothing=0.2), (logits,)),
          gradcheck(lambda a: F.nll_loss(F.log_softmax(a, 1), t, weight=cw, reduction=red), (logits,)))
l3 = r(2, 4, 3)
t3 = torch.tensor([[0, 1, 3], [2, 2, -100]])
print("ce 3d", gradcheck(lambda a: F.cross_entropy(a, t3, label_smoothing=0.1), (l3,)))
l1 = r(4)
print("ce 1d", gradcheck(lambda a: F.cross_entropy(a, torch.tensor(2)), (l1,)))
a = r(3, 2); c = r(4, 2)
print("cat", gradcheck(lambda a, c: torch.cat([a, c], 0) * torch.arange(14.0, dtype=torch.float64).reshape(7, 2), (a, c)))
print("stack", gradcheck(lambda a: torch.stack([a, a * 2], 1), (a,)))
m = torch.tensor([[True, False], [False, True], [True, True]])
print("where", gradcheck(lambda a, d: torch.where(m, a, d), (a, r(1, 2))))
print("masked_fill", gradcheck(lambda a: a.masked_fill(m, 3.0), (a,)))
print("clamp", gradcheck(lambda a: a.clamp(-0.5, 0.5), (a,)), gradcheck(lambda a: a.clamp(min=0.1), (a,)))
print("index_select", gradcheck(lambda a: a.index_select(0, torch.tensor([2, 0, 2])), (a,)))
print("gather", gradcheck(lambda a: a.gather(1, torch.tensor([[0, 0], [1, 0], [1, 1]])), (a,)))
ai = r(4, 3)
print("index", gradcheck(lambda a: a[torch.tensor([2, 0, 2])], (ai,)),
      gradcheck(lambda a: a[:, [2, 0, 2]], (ai,)),
      gradcheck(lambda a: a[torch.tensor([[True, False, True]] * 4)], (ai,)),
      gradcheck(lambda a: a[[0, 3], [1, 1]], (ai,)))
print("split", gradcheck(lambda a: a.split(2, 0)[1] * 3, (r(5, 2),)))
print("chunk", gradcheck(lambda a: a.chunk(2, 1)[0].sum() + a.unbind(0)[1].sum(), (r(3, 4),)))
q = r(1, 2, 3, 4); k = r(1, 2, 4, 4); v = r(1, 2, 4, 4)
print("sdpa", gradcheck(lambda q, k, v: F.scaled_dot_product_attention(q, k, v), (q, k, v)))
qc = r(1, 2, 4, 3); kc = r(1, 2, 4, 3); vc = r(1, 2, 4, 3)
print("sdpa causal", gradcheck(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True), (qc, kc, vc)))
bm = torch.tensor([[True, False, True, True]] * 4)
print("sdpa mask", gradcheck(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, attn_mask=bm, scale=0.3), (qc, kc, vc)))
x = torch.randn(4, 6, requires_grad=True)
y = F.dropout(x, 0.5, training=True)
y.sum().backward()
print("dropout", y.grad_fn.name(), torch.equal(x.grad, (y != 0).float() * 2.0))
xx = torch.randn(3, 8, requires_grad=True)
loss = F.cross_entropy(xx, torch.tensor([1, 2, 3]))
print(loss.grad_fn.name(), [n[0].name() for n in loss.grad_fn.next_functions if n[0] is not None])
e = torch.nn.Embedding(4, 2)
print(e(torch.tensor([1, 1])).grad_fn.name())


def det(*shape, phase=0.0):
    n = 1
    for s in shape:
        n *= s
    return (torch.arange(float(n)).reshape(shape) * 0.37 + phase).sin() * 0.3


V, C, T = 11, 8, 6
params = {
    "wte": det(V, C, phase=0.1), "wpe": det(T, C, phase=0.2),
    "ln_w": 1.0 + det(C, phase=0.3), "ln_b": det(C, phase=0.4),
    "qkv": det(3 * C, C, phase=0.5), "proj": det(C, C, phase=0.6),
    "head": det(V, C, phase=0.7),
}
for p in params.values():
    p.requires_grad_()
tokens = torch.tensor([[1, 4, 2, 9, 3, 7], [5, 5, 0, 10, 2, 8]])
targets = torch.tensor([[4, 2, 9, 3, 7, 1], [5, 0, 10, 2, 8, -100]])


def forward(p):
    x = F.embedding(tokens, p["wte"]) + p["wpe"][torch.arange(T)]
    h = F.layer_norm(x, (C,), p["ln_w"], p["ln_b"])
    q, k, v = F.linear(h, p["qkv"]).split(C, dim=2)
    q, k, v = (t.view(2, T, 2, C // 2).transpose(1, 2) for t in (q, k, v))
    y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    x = x + F.linear(y.transpose(1, 2).reshape(2, T, C), p["proj"])
    logits = F.linear(F.layer_norm(x, (C,)), p["head"])
    return F.cross_entropy(logits.view(-1, V), targets.view(-1), ignore_index=-100)


for step in range(6):
    loss = forward(params)
    loss.backward()
    with torch.no_grad():
        for p in params.values():
            p -= 0.5 * p.grad
            p.grad = None
    print(step, round(loss.item(), 4))
print(forward(params).grad_fn.name())

# backward() inside a compiled function ends the graph (Dynamo breaks on Tensor.backward), so
# each call runs it: the update after it sees this call's gradient.
w = torch.tensor([1.0, 2.0], requires_grad=True)


@torch.compile(backend="eager")
def sgd_step():
    w.grad = None
    loss = (w * w).sum()
    loss.backward()
    with torch.no_grad():
        w.add_(w.grad, alpha=-0.1)
    return loss


for i in range(4):
    loss = sgd_step()
    print(round(loss.item(), 4), [round(v, 4) for v in w.tolist()], [round(v, 4) for v in w.grad.tolist()])
