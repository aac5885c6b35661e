# torch.optim.lr_scheduler: StepLR, MultiStepLR, ConstantLR, LinearLR, ExponentialLR,
# CosineAnnealingLR (past T_max too, where the recursion climbs back), LambdaLR and
# MultiplicativeLR over 30 steps, printed in full (the rates are Python floats computed by the
# same recursions, so they must be equal to the last digit); several parameter groups,
# state_dict/load_state_dict, resuming with last_epoch, step(epoch) and the errors.
import torch


def make_optimizer(lrs=(0.1,), cls=torch.optim.SGD):
    groups = [{"params": [torch.zeros(2, requires_grad=True)], "lr": lr} for lr in lrs]
    return cls(groups)


def run(name, make_scheduler, steps=30, lrs=(0.1,)):
    opt = make_optimizer(lrs)
    sched = make_scheduler(opt)
    history = [sched.get_last_lr()]
    for _ in range(steps):
        opt.step()
        sched.step()
        history.append(sched.get_last_lr())
    print(name)
    for g in range(len(lrs)):
        print(" ", [h[g] for h in history])
    print("  last_epoch", sched.last_epoch, "group lr", [g["lr"] for g in opt.param_groups])
    return opt, sched


lr_scheduler = torch.optim.lr_scheduler
run("StepLR", lambda o: lr_scheduler.StepLR(o, step_size=7, gamma=0.5))
run("StepLR default gamma", lambda o: lr_scheduler.StepLR(o, 4))
run("MultiStepLR", lambda o: lr_scheduler.MultiStepLR(o, milestones=[5, 12, 12, 20], gamma=0.3))
run("ConstantLR", lambda o: lr_scheduler.ConstantLR(o, factor=0.5, total_iters=4))
run("LinearLR warmup", lambda o: lr_scheduler.LinearLR(o, start_factor=0.25, total_iters=8))
run("LinearLR decay",
    lambda o: lr_scheduler.LinearLR(o, start_factor=1.0, end_factor=0.1, total_iters=20))
run("ExponentialLR", lambda o: lr_scheduler.ExponentialLR(o, gamma=0.9))
run("CosineAnnealingLR", lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=10, eta_min=0.001))
run("CosineAnnealingLR long", lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=25))
run("LambdaLR", lambda o: lr_scheduler.LambdaLR(o, lambda epoch: 0.95 ** epoch))
run("LambdaLR per group",
    lambda o: lr_scheduler.LambdaLR(o, [lambda e: 1.0 / (e + 1), lambda e: min(1.0, (e + 1) / 5)]),
    lrs=(0.1, 0.03))
run("MultiplicativeLR", lambda o: lr_scheduler.MultiplicativeLR(o, lambda epoch: 0.97))
run("StepLR two groups", lambda o: lr_scheduler.StepLR(o, step_size=3, gamma=0.7),
    lrs=(0.5, 0.02))
run("CosineAnnealingLR two groups", lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=6),
    lrs=(1.0, 0.25))

print("== optimizer groups")
opt = make_optimizer((0.01,), cls=torch.optim.Adam)
sched = lr_scheduler.ExponentialLR(opt, gamma=0.5)
print(sorted(opt.param_groups[0].keys()))
print(opt.param_groups[0]["initial_lr"], sched.base_lrs, sched.get_last_lr())
opt.step()
sched.step()
print(opt.param_groups[0]["lr"], opt.param_groups[0]["initial_lr"])
print(opt.state_dict()["param_groups"][0]["initial_lr"])

print("== state_dict")
for make in (lambda o: lr_scheduler.StepLR(o, step_size=3, gamma=0.5),
             lambda o: lr_scheduler.MultiStepLR(o, milestones=[2, 4, 4]),
             lambda o: lr_scheduler.ConstantLR(o),
             lambda o: lr_scheduler.LinearLR(o),
             lambda o: lr_scheduler.ExponentialLR(o, 0.9),
             lambda o: lr_scheduler.CosineAnnealingLR(o, 10),
             lambda o: lr_scheduler.LambdaLR(o, lambda e: 0.5),
             lambda o: lr_scheduler.MultiplicativeLR(o, lambda e: 0.5)):
    opt = make_optimizer()
    sched = make(opt)
    for _ in range(5):
        opt.step()
        sched.step()
    print(type(sched).__name__, sched.state_dict())


class Warmup:
    # A callable object: LambdaLR saves its attributes.
    def __init__(self, steps):
        self.steps = steps

    def __call__(self, epoch):
        return min(1.0, (epoch + 1) / self.steps)


opt = make_optimizer()
sched = lr_scheduler.LambdaLR(opt, Warmup(4))
sd = sched.state_dict()
print(sd)
sd["lr_lambdas"][0]["steps"] = 10
other = lr_scheduler.LambdaLR(make_optimizer(), Warmup(4))
other.load_state_dict(sd)
print(other.lr_lambdas[0].steps, sorted(sd.keys()))

print("== load_state_dict")
opt = make_optimizer()
sched = lr_scheduler.CosineAnnealingLR(opt, T_max=8, eta_min=0.01)
for _ in range(5):
    opt.step()
    sched.step()
saved_opt, saved_sched = opt.state_dict(), sched.state_dict()
opt2 = make_optimizer()
sched2 = lr_scheduler.CosineAnnealingLR(opt2, T_max=8, eta_min=0.01)
opt2.load_state_dict(saved_opt)
sched2.load_state_dict(saved_sched)
for _ in range(6):
    for o, s in ((opt, sched), (opt2, sched2)):
        o.step()
        s.step()
    print(sched.get_last_lr(), sched2.get_last_lr(), sched2.last_epoch)

print("== last_epoch")
opt = make_optimizer()
try:
    lr_scheduler.StepLR(opt, 3, last_epoch=4)
except KeyError as e:
    print("KeyError", e)
opt.param_groups[0]["initial_lr"] = 0.2
sched = lr_scheduler.CosineAnnealingLR(opt, T_max=10, last_epoch=4)
print(sched.last_epoch, sched.get_last_lr(), sched.base_lrs)
for _ in range(3):
    opt.step()
    sched.step()
    print(sched.last_epoch, sched.get_last_lr())

print("== step(epoch)")
opt = make_optimizer()
sched = lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
opt.step()
sched.step(7)
print(sched.last_epoch, sched.get_last_lr())
sched.step()
print(sched.last_epoch, sched.get_last_lr())
opt = make_optimizer()
sched = lr_scheduler.MultiStepLR(opt, milestones=[2, 5, 5])
opt.step()
sched.step(6)
print(sched.get_last_lr())
opt = make_optimizer()
sched = lr_scheduler.CosineAnnealingLR(opt, T_max=10)
opt.step()
sched.step(3)
print(sched.get_last_lr())

print("== errors")
for make in (lambda: lr_scheduler.StepLR("sgd", 3),
             lambda: lr_scheduler.LinearLR(make_optimizer(), start_factor=0),
             lambda: lr_scheduler.LinearLR(make_optimizer(), end_factor=1.5),
             lambda: lr_scheduler.ConstantLR(make_optimizer(), factor=2.0),
             lambda: lr_scheduler.LambdaLR(make_optimizer(), [lambda e: 1, lambda e: 2]),
             lambda: lr_scheduler.MultiplicativeLR(make_optimizer(), 0.5)):
    try:
        make()
        print("no error")
    except (TypeError, ValueError) as e:
        print(type(e).__name__ + ":", e)
print(issubclass(lr_scheduler.StepLR, lr_scheduler.LRScheduler),
      issubclass(lr_scheduler._LRScheduler, lr_scheduler.LRScheduler))
