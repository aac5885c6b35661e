# torch.set_num_threads / get_num_threads: the intra-op threads, any positive count (more than
# the cores too); results do not depend on it.
import torch

a = torch.arange(4096.0).reshape(64, 64) / 4096
before = a @ a
torch.set_num_threads(1)
print(torch.get_num_threads(), torch.allclose(a @ a, before), (a.exp().sum() > 0).item())
print(torch.set_num_threads(3), torch.get_num_threads(), torch.allclose(a @ a, before))
for bad in [0, -1, 2.5, "a"]:
    try:
        torch.set_num_threads(bad)
    except RuntimeError as e:
        print(type(e).__name__, e)
print(torch.get_num_threads())
