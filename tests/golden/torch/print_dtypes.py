# Printing tensors of every dtype: the dtype suffix appears when it is not a default.
import torch

for dt in [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int32,
           torch.int64, torch.bool]:
    x = torch.tensor([0, 1, 2], dtype=dt)
    print(dt, x)
    print(x.reshape(3, 1))
    print(torch.tensor(1, dtype=dt))
print(torch.tensor([1.5, 2.25], dtype=torch.float16))
print(torch.tensor([1.1, 2.2], dtype=torch.bfloat16))
print(torch.tensor([-5, 100, 7], dtype=torch.int32))
print(torch.tensor([[True, False], [False, True]]))
print(torch.zeros(0, dtype=torch.int64), torch.zeros(0, dtype=torch.int32))
print(torch.tensor([1e-3, 1e3], dtype=torch.float64))
print(torch.tensor([65504.0], dtype=torch.float16))
