# torch.nn.functional activations.
import torch
import torch.nn.functional as F

x = torch.tensor([[-2.0, -1.0, 0.0], [0.5, 1.0, 4.0]])
print(F.relu(x), F.gelu(x), F.gelu(x, approximate="tanh"), F.silu(x), F.sigmoid(x), F.tanh(x))
print(F.leaky_relu(x), F.leaky_relu(x, 0.2), F.leaky_relu(x, negative_slope=0.5))
y = x.clone()
F.relu(y, inplace=True)
print(y)
z = x.clone()
F.silu(z, inplace=True)
F.leaky_relu(x.clone(), inplace=True)
print(z)
print(torch.relu(x), torch.sigmoid(x), torch.tanh(x), x.relu(), x.sigmoid())
print(F.relu(torch.tensor([-1, 2])), F.gelu(x.half()), F.silu(x.double()))
try:
    F.gelu(x, approximate="fast")
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    F.gelu(torch.tensor([1, 2]))
except (RuntimeError, NotImplementedError) as e:
    print(type(e).__name__, e)
w = x.clone().requires_grad_()
print(F.relu(w), F.gelu(w), F.silu(w), F.leaky_relu(w), F.sigmoid(w))
