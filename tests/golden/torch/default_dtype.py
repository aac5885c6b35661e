# torch.get_default_dtype / set_default_dtype and their effect on factories and Python floats.
import torch

print(torch.get_default_dtype(), torch.tensor([1.5]).dtype, torch.zeros(1).dtype, torch.arange(2.0).dtype)
torch.set_default_dtype(torch.float64)
print(torch.get_default_dtype(), torch.tensor([1.5]).dtype, torch.zeros(1).dtype, torch.arange(2.0).dtype,
      torch.tensor([1]).dtype, (torch.tensor([1]) / 2).dtype, torch.linspace(0, 1, 2).dtype,
      torch.randn(1).dtype, torch.tensor([1, 2]).float().dtype)
torch.set_default_dtype(torch.float32)
print(torch.get_default_dtype(), torch.ones(1).dtype)
try:
    torch.set_default_dtype(torch.int64)
except TypeError as e:
    print(type(e).__name__, e)
