// SPDX-License-Identifier: MIT
#include "capture/dynamo_errors.h"

namespace kiln::capture {

void raiseDynamoError(lang::Interpreter& interp, const std::string& typeName,
                      const std::string& message) {
    Ref<lang::ModuleObject> exc = interp.importModule("torch._dynamo.exc");
    const lang::Value* type = exc->globals.find(lang::Symbol::intern(typeName));
    KILN_ASSERT(type && type->is(lang::ObjectKind::Type), "torch._dynamo.exc lacks an exception");
    interp.raise(type->as<lang::TypeObject>(), message);
}

std::string suppressHint() {
    return "\n\nYou can suppress this exception and fall back to eager by setting:\n"
           "    import torch._dynamo\n"
           "    torch._dynamo.config.suppress_errors = True\n";
}

} // namespace kiln::capture
