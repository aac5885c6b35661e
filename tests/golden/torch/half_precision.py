# float16 and bfloat16 arithmetic, reductions and printing.
import torch

for dt in [torch.float16, torch.bfloat16]:
    x = torch.tensor([0.1, 0.2, 0.3, 1000.0], dtype=dt)
    print(x, x + 1, x * 3, x / 3, x.sum(), x.mean(), x.exp()[:3], x.sqrt(), x.softmax(0))
    print((x + 0.1).dtype, (x + torch.tensor([0.5])).dtype, x.float(), x.double().sum())
    print(torch.arange(5, dtype=dt) / 7, torch.ones(3, dtype=dt).cumsum(0), x.max(), x.argmax())
    m = torch.arange(6.0).reshape(2, 3).to(dt)
    print(m @ m.t(), m.var(), m.std(1), m.norm(), torch.nn.functional.gelu(m), torch.nn.functional.layer_norm(m, (3,)))
print(torch.tensor([65504.0], dtype=torch.float16) * 2, torch.tensor([1e-8], dtype=torch.float16))
print(torch.tensor([3.0e38], dtype=torch.bfloat16), torch.tensor([1 / 3], dtype=torch.bfloat16).item())
print(torch.tensor([2049.0], dtype=torch.float16), torch.tensor([257.0], dtype=torch.bfloat16))
