# torch.autograd.anomaly_mode: detect_anomaly and set_detect_anomaly. With check_nan the backward
# checks every node's gradients and raises PyTorch's RuntimeError naming the node whose
# gradient holds a NaN (engine/tensor/autograd.h, AnomalyMode). The forward traceback PyTorch
# also prints for the failing node is not recorded.
import torch
from torch._kiln import _set_anomaly


class detect_anomaly:
    def __init__(self, check_nan=True):
        self.prev = torch.is_anomaly_enabled()
        self.check_nan = check_nan
        self.prev_check_nan = torch.is_anomaly_check_nan_enabled()
        import warnings  # at use: torch.autograd is imported where the standard library may not be
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime "
                      "and should only be enabled for debugging.", stacklevel=2)

    def __enter__(self):
        _set_anomaly(True, self.check_nan)

    def __exit__(self, *args):
        _set_anomaly(self.prev, self.prev_check_nan)


class set_detect_anomaly:
    def __init__(self, mode, check_nan=True):
        self.prev = torch.is_anomaly_enabled()
        self.prev_check_nan = torch.is_anomaly_check_nan_enabled()
        _set_anomaly(mode, check_nan)

    def __enter__(self):
        pass

    def __exit__(self, *args):
        _set_anomaly(self.prev, self.prev_check_nan)
