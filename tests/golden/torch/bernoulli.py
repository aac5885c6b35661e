# torch.bernoulli and Tensor.bernoulli_ (timm's DropPath draws its keep mask with
# x.new_empty(shape).bernoulli_(keep_prob)): shapes, dtypes, the certain cases, the rate of many
# draws (not the bits: Kiln's generator is not PyTorch's), the range errors, and compiled.
import torch

torch.manual_seed(0)
mask = torch.zeros(4, 1).new_empty((4, 1)).bernoulli_(0.5)
print(mask.shape, mask.dtype, bool(((mask == 0) | (mask == 1)).all()))
print(torch.bernoulli(torch.ones(3)), torch.bernoulli(torch.zeros(3)))
print(torch.bernoulli(torch.ones(2, dtype=torch.float64)).dtype)
print(torch.zeros(3, dtype=torch.int64).bernoulli_(1.0))
print(torch.zeros(2).bernoulli(), torch.ones(2).bernoulli(0.0))
draws = torch.empty(200000).bernoulli_(0.3)
print("rate near 0.3:", abs(draws.mean().item() - 0.3) < 0.01)
probs = torch.tensor([0.0, 1.0, 0.0, 1.0])
print(torch.empty(4).bernoulli_(probs))
for bad in (lambda: torch.bernoulli(torch.tensor([1.5])), lambda: torch.zeros(2).bernoulli_(1.5),
            lambda: torch.bernoulli(torch.zeros(2), 2.0)):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", str(e)[:60])


@torch.compile
def drop_path(x, keep):
    mask = x.new_empty((x.shape[0], 1)).bernoulli_(keep)
    return x * mask / keep


x = torch.arange(6.0).reshape(3, 2)
print(drop_path(x, 1.0).tolist())
