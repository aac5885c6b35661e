# torch.utils for Kiln workloads: the parts model code reaches for (hooks' handles).
from torch.utils import hooks
