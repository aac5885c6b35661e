# Basic indexing: ints, negative ints, slices with steps, None, Ellipsis; results are views.
import torch

x = torch.arange(24).reshape(2, 3, 4)
print(x[0], x[-1, -1], x[1, 2, 3], x[0][1][2], x[:, 0], x[..., 1], x[0, ..., 2])
print(x[:, 1:], x[:, :, ::2], x[1, ::-1] if False else x[1, 1:3, 1:3], x[:, -2:, :1])
print(x[None].shape, x[:, None, 0].shape, x[..., None].shape, x[None, ..., None].shape)
print(x[0, 0, 10:], x[:, 5:].shape, x[1:1].shape, x[-100:100].shape)
print(x[True].shape, x[False].shape, x[0, 1, 2].item(), type(x[0, 1, 2].item()).__name__)
v = x[:, 1]
print(v.is_contiguous(), v.stride(), v.storage_offset())
v[0, 0] = -1
print(x[0, 1, 0])
s = torch.tensor(5)
print(s[()], s[None], s[...])
for bad in [lambda: x[2], lambda: x[0, 0, 4], lambda: x[0, 0, 0, 0], lambda: x[::0]]:
    try:
        bad()
    except (IndexError, ValueError) as e:
        print(type(e).__name__, e)
w = torch.ones(2, 3, requires_grad=True)
print(w[0], w[:, 1], w[None, 0, 1:])
for row in torch.arange(6).reshape(3, 2):
    print(row)
