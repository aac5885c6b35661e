# Anomaly detection (issue 16): set_detect_anomaly / detect_anomaly (context managers) and
# torch.is_anomaly_enabled; with check_nan a backward whose node produces a NaN
# gradient raises PyTorch's RuntimeError naming that node; without it, or with anomaly mode off,
# the NaN flows into .grad silently, as in PyTorch.
import torch

print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
x = torch.tensor([0.0, 1.0, 4.0], requires_grad=True)


def step():
    x.grad = None
    (x.sqrt() * 0).sum().backward()  # sqrt's gradient at 0 is inf; times 0: nan
    return x.grad


print(step())
with torch.autograd.detect_anomaly():
    print(torch.is_anomaly_enabled())
    try:
        step()
    except RuntimeError as e:
        print("RuntimeError:", e)
print(torch.is_anomaly_enabled())
with torch.autograd.detect_anomaly(check_nan=False):
    print(step(), torch.is_anomaly_check_nan_enabled())
torch.autograd.set_detect_anomaly(True)
y = torch.tensor([1.0, -1.0], requires_grad=True)
try:
    torch.log(y).sum().backward()  # log(-1) is nan; its gradient 1/y is finite: no error
    print("no error", y.grad)
    (torch.log(y) * y).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
torch.autograd.set_detect_anomaly(False)
with torch.autograd.set_detect_anomaly(True):
    print(torch.is_anomaly_enabled())
print(torch.is_anomaly_enabled())

