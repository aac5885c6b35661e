# VAE workloads with deterministic weights: the pytorch/examples MLP VAE (fc1 -> fc21/fc22 for
# mu/logvar, reparameterisation with torch.randn_like, fc3 -> fc4 -> sigmoid; loss =
# binary_cross_entropy(reduction="sum") + KL) and a convolutional VAE whose encoder is an
# nn.ModuleList walked with enumerate, with two decoders: ConvTranspose2d, and F.interpolate
# (nearest and bilinear) + Conv2d. Noise is either passed in (so compiled and eager see the same
# tensor) or drawn with randn_like, where only bit-independent facts are printed (shapes, ranges,
# the KL term, reproducibility under one seed). Every model runs eagerly, under backend="eager",
# a counting backend and the default (inductor) backend.
# Recorded with PyTorch 2.3.1 (the specification), whose capture records each torch.nn layer
# (nn.ConvTranspose2d included) as a call_module node; 2.11 inlines them, so its "call nodes"
# counts differ.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self, in_dim=256, hidden=32, latent=4):
        super().__init__()
        self.in_dim = in_dim
        self.fc1 = nn.Linear(in_dim, hidden)
        self.fc21 = nn.Linear(hidden, latent)
        self.fc22 = nn.Linear(hidden, latent)
        self.fc3 = nn.Linear(latent, hidden)
        self.fc4 = nn.Linear(hidden, in_dim)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar, eps=None):
        std = torch.exp(0.5 * logvar)
        if eps is None:
            eps = torch.randn_like(std)
        return mu + eps * std

    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))

    def forward(self, x, eps=None):
        mu, logvar = self.encode(x.view(-1, self.in_dim))
        z = self.reparameterize(mu, logvar, eps)
        return self.decode(z), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, recon_x.shape[-1]), reduction="sum")
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD


def kl_divergence(mu, logvar):
    return -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())


class ConvVAE(nn.Module):
    def __init__(self, channels=(1, 4, 8), latent=4, image=16, decoder="transpose"):
        super().__init__()
        self.decoder_kind = decoder
        self.encoder = nn.ModuleList()
        for cin, cout in zip(channels[:-1], channels[1:]):
            self.encoder.append(nn.Sequential(
                nn.Conv2d(cin, cout, kernel_size=3, stride=2, padding=1),
                nn.BatchNorm2d(cout),
                nn.LeakyReLU(0.2)))
        self.feat = image // 2 ** (len(channels) - 1)
        flat = channels[-1] * self.feat * self.feat
        self.fc_mu = nn.Linear(flat, latent)
        self.fc_var = nn.Linear(flat, latent)
        self.decoder_input = nn.Linear(latent, flat)
        rev = list(reversed(channels))
        self.decoder = nn.ModuleList()
        for i, (cin, cout) in enumerate(zip(rev[:-1], rev[1:])):
            last = i == len(rev) - 2
            if decoder == "transpose":
                up = nn.ConvTranspose2d(cin, cout, kernel_size=3, stride=2, padding=1,
                                        output_padding=1)
            else:
                up = nn.Conv2d(cin, cout, kernel_size=3, padding=1)
            self.decoder.append(up if last else nn.Sequential(up, nn.BatchNorm2d(cout), nn.ReLU()))
        self.channels = channels

    def encode(self, x):
        for i, block in enumerate(self.encoder):
            x = block(x)
        x = torch.flatten(x, start_dim=1)
        return self.fc_mu(x), self.fc_var(x)

    def decode(self, z):
        x = self.decoder_input(z)
        x = x.view(-1, self.channels[-1], self.feat, self.feat)
        for i, layer in enumerate(self.decoder):
            if self.decoder_kind == "nearest":
                x = F.interpolate(x, scale_factor=2, mode="nearest")
            elif self.decoder_kind == "bilinear":
                x = F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False)
            x = layer(x)
        return torch.sigmoid(x)

    def forward(self, x, eps=None):
        mu, logvar = self.encode(x)
        if self.training or eps is not None:
            std = torch.exp(0.5 * logvar)
            if eps is None:
                eps = torch.randn_like(std)
            z = eps * std + mu
        else:
            z = mu
        return self.decode(z), mu, logvar


def deterministic_init(model):
    with torch.no_grad():
        for i, (name, p) in enumerate(model.named_parameters()):
            t = torch.arange(p.numel(), dtype=torch.float32)
            if p.dim() > 1:
                fan_in = p[0].numel()
                p.copy_((torch.sin(t * 0.37 + i) * (1.5 / math.sqrt(fan_in))).view(p.shape))
            elif ".1.weight" in name:  # BatchNorm affine
                p.copy_(1.0 + 0.1 * torch.cos(t * 0.5 + i))
            else:
                p.copy_(0.05 * torch.sin(t * 0.3 + i))
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                t = torch.arange(m.num_features, dtype=torch.float32)
                m.running_mean.copy_(0.05 * torch.sin(t))
                m.running_var.copy_(1.0 + 0.1 * torch.cos(t))


