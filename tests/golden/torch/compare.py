# Comparison ops as operators, functions, methods and aliases; with numbers and broadcasting.
import torch

a = torch.tensor([1.0, 2.0, 3.0, float("nan")])
b = torch.tensor([3.0, 2.0, 1.0, float("nan")])
print(a == b, a != b, a < b, a <= b, a > b, a >= b)
print(torch.eq(a, b), torch.ne(a, 2), torch.lt(a, 2.5), torch.le(a, b), torch.gt(a, 1), torch.ge(a, b))
print(torch.greater(a, b), torch.greater_equal(a, b), torch.less(a, b), torch.less_equal(a, b),
      torch.not_equal(a, b))
print(a.eq(2), a.ne(b), a.lt(b), a.le(2), a.gt(b), a.ge(3))
print(2 < a, 2 == a, torch.tensor([[1], [2]]) == torch.tensor([1, 2]))
i = torch.tensor([1, 2, 3])
print(i == 2, i > 1.5, i == torch.tensor([1.0, 0.0, 3.0]), i != True)
c = i.clone()
print(c.eq_(2), c, torch.tensor([1.5, 2.5]).lt_(2))
print((a > 1).dtype, (i == i).all(), torch.tensor([True, False]) == torch.tensor([True, True]))
print(torch.eq(i, i, out=torch.empty(3, dtype=torch.bool)))
try:
    torch.eq(i, torch.ones(2))
except RuntimeError as e:
    print(type(e).__name__, e)
print(a == None, a != "x")
