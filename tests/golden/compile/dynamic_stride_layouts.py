# Stride guards of dynamic entries: a contiguous, a transposed and a [:, ::2] layout are three
# entries, each reused by inputs of other sizes in the same layout, as Dynamo's symbolic strides.
import torch
cnt = 0
def counting(gm, example_inputs):
    global cnt
    cnt += 1
    return gm.forward

@torch.compile(backend=counting)
def f(x):
    return (x * 2).sum(0)

base = torch.randn(8, 6)
print(f(base).shape, cnt)
print(f(torch.randn(10, 6)).shape, cnt)
print(f(torch.randn(12, 7)).shape, cnt)
print(f(torch.randn(7, 12).t()).shape, cnt)
print(f(torch.randn(9, 14).t()).shape, cnt)
print(f(torch.randn(12, 14)[:, ::2]).shape, cnt)
print(f(torch.randn(13, 16)[:, ::2]).shape, cnt)
print(f(torch.randn(11, 5)).shape, cnt)

@torch.compile(backend=counting, dynamic=True)
def g(x):
    return x + 1
print(g(torch.randn(5, 3)).shape, cnt)
print(g(torch.randn(4, 3).t()).shape, cnt)
print(g(torch.randn(6, 8)[:, ::2]).shape, cnt)
print(g(torch.randn(7, 9)).shape, cnt)
