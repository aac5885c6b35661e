# dtype and device objects and their attributes.
import torch

x = torch.ones(2)
print(x.dtype, x.device, x.is_cuda, x.device.type, x.device.index)
print(torch.float32 is torch.float, torch.float64 is torch.double, torch.int64 is torch.long,
      torch.int32 is torch.int, torch.float16 is torch.half, torch.bool)
print(x.dtype == torch.float32, x.dtype != torch.int64, repr(torch.bfloat16))
for dt in [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int32,
           torch.int64, torch.bool]:
    print(dt, dt.is_floating_point, dt.itemsize)
d = torch.device("cpu")
print(d, repr(d), d.type, d.index, d == torch.device("cpu"), x.device == d)
print(torch.device("cuda:1"), repr(torch.device("cuda", 0)), torch.device("cuda").index)
print(torch.zeros(1, device="cpu").device, torch.zeros(1, device=torch.device("cpu")).device)
print(x.to("cpu").device, x.cpu().device, x.to(d) is x)
print(torch.get_default_dtype(), torch.is_tensor(x), torch.is_tensor([1]), torch.is_floating_point(x))
try:
    torch.device("tpu")
except RuntimeError as e:
    print(type(e).__name__, e)
print(type(x).__name__, isinstance(x, torch.Tensor), torch.typename(x), x.type())
print(torch.tensor([1]).type(), torch.tensor([True]).type())
