# backward(inputs=...) as PyTorch's: only the given tensors accumulate (a non-leaf input gets a
# .grad too), torch.autograd.backward(inputs=...), an unused input, and the errors for no
# inputs and for an input that needs no gradient.
import torch
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
c = torch.tensor([5.0], requires_grad=True)
y = a * b
z = (y * y).sum()
z.backward(inputs=[a], retain_graph=True)
print(a.grad, b.grad)
z.backward(inputs=[a, b], retain_graph=True)
print(a.grad, b.grad)
z.backward(inputs=[y], retain_graph=True)
print(y.grad, y.is_leaf)
torch.autograd.backward([z], inputs=[b])
print(b.grad)
w = (a * 2).sum()
try:
    w.backward(inputs=[c])
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    w.backward(inputs=[])
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    (a * 3).sum().backward(inputs=torch.ones(2))
except RuntimeError as e:
    print("RuntimeError:", e)
