# torch._inductor.list_mode_options and list_options.
import torch

print(torch._inductor.list_mode_options("reduce-overhead"))
print(torch._inductor.list_mode_options("default"))
print(torch._inductor.list_mode_options("reduce-overhead", dynamic=True))
print(torch._inductor.list_mode_options(mode="default", dynamic=False))
modes = torch._inductor.list_mode_options()
print(type(modes).__name__, modes["default"], modes["reduce-overhead"])
print(modes == torch._inductor.list_mode_options(None))
print(modes == torch._inductor.list_mode_options(""))
print("max-autotune" in modes, "max-autotune-no-cudagraphs" in modes)
print(modes["max-autotune"]["max_autotune"], modes["max-autotune"]["triton.cudagraphs"])
print(modes["max-autotune-no-cudagraphs"]["max_autotune"])
print("triton.cudagraphs" in modes["max-autotune-no-cudagraphs"])
modes["default"]["x"] = 1
print(torch._inductor.list_mode_options("default"))

opts = torch._inductor.list_options()
print(type(opts).__name__, all(isinstance(k, str) for k in opts))
for key in ["debug", "max_autotune", "epilogue_fusion", "fallback_random", "shape_padding",
            "triton.cudagraphs", "trace.enabled", "trace.graph_diagram", "trace.debug_dir",
            "max_autotune_gemm_backends", "coordinate_descent_tuning", "size_asserts"]:
    print(key, key in opts)
print("triton" in opts, "trace" in opts, "no_such_option" in opts)
print(opts.index("max_autotune") < opts.index("triton.cudagraphs") < opts.index("trace.enabled"))
print(opts.index("debug") < opts.index("epilogue_fusion") < opts.index("max_autotune"))
print(opts.index("trace.enabled") < opts.index("trace.debug_dir") < opts.index("trace.graph_diagram"))
