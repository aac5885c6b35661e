# torch.optim: SGD (plain, momentum, dampening, nesterov, weight decay, maximize), Adam and
# AdamW (weight decay, amsgrad, maximize) training a small MLP; parameter groups, closures,
# zero_grad, frozen parameters, state_dict/load_state_dict, add_param_group, reprs and errors.
# The data and initial weights are built from sin() (Kiln's random generator is not
# PyTorch's); losses are rounded to 5 places and parameter sums to 4 (the matrix products may
# differ from PyTorch's in the last bit).
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


def det(shape, k):
    n = 1
    for s in shape:
        n *= s
    return (torch.sin(torch.arange(n, dtype=torch.float32) * k + 0.3) * 0.5).reshape(shape)


x = det((16, 5), 0.37)
y = det((16, 2), 1.13)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(5, 12)
        self.fc2 = nn.Linear(12, 2)

    def forward(self, inp):
        return self.fc2(torch.relu(self.fc1(inp)))


def make_model():
    model = MLP()
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(det(p.shape, 0.7 + 0.1 * i) * 0.6)
    return model


def sums(model):
    return [round(p.sum().item(), 4) for p in model.parameters()]


def train(name, make_opt, steps=30, sign=1.0):
    model = make_model()
    opt = make_opt(model.parameters())
    losses = []
    for step in range(steps):
        opt.zero_grad()
        loss = sign * F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        # Printed steps chosen so that no rounded loss lies near a rounding boundary.
        if step % 5 == 2:
            losses.append(round(loss.item(), 5))
    print(name, losses)
    print("  sums", sums(model))
    return model, opt


print("== SGD")
train("sgd", lambda p: torch.optim.SGD(p, lr=0.1))
train("momentum", lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9))
train("dampening", lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, dampening=0.5))
train("nesterov", lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, nesterov=True))
train("weight_decay", lambda p: torch.optim.SGD(p, lr=0.1, weight_decay=0.05))
train("momentum+wd", lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.8, weight_decay=0.1))
train("maximize", lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.5, maximize=True), sign=-1.0)

print("== Adam")
train("adam", lambda p: torch.optim.Adam(p, lr=0.01))
train("adam wd", lambda p: torch.optim.Adam(p, lr=0.01, weight_decay=0.1))
train("adam amsgrad", lambda p: torch.optim.Adam(p, lr=0.02, amsgrad=True))
train("adam betas", lambda p: torch.optim.Adam(p, lr=0.01, betas=(0.8, 0.99), eps=1e-6))
train("adam maximize", lambda p: torch.optim.Adam(p, lr=0.01, maximize=True), sign=-1.0)
train("adamw", lambda p: torch.optim.AdamW(p, lr=0.01))
train("adamw wd", lambda p: torch.optim.AdamW(p, lr=0.01, weight_decay=0.5))
_, adamw = train("adamw amsgrad", lambda p: torch.optim.AdamW(p, lr=0.02, amsgrad=True))

print("== reprs")
model = make_model()
print(torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9))
print(torch.optim.Adam(model.parameters()))
print(adamw)
print(torch.optim.SGD.__name__, type(adamw).__name__, isinstance(adamw, torch.optim.Adam),
      isinstance(adamw, torch.optim.Optimizer))
print(torch.optim.AdamW(model.parameters()).defaults)

print("== param groups")
model = make_model()
opt = torch.optim.SGD([{"params": model.fc1.parameters()},
                       {"params": model.fc2.parameters(), "lr": 0.01, "momentum": 0.5}],
                      lr=0.1, momentum=0.9)
print(opt)
for step in range(10):
    opt.zero_grad()
    F.mse_loss(model(x), y).backward()
    opt.step()
print("groups", round(F.mse_loss(model(x), y).item(), 5), sums(model))
print([len(g["params"]) for g in opt.param_groups], [g["lr"] for g in opt.param_groups])

print("== closure")
model = make_model()
opt = torch.optim.Adam(model.parameters(), lr=0.01)


def closure():
    opt.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    return loss


for step in range(5):
    loss = opt.step(closure)
    print(step, round(loss.item(), 5), loss.requires_grad, torch.is_grad_enabled())

print("== zero_grad")
model = make_model()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
F.mse_loss(model(x), y).backward()
opt.zero_grad(set_to_none=False)
print([p.grad.abs().sum().item() for p in model.parameters()])
print([p.grad.requires_grad for p in model.parameters()])
opt.zero_grad()
print([p.grad for p in model.parameters()])

print("== frozen parameters")
model = make_model()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
model.fc1.weight.requires_grad_(False)
for step in range(3):
    opt.zero_grad()
    F.mse_loss(model(x), y).backward()
    opt.step()
print(sorted(opt.state_dict()["state"].keys()), model.fc1.weight.grad)
print("frozen", sums(model))

print("== state_dict")
model = make_model()
opt = torch.optim.Adam(model.parameters(), lr=0.01, amsgrad=True)
for step in range(4):
    opt.zero_grad()
    F.mse_loss(model(x), y).backward()
    opt.step()
