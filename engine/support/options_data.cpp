// SPDX-License-Identifier: MIT
// The option tables of torch._inductor.config and torch._dynamo.config: the options the
// specification and the reference name, in the declaration order of PyTorch 2.3.0's config.py,
// with its defaults and environment variables (read in the 2.3.0 release). One deliberate
// difference: cache_size_limit is 64, as the torch.compile documentation of 2.3 states.
#include "support/options.h"

#include <algorithm>
#include <filesystem>
#include <sched.h>
#include <thread>

namespace kiln {

namespace {

using T = OptionType;
using E = EnvParse;

/// min(32, number of CPUs this process may run on), as 2.3's decide_compile_threads().
OptionValue defaultCompileThreads() {
    int64_t cpus = 0;
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) cpus = CPU_COUNT(&set);
    if (cpus <= 0) cpus = std::max<int64_t>(1, std::thread::hardware_concurrency());
    return std::min<int64_t>(32, cpus);
}

/// <cwd>/torch_compile_debug, as 2.3's default_debug_dir_root() without the env variable.
OptionValue defaultDebugDirRoot() {
    std::error_code ec;
    std::filesystem::path cwd = std::filesystem::current_path(ec);
    return (ec ? std::filesystem::path(".") : cwd).append("torch_compile_debug").string();
}

const OptionSpec kInductor[] = {
    {"debug", T::Bool, "False", nullptr, E::None,
     "Print extra debug output while compiling (and raise dynamo's log level to DEBUG)."},
    {"debug_check_inf_and_nan", T::Bool, "False", nullptr, E::None,
     "Check the outputs of every kernel for inf and NaN."},
    {"fx_graph_cache", T::Bool, "False", "TORCHINDUCTOR_FX_GRAPH_CACHE", E::EqualsOne,
     "Cache compiled graphs across runs, keyed by the graph and the configuration."},
    {"cpp_wrapper", T::Bool, "False", "TORCHINDUCTOR_CPP_WRAPPER", E::EqualsOne,
     "Generate the code that launches the kernels in C++ instead of Python."},
    {"dce", T::Bool, "False", nullptr, E::None,
     "Remove dead code from the graph before lowering it."},
    {"static_weight_shapes", T::Bool, "True", nullptr, E::None,
     "Assume that parameters keep their sizes, even with dynamic shapes."},
    {"size_asserts", T::Bool, "True", "TORCHINDUCTOR_SIZE_ASSERTS", E::EqualsOne,
     "Generated code checks the sizes and strides of its inputs."},
    {"nan_asserts", T::Bool, "False", "TORCHINDUCTOR_NAN_ASSERTS", E::EqualsOne,
     "Generated code checks that its outputs hold no NaN."},
    {"pick_loop_orders", T::Bool, "True", nullptr, E::None,
     "Order the loops of a kernel by the memory layout of its inputs."},
    {"inplace_buffers", T::Bool, "True", nullptr, E::None,
     "Let a kernel write its output over an input that is no longer needed."},
    {"allow_buffer_reuse", T::Bool, "True", nullptr, E::None,
     "Reuse a freed buffer for a later, unrelated buffer."},
    {"memory_planning", T::Bool, "False", "TORCHINDUCTOR_MEMORY_PLANNING", E::EqualsOne,
     "Allocate intermediate buffers from pools planned at compile time."},
    {"benchmark_harness", T::Bool, "True", nullptr, E::None,
     "Emit a benchmark harness with the generated code."},
    {"epilogue_fusion", T::Bool, "True", nullptr, E::None,
     "Fuse pointwise ops into matrix-product templates (requires max_autotune)."},
    {"pattern_matcher", T::Bool, "True", nullptr, E::None,
     "Apply the pattern-matching graph rewrites (attention written out by hand becomes one "
     "fused attention kernel on the GPU)."},
    {"max_autotune", T::Bool, "False", "TORCHINDUCTOR_MAX_AUTOTUNE", E::EqualsOne,
     "Benchmark candidate kernels and keep the fastest; every candidate and its time is "
     "recorded."},
    {"max_autotune_pointwise", T::Bool, "False", "TORCHINDUCTOR_MAX_AUTOTUNE_POINTWISE",
     E::EqualsOne, "Autotune pointwise and reduction kernels."},
    {"max_autotune_gemm", T::Bool, "False", "TORCHINDUCTOR_MAX_AUTOTUNE_GEMM", E::EqualsOne,
     "Autotune matrix products."},
    {"use_autotune_local_cache", T::Bool, "True", nullptr, E::None,
     "Keep autotuning results in a cache on this machine."},
    {"max_autotune_gemm_backends", T::Str, "'ATEN,TRITON'",
     "TORCHINDUCTOR_MAX_AUTOTUNE_GEMM_BACKENDS", E::Upper,
     "Candidate backends of matrix-product autotuning, comma-separated: ATEN, TRITON, CUTLASS."},
    {"coordinate_descent_tuning", T::Bool, "False", "TORCHINDUCTOR_COORDINATE_DESCENT_TUNING",
     E::EqualsOne, "Tune the launch configuration of kernels by coordinate descent."},
    {"coordinate_descent_check_all_directions", T::Bool, "False",
     "TORCHINDUCTOR_COORDINATE_DESCENT_CHECK_ALL_DIRECTIONS", E::EqualsOne,
     "In coordinate descent, try every direction before giving up."},
    {"coordinate_descent_search_radius", T::Int, "1", "TORCHINDUCTOR_COORDINATE_DESCENT_RADIUS",
     E::Int, "How many steps coordinate descent looks from the current configuration."},
    {"layout_optimization", T::Bool, "True", "TORCHINDUCTOR_LAYOUT_OPTIMIZATION", E::EqualsOne,
     "Choose tensor layouts (channels-last for convolutions) for speed."},
    {"keep_output_stride", T::Bool, "True", "TORCHINDUCTOR_KEEP_OUTPUT_STRIDE", E::EqualsOne,
     "Give outputs the strides eager mode gives them, whatever layout was chosen."},
    {"realize_reads_threshold", T::Int, "4", nullptr, E::None,
     "A value read more often than this is stored in a buffer instead of recomputed."},
    {"realize_opcount_threshold", T::Int, "30", nullptr, E::None,
     "A value made of more ops than this is stored in a buffer instead of inlined."},
    {"fallback_random", T::Bool, "False", nullptr, E::None,
     "Run random ops (dropout, rand) eagerly so results match eager mode; for debugging "
     "accuracy."},
    {"implicit_fallbacks", T::Bool, "True", nullptr, E::None,
     "Run ops without a lowering eagerly instead of failing."},
    {"aggressive_fusion", T::Bool, "False", nullptr, E::None,
     "Fuse kernels even when they share no reads."},
    {"max_fusion_size", T::Int, "64", nullptr, E::None, "The most nodes fused into one kernel."},
    {"unroll_reductions_threshold", T::Int, "8", nullptr, E::None,
     "Reductions over fewer elements than this become pointwise code."},
    {"split_reductions", T::Bool, "True", nullptr, E::None,
     "Split large reductions in two kernels for more parallelism."},
    {"worker_start_method", T::Str, "'fork'", nullptr, E::None, "How compile workers are started."},
    {"compile_threads", T::Int, nullptr, "TORCHINDUCTOR_COMPILE_THREADS", E::Int,
     "Parallel compile workers (default: the CPUs this process may use, at most 32).",
     defaultCompileThreads},
    {"shape_padding", T::Bool, "True", "TORCHINDUCTOR_SHAPE_PADDING", E::EqualsOne,
     "Pad matrix-product dimensions for aligned loads and tensor cores."},
    {"freezing", T::Bool, "False", "TORCHINDUCTOR_FREEZING", E::EqualsOne,
     "Inline parameters as constants and fold them (inference only)."},
    {"triton.cudagraphs", T::Bool, "False", nullptr, E::None,
     "Run compiled graphs as CUDA graphs (PyTorch's name; what reduce-overhead sets)."},
    {"triton.cudagraph_trees", T::Bool, "True", nullptr, E::None,
     "CUDA graphs of a run share one memory pool (cudagraph trees)."},
    {"triton.debug_sync_graph", T::Bool, "False", nullptr, E::None,
     "Synchronize the device before and after every compiled graph."},
    {"triton.debug_sync_kernel", T::Bool, "False", nullptr, E::None,
     "Synchronize the device after every kernel launch."},
    {"triton.max_tiles", T::Int, "2", nullptr, E::None,
     "The most dimensions a pointwise kernel is tiled in."},
    {"triton.autotune_pointwise", T::Bool, "True", nullptr, E::None,
     "Autotune the block sizes of pointwise kernels with complex layouts."},
    {"triton.unique_kernel_names", T::Bool, "False", "TORCHINDUCTOR_UNIQUE_KERNEL_NAMES",
     E::EqualsOne, "Give every kernel a name of its own."},
    {"triton.descriptive_names", T::Str, "'original_aten'", nullptr, E::None,
     "What kernel names are made of: 'original_aten', 'torch', 'inductor_node' (False: "
     "numbers only)."},
    {"triton.persistent_reductions", T::Bool, "True", "TORCHINDUCTOR_PERSISTENT_REDUCTIONS",
     E::EqualsOne, "Compute small reductions in one block without a loop."},
    {"triton.multi_kernel", T::Int, "0", "TORCHINDUCTOR_MULTI_KERNEL", E::Int,
     "Generate persistent and looped reductions and pick one at run time (0: off)."},
    {"triton.use_block_ptr", T::Bool, "False", nullptr, E::None,
     "Generate block-pointer loads and stores."},
    {"trace.enabled", T::Bool, "False", "TORCH_COMPILE_DEBUG", E::EqualsOne,
     "Write the debug directory of every compiled graph (the master switch of trace.*)."},
    {"trace.debug_dir", T::OptionalStr, "None", nullptr, E::None,
     "Where the debug directory goes (None: a run directory under debug_dir_root)."},
    {"trace.debug_log", T::Bool, "False", nullptr, E::None,
     "Save DEBUG log records in the debug directory."},
    {"trace.info_log", T::Bool, "False", nullptr, E::None,
     "Save INFO log records in the debug directory."},
    {"trace.fx_graph", T::Bool, "True", nullptr, E::None,
     "Save the input graph, after decompositions."},
    {"trace.fx_graph_transformed", T::Bool, "True", nullptr, E::None,
     "Save the graph after the graph passes."},
    {"trace.ir_pre_fusion", T::Bool, "True", nullptr, E::None, "Save the IR before fusion."},
    {"trace.ir_post_fusion", T::Bool, "True", nullptr, E::None, "Save the IR after fusion."},
    {"trace.output_code", T::Bool, "True", nullptr, E::None,
     "Save the generated code in the debug directory."},
    {"trace.graph_diagram", T::Bool, "False", "INDUCTOR_POST_FUSION_SVG", E::EqualsOne,
     "Draw the graph after fusion (graph_diagram.svg)."},
    {"trace.draw_orig_fx_graph", T::Bool, "False", "INDUCTOR_ORIG_FX_SVG", E::EqualsOne,
     "Draw the graph before fusion with its fusion groups (orig_fx_graph_diagram.svg)."},
    {"trace.dot_graph_shape", T::OptionalStr, "None", "INDUCTOR_DOT_GRAPH_SHAPE_SVG", E::Raw,
     "The Graphviz node shape of the diagrams (None: record)."},
    {"trace.compile_profile", T::Bool, "False", nullptr, E::None,
     "Profile the compiler and save the profile in the debug directory."},
    {"trace.log_autotuning_results", T::Bool, "False", nullptr, E::None,
     "Save the autotuning results in the debug directory."},
};

const OptionSpec kDynamo[] = {
    {"verbose", T::Bool, "False", "TORCHDYNAMO_VERBOSE", E::EqualsOne,
     "Print full stack traces with warnings and errors."},
    {"cache_size_limit", T::Int, "64", nullptr, E::None,
     "The most cache entries of a code object (per ID-matched object) before new inputs run "
     "eagerly; 64 as documented (PyTorch 2.3 itself uses 8)."},
    {"accumulated_cache_size_limit", T::Int, "64", nullptr, E::None,
     "The most cache entries of a code object in all."},
    {"specialize_int", T::Bool, "False", nullptr, E::None,
     "Always specialize int inputs instead of making them dynamic after a change."},
    {"assume_static_by_default", T::Bool, "True", nullptr, E::None,
     "Compile static first: sizes are dynamic only when marked, or after they change."},
    {"automatic_dynamic_shapes", T::Bool, "True", nullptr, E::None,
     "When a size change causes a recompile, mark the changed dimensions dynamic."},
    {"force_parameter_static_shapes", T::Bool, "True", nullptr, E::None,
     "Parameters always have static sizes."},
    {"force_nn_module_property_static_shapes", T::Bool, "True", nullptr, E::None,
     "Tensors held by modules always have static sizes."},
    {"allow_ignore_mark_dynamic", T::Bool, "False", nullptr, E::None,
     "Do not fail when a dimension marked dynamic gets specialized."},
    {"guard_nn_modules", T::Bool, "False", nullptr, E::None,
     "Guard on the attributes of modules instead of assuming them unchanged."},
    {"guard_nn_modules_using_dict_tags", T::Bool, "True", nullptr, E::None,
     "Detect changes to modules by a version tag of their attribute dictionary."},
    {"skip_nnmodule_hook_guards", T::Bool, "True", nullptr, E::None,
     "Do not guard on modules' empty forward hook dicts: a hook added after a compile to a "
     "module that had none is not noticed until something else recompiles."},
    {"suppress_errors", T::Bool, "False", "TORCHDYNAMO_SUPPRESS_ERRORS", E::NonEmpty,
     "On a compile failure, warn and run the frame eagerly instead of raising."},
    {"disable", T::Bool, "False", "TORCH_COMPILE_DISABLE", E::Raw,
     "Disable torch.compile everywhere (the variable's text becomes the value, as in 2.3)."},
    {"capture_scalar_outputs", T::Bool, "False", nullptr, E::None,
     "Capture .item() and similar in the graph instead of breaking it."},
    {"capture_dynamic_output_shape_ops", T::Bool, "False", nullptr, E::None,
     "Capture ops whose output size depends on data (nonzero) instead of breaking the graph."},
    {"error_on_recompile", T::Bool, "False", nullptr, E::None,
     "Raise RecompileError instead of recompiling."},
    {"debug_dir_root", T::Str, nullptr, "TORCH_COMPILE_DEBUG_DIR", E::DebugDirRoot,
     "The folder debug directories go in: $TORCH_COMPILE_DEBUG_DIR/torch_compile_debug, else "
     "<cwd>/torch_compile_debug.",
     defaultDebugDirRoot},
};

} // namespace

const OptionRegistry& inductorOptionRegistry() {
    static const OptionRegistry registry("torch._inductor.config", kInductor);
    return registry;
}

const OptionRegistry& dynamoOptionRegistry() {
    static const OptionRegistry registry("torch._dynamo.config", kDynamo);
    return registry;
}

} // namespace kiln
