# Convolutional layers, pooling and batch/group norm: reprs, shapes, exact values on
# deterministic inputs, errors, and a small CNN compiled against eager.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
print(nn.Conv2d(3, 8, 3))
print(nn.Conv2d(4, 8, (3, 5), stride=2, padding=(1, 2), dilation=2, groups=2, bias=False))
print(nn.Conv2d(3, 8, 4, padding="same"))
print(nn.Conv1d(2, 4, 5, padding="valid"))
print(nn.BatchNorm2d(8), nn.BatchNorm1d(4, momentum=None, affine=False))
print(nn.MaxPool2d(2), nn.MaxPool2d(3, stride=1, padding=1, ceil_mode=True))
print(nn.AvgPool2d((2, 3)), nn.AdaptiveAvgPool2d((1, 1)), nn.AdaptiveAvgPool2d(3))
print(nn.GroupNorm(2, 8))

conv = nn.Conv2d(3, 4, 3, padding=1)
print([tuple(p.shape) for p in conv.parameters()])


def reference_conv2d(x, w, b, stride, padding, dilation, groups):
    # The definition, one kernel tap at a time.
    x = F.pad(x, (padding[1], padding[1], padding[0], padding[0]))
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    oh = (h - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = torch.zeros(n, o, oh, ow)
    og = o // groups
    for g in range(groups):
        xs = x[:, g * cg:(g + 1) * cg]
        for i in range(kh):
            for j in range(kw):
                hi = i * dilation[0]
                wj = j * dilation[1]
                patch = xs[:, :, hi:hi + stride[0] * (oh - 1) + 1:stride[0],
                           wj:wj + stride[1] * (ow - 1) + 1:stride[1]]
                taps = w[g * og:(g + 1) * og, :, i, j]
                out[:, g * og:(g + 1) * og] += torch.einsum("nchw,oc->nohw", patch, taps)
    if b is not None:
        out += b.view(1, -1, 1, 1)
    return out


cases = [((1, 1), (0, 0), (1, 1), 1), ((2, 1), (1, 2), (1, 1), 1), ((1, 2), (2, 1), (2, 1), 1),
         ((2, 2), (1, 1), (1, 1), 2), ((1, 1), (1, 1), (1, 1), 4)]
for stride, padding, dilation, groups in cases:
    x = torch.randn(2, 4, 9, 8)
    w = torch.randn(8, 4 // groups, 3, 2)
    b = torch.randn(8)
    y = F.conv2d(x, w, b, stride, padding, dilation, groups)
    ref = reference_conv2d(x, w, b, stride, padding, dilation, groups)
    print("conv2d", stride, padding, dilation, groups, tuple(y.shape),
          torch.allclose(y, ref, atol=1e-4))
x = torch.randn(3, 6, 7)
print("unbatched", tuple(F.conv2d(x, torch.randn(2, 3, 3, 3), padding=1).shape))
for k in (3, 4):
    same = nn.Conv2d(3, 5, k, padding="same", dilation=1)
    print("same", k, tuple(same(torch.randn(1, 3, 7, 6)).shape))
x1 = torch.randn(2, 3, 11)
w1 = torch.randn(4, 3, 3)
y1 = F.conv1d(x1, w1, stride=2, padding=1)
print("conv1d", tuple(y1.shape),
      torch.allclose(y1, F.conv2d(x1.unsqueeze(2), w1.unsqueeze(2), stride=(1, 2),
                                  padding=(0, 1)).squeeze(2), atol=1e-5))
print("conv1d same", tuple(F.conv1d(x1, torch.randn(4, 3, 4), padding="same").shape))

img = torch.arange(2 * 5 * 6, dtype=torch.float32).reshape(1, 2, 5, 6)
img[0, 1] = -img[0, 1]
print(F.max_pool2d(img, 2))
print(F.max_pool2d(img, 3, stride=2, padding=1))
print(F.max_pool2d(img, 2, ceil_mode=True).shape, F.max_pool2d(img, 2, dilation=2).shape)
print(F.avg_pool2d(img, 2))
print(F.avg_pool2d(img, 3, stride=2, padding=1))
print(F.avg_pool2d(img, 3, stride=2, padding=1, count_include_pad=False))
print(F.avg_pool2d(img, 2, ceil_mode=True, divisor_override=3))
print(F.adaptive_avg_pool2d(img, (2, 4)))
print(F.adaptive_avg_pool2d(img, (None, 2)).shape, F.adaptive_avg_pool2d(img, 1).shape)
print(F.adaptive_avg_pool2d(img, (7, 8))[0, 0, :3, :3])
print(F.conv2d(torch.randn(0, 4, 6, 5), torch.randn(3, 4, 3, 3)).shape)

bn = nn.BatchNorm2d(2)
batch = torch.arange(2 * 2 * 3 * 3, dtype=torch.float32).reshape(2, 2, 3, 3) / 10
out = bn(batch)
print([round(v, 4) for v in out[:, 0].flatten()[:5].tolist()])
print([round(v, 4) for v in bn.running_mean.tolist()], [round(v, 4) for v in bn.running_var.tolist()],
      bn.num_batches_tracked.item())
bn.eval()
print([round(v, 4) for v in bn(batch)[1, 1].flatten()[:4].tolist()])
cumulative = nn.BatchNorm1d(3, momentum=None)
for step in range(3):
    cumulative(torch.arange(12, dtype=torch.float32).reshape(4, 3) * (step + 1))
print([round(v, 4) for v in cumulative.running_mean.tolist()], cumulative.num_batches_tracked.item())
gn = nn.GroupNorm(2, 4)
print([round(v, 4) for v in gn(torch.arange(16, dtype=torch.float32).reshape(1, 4, 2, 2))[0, :, 0, 0].tolist()])

for bad in [lambda: F.conv2d(torch.randn(1, 4, 8, 8), torch.randn(8, 3, 3, 3)),
            lambda: F.conv2d(torch.randn(1, 3, 2, 2), torch.randn(8, 3, 3, 3)),
            lambda: nn.BatchNorm2d(3)(torch.randn(2, 3, 4)),
            lambda: nn.Conv2d(3, 8, 3, stride=2, padding="same"),
            lambda: F.max_pool2d(torch.randn(1, 1, 4, 4), 2, padding=2),
            lambda: nn.BatchNorm1d(3)(torch.randn(1, 3)),
            lambda: nn.GroupNorm(3, 4),
            lambda: F.conv2d(torch.randn(4, 6), torch.randn(3, 4, 3, 3)),
            lambda: F.max_pool2d(torch.randn(1, 1, 4, 4), 0),
            lambda: F.batch_norm(torch.randn(2, 3), None, None),
            lambda: F.avg_pool2d(torch.randn(1, 1, 4, 4), 2, divisor_override=0)]:
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__ + ":", e)


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8), nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.GroupNorm(4, 16), nn.ReLU(),
            nn.AdaptiveAvgPool2d((1, 1)))
        self.head = nn.Linear(16, 10)

    def forward(self, x):
        return self.head(torch.flatten(self.features(x), 1))


model = SmallCNN().eval()
print(model)
images = torch.randn(4, 3, 16, 16)
with torch.no_grad():
    eager = model(images)
    compiled = torch.compile(model)(images)
print("compiled", tuple(compiled.shape), torch.allclose(compiled, eager, atol=1e-5))
