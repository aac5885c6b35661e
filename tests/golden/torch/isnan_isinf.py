# isnan, isinf, isfinite on special values and dtypes.
import torch

x = torch.tensor([1.0, float("nan"), float("inf"), float("-inf"), 0.0])
print(torch.isnan(x), x.isinf(), torch.isfinite(x), x.isnan().any(), x.isfinite().sum())
print(torch.isnan(torch.tensor([1, 2])), torch.isinf(torch.tensor([True])),
      torch.isfinite(torch.tensor([3], dtype=torch.int32)))
h = x.half()
print(h.isnan(), h.isinf(), (x / 0).isnan())
print(torch.tensor([float("nan")]) == torch.tensor([float("nan")]), x[x.isfinite()])
