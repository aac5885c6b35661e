# `kiln bench` workload on the GPU: gelu(layer_norm(x)) over 16384x4096 floats
# (performance-anchors.md).
import torch
import torch.nn.functional as F


def fn(x, w, b):
    return F.gelu(F.layer_norm(x, (4096,), w, b))


def make_inputs():
    return (torch.randn(16384, 4096, device="cuda"), torch.randn(4096, device="cuda"),
            torch.randn(4096, device="cuda"))
