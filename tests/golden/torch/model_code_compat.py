# What model files written for PyTorch reach for besides the math: the legacy tensor types in
# annotations and isinstance checks (HF's Optional[torch.FloatTensor]), torch.jit's markers
# for TorchScript (timm's @torch.jit.ignore, torch.jit.is_scripting()), and data_ptr() to see
# which tensors share memory; torch.jit.is_scripting() inside a compiled forward is a constant.
# Recorded with torch==2.3.1: 2.11 inlines the nn.Linear (6 graph nodes where 2.3 has 4).
from typing import Optional, Tuple

import copy
import torch
import torch.nn as nn


def embed(ids: torch.LongTensor, mask: Optional[torch.FloatTensor] = None) -> Tuple[torch.FloatTensor]:
    out = ids.float() * 2
    return (out if mask is None else out * mask,)


ids = torch.LongTensor([1, 2, 3])
print(ids.dtype, ids.tolist(), torch.FloatTensor(2, 3).shape, torch.FloatTensor([1, 2]).dtype)
print(embed(ids)[0].tolist(), embed(ids, torch.FloatTensor([1, 0, 1]))[0].tolist())
t = torch.zeros(2)
print(isinstance(t, torch.FloatTensor), isinstance(t.long(), torch.LongTensor),
      isinstance(t, torch.LongTensor), isinstance(t.double(), torch.DoubleTensor),
      isinstance(t, (torch.LongTensor, torch.FloatTensor)), torch.BoolTensor([True]).dtype)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.scale: torch.jit.Final[float] = 0.5

    @torch.jit.ignore
    def no_weight_decay(self):
        return ["proj.bias"]

    @torch.jit.unused
    def debug(self):
        return "debug"

    def forward(self, x):
        if torch.jit.is_scripting() or torch.jit.is_tracing():
            return x
        y = torch.jit.annotate(torch.Tensor, self.proj(x))
        return y * self.scale


graphs = []


def counting(gm, example_inputs):
    graphs.append(len(gm.graph.nodes))
    return gm.forward


b = Block()
x = torch.ones(2, 4)
print(b.no_weight_decay(), b.debug(), torch.allclose(torch.compile(b, backend=counting)(x), b(x)),
      graphs)

tied = nn.Linear(4, 4)
clone = copy.deepcopy(tied)
u = torch.arange(6.0)
print(clone.weight.data_ptr() != tied.weight.data_ptr(), u[2:].data_ptr() - u.data_ptr(),
      u.view(2, 3).data_ptr() == u.data_ptr(), u.clone().data_ptr() == u.data_ptr(),
      u.element_size())
