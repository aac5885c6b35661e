# dynamic=True and duck sizing: two inputs of equal size share one symbol (and a guard that
# they stay equal), so diverging sizes recompile, as Dynamo does.
import torch
cnt = 0
def counting(gm, example_inputs):
    global cnt
    cnt += 1
    return gm.forward

@torch.compile(backend=counting, dynamic=True)
def f(x, y):
    return x.sum() + y.sum()

f(torch.ones(4), torch.ones(4))
print("after equal", cnt)
f(torch.ones(5), torch.ones(5))
print("after equal again", cnt)
f(torch.ones(5), torch.ones(7))
print("after diverge", cnt)
f(torch.ones(6), torch.ones(9))
print("after diverge again", cnt)