sd = opt.state_dict()
print(list(sd.keys()))
print(sd["param_groups"])
for k, v in sd["state"].items():
    print(k, list(v.keys()), v["step"], list(v["exp_avg"].shape),
          round(v["exp_avg_sq"].sum().item(), 6))
for p in model.parameters():
    print(opt.state[p]["step"], len(opt.state[p]))

sgd_opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
print(sgd_opt.state_dict())
opt2 = torch.optim.Adam(make_model().parameters(), lr=0.5)
print(opt2.state_dict())

print("== load_state_dict")
# Train 5 steps, save, train 5 more; a copy of the model with a fresh optimizer loaded from the
# saved state continues along the same path.
model = make_model()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True)
for step in range(5):
    opt.zero_grad()
    F.mse_loss(model(x), y).backward()
    opt.step()
# load_state_dict keeps the saved tensors themselves where their dtype and device fit, so a
# checkpoint is copied first (as torch.save/torch.load would).
aliased = torch.optim.SGD(make_model().parameters(), lr=0.1)
aliased.load_state_dict(opt.state_dict())
loaded_buf = list(aliased.state.values())[0]["momentum_buffer"]
print(loaded_buf is opt.state[model.fc1.weight]["momentum_buffer"])
saved = copy.deepcopy(opt.state_dict())
twin = make_model()
with torch.no_grad():
    for p, q in zip(twin.parameters(), model.parameters()):
        p.copy_(q)
opt_twin = torch.optim.SGD(twin.parameters(), lr=0.2)
opt_twin.load_state_dict(saved)
print(opt_twin.param_groups[0]["lr"], opt_twin.param_groups[0]["nesterov"])
print(opt_twin.state_dict()["param_groups"] == saved["param_groups"])
for m, o in ((model, opt), (twin, opt_twin)):
    for step in range(5):
        o.zero_grad()
        F.mse_loss(m(x), y).backward()
        o.step()
    print("continued", round(F.mse_loss(m(x), y).item(), 5), sums(m))
print(all(torch.equal(p, q) for p, q in zip(model.parameters(), twin.parameters())))
buf = opt_twin.state[twin.fc1.weight]["momentum_buffer"]
print(type(buf).__name__, buf.shape)

model = make_model()
adam_opt = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(3):
    adam_opt.zero_grad()
    F.mse_loss(model(x), y).backward()
    adam_opt.step()
adam2 = torch.optim.Adam(model.parameters(), lr=0.01)
adam2.load_state_dict(adam_opt.state_dict())
print([v["step"] for v in adam2.state_dict()["state"].values()])
try:
    torch.optim.Adam([model.fc1.weight]).load_state_dict(adam_opt.state_dict())
except ValueError as e:
    print("ValueError:", e)

print("== add_param_group")
model = make_model()
opt = torch.optim.SGD(model.fc1.parameters(), lr=0.1)
opt.add_param_group({"params": model.fc2.weight, "momentum": 0.9})
print(opt)
print([len(g["params"]) for g in opt.param_groups])
try:
    opt.add_param_group({"params": [model.fc1.weight]})
except ValueError as e:
    print("ValueError:", e)
opt.add_param_group({"params": [model.fc2.bias], "lr": 0.3})
print(opt.state_dict()["param_groups"][2])

print("== errors")
w = torch.zeros(3, requires_grad=True)
for make in (lambda: torch.optim.SGD([w], lr=-1.0),
             lambda: torch.optim.SGD([w], lr=0.1, momentum=-0.5),
             lambda: torch.optim.SGD([w], lr=0.1, weight_decay=-1),
             lambda: torch.optim.SGD([w], lr=0.1, nesterov=True),
             lambda: torch.optim.SGD([], lr=0.1),
             lambda: torch.optim.SGD(w, lr=0.1),
             lambda: torch.optim.SGD([w * 2], lr=0.1),
             lambda: torch.optim.SGD([w, 3], lr=0.1),
             lambda: torch.optim.SGD({w}, lr=0.1),
             lambda: torch.optim.SGD([{"params": [w]}, {"params": [w]}], lr=0.1),
             lambda: torch.optim.Adam([w], lr=-0.1),
             lambda: torch.optim.Adam([w], eps=-1.0),
             lambda: torch.optim.Adam([w], betas=(1.0, 0.999)),
             lambda: torch.optim.Adam([w], betas=(0.9, -0.1)),
             lambda: torch.optim.Adam([w], weight_decay=-0.1),
             lambda: torch.optim.AdamW([w], betas=(0, 0.9))):
    try:
        make()
        print("no error")
    except (ValueError, TypeError) as e:
        print(type(e).__name__ + ":", e)
try:
    torch.optim.Optimizer([w], {}).step()
except NotImplementedError:
    print("NotImplementedError")
from torch.optim.optimizer import required

print(repr(required), hasattr(torch.optim, "optimizer"), hasattr(torch.optim, "lr_scheduler"))
