# index_put / index_put_: a tuple (or list) of index tensors broadcast together, values
# broadcast to the indexed shape, accumulate=True summing repeated positions, boolean masks;
# errors.
import torch

# index_put: tuple of index tensors (broadcast together), values broadcast to the result.
z = torch.zeros(3, 4)
print(z.index_put((torch.tensor([0, 2]), torch.tensor([1, 3])), torch.tensor([5.0, 6.0])))
print(z.index_put((torch.tensor([[0], [2]]), torch.tensor([0, 1, 3])), torch.tensor(7.0)))
print(z.index_put((torch.tensor([1]),), torch.tensor([1.0, 2.0, 3.0, 4.0])))
print(torch.index_put(z, (torch.tensor([0, 0, 0, 1]), torch.tensor([2, 2, 2, 0])), torch.tensor([1.0, 2.0, 3.0, 4.0]), accumulate=True))
acc = torch.zeros(4, dtype=torch.int64)
print(acc.index_put_((torch.tensor([1, 1, 3, 1]),), torch.tensor(5), accumulate=True), acc)
mask = torch.tensor([[True, False, True, False], [False, False, False, True], [True, True, False, False]])
print(torch.arange(12.0).reshape(3, 4).index_put((mask,), torch.tensor(-1.0)))
print(torch.arange(12.0).reshape(3, 4).index_put((mask,), torch.tensor([10.0, 20.0, 30.0, 40.0, 50.0])))
print(torch.arange(12.0).reshape(3, 4).index_put((torch.tensor([True, False, True]),), torch.tensor([0.5, 1.5, 2.5, 3.5])))
print(torch.arange(12.0).reshape(3, 4).index_put((mask,), torch.tensor([1.0, 1.0, 1.0, 1.0, 1.0]), accumulate=True))
print(torch.zeros(3, 4).index_put([torch.tensor([1])], torch.tensor(2.0)))
for bad in [lambda: torch.zeros(3, 4).index_put((torch.tensor([0, 1]),), torch.ones(3, 4)),
            lambda: torch.zeros(3, 4, dtype=torch.long).index_put((torch.tensor([0]),), torch.tensor(1.0)),
            lambda: torch.zeros(3, 4).index_put((torch.tensor([0.5]),), torch.tensor(1.0))]:
    try:
        bad()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
