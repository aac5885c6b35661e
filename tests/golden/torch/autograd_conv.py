# Derivatives of the convolutional-network ops, each checked by a float64 numerical gradcheck as
# PyTorch's: conv2d (stride, padding, dilation, groups, unbatched), conv1d, conv_transpose2d
# (output_padding, groups, dilation), max_pool2d (padding, ceil_mode), avg_pool2d
# (count_include_pad, ceil_mode), adaptive_avg_pool2d, interpolate (nearest, nearest-exact,
# bilinear with and without align_corners), var/std and batch_norm/group_norm in training;
# the nodes PyTorch names; then a tiny CNN trained by hand-written SGD, its losses as PyTorch's.
import torch
import torch.nn.functional as F
from torch.autograd import gradcheck
torch.manual_seed(0)
# Thousands of tiny float64 products: one thread, so a busy 2-core machine (CI runs two tests at
# a time) does not leave a second OpenMP thread waiting on every call.
torch.set_num_threads(1)
def r(*s):
    return torch.randn(*s, dtype=torch.float64, requires_grad=True)
x = r(1, 2, 5, 4)
for kw in (dict(), dict(stride=2, padding=1), dict(dilation=2, padding=2), dict(groups=2, stride=(2, 1))):
    w = r(4, 2 // kw.get("groups", 1), 3, 3); b = r(4)
    print("conv2d", kw, gradcheck(lambda x, w, b: F.conv2d(x, w, b, **kw), (x, w, b)))
print("conv2d unbatched", gradcheck(lambda x, w: F.conv2d(x, w, padding=1), (r(2, 4, 4), r(3, 2, 3, 3))))
print("conv1d", gradcheck(lambda x, w: F.conv1d(x, w, padding=1), (r(1, 3, 6), r(2, 3, 3))))
for kw in (dict(), dict(stride=2, padding=1), dict(stride=2, output_padding=1), dict(groups=2, dilation=2)):
    w = r(2, 4 // kw.get("groups", 1), 3, 3); b = r(4)
    print("conv_transpose2d", kw, gradcheck(lambda x, w, b: F.conv_transpose2d(x, w, b, **kw), (x, w, b)))
xp = r(1, 2, 5, 6)
print("max_pool2d", gradcheck(lambda x: F.max_pool2d(x, 2), (xp,)), gradcheck(lambda x: F.max_pool2d(x, 3, stride=2, padding=1, dilation=1), (xp,)),
      gradcheck(lambda x: F.max_pool2d(x, 2, ceil_mode=True), (xp,)))
print("avg_pool2d", gradcheck(lambda x: F.avg_pool2d(x, 2), (xp,)), gradcheck(lambda x: F.avg_pool2d(x, 3, stride=2, padding=1), (xp,)),
      gradcheck(lambda x: F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False, ceil_mode=True), (xp,)))
print("adaptive", gradcheck(lambda x: F.adaptive_avg_pool2d(x, (2, 4)), (xp,)), gradcheck(lambda x: F.adaptive_avg_pool2d(x, 1), (xp,)))
print("interpolate", gradcheck(lambda x: F.interpolate(x, scale_factor=2), (xp,)), gradcheck(lambda x: F.interpolate(x, size=(7, 4), mode="bilinear"), (xp,)),
      gradcheck(lambda x: F.interpolate(x, size=(3, 9), mode="bilinear", align_corners=True), (xp,)), gradcheck(lambda x: F.interpolate(x, size=(3, 8), mode="nearest-exact"), (xp,)))
for f in (lambda x: F.max_pool2d(x, 2), lambda x: F.avg_pool2d(x, 2), lambda x: F.adaptive_avg_pool2d(x, 1), lambda x: F.adaptive_avg_pool2d(x, 2),
          lambda x: F.interpolate(x, scale_factor=2), lambda x: F.interpolate(x, scale_factor=2, mode="bilinear")):
    print(f(xp).grad_fn.name())
xs = r(3, 4, 2)
print("var/std", gradcheck(lambda x: x.var(1), (xs,)), gradcheck(lambda x: x.std(), (xs,)),
      gradcheck(lambda x: x.var((0, 2), keepdim=True, correction=0), (xs,)))
xb = r(3, 2, 2, 2)
print("batch_norm", gradcheck(lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True), (xb, r(2), r(2))),
      gradcheck(lambda x: F.group_norm(x, 1), (xb,)))


def det(*shape, phase=0.0):
    n = 1
    for s in shape:
        n *= s
    return (torch.arange(float(n)).reshape(shape) * 0.61 + phase).sin() * 0.4


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(1, 4, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(4)
        self.conv2 = torch.nn.Conv2d(4, 6, 3, stride=2)
        self.head = torch.nn.Linear(6, 3)

    def forward(self, x):
        h = F.max_pool2d(torch.relu(self.bn(self.conv1(x))), 2)
        h = F.adaptive_avg_pool2d(torch.relu(self.conv2(F.interpolate(h, scale_factor=2))), 1)
        return self.head(h.flatten(1))


net = Net()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(det(*p.shape, phase=i))
images = det(6, 1, 8, 8, phase=0.5)
labels = torch.tensor([0, 1, 2, 0, 1, 2])
for step in range(8):
    loss = F.cross_entropy(net(images), labels)
    net.zero_grad()
    loss.backward()
    with torch.no_grad():
        for p in net.parameters():
            p -= 0.2 * p.grad
    print(step, round(loss.item(), 4))
print(net.conv1.weight.grad.shape, round(net.bn.running_mean.sum().item(), 4))
