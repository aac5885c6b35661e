# isclose, allclose and equal.
import torch

a = torch.tensor([1.0, 2.0, float("nan"), float("inf")])
b = torch.tensor([1.0 + 1e-6, 2.1, float("nan"), float("inf")])
print(torch.isclose(a, b), torch.isclose(a, b, equal_nan=True), a.isclose(b, rtol=0.1))
print(torch.isclose(a, b, atol=0.2, rtol=0.0))
print(torch.allclose(a[:2], b[:2]), torch.allclose(a[:2], b[:2], atol=0.2), a.allclose(a),
      torch.allclose(a, a, equal_nan=True))
print(torch.allclose(torch.tensor([1.0, 2.0]), torch.tensor([1.0])))
print(torch.equal(a[:2], a[:2].clone()), torch.equal(a, a), torch.equal(torch.ones(2), torch.ones(3)),
      torch.equal(torch.tensor([1, 2]), torch.tensor([1.0, 2.0])), a.equal(b))
print(torch.isclose(torch.tensor([1, 2]), torch.tensor([1, 3])))
try:
    torch.isclose(torch.tensor([1]), torch.tensor([1.0]))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.allclose(torch.ones(2), torch.ones(3))
except RuntimeError as e:
    print(type(e).__name__, e)
