# torch._subclasses.fake_tensor for Kiln workloads: what a backend finds in a captured graph's
# node.meta["example_value"]. PyTorch's FakeTensor has the traced tensor's metadata and no
# data; Kiln's holds a zero example of the dtype and device and the traced sizes, whose
# dynamic dims are SymInts printing as their symbols (torch.Size([s0, 2])). Reading data
# (item(), tolist(), printing values) is not possible, as with PyTorch's outside fake mode.
import torch


class FakeTensor:
    def __init__(self, example, sizes, strides=None, device="cpu", grad_fn=""):
        self._kiln_example = example
        self._kiln_grad_fn = grad_fn
        self._kiln_sizes = tuple(sizes)
        if strides is None or len(strides) != len(self._kiln_sizes):
            strides, step = [], 1
            for size in reversed(self._kiln_sizes):
                strides.insert(0, step)
                step = step * max(int(size), 1)
        self._kiln_strides = tuple(strides)
        self._kiln_device = torch.device(device or "cpu")

    # isinstance(fake, torch.Tensor) holds, as a backend's checks expect; type() is FakeTensor.
    __kiln_virtual_bases__ = (torch.Tensor,)

    @property
    def shape(self):
        return torch.Size(self._kiln_sizes)

    def size(self, dim=None):
        if dim is None:
            return self.shape
        return self._kiln_sizes[dim]

    def dim(self):
        return len(self._kiln_sizes)

    @property
    def ndim(self):
        return len(self._kiln_sizes)

    def numel(self):
        n = 1
        for s in self._kiln_sizes:
            n = n * s
        return n

    @property
    def dtype(self):
        return self._kiln_example.dtype

    @property
    def device(self):
        return self._kiln_device

    @property
    def layout(self):
        return self._kiln_example.layout

    @property
    def requires_grad(self):
        return self._kiln_example.requires_grad or bool(self._kiln_grad_fn)

    @property
    def is_leaf(self):
        return not self._kiln_grad_fn

    @property
    def is_cuda(self):
        return self._kiln_device.type == "cuda"

    def stride(self, dim=None):
        return self._kiln_strides if dim is None else self._kiln_strides[dim]

    def is_contiguous(self, memory_format=None):
        expected = 1
        for size, stride in reversed(list(zip(self._kiln_sizes, self._kiln_strides))):
            if size != 1 and stride != expected:
                return False
            expected = expected * size
        return True

    def is_floating_point(self):
        return self._kiln_example.is_floating_point()

    def element_size(self):
        return self._kiln_example.element_size()

    def __len__(self):
        if not self._kiln_sizes:
            raise TypeError("len() of a 0-d tensor")
        return self._kiln_sizes[0]

    def _kiln_no_data(self, *args, **kwargs):
        raise RuntimeError("FakeTensor has no data: a backend reads metadata from node.meta, "
                           "and computes on example_inputs")

    item = tolist = numpy = _kiln_no_data

    def __repr__(self):
        parts = ["..."]
        if self.device.type != "cpu":
            parts.append(f"device='{self.device}'")
        parts.append("size=(" + ", ".join(str(s) for s in self._kiln_sizes) +
                     ("," if len(self._kiln_sizes) == 1 else "") + ")")
        if self.dtype != torch.get_default_dtype():
            parts.append(f"dtype={self.dtype}")
        if self._kiln_grad_fn:
            parts.append(f"grad_fn=<{self._kiln_grad_fn}>")
        elif self.requires_grad:
            parts.append("requires_grad=True")
        return "FakeTensor(" + ", ".join(parts) + ")"
