# A chain of five pointwise ops on 2**22 floats: eager runs five kernels and writes four
# temporaries; torch.compile fuses the chain into one kernel that reads x and writes the result.
#
#     kiln bench resources/workloads/bench/pointwise_chain.py
import torch


def fn(x):
    y = torch.sin(x)
    y = y * 2.0
    y = y - 1.0
    y = torch.tanh(y)
    return torch.relu(y)


def make_inputs():
    return (torch.randn(2**22),)
