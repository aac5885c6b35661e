# ResNet-style CNN (torchvision BasicBlock layout), tiny sizes, deterministic weights:
# stem conv7x7/2 + BN + ReLU + maxpool, two stages of BasicBlocks (conv3x3-BN-ReLU-conv3x3-BN,
# 1x1 conv + BN downsample shortcut when stride 2 or width changes), adaptive_avg_pool2d,
# flatten, fc. Eval mode (BN running stats) through eager, backend="eager", a counting backend
# and the default (inductor) backend; then one train-mode step per backend, checking that the
# BN running statistics move the same way.
# Recorded with PyTorch 2.3.1 (the specification), which records each torch.nn layer as one
# call_module node (conv/batch_norm call_function counts 0). PyTorch 2.11 inlines every
# nn.Module call (inline_inbuilt_nn_modules=True): conv2d/batch_norm/relu call_function nodes,
# 47 in train (one num_batches_tracked.add_ per BN); those lines differ under 2.11.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def conv3x3(cin, cout, stride=1):
    return nn.Conv2d(cin, cout, kernel_size=3, stride=stride, padding=1, bias=False)


def conv1x1(cin, cout, stride=1):
    return nn.Conv2d(cin, cout, kernel_size=1, stride=stride, bias=False)


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, inplanes, planes, stride=1, downsample=None):
        super().__init__()
        self.conv1 = conv3x3(inplanes, planes, stride)
        self.bn1 = nn.BatchNorm2d(planes)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = conv3x3(planes, planes)
        self.bn2 = nn.BatchNorm2d(planes)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x):
        identity = x
        out = self.conv1(x)
        out = self.bn1(out)
        out = self.relu(out)
        out = self.conv2(out)
        out = self.bn2(out)
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        out = self.relu(out)
        return out


class ResNet(nn.Module):
    def __init__(self, block, layers, widths=(8, 16), num_classes=10):
        super().__init__()
        self.inplanes = widths[0]
        self.conv1 = nn.Conv2d(3, self.inplanes, kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(self.inplanes)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.layer1 = self._make_layer(block, widths[0], layers[0])
        self.layer2 = self._make_layer(block, widths[1], layers[1], stride=2)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(widths[1] * block.expansion, num_classes)

    def _make_layer(self, block, planes, blocks, stride=1):
        downsample = None
        if stride != 1 or self.inplanes != planes * block.expansion:
            downsample = nn.Sequential(
                conv1x1(self.inplanes, planes * block.expansion, stride),
                nn.BatchNorm2d(planes * block.expansion),
            )
        layers = [block(self.inplanes, planes, stride, downsample)]
        self.inplanes = planes * block.expansion
        for _ in range(1, blocks):
            layers.append(block(self.inplanes, planes))
        return nn.Sequential(*layers)

    def forward(self, x):
        x = self.conv1(x)
        x = self.bn1(x)
        x = self.relu(x)
        x = self.maxpool(x)
        x = self.layer1(x)
        x = self.layer2(x)
        x = self.avgpool(x)
        x = torch.flatten(x, 1)
        x = self.fc(x)
        return x


def deterministic_init(model):
    # Weights from sin(arange), scaled by fan-in; BN affine near (1, 0); BN running stats
    # set to non-trivial values so eval mode really uses them.
    with torch.no_grad():
        for i, (name, p) in enumerate(model.named_parameters()):
            t = torch.arange(p.numel(), dtype=torch.float32)
            if p.dim() > 1:
                fan_in = p[0].numel()
                p.copy_((torch.sin(t * 0.37 + i) * (2.0 / math.sqrt(fan_in))).view(p.shape))
            elif name.endswith("weight"):
                p.copy_(1.0 + 0.1 * torch.cos(t * 0.5 + i))
            else:
                p.copy_(0.05 * torch.sin(t * 0.3 + i))
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                c = m.num_features
                t = torch.arange(c, dtype=torch.float32)
                m.running_mean.copy_(0.1 * torch.sin(t))
                m.running_var.copy_(1.0 + 0.2 * torch.cos(t) ** 2)
                m.num_batches_tracked.zero_()


def r4(v):
    return round(float(v), 4)


model = ResNet(BasicBlock, [2, 2])
deterministic_init(model)
print(type(model).__name__, sum(p.numel() for p in model.parameters()),
      len(list(model.parameters())), len(list(model.buffers())))
print([name for name, m in model.named_modules() if isinstance(m, nn.BatchNorm2d)][:4])
print(model.layer2[0].downsample)

x = (torch.sin(torch.arange(2 * 3 * 32 * 32, dtype=torch.float32) * 0.013)
     + 0.5 * torch.cos(torch.arange(2 * 3 * 32 * 32, dtype=torch.float32) * 0.007)).view(2, 3, 32, 32)

model.eval()
print("training:", model.training, model.layer1[0].bn1.training)
with torch.no_grad():
    eager = model(x)
print("eager:", eager.shape, eager.dtype, r4(eager.sum()), r4(eager.abs().max()))
print("eager argmax:", eager.argmax(dim=1).tolist())
print("row0:", [r4(v) for v in eager[0, :5].tolist()])

graphs = []
nodes = []


def counting(gm, example_inputs):
    graphs.append(gm)
    nodes.append(sum(1 for n in gm.graph.nodes if n.op in ("call_function", "call_method", "call_module")))
    return gm.forward


for name in ("eager", "counting", "inductor"):
    torch._dynamo.reset()
    if name == "counting":
        compiled = torch.compile(model, backend=counting)
    elif name == "eager":
        compiled = torch.compile(model, backend="eager")
    else:
        compiled = torch.compile(model)
    with torch.no_grad():
        out1 = compiled(x)
        out2 = compiled(x)
    print(name, "eval:", out1.shape, torch.allclose(out1, eager, atol=1e-5),
          torch.allclose(out2, eager, atol=1e-5))
print("counting graphs:", len(graphs), "call nodes:", nodes)
print("conv calls in graph:", sum(1 for n in graphs[0].graph.nodes if "conv2d" in str(n.target)))
print("batch_norm calls in graph:", sum(1 for n in graphs[0].graph.nodes if "batch_norm" in str(n.target)))

# One train-mode step per backend from the same starting state: outputs and running stats
# must agree with eager.
def train_step(fn):
    deterministic_init(model)
    model.train()
    out = fn(x)
    bn = model.layer1[0].bn1
    stats = (bn.running_mean.clone(), bn.running_var.clone(), bn.num_batches_tracked.item())
    model.eval()
    return out.detach(), stats


ref_out, ref_stats = train_step(model)
print("train eager:", ref_out.shape, round(ref_out.sum().item(), 3), ref_stats[2])
print("running_mean:", [r4(v) for v in ref_stats[0].tolist()])
print("running_var:", [r4(v) for v in ref_stats[1].tolist()])
start = torch.tensor([0.1 * math.sin(i) for i in range(8)])
print("running_mean changed:", not torch.allclose(ref_stats[0], start))
for name in ("eager", "counting", "inductor"):
    torch._dynamo.reset()
    graphs.clear()
    backend = counting if name == "counting" else name
    compiled = torch.compile(model, backend=backend)
    out, stats = train_step(compiled)
    print(name, "train:", torch.allclose(out, ref_out, atol=1e-4),
          torch.allclose(stats[0], ref_stats[0], atol=1e-5),
          torch.allclose(stats[1], ref_stats[1], atol=1e-5), stats[2])
    if name == "counting":
        print("train graphs (counting):", len(graphs), "call nodes:", nodes[-len(graphs):])
