# `kiln bench` workload on the GPU: the bf16 MLP 8192x4096 -> 16384 -> 4096 with GELU
# (performance-anchors.md).
import torch
import torch.nn.functional as F


def fn(x, w1, b1, w2, b2):
    return F.linear(F.gelu(F.linear(x, w1, b1)), w2, b2)


def make_inputs():
    bf = torch.bfloat16
    return (torch.randn(8192, 4096, device="cuda").to(bf),
            (torch.randn(16384, 4096, device="cuda") * 0.02).to(bf),
            torch.zeros(16384, device="cuda").to(bf),
            (torch.randn(4096, 16384, device="cuda") * 0.02).to(bf),
            torch.zeros(4096, device="cuda").to(bf))
