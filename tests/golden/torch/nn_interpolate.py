# F.interpolate and nn.Upsample on 4-D inputs: nearest, nearest-exact and bilinear (with and
# without align_corners), by size and by scale factor; errors; compiled against eager.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(12, dtype=torch.float32).reshape(1, 1, 3, 4)
print(F.interpolate(x, scale_factor=2))
print(F.interpolate(x, size=(5, 3)))
print(F.interpolate(x, size=(5, 3), mode="nearest-exact"))
print(F.interpolate(x, size=(5, 7), mode="bilinear"))
print(F.interpolate(x, size=(5, 7), mode="bilinear", align_corners=True))
print(F.interpolate(x, scale_factor=(1.5, 0.5), mode="bilinear"))
print(F.interpolate(x, scale_factor=1.7, mode="bilinear", recompute_scale_factor=True).shape)
print(F.interpolate(x, size=1, mode="bilinear", align_corners=True))
print(nn.Upsample(scale_factor=2, mode="bilinear"), nn.Upsample(size=(4, 4)))
up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
print(up(x).shape)
for bad in [lambda: F.interpolate(x), lambda: F.interpolate(x, size=4, scale_factor=2),
            lambda: F.interpolate(x, size=4, align_corners=True)]:
    try:
        bad()
    except ValueError as e:
        print("ValueError:", e)


def decoder(z):
    h = F.interpolate(z, scale_factor=2, mode="bilinear")
    return F.interpolate(torch.relu(h) + 1, size=(9, 9))


z = torch.randn(2, 3, 4, 4)
print(torch.allclose(torch.compile(decoder)(z), decoder(z)))
