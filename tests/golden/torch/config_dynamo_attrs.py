# torch._dynamo.config: the options the design names, read and assigned.
import torch
import torch._dynamo
import torch._dynamo.config

cfg = torch._dynamo.config
print(cfg.suppress_errors, cfg.capture_scalar_outputs, cfg.capture_dynamic_output_shape_ops)
print(cfg.automatic_dynamic_shapes, cfg.assume_static_by_default, cfg.specialize_int)
print(cfg.force_parameter_static_shapes, cfg.error_on_recompile, cfg.verbose)

cfg.capture_scalar_outputs = True
cfg.suppress_errors = True
cfg.cache_size_limit = 16
import torch._dynamo.config as again
print(again is cfg, again.capture_scalar_outputs, again.suppress_errors, again.cache_size_limit)
torch._dynamo.config.automatic_dynamic_shapes = False
print(cfg.automatic_dynamic_shapes)

print(hasattr(cfg, "no_such_option"), hasattr(cfg, "cache_size_limit"))
try:
    cfg.no_such_option
except AttributeError:
    print("AttributeError")
