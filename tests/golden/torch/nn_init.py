# torch.nn.init functions: deterministic ones print values, random ones print bounds.
import math
import torch
import torch.nn as nn
from torch.nn import init

torch.manual_seed(0)
w = torch.empty(3, 5)
print(init.constant_(w, 0.3), init.ones_(w), init.zeros_(w), init.eye_(torch.empty(2, 3)))
print(init.calculate_gain("relu"), init.calculate_gain("tanh"), init.calculate_gain("leaky_relu", 0.2),
      init.calculate_gain("linear"), init.calculate_gain("selu"))
init.uniform_(w, -0.5, 0.5)
print(bool((w.abs() <= 0.5).all()))
init.normal_(w, 1.0, 0.0)
print(w)
init.xavier_uniform_(w)
a = math.sqrt(6.0 / (3 + 5))
print(bool((w.abs() <= a).all()))
init.kaiming_uniform_(w, a=math.sqrt(5))
print(bool((w.abs() <= 1 / math.sqrt(5)).all()))
init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
init.xavier_normal_(w)
init.trunc_normal_(w, std=0.02, a=-0.04, b=0.04)
print(bool((w.abs() <= 0.04).all()), w.shape)
p = nn.Parameter(torch.empty(2, 2))
r = init.zeros_(p)
print(r is p, p)
for bad in [lambda: init.calculate_gain("foo"), lambda: init.xavier_uniform_(torch.empty(3)),
            lambda: init.kaiming_uniform_(w, mode="fan")]:
    try:
        bad()
    except ValueError as e:
        print(type(e).__name__, e)
