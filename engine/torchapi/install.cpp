// SPDX-License-Identifier: MIT
#include "torchapi/install.h"

#include "graph/graph_module.h"
#include "torchapi/bindings.h"
#include "torchapi/config_modules.h"
#include "torchapi/cuda_support.h"
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
                            "torch.autograd", "torch.jit"})
        interp.importModule(sub);
    installConfigModules(interp);
    // Last, so every native of torch, its submodules and Tensor exists to be tagged.
    tagTraceInfo(interp, torch);
}

} // namespace

void installTorch(lang::Interpreter& interp, const TorchOptions& options) {
    // The run's device for factories that name none (kiln run --device cuda); runWorkload
    // has checked that a GPU is there before it asks for one.
    setDefaultFactoryDevice(options.defaultDevice == "cuda"
                                ? tensor::Device{tensor::DeviceType::CUDA, -1}
                                : tensor::Device{});
    interp.registerNativeModule("torch", [onImported = options.onImported](
                                             lang::Interpreter& i, lang::ModuleObject& torch) {
        installTorchRoot(i, torch);
        if (onImported) onImported(i, torch);
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
}

} // namespace kiln::torchapi
