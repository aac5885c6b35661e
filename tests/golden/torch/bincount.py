# bincount: weights, minlength, empty input, output dtypes (int64 counts; float32 weights sum in
# float32, any other weights in float64); int32 input; errors.
import torch

x = torch.tensor([1, 3, 1, 0, 5, 3, 1])
print(torch.bincount(x), x.bincount(), torch.bincount(x, minlength=8), torch.bincount(x, minlength=2))
w = torch.tensor([0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5])
print(torch.bincount(x, weights=w), torch.bincount(x, w, 7), torch.bincount(x, weights=w.double()).dtype)
print(torch.bincount(x, weights=torch.tensor([1, 2, 3, 4, 5, 6, 7])), torch.bincount(x, weights=torch.ones(7, dtype=torch.float16)).dtype)
print(torch.bincount(torch.tensor([], dtype=torch.int64)), torch.bincount(torch.tensor([], dtype=torch.int64), minlength=3))
print(torch.bincount(torch.tensor([], dtype=torch.int64), weights=torch.tensor([])), torch.bincount(torch.tensor([2, 2])))
print(torch.bincount(torch.tensor([0, 2], dtype=torch.int32)), torch.bincount(torch.tensor([4], dtype=torch.int32), minlength=0).shape)
for bad in [lambda: torch.bincount(torch.tensor([1, -1])),
            lambda: torch.bincount(torch.tensor([[1, 2]])),
            lambda: torch.bincount(torch.tensor([1.0, 2.0]))]:
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
