# gather, index_select, masked_select and nonzero.
import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
idx = torch.tensor([[2, 0], [1, 1]])
print(torch.gather(x, 1, idx), x.gather(0, torch.tensor([[1, 0, 1]])), x.gather(-1, torch.tensor([[0], [2]])))
print(torch.index_select(x, 1, torch.tensor([2, 0])), x.index_select(0, torch.tensor([1, 1, 0])))
print(torch.masked_select(x, x > 2.5), x.masked_select(torch.tensor([True, False, True])))
print(torch.nonzero(x > 2), (x > 4).nonzero(), torch.nonzero(torch.tensor([0, 1, 0, 1])))
print(torch.nonzero(x > 2, as_tuple=True), torch.tensor([0, 3]).nonzero(as_tuple=True))
print(torch.nonzero(torch.tensor(5)), torch.nonzero(torch.tensor(0)).shape, torch.tensor(5).nonzero(as_tuple=True))
for bad in [lambda: x.gather(1, torch.tensor([[3]])), lambda: x.index_select(0, torch.tensor([2])),
            lambda: x.masked_select(x)]:
    try:
        bad()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
w = x.clone().requires_grad_()
print(w.gather(1, idx), w.index_select(0, torch.tensor([0])), w.masked_select(x > 5))
