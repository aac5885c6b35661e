# `kiln bench` workload on the GPU: row softmax of 16384x4096 floats (performance-anchors.md).
import torch


def fn(x):
    return torch.softmax(x, -1)


def make_inputs():
    return (torch.randn(16384, 4096, device="cuda"),)
