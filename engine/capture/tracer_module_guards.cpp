// SPDX-License-Identifier: MIT
// Which guards an entry installs for what the trace read through nn.Modules. PyTorch 2.3
// (guard_nn_modules=False) guards a module reached from a local or a global by identity and
// `training`, and nothing read through it: its attributes, submodules, their attributes and
// hooks. A module that a compiled frame stores into is "unspecialized" instead (Dynamo restarts
// the trace and marks its class dynamic): what is read through it is guarded like any object's.
#include "capture/tracer.h"
#include "capture/value_kinds.h"

#include <algorithm>

namespace kiln::capture {

using lang::Value;

std::vector<const void*> Tracer::modulesAbove(const SourcePtr& source) const {
    std::vector<const void*> modules;
    for (const Source* base = source->base().get(); base; base = base->base().get()) {
        auto it = m_sourceValues.find(base);
        if (it != m_sourceValues.end() && isModuleObject(m_interp, it->second.second))
            modules.push_back(it->second.second.asObject());
    }
    return modules;
}

bool Tracer::isSpecializedModule(const void* module) const {
    if (m_dynamicModules.count(module)) return false;
    const auto* object = static_cast<const lang::Object*>(module);
    return !m_options.dynamicModuleClasses ||
           !m_options.dynamicModuleClasses->count(object->type());
}

void Tracer::markModuleDynamic(const Value& module) {
    if (!module.isObject() || !isModuleObject(m_interp, module) || !sourceOf(module)) return;
    m_dynamicModules.insert(module.asObject());
    // Dynamo marks the class too, unless the store is a constructor's (a module built inside
    // the compiled frame): later frames treat every instance as unspecialized.
    const lang::Frame* frame = m_interp.currentFrame();
    const bool inInit = frame && frame->code && frame->code->name.str() == "__init__";
    if (m_options.dynamicModuleClasses && !inInit)
        m_options.dynamicModuleClasses->insert(module.asObject()->type());
}

void Tracer::settleModuleGuards() {
    auto unguarded = [&](const Guard& g) {
        return std::any_of(g.readThroughModules.begin(), g.readThroughModules.end(),
                           [&](const void* m) { return isSpecializedModule(m); });
    };
    std::vector<Guard> installed;
    for (Guard& g : m_guards.guards) {
        const bool skip = !m_options.guardNnModules && unguarded(g);
        g.readThroughModules.clear();
        (skip ? m_unguardedModuleReads : installed).push_back(std::move(g));
    }
    m_guards.guards = std::move(installed);
}

} // namespace kiln::capture
