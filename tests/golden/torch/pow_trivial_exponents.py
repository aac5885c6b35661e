# x ** 0 and x ** 1 work for every dtype (bool included) as in PyTorch; other bool powers do not.
import torch
b = torch.tensor([True, False])
for e in [True, False, 2, 0.5]:
    print(e, torch.pow(b, e), b ** e)
for base in [2, 2.0, True]:
    try:
        print(base ** b)
    except NotImplementedError as ex:
        print(type(ex).__name__, ex)
x = torch.tensor([1.5, 2.0], requires_grad=True)
print(x ** 1, x ** 0, torch.tensor([3, 4]) ** 1, torch.tensor([3, 4], dtype=torch.int32) ** 0.0)
