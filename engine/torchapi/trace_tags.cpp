// SPDX-License-Identifier: MIT
// The trace tags of the torch natives. The default is to record: anything in torch,
// torch.nn.functional or on Tensor computes tensors unless a table below says otherwise, and a
// recorded call whose result holds no tensor leaves no node, so the default is also safe for
// the odd function that returns a plain value. The tables name the exceptions: what only reads
// metadata, what has to break the graph (and PyTorch 2.3's reason for it), and the few
// natives that are no tensor operation at all.
#include "torchapi/trace_tags.h"

#include "lang/capture_hooks.h"
#include "lang/objects.h"
#include "lang/types.h"

#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>

namespace kiln::torchapi {

using namespace kiln::lang;

namespace {

using InfoPtr = std::shared_ptr<const TraceInfo>;

struct BreakEntry {
    std::string_view name;
    std::string_view reason;
    TraceBreak kind;
    bool always = false; ///< breaks even when no argument is traced (global state changes)
};

/// Ops whose output shape depends on the data, with the aten overload PyTorch names in its
/// reason (torch.unique runs aten._unique2, argwhere runs nonzero). PyTorch 2.3 appends
/// "; to enable, set torch._dynamo.config.capture_dynamic_output_shape_ops = True", which the
/// capture layer owns along with that option. repeat_interleave is not here: only its tensor-
/// repeats form is dynamic, and a tag cannot look at the arguments, so it records.
struct DynamicShapeOp {
    std::string_view name;
    std::string_view aten;
};
constexpr DynamicShapeOp kDynamicShapeOps[] = {
    {"nonzero", "nonzero"},
    {"argwhere", "nonzero"},
    {"masked_select", "masked_select"},
    {"unique", "_unique2"},
    {"unique_consecutive", "unique_consecutive"},
    {"bincount", "bincount"},
};

/// Their Python bool result needs the values. Fake tensors make PyTorch 2.3 report these as
/// data-dependent operators (allclose reaches one through its internal .item()).
constexpr std::string_view kEqualReason = "data dependent operator: aten.equal.default";
constexpr std::string_view kAllcloseReason =
    "data dependent operator: aten._local_scalar_dense.default";

/// Tensor methods and properties that return facts about a tensor rather than its values:
/// they run as is during a trace and record nothing.
constexpr std::string_view kTensorMetadata[] = {
    "size",           "dim",           "ndimension",
    "numel",          "nelement",      "stride",
    "is_contiguous",  "is_complex",    "is_floating_point",
    "is_signed",      "element_size",  "get_device",
    "storage_offset", "__len__",       "shape",
    "dtype",          "device",        "ndim",
    "is_cuda",        "requires_grad", "layout",
    "is_leaf",        "grad_fn",       "itemsize",
    "nbytes",         "is_sparse",     "is_quantized",
    "is_meta"};

constexpr BreakEntry kTensorBreaks[] = {
    {"item", "Tensor.item", TraceBreak::Item},
    {"tolist", "Tensor.tolist", TraceBreak::Item},
    {"numpy", "Tensor.numpy (a traced tensor has no values to hand to NumPy)",
     TraceBreak::Unsupported},
    {"data_ptr", "Tensor.data_ptr (a traced tensor has no storage address)",
     TraceBreak::Unsupported},
    // Dynamo breaks when the flag changes, which is what a call inside a compiled function is
    // for; recording it would replay an autograd change inside the graph.
    {"requires_grad_", "Tensor.requires_grad_", TraceBreak::Unsupported},
    // The eager autograd engine runs between graphs, as Dynamo 2.3 breaks on backward (AOT
    // autograd, not the trace, differentiates a compiled graph). Recorded, it ran once at trace
    // time and never again.
    {"backward", "Tensor.backward", TraceBreak::Unsupported, true},
    // Hooks live on the eager autograd graph, which a compiled graph's nodes are not part of.
    {"register_hook", "Tensor.register_hook", TraceBreak::Unsupported},
    {"retain_grad", "Tensor.retain_grad", TraceBreak::Unsupported},
    {"equal", kEqualReason, TraceBreak::ScalarConvert},
    {"allclose", kAllcloseReason, TraceBreak::ScalarConvert},
};

/// Assigning a Tensor property (x.requires_grad = True, x.data = y) goes through its setter.
constexpr BreakEntry kTensorSetters[] = {
    {"requires_grad",
     "mutating requires_grad can introduce a new leaf from non-leaf or vice versa in the middle "
     "of the graph, which aot_autograd does not currently know how to handle.",
     TraceBreak::Unsupported},
    {"data", "setattr Tensor.data (Kiln does not trace .data assignment)", TraceBreak::Unsupported},
};

/// torch functions that return facts about their arguments or read a global setting.
constexpr std::string_view kTorchMetadata[] = {"is_tensor",       "is_floating_point",
                                               "is_complex",      "numel",
                                               "result_type",     "promote_types",
                                               "can_cast",        "get_default_dtype",
                                               "is_grad_enabled", "is_inference_mode_enabled",
                                               "finfo",           "iinfo",
                                               "typename",        "initial_seed",
                                               "get_num_threads", "is_signed"};

constexpr BreakEntry kTorchBreaks[] = {
    {"equal", kEqualReason, TraceBreak::ScalarConvert},
    {"allclose", kAllcloseReason, TraceBreak::ScalarConvert},
    // Global state a graph cannot replay: they break wherever they are called.
    {"manual_seed", "call_function torch.manual_seed (mutates global state)",
     TraceBreak::Unsupported, true},
    {"seed", "call_function torch.seed (mutates global state)", TraceBreak::Unsupported, true},
    {"set_default_dtype", "call_function torch.set_default_dtype (mutates global state)",
     TraceBreak::Unsupported, true},
    {"set_printoptions", "call_function torch.set_printoptions (mutates global state)",
     TraceBreak::Unsupported, true},
    {"set_rng_state", "call_function torch.set_rng_state (mutates global state)",
     TraceBreak::Unsupported, true},
    {"set_num_threads", "call_function torch.set_num_threads (mutates global state)",
     TraceBreak::Unsupported, true},
};

/// No tensor operation: left untagged, so they run untouched. The grad-mode factories make
/// context managers, and one native serves both `with torch.set_grad_enabled(b):` and the
/// plain call, both of which PyTorch 2.3 traces without a break; grad mode is the capture
/// layer's to follow. torch.compile is the capture layer's own entry point.
constexpr std::string_view kTorchUntagged[] = {"no_grad", "enable_grad", "set_grad_enabled",
                                               "inference_mode", "compile"};

/// Submodules of torch whose functions record under their own dotted name.
constexpr std::string_view kTorchSubmodules[] = {"linalg", "fft", "special"};

bool listed(std::span<const std::string_view> names, std::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

const BreakEntry* findBreak(std::span<const BreakEntry> entries, std::string_view name) {
    for (const BreakEntry& e : entries)
        if (e.name == name) return &e;
    return nullptr;
}

const DynamicShapeOp* findDynamicShape(std::string_view name) {
    for (const DynamicShapeOp& op : kDynamicShapeOps)
        if (op.name == name) return &op;
    return nullptr;
}

bool isDunder(std::string_view name) {
    return name.size() > 4 && name.starts_with("__") && name.ends_with("__");
}

/// PyTorch's naming convention: a trailing underscore writes the result into self (add_,
/// copy_, masked_fill_, torch.relu_, torch.fill_).
bool isInPlace(std::string_view name) {
    return name.ends_with('_') && !isDunder(name);
}

/// Builds the tags of one torch installation, handing out one TraceInfo per distinct tag.
class Tagger {
public:
    /// The functions of a module namespace, recorded as call_function `prefix` + name.
    /// The natives of `names` listed in `breaks` end the graph.
    void tagBreaks(const AttrMap& names, std::span<const BreakEntry> breaks) {
        for (const AttrMap::Entry& e : names.entries())
            if (auto* fn = native(e.value))
                if (const BreakEntry* b = findBreak(breaks, e.key.str())) fn->trace = breakTag(*b);
    }

    void tagModule(const AttrMap& names, const std::string& prefix, bool torchRoot) {
        for (const AttrMap::Entry& e : names.entries())
            if (auto* fn = native(e.value)) fn->trace = functionTag(e.key.str(), prefix, torchRoot);
    }

    /// Tensor's methods (call_method by name) and the getters and setters of its properties.
    void tagTensorType(const AttrMap& dict) {
        for (const AttrMap::Entry& e : dict.entries()) {
            const std::string& name = e.key.str();
            if (auto* fn = native(e.value)) {
                fn->trace = methodTag(name);
            } else if (e.value.is(ObjectKind::Property)) {
                auto* p = e.value.as<PropertyObject>();
                // A getter sees the tensor as its one argument, like a method without
                // arguments: metadata, or a tensor-valued attribute (T, mT, grad, data, ...)
                // recorded as call_method of the attribute's name.
                if (auto* get = native(p->getter)) get->trace = getterTag(name);
                if (auto* set = native(p->setter)) set->trace = setterTag(name);
            }
        }
    }

private:
    static NativeFunctionObject* native(const Value& v) {
        return v.is(ObjectKind::NativeFunction) ? v.as<NativeFunctionObject>() : nullptr;
    }

    InfoPtr functionTag(const std::string& name, const std::string& prefix, bool torchRoot) {
        if (torchRoot) {
            if (listed(kTorchUntagged, name)) return nullptr;
            if (listed(kTorchMetadata, name)) return metadata();
            if (const BreakEntry* b = findBreak(kTorchBreaks, name)) return breakTag(*b);
            if (const DynamicShapeOp* d = findDynamicShape(name)) return dynamicShapeTag(*d);
        }
        InfoPtr tag = record(prefix + name, false, isInPlace(name));
        if (name == "batch_norm") { // F.batch_norm(input, running_mean, running_var, ...)
            TraceInfo writes = *tag;
            writes.writesArgs = 0b110;
            return share(std::move(writes));
        }
        return tag;
    }

    InfoPtr methodTag(const std::string& name) {
        if (listed(kTensorMetadata, name)) return metadata();
        if (const BreakEntry* b = findBreak(kTensorBreaks, name)) return breakTag(*b);
        if (const DynamicShapeOp* d = findDynamicShape(name)) return dynamicShapeTag(*d);
        // Dunder methods are reached only by an explicit x.__op__(...): the operator syntax
        // reports to the tracer through its own hook, and an explicit call is rare enough to
        // break on rather than record as a method the graph executor would look up by name.
        if (isDunder(name)) return share(TraceInfo{});
        return record(name, true, isInPlace(name));
    }

    InfoPtr setterTag(const std::string& name) {
        if (const BreakEntry* b = findBreak(kTensorSetters, name)) return breakTag(*b);
        return share({.kind = TraceKind::Break,
                      .reason = "setattr Tensor." + name,
                      .breakKind = static_cast<uint8_t>(TraceBreak::Unsupported)});
    }

    InfoPtr metadata() { return share({.kind = TraceKind::Metadata}); }

    /// A property getter: metadata, a break, or a tensor-valued attribute that graphs record as
    /// getattr(x, 'T') (fx prints it as `x.T`).
    InfoPtr getterTag(const std::string& name) {
        InfoPtr tag = methodTag(name);
        if (!tag || tag->kind != TraceKind::Record) return tag;
        return share({.kind = TraceKind::Record, .target = name, .attribute = true});
    }

    InfoPtr record(std::string target, bool method, bool inPlace) {
        return share({.kind = TraceKind::Record,
                      .method = method,
                      .target = std::move(target),
                      .inPlace = inPlace});
    }

    InfoPtr breakTag(const BreakEntry& b) {
        return share({.kind = TraceKind::Break,
                      .reason = std::string(b.reason),
                      .breakKind = static_cast<uint8_t>(b.kind),
                      .always = b.always});
    }

    InfoPtr dynamicShapeTag(const DynamicShapeOp& op) {
        return share({.kind = TraceKind::Break,
                      .reason = "dynamic shape operator: aten." + std::string(op.aten) + ".default",
                      .breakKind = static_cast<uint8_t>(TraceBreak::DynamicShapeOp)});
    }

    /// One object per distinct tag of the installation: all metadata readers share one, and
    /// so do torch.equal and Tensor.equal; torch.sin and Tensor.sin differ in target.
    InfoPtr share(TraceInfo info) {
        std::string key = std::to_string(static_cast<int>(info.kind)) + (info.method ? "m" : "f") +
                          (info.inPlace ? "i" : "-") + (info.always ? "a" : "-") +
                          std::to_string(info.writesArgs) + '/' + std::to_string(info.breakKind) +
                          '\0' + info.target + '\0' + info.reason;
        InfoPtr& slot = m_shared[key];
        if (!slot) slot = std::make_shared<const TraceInfo>(std::move(info));
        return slot;
    }

    std::unordered_map<std::string, InfoPtr> m_shared;
};

} // namespace

void tagTraceInfo(Interpreter& interp, ModuleObject& torch) {
    Tagger tagger;
    tagger.tagModule(torch.globals, "torch.", true);
    tagger.tagModule(interp.importModule("torch.nn.functional")->globals, "torch.nn.functional.",
                     false);
    for (std::string_view sub : kTorchSubmodules) {
        const Value* m = torch.globals.find(Symbol::intern(std::string(sub)));
        if (m && m->is(ObjectKind::Module))
            tagger.tagModule(m->as<ModuleObject>()->globals, "torch." + std::string(sub) + ".",
                             false);
    }
    tagger.tagTensorType(builtinTypes().tensor->dict);
    // torch.autograd.backward, grad and Function.apply (py/torch/autograd) call these: they end
    // the graph too.
    static constexpr BreakEntry kAutogradBreaks[] = {
        {"_run_backward", "torch.autograd.backward", TraceBreak::Unsupported, true},
        {"_grad", "torch.autograd.grad", TraceBreak::Unsupported, true},
        // A custom Function's node joins the eager autograd graph (Dynamo 2.3 traces its
        // forward and backward; Kiln runs the call eagerly between graphs).
        {"_function_node", "torch.autograd.Function.apply", TraceBreak::Unsupported, true}};
    tagger.tagBreaks(interp.importModule("torch._kiln")->globals, kAutogradBreaks);
}

} // namespace kiln::torchapi
