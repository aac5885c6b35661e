# Python protocols on tensors: int()/float() of several elements, unary minus on bool, @ with
# numbers, str indices, f-string formatting of 0-dim tensors, truth of empty tensors.
import torch
x = torch.arange(4.)
for f in [lambda: float(x), lambda: int(x), lambda: -torch.tensor([True]), lambda: x @ 2, lambda: 2 @ x, lambda: x['a'], lambda: f'{torch.tensor(1.5)}', lambda: f'{torch.tensor(3)}', lambda: f'{x}', lambda: bool(torch.tensor([]))]:
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__, e)
