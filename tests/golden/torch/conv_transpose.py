# nn.ConvTranspose2d / F.conv_transpose2d (stride, padding, output_padding, groups, dilation,
# bias), nn.ConvTranspose1d / F.conv_transpose1d, output_size=, reprs, weight layout; errors.
import torch
import torch.nn as nn
import torch.nn.functional as F


def ints(*shape, m=5, k=3):
    n = torch.Size(shape).numel()
    return ((torch.arange(n, dtype=torch.float32) * k) % m - m // 2).reshape(shape)


print(nn.ConvTranspose2d(2, 4, 3))
print(nn.ConvTranspose2d(4, 6, (3, 2), stride=2, padding=1, output_padding=1, groups=2, bias=False, dilation=(1, 2)))
print(nn.ConvTranspose1d(3, 2, 4, stride=3, padding=(1,)), nn.ConvTranspose2d(1, 1, 2, output_padding=(0, 1), stride=(1, 2)))
print([(n, tuple(p.shape)) for n, p in nn.ConvTranspose2d(4, 6, (3, 2), groups=2).named_parameters()])
x = torch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
w = torch.tensor([[[[1.0, 0.5], [-1.0, 2.0]]]])
print(F.conv_transpose2d(x, w), F.conv_transpose2d(x, w, stride=2), F.conv_transpose2d(x, w, torch.tensor([0.25]), stride=(2, 1)))
print(F.conv_transpose2d(x, w, stride=2, padding=1), F.conv_transpose2d(x, w, stride=2, output_padding=1))
print(F.conv_transpose2d(x, w, dilation=2), F.conv_transpose2d(x, w, stride=3, padding=(0, 1), dilation=(2, 1), output_padding=(2, 0)))
xg = ints(1, 4, 3, 3, m=7)
wg = ints(4, 2, 2, 3)
yg = F.conv_transpose2d(xg, wg, ints(4, m=3), stride=2, padding=(1, 0), groups=2)
print(yg.shape, yg[0, 0], yg[0, 3])
halves = torch.cat([F.conv_transpose2d(xg[:, :2], wg[:2], stride=2, padding=(1, 0)), F.conv_transpose2d(xg[:, 2:], wg[2:], stride=2, padding=(1, 0))], 1)
print(torch.equal(yg - ints(4, m=3).view(1, 4, 1, 1), halves))
# Module: weight (in, out // groups, kH, kW); output_size picks the output_padding.
ct = nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1)
with torch.no_grad():
    ct.weight.copy_(ints(2, 3, 3, 3) / 2)
    ct.bias.copy_(torch.tensor([1.0, 0.0, -1.0]))
xi = ints(2, 2, 2, 3, m=7, k=2)
with torch.no_grad():
    y = ct(xi)
print(y.shape, y[1, 2], y.requires_grad, ct(xi, output_size=[4, 6]).shape, ct(xi, output_size=(2, 3, 4, 5)).shape)
print(torch.equal(ct(xi, output_size=[4, 6])[..., :3, :5], y), ct(xi[0]).shape, torch.equal(ct(xi[0]), y[0]))
print(ct(xi, output_size=torch.Size([4, 6]))[0, 0].detach())
c1 = nn.ConvTranspose1d(2, 2, 3, stride=2, padding=1, bias=False, groups=2)
with torch.no_grad():
    c1.weight.copy_(ints(2, 1, 3))
x1 = ints(1, 2, 4, m=7)
print(c1.weight.shape, c1(x1).detach(), c1(x1, output_size=[8]).detach(), c1(x1[0]).shape)
print(F.conv_transpose1d(x1, ints(2, 3, 2), ints(3), stride=3, padding=1, output_padding=1, dilation=2))
print(F.conv_transpose1d(x1, ints(2, 1, 2), groups=2), F.conv_transpose2d(torch.zeros(0, 2, 2, 2), ints(2, 3, 2, 2)).shape)
print(F.conv_transpose2d(x.double(), w.double()).dtype, ct(xi.requires_grad_()).grad_fn.name())
for bad in [lambda: F.conv_transpose2d(x, w, stride=1, output_padding=1),
            lambda: ct(xi, output_size=[6, 6]),
            lambda: nn.ConvTranspose2d(3, 4, 2, groups=2)]:
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