def r4(v):
    return round(float(v), 4)


def round2(v):  # sums of hundreds of float32 values: 4 places would be below their precision
    return round(float(v), 2)


graphs = []


def counting(gm, example_inputs):
    graphs.append(sum(1 for n in gm.graph.nodes
                      if n.op in ("call_function", "call_method", "call_module")))
    return gm.forward


def check_backends(label, model, *inputs):
    # Compiled vs eager on every output of a (recon, mu, logvar) tuple.
    with torch.no_grad():
        ref = model(*inputs)
        for name in ("eager", "counting", "inductor"):
            torch._dynamo.reset()
            graphs.clear()
            backend = counting if name == "counting" else name
            compiled = torch.compile(model, backend=backend)
            a = compiled(*inputs)
            b = compiled(*inputs)
            print(label, name, type(a).__name__, len(a),
                  all(torch.allclose(u, v, atol=1e-5) for u, v in zip(a, ref)),
                  all(torch.allclose(u, v, atol=1e-5) for u, v in zip(b, ref)))
            if name == "counting":
                print(label, "graphs:", len(graphs), "call nodes:", graphs)


x = (torch.sin(torch.arange(2 * 16 * 16, dtype=torch.float32) * 0.1) + 1) / 2
x = x.view(2, 1, 16, 16)
eps4 = torch.linspace(-1.0, 1.0, 8).view(2, 4)

# MLP VAE.
vae = VAE()
deterministic_init(vae)
print("VAE params:", sum(p.numel() for p in vae.parameters()))
with torch.no_grad():
    recon, mu, logvar = vae(x, eps4)
    loss = loss_function(recon, x, mu, logvar)
print("recon:", tuple(recon.shape), round2(recon.sum()), bool(((recon > 0) & (recon < 1)).all()))
print("mu:", [r4(v) for v in mu[0].tolist()])
print("logvar:", [r4(v) for v in logvar[0].tolist()])
print("loss:", loss.shape, loss.dtype, round2(loss), "kl:", r4(kl_divergence(mu, logvar)))
print("mse:", round2(F.mse_loss(recon, x.view(-1, 256), reduction="sum")))
check_backends("vae eps", vae, x, eps4)

# Noise drawn inside forward: bit-independent checks only.
torch.manual_seed(0)
with torch.no_grad():
    r1, m1, lv1 = vae(x)
    torch.manual_seed(0)
    r2, _, _ = vae(x)
    r3, _, _ = vae(x)
print("sampled:", tuple(r1.shape), bool(((r1 > 0) & (r1 < 1)).all()),
      "same seed same sample:", torch.equal(r1, r2), "next draw differs:", not torch.equal(r2, r3))
print("kl independent of noise:", r4(kl_divergence(m1, lv1)))
torch._dynamo.reset()
compiled = torch.compile(vae, backend="eager")
with torch.no_grad():
    torch.manual_seed(0)
    c1, _, _ = compiled(x)
print("compiled eager backend, same seed:", torch.equal(c1, r1))
torch._dynamo.reset()
compiled = torch.compile(vae)
with torch.no_grad():
    c1, cm, clv = compiled(x)
print("inductor sampled:", tuple(c1.shape), bool(((c1 > 0) & (c1 < 1)).all()),
      torch.allclose(cm, m1, atol=1e-5), torch.allclose(clv, lv1, atol=1e-5))

# Convolutional VAE: ModuleList + enumerate, ConvTranspose2d or interpolate decoders.
for kind in ("transpose", "nearest", "bilinear"):
    cvae = ConvVAE(decoder=kind)
    deterministic_init(cvae)
    cvae.eval()
    if kind == "transpose":
        print(cvae.decoder)
    with torch.no_grad():
        recon, mu, logvar = cvae(x)
        loss = loss_function(recon.flatten(1), x, mu, logvar)
    print(kind, "params:", sum(p.numel() for p in cvae.parameters()), "recon:",
          tuple(recon.shape), round2(recon.sum()), "loss:", round2(loss))
    print(kind, "mu:", [r4(v) for v in mu[1].tolist()])
    check_backends(kind + " eval", cvae, x)
    check_backends(kind + " eps", cvae, x, eps4)

up = torch.arange(8, dtype=torch.float32).view(1, 2, 2, 2)
print(F.interpolate(up, scale_factor=2, mode="nearest")[0, 0].tolist())
print([r4(v) for v in F.interpolate(up, size=(3, 3), mode="bilinear", align_corners=False)[0, 1].flatten().tolist()])
ct = nn.ConvTranspose2d(2, 1, kernel_size=2, stride=2)
with torch.no_grad():
    ct.weight.copy_(torch.arange(8, dtype=torch.float32).view(2, 1, 2, 2))
    ct.bias.fill_(0.5)
    print(ct(up)[0, 0].tolist())
