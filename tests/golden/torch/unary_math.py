# Unary math functions as torch functions and Tensor methods.
import torch

x = torch.tensor([0.25, 0.5, 1.0, 2.0])
for name in ["abs", "neg", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt",
             "rsqrt", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
             "sigmoid", "erf", "erfc", "reciprocal", "square", "relu", "negative", "absolute"]:
    fn = getattr(torch, name)
    if name in ("asin", "acos"):
        r = fn(x / 2)
        m = getattr(x / 2, name)()
    else:
        r = fn(x)
        m = getattr(x, name)()
    print(name, r, torch.equal(r, m))
y = torch.tensor([-1.0, 0.0, 4.0])
print(torch.sqrt(y), torch.log(y), torch.rsqrt(y))
print(torch.exp(torch.tensor([100.0, -100.0])), torch.sigmoid(torch.tensor([-50.0, 50.0])))
d = torch.tensor([0.5, 1.5], dtype=torch.float64)
print(torch.exp(d), torch.sin(d), d.tanh())
h = torch.tensor([0.5, 1.5], dtype=torch.float16)
print(torch.exp(h), torch.sqrt(h), h.sigmoid())
b = torch.tensor([0.5, 1.5], dtype=torch.bfloat16)
print(torch.exp(b), torch.log(b), b.erf())
out = torch.empty(4)
torch.exp(x, out=out)
print(out)
