# Advanced indexing: lists, index tensors, boolean masks, and mixes with slices.
import torch

x = torch.arange(12).reshape(3, 4)
print(x[[0, 2]], x[torch.tensor([2, 0, 2])], x[[0, 1], [1, 3]], x[:, [0, 3]], x[[-1]])
print(x[torch.tensor([[0, 1], [2, 2]])].shape, x[torch.tensor([0, 2]), 1:], x[1:, torch.tensor([0])])
print(x[x > 5], x[torch.tensor([True, False, True])], x[:, torch.tensor([True, False, False, True])])
print(x[x.sum(1) > 10], x[[True, False, True]])
y = torch.arange(24).reshape(2, 3, 4)
print(y[:, [0, 2], [1, 3]], y[[0, 1], :, [0, 1]].shape, y[..., [0, 0]].shape, y[0, [1, 2]].shape)
print(y[[[0], [1]], [[0, 1]]].shape, y[torch.tensor(1)].shape, y[:, torch.tensor(1)].shape)
a = x[[0, 1]]
a[0, 0] = 100
print(x[0, 0])
for bad in [lambda: x[[0, 5]], lambda: x[torch.tensor([True, False])], lambda: x[[0, 1], [0, 1, 2]],
            lambda: x[torch.tensor([0.0])]]:
    try:
        bad()
    except (IndexError, RuntimeError) as e:
        print(type(e).__name__, e)
w = torch.ones(3, requires_grad=True)
print(w[[0, 2]], w[w > 0])
