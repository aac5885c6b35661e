# nn.Embedding and F.embedding.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
emb = nn.Embedding(10, 3)
print(emb, emb.weight.shape, emb.num_embeddings, emb.embedding_dim, emb.padding_idx)
with torch.no_grad():
    emb.weight.copy_(torch.arange(30.0).reshape(10, 3))
print(emb(torch.tensor([1, 0, 9])), emb(torch.tensor([[2, 2], [3, 4]])).shape)
p = nn.Embedding(5, 2, padding_idx=1)
print(p, p.weight[1], p.padding_idx, nn.Embedding(5, 2, padding_idx=-1).padding_idx)
print(nn.Embedding(4, 2, max_norm=1.0), nn.Embedding(4, 2, scale_grad_by_freq=True, sparse=True))
w = torch.arange(8.0).reshape(4, 2)
print(F.embedding(torch.tensor([3, 0]), w), F.embedding(torch.tensor([[1]]), w, padding_idx=0))
w2 = torch.tensor([[3.0, 4.0], [0.3, 0.4]])
print(F.embedding(torch.tensor([0, 1]), w2, max_norm=1.0), w2)
for bad in [lambda: emb(torch.tensor([10])), lambda: emb(torch.tensor([1.0]))]:
    try:
        bad()
    except (IndexError, RuntimeError) as e:
        print(type(e).__name__, e)
try:
    nn.Embedding(3, 2, padding_idx=3)
except AssertionError as e:
    print(type(e).__name__, e)
print(emb(torch.tensor([1])))
pre = nn.Embedding.from_pretrained(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
print(pre, pre.weight, pre(torch.tensor([1])))
pre2 = nn.Embedding.from_pretrained(torch.ones(3, 2), freeze=False, padding_idx=0)
print(pre2, pre2.weight.requires_grad)
try:
    nn.Embedding(3, 2, _weight=torch.ones(2, 2))
except AssertionError as e:
    print(type(e).__name__, e)
