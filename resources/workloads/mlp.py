# A multi-layer perceptron with LayerNorm and dropout, evaluated on a batch, then compiled with
# torch.compile and called 20 times (Compare modes times the warm calls).
import torch
import torch.nn as nn

torch.manual_seed(1)


class MLP(nn.Module):
    def __init__(self, sizes, p_drop=0.1):
        super().__init__()
        layers = []
        for i in range(len(sizes) - 1):
            layers.append(nn.Linear(sizes[i], sizes[i + 1]))
            if i < len(sizes) - 2:
                layers.append(nn.LayerNorm(sizes[i + 1]))
                layers.append(nn.ReLU())
                layers.append(nn.Dropout(p_drop))
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x)


model = MLP([32, 128, 128, 10])
print(model)
n_params = sum(p.numel() for p in model.parameters())
print("parameters:", n_params)

batch = torch.randn(64, 32)
model.eval()
compiled = torch.compile(model)
with torch.no_grad():
    out = model(batch)
    for step in range(20):
        compiled_out = compiled(batch)
    pred = out.argmax(dim=-1)
print("output:", out.shape, out.dtype)
print("compiled matches eager:", torch.allclose(compiled_out, out, rtol=1e-4, atol=1e-5))
print("predictions in range:", bool(((pred >= 0) & (pred < 10)).all()))

targets = torch.arange(64) % 10
loss = nn.functional.cross_entropy(out, targets)
print("loss is finite:", bool(torch.isfinite(loss)))
