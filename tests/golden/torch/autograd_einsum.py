# torch.einsum's derivative (issue 16): products, contractions, batch dims, outer products,
# diagonals (repeated labels), traces, an ellipsis and a single-operand permute, each by a
# float64 gradcheck, with the node names the result shows and gradients of deterministic inputs.
import torch
from torch.autograd import gradcheck

torch.manual_seed(0)


def r(*sizes):
    return torch.randn(*sizes, dtype=torch.float64, requires_grad=True)


cases = {
    "ij,jk->ik": (r(3, 4), r(4, 5)),
    "bij,bjk->bik": (r(2, 3, 4), r(2, 4, 2)),
    "i,j->ij": (r(3), r(4)),
    "ij->ji": (r(3, 4),),
    "ij->": (r(3, 4),),
    "ii->i": (r(4, 4),),
    "ii": (r(4, 4),),
    "bii->b": (r(2, 3, 3),),
    "...ij,...jk->...ik": (r(2, 3, 4), r(4, 2)),
    "bhqd,bhkd->bhqk": (r(1, 2, 3, 4), r(1, 2, 5, 4)),
    "i,i->": (r(5), r(5)),
    "ijk,ik->j": (r(2, 3, 4), r(2, 4)),
}
for eq, args in cases.items():
    out = torch.einsum(eq, *args)
    name = out.grad_fn.name() if out.grad_fn is not None else None
    print(eq, gradcheck(lambda *a: torch.einsum(eq, *a), args), name)

a = torch.linspace(-1, 1, 12, dtype=torch.float64).reshape(3, 4).requires_grad_()
b = torch.linspace(0, 2, 8, dtype=torch.float64).reshape(4, 2).requires_grad_()
torch.einsum("ij,jk->ik", a, b).pow(2).sum().backward()
print(a.grad)
print(b.grad)
m = torch.arange(9.0).reshape(3, 3).requires_grad_()
torch.einsum("ii->", m).backward()
print(m.grad)
