# `kiln bench` workload on the GPU: sin(x) + cos(x) over 2^26 floats (performance-anchors.md).
import torch


def fn(x):
    return torch.sin(x) + torch.cos(x)


def make_inputs():
    return (torch.randn(1 << 26, device="cuda"),)
