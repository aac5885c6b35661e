# Odds and ends of the torch namespace: count_nonzero, std_mean/var_mean, result_type,
# promote_types, can_cast, numel, is_tensor, is_floating_point, clone/detach, out= arguments.
import torch

x = torch.tensor([[0.0, 1.5, 0.0], [2.0, 0.0, 3.0]])
print(torch.count_nonzero(x), torch.count_nonzero(x, dim=1), x.count_nonzero(0), torch.count_nonzero(x, (0, 1)))
print(torch.result_type(x, 1), torch.result_type(torch.tensor([1]), 2.5), torch.result_type(torch.tensor([1], dtype=torch.int32), torch.tensor(1)))
print(torch.promote_types(torch.int64, torch.float16), torch.promote_types(torch.bool, torch.int32),
      torch.can_cast(torch.int64, torch.bool), torch.can_cast(torch.bool, torch.int64))
print(torch.numel(x), torch.is_tensor(x), torch.is_floating_point(x), torch.is_floating_point(torch.tensor([1])))
c = torch.clone(x)
c[0, 0] = 9
print(x[0, 0], torch.detach(x).requires_grad, x.clone().stride(), x.t().clone().stride())
out = torch.empty(2, 3)
r = torch.mul(x, 2, out=out)
print(r is out, out, torch.neg(x, out=torch.empty(6)).shape)
big = torch.empty(2, 3, dtype=torch.float64)
torch.add(x, 1, out=big)
print(big)
try:
    torch.add(x, 1, out=torch.empty(2, 3, dtype=torch.int64))
except RuntimeError as e:
    print(type(e).__name__, e)
print(torch.matmul(x, x.t(), out=torch.empty(2, 2)), torch.where(x > 0, x, torch.zeros(3), out=torch.empty(2, 3)))
print(torch.sum(x, 1, out=torch.empty(2)), torch.amax(x, 0, out=torch.empty(3)))
