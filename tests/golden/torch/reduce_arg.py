# argmax / argmin with and without dim, ties, keepdim.
import torch

x = torch.tensor([[3.0, 7.0, 7.0], [9.0, 2.0, 9.0]])
print(x.argmax(), torch.argmin(x), x.argmax(dim=1), x.argmin(0), x.argmax(1, keepdim=True))
print(torch.argmax(x, dim=None), torch.tensor([1, 1, 1]).argmax(), torch.tensor(5.0).argmax())
print(x.t().argmax(0))
try:
    torch.tensor([True, False, True]).argmin()
except NotImplementedError as e:
    print(type(e).__name__, e)
try:
    torch.zeros(0).argmax()
except IndexError as e:
    print(type(e).__name__, e)
