# dtype conversion methods, .to(), .type(), .item() and .tolist().
import torch

x = torch.tensor([1.7, -2.5, 0.0])
print(x.float(), x.double(), x.half(), x.bfloat16())
print(x.long(), x.int(), x.bool())
print(x.to(torch.int64), x.to(dtype=torch.float16), x.to("cpu", torch.float64))
print(x.to(torch.float32) is x, x.to(torch.float32, copy=True) is x, x.float() is x)
print(x.to(torch.tensor([1], dtype=torch.int32)))
print(x.type(torch.int32), x.type(torch.float64).dtype)
i = torch.tensor([3, 0, -1])
print(i.float(), i.bool(), i.half(), i.double().dtype)
b = torch.tensor([True, False])
print(b.int(), b.float(), b.long().sum())
print(torch.tensor(3.5).item(), torch.tensor(7).item(), torch.tensor(True).item(),
      torch.tensor([2.25]).item(), torch.tensor(1.5, dtype=torch.float16).item())
print(type(torch.tensor(7).item()).__name__, type(torch.tensor(7.0).item()).__name__,
      type(torch.tensor(True).item()).__name__)
print(x.tolist(), i.tolist(), b.tolist(), torch.tensor(2.5).tolist())
print(torch.arange(6).reshape(2, 3).tolist(), torch.zeros(2, 0).tolist())
print(torch.tensor([0.1, 0.2], dtype=torch.float64).tolist(), torch.tensor([0.1]).tolist())
print(float(torch.tensor(2.5)), int(torch.tensor(3.9)), bool(torch.tensor(0)), int(torch.tensor([7])))
print(torch.tensor([1e10]).int(), torch.tensor([300.7]).half(), torch.tensor([1.0e5]).bfloat16())
try:
    torch.tensor([1, 2]).item()
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    bool(torch.tensor([1, 2]))
except RuntimeError as e:
    print(type(e).__name__, e)
print(x.type("torch.LongTensor"), x.type("torch.DoubleTensor").dtype)
try:
    x.type("torch.Foo")
except ValueError as e:
    print(type(e).__name__, e)
