# torch.utils.hooks: RemovableHandle, what register_forward_hook and its kin return.


class RemovableHandle:
    # Ids are unique over the process, as PyTorch's: a handle removes exactly the hook it
    # registered, from the dict it was registered in and from the flag dicts beside it
    # (with_kwargs, always_call). The dicts are held strongly: Kiln has no weak references,
    # and a handle that outlives its module keeps only empty dicts alive.
    next_id = 0

    def __init__(self, hooks_dict, *, extra_dict=None):
        self.hooks_dict_ref = hooks_dict
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1
        if extra_dict is None:
            extra_dict = []
        elif isinstance(extra_dict, dict):
            extra_dict = [extra_dict]
        self.extra_dict_ref = tuple(extra_dict)

    def remove(self):
        for table in (self.hooks_dict_ref,) + self.extra_dict_ref:
            if self.id in table:
                del table[self.id]

    def __enter__(self):
        return self

    def __exit__(self, type, value, tb):
        self.remove()
