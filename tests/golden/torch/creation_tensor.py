# torch.tensor: dtype inference from Python data, nested sequences, tensors inside lists.
import torch

cases = [
    3, 2.5, True, [1, 2, 3], [1.0, 2, 3], [True, False], [True, 2],
    [[1, 2], [3, 4]], ((1.5,), (2.5,)), [(1, 2), (3, 4)], [], [[], []],
    range(4), [torch.tensor(1), 2], [torch.tensor(1), 2.5],
    [torch.tensor(1, dtype=torch.int32), torch.tensor(2, dtype=torch.int32)],
    [torch.tensor(1.0, dtype=torch.float16), 2], [torch.tensor([1.0])],
    [[torch.tensor(1), 2], [3, torch.tensor(4.5)]],
]
for data in cases:
    t = torch.tensor(data)
    print(t, t.dtype, t.shape)

print(torch.tensor([1.7, -2.5], dtype=torch.int64))
print(torch.tensor([True, False], dtype=torch.float32))
print(torch.tensor([1, 0, 2], dtype=torch.bool))
print(torch.tensor(3, dtype=torch.float16))
print(torch.tensor([1, 2], dtype=torch.float64))
print(torch.tensor([[1, 2]], dtype=torch.bfloat16))
src = torch.arange(3)
copy = torch.tensor(src.tolist())
copy[0] = 10
print(src, copy)
print(torch.tensor([1.0, 2.0], requires_grad=True))
print(torch.as_tensor([1, 2]), torch.as_tensor(src) is src, torch.as_tensor(src, dtype=torch.float32))

bad = [[[1, 2], [3]], [[1, 2], 3], [1, [2, 3]], [1, None], [1, "a"],
       [torch.tensor([1, 2]), torch.tensor([3, 4])],
       [torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])]]
for data in bad:
    try:
        torch.tensor(data)
    except (ValueError, TypeError, RuntimeError) as e:
        print(type(e).__name__, e)
try:
    torch.tensor([1, 2], requires_grad=True)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.tensor([torch.tensor(1.5)], dtype=torch.int64)
except TypeError as e:
    print(type(e).__name__, e)
print(torch.Tensor([1, 2]), torch.Tensor(2, 3).shape, torch.Tensor().shape, torch.Tensor((1.5,)),
      torch.Tensor(torch.Size([2])).shape, torch.Tensor(torch.tensor([1, 2])).dtype, torch.Tensor(3).shape)
