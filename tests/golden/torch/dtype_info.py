# torch.finfo / torch.iinfo limits and printing, and Tensor.type_as.
import torch

for d in [torch.float32, torch.float64, torch.float16, torch.bfloat16]:
    f = torch.finfo(d)
    print(f)
    print(f.bits, f.eps, f.max, f.min, f.tiny, f.smallest_normal, f.resolution, f.dtype)
print(torch.finfo(), torch.finfo(torch.float32) == torch.finfo(torch.float32), torch.finfo(torch.float16).max * 2)
for d in [torch.int32, torch.int64]:
    i = torch.iinfo(d)
    print(i, i.bits, i.max, i.min, i.dtype)
for bad in [lambda: torch.iinfo(torch.bool), lambda: torch.finfo(torch.int32), lambda: torch.iinfo(torch.float32)]:
    try:
        bad()
    except TypeError as e:
        print(type(e).__name__, e)
scores = torch.zeros(2, 2).masked_fill(torch.tensor([[False, True], [False, False]]), torch.finfo(torch.float32).min)
print(scores, scores.softmax(-1))
x = torch.tensor([1.7, 2.2])
print(x.type_as(torch.tensor([1])), torch.tensor([1, 0]).type_as(x), x.type_as(x) is x)
