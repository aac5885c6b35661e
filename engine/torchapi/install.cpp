// SPDX-License-Identifier: MIT
#include "torchapi/install.h"

#include "graph/graph_module.h"
#include "support/assert.h"
#include "torchapi/bindings.h"
#include "torchapi/config_modules.h"
#include "torchapi/cuda_support.h"
#include "torchapi/function_presentation.h"
#include "torchapi/trace_tags.h"

namespace kiln::torchapi {

void installMathModule(lang::Interpreter& interp);
void installTimeModule(lang::Interpreter& interp);
void installStdlibSupportModule(lang::Interpreter& interp);
void installReSupportModule(lang::Interpreter& interp);
void installLoggingModules(lang::Interpreter& interp);
void installFunctional(lang::Interpreter& interp, lang::ModuleObject& functional);

namespace {

void installTorchRoot(lang::Interpreter& interp, lang::ModuleObject& torch) {
    installTorchTypes(interp, torch);
    installTensorAttributes(interp, torch);
    installAutograd(interp, torch);
    installTensorCreation(interp, torch);
    installPointwiseOps(interp, torch);
    installTernaryOps(interp, torch);
    installReduceOps(interp, torch);
    installShapeOps(interp, torch);
    installIndexOps(interp, torch);
    installScatterOps(interp, torch);
    installLinalgOps(interp, torch);
    installInPlaceOps(interp, torch);
    installTorchModule(interp, torch);
    installDTypeInfo(interp, torch);
    // Like torch/__init__.py: the submodules are attributes of torch right after `import torch`.
    for (const char* sub : {"torch.nn", "torch.nn.functional", "torch.cuda", "torch._logging",
                            "torch.autograd", "torch.jit", "torch._C", "torch.optim"})
        interp.importModule(sub);
    installConfigModules(interp);
    // Last, so every native of torch, its submodules and Tensor exists to be tagged.
    tagTraceInfo(interp, torch);
}

} // namespace

/// builtins.set and frozenset: the bundled Python classes (_kiln_set.py), named as CPython's.
static void installSetTypes(lang::Interpreter& interp) {
    Ref<lang::ModuleObject> module = interp.importModule("_kiln_set");
    for (const char* name : {"frozenset", "set"}) {
        const lang::Value* type = module->globals.find(lang::Symbol::intern(name));
        KILN_ASSERT(type && type->is(lang::ObjectKind::Type), "_kiln_set lacks its classes");
        type->as<lang::TypeObject>()->moduleName = "builtins";
        type->as<lang::TypeObject>()->dict.set(lang::Symbol::intern("__module__"),
                                               lang::strValue("builtins"));
        interp.builtinsModule().globals.set(lang::Symbol::intern(name), *type);
    }
    interp.setSetType(*module->globals.find(lang::Symbol::intern("set")));
}

void installTorch(lang::Interpreter& interp, const TorchOptions& options) {
    // The run's device for factories that name none (kiln run --device cuda); runWorkload
    // has checked that a GPU is there before it asks for one.
    setDefaultFactoryDevice(options.defaultDevice == "cuda"
                                ? tensor::Device{tensor::DeviceType::CUDA, -1}
                                : tensor::Device{});
    interp.registerNativeModule("torch", [onImported = options.onImported](
                                             lang::Interpreter& i, lang::ModuleObject& torch) {
        installTorchRoot(i, torch);
        if (onImported) onImported(i, torch); // torch.compile and friends
        presentFunctionsAsPyTorch(i, torch);
    });
    interp.registerNativeModule("torch.nn.functional", installFunctional);
    installMathModule(interp);
    installTimeModule(interp);
    installStdlibSupportModule(interp);
    installReSupportModule(interp);
    installLoggingModules(interp);
    graph::installOperatorModule(interp); // the targets of operator nodes in captured graphs
    for (const EmbeddedModule& m : embeddedModules())
        interp.registerSourceModule(m.name, m.path, m.source);
    installSetTypes(interp);
}

} // namespace kiln::torchapi
