# torch.cuda: the queries a CPU-only script makes (availability is machine dependent, so only
# its type is printed).
import torch

print(type(torch.cuda.is_available()).__name__, type(torch.cuda.device_count()).__name__)
device = "cuda" if torch.cuda.is_available() else "cpu"
x = torch.ones(2, device="cpu")
print(x.device, torch.device(device).type in ("cpu", "cuda"))
torch.cuda.synchronize() if torch.cuda.is_available() else None
print(hasattr(torch, "cuda"), hasattr(torch.cuda, "is_available"))
