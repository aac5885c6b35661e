# logical_* and bitwise_* ops, and the &, |, ^, ~, <<, >> operators.
import torch

p = torch.tensor([True, True, False, False])
q = torch.tensor([True, False, True, False])
print(torch.logical_and(p, q), torch.logical_or(p, q), torch.logical_xor(p, q), torch.logical_not(p))
print(p & q, p | q, p ^ q, ~p, p.logical_and(q), p.logical_not())
x = torch.tensor([0, 1, 2, 3])
print(torch.logical_and(x, torch.tensor([1.0, 1.0, 0.0, 2.0])), torch.logical_not(x), x.logical_or(x))
print(x & 2, x | 4, x ^ 1, ~x, x << 1, x >> 1, torch.bitwise_and(x, 6), torch.bitwise_or(x, x))
print(torch.bitwise_xor(x, 3), torch.bitwise_not(x), torch.bitwise_left_shift(x, 2),
      torch.bitwise_right_shift(x, 1))
y = x.clone()
y &= 1
y |= 8
print(y, x.bitwise_and_(torch.tensor(5)), p.logical_and_(q), p)
try:
    torch.tensor([1.5]) & torch.tensor([1.0])
except (RuntimeError, TypeError) as e:
    print(type(e).__name__, e)
try:
    torch.logical_and(x, 1)
except TypeError as e:
    print(type(e).__name__, e)
