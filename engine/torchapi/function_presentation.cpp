// SPDX-License-Identifier: MIT
#include "torchapi/function_presentation.h"

#include <algorithm>
#include <string_view>

namespace kiln::torchapi {
namespace {

using lang::NativeFunctionObject;
using lang::NativeStyle;

struct PythonFunction {
    std::string_view name, module, qualname;
};

// torch's Python functions in PyTorch 2.3.1: name, __module__, __qualname__ (listed with
// `isinstance(getattr(torch, n), types.FunctionType)` over dir(torch)). Every other native of
// torch that is not a class there (kTorchClasses) is an operator of _VariableFunctionsClass.
constexpr PythonFunction kTorchPythonFunctions[] = {
    {"_assert", "torch", "_assert"},
    {"align_tensors", "torch.functional", "align_tensors"},
    {"are_deterministic_algorithms_enabled", "torch", "are_deterministic_algorithms_enabled"},
    {"atleast_1d", "torch.functional", "atleast_1d"},
    {"atleast_2d", "torch.functional", "atleast_2d"},
    {"atleast_3d", "torch.functional", "atleast_3d"},
    {"block_diag", "torch.functional", "block_diag"},
    {"broadcast_shapes", "torch.functional", "broadcast_shapes"},
    {"broadcast_tensors", "torch.functional", "broadcast_tensors"},
    {"cartesian_prod", "torch.functional", "cartesian_prod"},
    {"cdist", "torch.functional", "cdist"},
    {"chain_matmul", "torch.functional", "chain_matmul"},
    {"compile", "torch", "compile"},
    {"cond", "torch", "cond"},
    {"einsum", "torch.functional", "einsum"},
    {"from_dlpack", "torch.utils.dlpack", "from_dlpack"},
    {"get_default_device", "torch", "get_default_device"},
    {"get_deterministic_debug_mode", "torch", "get_deterministic_debug_mode"},
    {"get_float32_matmul_precision", "torch", "get_float32_matmul_precision"},
    {"get_rng_state", "torch.random", "get_rng_state"},
    {"initial_seed", "torch.random", "initial_seed"},
    {"is_deterministic_algorithms_warn_only_enabled", "torch",
     "is_deterministic_algorithms_warn_only_enabled"},
    {"is_storage", "torch", "is_storage"},
    {"is_tensor", "torch", "is_tensor"},
    {"is_warn_always_enabled", "torch", "is_warn_always_enabled"},
    {"load", "torch.serialization", "load"},
    {"lu", "torch.functional", "boolean_dispatch.<locals>.fn"},
    {"manual_seed", "torch.random", "manual_seed"},
    {"meshgrid", "torch.functional", "meshgrid"},
    {"norm", "torch.functional", "norm"},
    {"save", "torch.serialization", "save"},
    {"seed", "torch.random", "seed"},
    {"set_default_device", "torch", "set_default_device"},
    {"set_default_dtype", "torch", "set_default_dtype"},
    {"set_default_tensor_type", "torch", "set_default_tensor_type"},
    {"set_deterministic_debug_mode", "torch", "set_deterministic_debug_mode"},
    {"set_float32_matmul_precision", "torch", "set_float32_matmul_precision"},
    {"set_printoptions", "torch._tensor_str", "set_printoptions"},
    {"set_rng_state", "torch.random", "set_rng_state"},
    {"set_warn_always", "torch", "set_warn_always"},
    {"split", "torch.functional", "split"},
    {"stft", "torch.functional", "stft"},
    {"sym_float", "torch", "sym_float"},
    {"sym_int", "torch", "sym_int"},
    {"sym_ite", "torch", "sym_ite"},
    {"sym_max", "torch", "sym_max"},
    {"sym_min", "torch", "sym_min"},
    {"sym_not", "torch", "sym_not"},
    {"sym_sqrt", "torch", "_sym_sqrt"},
    {"tensordot", "torch.functional", "tensordot"},
    {"typename", "torch", "typename"},
    {"unique", "torch.functional", "boolean_dispatch.<locals>.fn"},
    {"unique_consecutive", "torch.functional", "boolean_dispatch.<locals>.fn"},
    {"unravel_index", "torch.functional", "unravel_index"},
    {"use_deterministic_algorithms", "torch", "use_deterministic_algorithms"},
    {"vmap", "torch.func", "vmap"},
};

// Classes in PyTorch that Kiln implements as natives: left as they are.
constexpr std::string_view kTorchClasses[] = {"enable_grad",    "finfo",   "iinfo",
                                              "inference_mode", "no_grad", "set_grad_enabled"};

// torch.nn.functional's builtins from torch._C._nn in PyTorch 2.3.1 (`<built-in function
// gelu>`); F's other builtins are torch's operators themselves (F.conv2d is torch.conv2d).
constexpr std::string_view kFunctionalNnBuiltins[] = {
    "avg_pool2d",  "avg_pool3d", "elu_",       "gelu",    "hardtanh_",
    "leaky_relu_", "linear",     "logsigmoid", "one_hot", "scaled_dot_product_attention",
    "softplus",    "softshrink"};
constexpr std::string_view kFunctionalOperators[] = {"adaptive_avg_pool1d",
                                                     "avg_pool1d",
                                                     "bilinear",
                                                     "celu_",
                                                     "channel_shuffle",
                                                     "conv1d",
                                                     "conv2d",
                                                     "conv3d",
                                                     "conv_tbc",
                                                     "conv_transpose1d",
                                                     "conv_transpose2d",
                                                     "conv_transpose3d",
                                                     "cosine_similarity",
                                                     "hardshrink",
                                                     "native_channel_shuffle",
                                                     "pairwise_distance",
                                                     "pdist",
                                                     "pixel_shuffle",
                                                     "pixel_unshuffle",
                                                     "prelu",
                                                     "relu_",
                                                     "rrelu_",
                                                     "selu_",
                                                     "threshold_"};

// F's Python functions whose __qualname__ is not their name (made by a helper).
constexpr std::pair<std::string_view, std::string_view> kFunctionalQualnames[] = {
    {"adaptive_max_pool1d", "boolean_dispatch.<locals>.fn"},
    {"adaptive_max_pool2d", "boolean_dispatch.<locals>.fn"},
    {"adaptive_max_pool3d", "boolean_dispatch.<locals>.fn"},
    {"fractional_max_pool2d", "boolean_dispatch.<locals>.fn"},
    {"fractional_max_pool3d", "boolean_dispatch.<locals>.fn"},
    {"max_pool1d", "boolean_dispatch.<locals>.fn"},
    {"max_pool2d", "boolean_dispatch.<locals>.fn"},
    {"max_pool3d", "boolean_dispatch.<locals>.fn"},
    {"threshold", "_threshold"},
};

template <typename Range>
bool contains(const Range& names, std::string_view name) {
    return std::find(std::begin(names), std::end(names), name) != std::end(names);
}

NativeFunctionObject* native(const lang::Value& v) {
    return v.is(lang::ObjectKind::NativeFunction) ? v.as<NativeFunctionObject>() : nullptr;
}

void presentAsVariableFunction(NativeFunctionObject& fn) {
    fn.style = NativeStyle::VariableFunction;
    fn.module = "torch";
    fn.qualname = "_VariableFunctionsClass." + fn.name;
}

void presentTorch(lang::ModuleObject& torch) {
    for (const lang::AttrMap::Entry& e : torch.globals.entries()) {
        NativeFunctionObject* fn = native(e.value);
        if (!fn) continue;
        const std::string& name = e.key.str();
        auto py = std::find_if(std::begin(kTorchPythonFunctions), std::end(kTorchPythonFunctions),
                               [&](const PythonFunction& f) { return f.name == name; });
        if (py != std::end(kTorchPythonFunctions))
            lang::presentAsPythonFunction(*fn, std::string(py->module), std::string(py->qualname));
        else if (!contains(kTorchClasses, name))
            presentAsVariableFunction(*fn);
    }
}

void presentFunctional(lang::ModuleObject& functional, lang::ModuleObject& torch) {
    for (const lang::AttrMap::Entry& e : functional.globals.entries()) {
        NativeFunctionObject* fn = native(e.value);
        if (!fn || e.key.str().starts_with('_')) continue;
        const std::string& name = e.key.str();
        if (contains(kFunctionalNnBuiltins, name)) {
            fn->module = "torch._C._nn";
        } else if (contains(kFunctionalOperators, name)) {
            presentAsVariableFunction(*fn);
            // F.conv2d is torch.conv2d.
            torch.globals.set(e.key, e.value);
        } else {
            auto q = std::find_if(std::begin(kFunctionalQualnames), std::end(kFunctionalQualnames),
                                  [&](const auto& p) { return p.first == name; });
            std::string qualname(q != std::end(kFunctionalQualnames) ? q->second : name);
            lang::presentAsPythonFunction(*fn, "torch.nn.functional", std::move(qualname));
        }
    }
}

} // namespace

void presentFunctionsAsPyTorch(lang::Interpreter& interp, lang::ModuleObject& torch) {
    presentTorch(torch);
    presentFunctional(*interp.importModule("torch.nn.functional"), torch);
}

} // namespace kiln::torchapi
