# The scatter and index_* checks in PyTorch's order and words: slice shapes, dimensionality,
# a 0-dim src as the tensor overload, an empty index (nothing checked), bincount's overflow.
import torch
tests = [lambda: torch.zeros(2,3).index_add(1, torch.tensor([0,1]), torch.ones(2)),
 lambda: torch.zeros(2,3).index_copy(1, torch.tensor([0,1]), torch.ones(2)),
 lambda: torch.zeros(3,4).index_copy(0, torch.tensor([0,2]), torch.ones(2,1)),
 lambda: torch.zeros(3,4).index_add(0, torch.tensor([0,2]), torch.ones(2,1)),
 lambda: torch.zeros(3,4).index_add(0, torch.tensor([0]), torch.tensor(1.)),
 lambda: torch.zeros(3).index_add(0, torch.tensor([1]), torch.tensor(1.)),
 lambda: torch.zeros(3).index_copy(0, torch.tensor([1]), torch.tensor(1.)),
 lambda: torch.zeros(3,4).index_add(0, torch.tensor([-1]), torch.ones(1,4)),
 lambda: torch.zeros(3,4).index_copy(0, torch.tensor([0]), torch.ones(1,5)),
 lambda: torch.zeros(3,4).index_copy(1, torch.tensor([0]), torch.ones(3,1,1)),
 lambda: torch.scatter(torch.zeros(3), 0, torch.tensor([1, 2]), torch.tensor(5.)),
 lambda: torch.scatter(torch.zeros(3), 0, torch.tensor([1]), torch.tensor(5)),
 lambda: torch.scatter_add(torch.zeros(3), 0, torch.tensor([1, 2]), torch.tensor(5.)),
 lambda: torch.scatter_add(torch.zeros(3), 0, torch.tensor([1]), torch.tensor(5.)),
 lambda: torch.zeros(3).scatter(0, torch.tensor([1]), value=torch.tensor(5.)),
 lambda: torch.zeros(3,3).scatter(0, torch.empty(0, dtype=torch.long), torch.ones(2)),
 lambda: torch.bincount(torch.tensor([9223372036854775807])),
]
for t in tests:
    try: print('ok', t())
    except Exception as e: print(type(e).__name__, e)
