# Graph breaks and recompiles, for stepping through with Kiln's compiler views.
# Try: TORCH_LOGS=graph_breaks,recompiles kiln run resources/workloads/graph_breaks.py
import torch


def fn(x, y):
    a = torch.sin(x) @ y
    print("checkpoint")            # graph break: print
    if a.sum() > 0:                # graph break: branch on a tensor value
        b = torch.relu(a)
    else:
        b = -a
    s = b.mean().item()            # graph break: .item()
    return b * s + torch.cos(y)


def scaled(x, scale, flag):
    y = torch.tanh(x) * scale
    if flag:
        y = y + 1
    return y.sum(dim=0)


compiled_fn = torch.compile(fn)
compiled_scaled = torch.compile(scaled)

x, y = torch.randn(64, 64), torch.randn(64, 64)
print(compiled_fn(x, y).shape)

for n in [8, 16, 32, 64]:                      # shape changes: static, then dynamic
    print(compiled_scaled(torch.randn(n, 128), 2.0, True).shape)
print(compiled_scaled(torch.randn(64, 128), 3.0, True).shape)     # a new float constant
print(compiled_scaled(torch.randn(64, 128), 3.0, False).shape)    # a new bool
print(compiled_scaled(torch.randn(64, 128, dtype=torch.float64), 3.0, False).dtype)
