# In-place unary ops modify and return the same tensor.
import torch

x = torch.tensor([0.5, -1.0, 2.0])
r = x.abs_()
print(r is x, x)
print(x.exp_(), x.log_(), x.sqrt_(), x.neg_(), x.relu_())
y = torch.tensor([[-1.5, 2.5], [3.5, -4.5]])
print(y.floor_(), y.sign_(), y.sigmoid_(), y.tanh_())
z = torch.arange(6.0).reshape(2, 3)
v = z[:, 1]
v.mul_(10)
print(z)
z.t().add_(1)
print(z)
torch.relu_(torch.tensor([-1.0, 1.0]))
i = torch.tensor([1, -2, 3])
print(i.abs_(), i.neg_(), i.square_())
try:
    i.exp_()
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    i.sqrt_()
except RuntimeError as e:
    print(type(e).__name__, e)
w = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    w.exp_()
except RuntimeError as e:
    print(type(e).__name__, e)
u = w * 1
u.exp_()
print(u)
print(torch.tensor([1.25, 2.75]).round_(), torch.tensor([1.25, 2.75]).round_(decimals=1))
