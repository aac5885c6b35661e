# a[indices] = value on tensors in the autograd graph (index_put_): the old tensor's gradient
# loses the written places, the value's is gathered from them (summed over its broadcast), with
# integer and boolean indices, a broadcast value, a number, PyTorch's node names, and the error
# when the write changed a value an earlier op saved.
import torch

w = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
v = torch.tensor([10.0, 20.0], requires_grad=True)
a = w * 2
a[torch.tensor([0, 2])] = v
print(a.grad_fn.name(), a)
(a * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
print("w", w.grad, "v", v.grad)

m = torch.arange(6.0).reshape(2, 3).requires_grad_()
b = m.exp()
s = torch.tensor(5.0, requires_grad=True)
b[torch.tensor([[True, False, True], [False, True, False]])] = s
print(b.grad_fn.name())
try:
    b.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:150])
b2 = m * 3
b2[torch.tensor([[True, False, True], [False, True, False]])] = s
b2.sum().backward()
print("m", m.grad, "s", s.grad)

c0 = torch.ones(3, 4, requires_grad=True)
c = c0 * 1
row = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
c[torch.tensor([0, 2])] = row
(c * torch.arange(12.0).reshape(3, 4)).sum().backward()
print("c0", c0.grad, "row", row.grad)

d0 = torch.ones(4, requires_grad=True)
d = d0 + 0
d[torch.tensor([1, 3])] = 0.0
print(d.grad_fn.name())
d.sum().backward()
print("d0", d0.grad)
