# torch._inductor.config: reading defaults, assigning, nested groups, unknown names.
import torch
import torch._inductor.config as config
from torch._inductor import config as same

print(config is torch._inductor.config, same is config)
print(config.max_autotune, config.epilogue_fusion, config.fallback_random, config.shape_padding)
print(config.debug, config.max_autotune_pointwise, config.max_autotune_gemm, config.dce)
print(config.coordinate_descent_tuning, config.coordinate_descent_search_radius)
print(config.max_fusion_size, config.realize_reads_threshold, config.unroll_reductions_threshold)
print(config.triton.cudagraphs, config.triton.cudagraph_trees, config.triton.descriptive_names)
print(config.trace.enabled, config.trace.debug_dir, config.trace.graph_diagram)
print(config.trace.fx_graph, config.trace.ir_post_fusion, config.trace.output_code)

config.max_autotune = True
config.triton.cudagraphs = True
config.trace.graph_diagram = True
print(config.max_autotune, torch._inductor.config.triton.cudagraphs, same.trace.graph_diagram)

# The config module stores whatever it is given, like PyTorch's.
config.max_fusion_size = "many"
config.trace.debug_dir = ["not", "checked"]
print(repr(config.max_fusion_size), config.trace.debug_dir)
config.trace.debug_dir = None
print(config.trace.debug_dir)

print(hasattr(config, "no_such_option"), hasattr(config.triton, "no_such_option"))
for owner, name in [(config, "no_such_option"), (config.triton, "no_such_option"),
                    (config.trace, "nope")]:
    try:
        getattr(owner, name)
    except AttributeError:
        print(name, "-> AttributeError")
try:
    config.triton.no_such_option = 1
except AttributeError:
    print("assignment -> AttributeError")
print(getattr(config.trace, "enabled"), getattr(config, "fallback_random"))
setattr(config.trace, "enabled", True)
print(config.trace.enabled)
