# torch._subclasses for Kiln workloads: FakeTensor, what captured graphs' metadata holds.
from torch._subclasses.fake_tensor import FakeTensor  # noqa: F401
