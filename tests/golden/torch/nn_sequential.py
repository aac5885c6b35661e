# nn.Sequential: construction (positional and OrderedDict), printing, indexing, slicing, len.
from collections import OrderedDict
import torch
import torch.nn as nn

torch.manual_seed(0)
seq = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
print(seq)
print(len(seq), seq[0], seq[-1], seq[1:], type(seq[1:]).__name__)
print([type(m).__name__ for m in seq], seq(torch.ones(3, 4)).shape)
named = nn.Sequential(OrderedDict([("fc", nn.Linear(2, 2)), ("act", nn.GELU())]))
print(named, named.fc, named.act)
seq.append(nn.Softmax(dim=-1))
print(seq, len(seq))
nested = nn.Sequential(nn.Sequential(nn.Linear(1, 1), nn.Tanh()), nn.Dropout(0.2))
print(nested)
print([n for n, _ in nested.named_parameters()])
print(nn.Sequential())
try:
    seq[10]
except IndexError as e:
    print(type(e).__name__, e)
