# einsum: matrix product, transpose, traces, batch contractions, outer, operands as a list.
import torch

a = torch.arange(6.0).reshape(2, 3)
b = torch.arange(12.0).reshape(3, 4)
print(torch.einsum("ij,jk->ik", a, b), torch.einsum("ij->ji", a), torch.einsum("ij->", a))
print(torch.einsum("ii->i", torch.arange(9.0).reshape(3, 3)), torch.einsum("ii", torch.eye(3)))
print(torch.einsum("i,j->ij", torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0])))
q = torch.arange(24.0).reshape(2, 3, 4)
k = torch.arange(24.0).reshape(2, 3, 4)
print(torch.einsum("bqd,bkd->bqk", q, k).shape, torch.einsum("bij,bij->b", q, k))
print(torch.einsum("ij,jk", [a, b]).shape, torch.einsum("...j,jk->...k", q, b.t()).shape)
print(torch.einsum("ij, jk -> ik", a, b).sum())
try:
    torch.einsum("ij,jk->ik", a, a)
except RuntimeError as e:
    print(type(e).__name__, e)
print(torch.einsum("ij,jk->ik", a.requires_grad_(), b))
