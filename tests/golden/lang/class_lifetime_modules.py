# A module whose class is gone from the namespace still runs eagerly and under torch.compile.
import torch
import torch.nn as nn


def make():
    class Local(nn.Module):
        def __init__(self):
            super().__init__()
            self.scale = 3.0

        def forward(self, x):
            return x * self.scale

    return Local()


m = make()
print(m(torch.ones(2)))


class M(nn.Module):
    def forward(self, x):
        return x * 2 + 1


module = M()
M = None
compiled = torch.compile(module)
print(compiled(torch.ones(3)))
print(torch.compile(m)(torch.ones(2)))
print(type(module).__name__)
