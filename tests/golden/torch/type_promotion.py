# Type promotion between tensors, 0-dim tensors and Python numbers.
import torch

dts = [torch.bool, torch.int32, torch.int64, torch.float16, torch.bfloat16, torch.float32,
       torch.float64]
for a in dts:
    row = []
    for b in dts:
        row.append(str((torch.ones(2, dtype=a) + torch.ones(2, dtype=b)).dtype).replace("torch.", ""))
    print(str(a).replace("torch.", ""), row)
for a in dts:
    t = torch.ones(2, dtype=a)
    print(a, (t + 1).dtype, (t + 1.5).dtype, (t * True).dtype, (t + torch.tensor(1.5)).dtype,
          (t + torch.tensor(1, dtype=torch.int64)).dtype,
          (t + torch.tensor(1.0, dtype=torch.float64)).dtype)
print(torch.result_type(torch.tensor([1]), 1.0), torch.promote_types(torch.int32, torch.float16))
print(torch.can_cast(torch.float32, torch.int32), torch.can_cast(torch.int32, torch.float32))
print((torch.tensor([1, 2], dtype=torch.int32) / 2).dtype, (torch.tensor([1, 2]) / 2).dtype)
print(torch.tensor([1, 2], dtype=torch.int32) + 2 ** 40)
print(torch.tensor([1.5], dtype=torch.float16) + 1e-3, torch.tensor([1.5], dtype=torch.bfloat16) * 3)
print(torch.tensor(3) + torch.tensor([1.5, 2.5], dtype=torch.float16))
