# Unary ops on integer and bool tensors: float functions promote, others keep the dtype.
import torch

i = torch.tensor([1, 2, 4])
for name in ["abs", "neg", "exp", "sqrt", "sin", "sigmoid", "floor", "ceil", "round",
             "sign", "square", "reciprocal", "log2", "exp2", "trunc", "relu", "erf", "tanh"]:
    r = getattr(torch, name)(i)
    print(name, r.dtype, r)
i32 = torch.tensor([1, -2], dtype=torch.int32)
print(i32.abs(), i32.neg(), i32.exp(), i32.square())
b = torch.tensor([True, False])
for name in ["exp", "sqrt", "sign", "square", "reciprocal", "isnan", "logical_not",
             "bitwise_not"]:
    print(name, getattr(torch, name)(b))
for name in ["abs", "neg", "floor", "trunc", "frac", "relu"]:
    try:
        getattr(torch, name)(b)
    except (RuntimeError, NotImplementedError) as e:
        print(name, type(e).__name__, e)
print(~b, ~torch.tensor([0, 5]), abs(torch.tensor([-3, 3])))
try:
    torch.abs(3)
except TypeError as e:
    print(type(e).__name__, e)
