// SPDX-License-Identifier: MIT
// _kiln_stdlib: what the bundled standard library modules (written in Python) need from the
// interpreter and cannot compute themselves: the caller's location (warnings) and a function's
// parameters (inspect.signature). Not meant for workloads; its name says so.
#include "lang/ast.h"
#include "lang/builtins.h"
#include "lang/signature.h"
#include "torchapi/install.h"

namespace kiln::torchapi {

using namespace kiln::lang;

namespace {

/// caller(depth): (filename, lineno, module name, source line) of the frame `depth` levels
/// above the Python function that called caller(); None past the outermost frame.
Value stdlibCaller(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("caller(depth, /)");
    BoundArgs a = sig.bind(interp, args);
    const Frame* f = interp.currentFrame();
    for (int64_t i = 0; f && i < a.toInt(0); ++i)
        f = f->parent;
    if (!f || !f->code || !f->code->source) return Value::none();
    int32_t line = f->at.begin.line;
    std::string text(f->code->source->line(line));
    return tupleValue({strValue(f->code->source->path()), Value::fromInt(line),
                       strValue(f->globals ? f->globals->name : "sys"), strValue(text)});
}

const char* kindName(Parameter::Kind kind) {
    switch (kind) {
    case Parameter::Kind::PositionalOnly:
        return "POSITIONAL_ONLY";
    case Parameter::Kind::Positional:
        return "POSITIONAL_OR_KEYWORD";
    case Parameter::Kind::VarArgs:
        return "VAR_POSITIONAL";
    case Parameter::Kind::KeywordOnly:
        return "KEYWORD_ONLY";
    case Parameter::Kind::VarKeywords:
        return "VAR_KEYWORD";
    }
    return "POSITIONAL_OR_KEYWORD";
}

/// parameters(fn): [(name, kind, has_default, default)] of a function defined in Python.
Value stdlibParameters(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("parameters(fn, /)");
    BoundArgs a = sig.bind(interp, args);
    if (!a[0].is(ObjectKind::Function))
        interp.raiseValueError("no signature found for " + interp.repr(a[0]));
    const FunctionObject& fn = *a[0].as<FunctionObject>();
    std::vector<Value> out;
    for (size_t i = 0; i < fn.code->params.size(); ++i) {
        const Parameter& p = fn.code->params[i];
        const Value& def = i < fn.defaults.size() ? fn.defaults[i] : Value();
        out.push_back(
            tupleValue({strValue(p.name.str()), strValue(kindName(p.kind)),
                        Value::fromBool(!def.isEmpty()), def.isEmpty() ? Value::none() : def}));
    }
    return listValue(std::move(out));
}

/// is_generator_function(obj): a function defined in Python whose body yields.
Value stdlibIsGeneratorFunction(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("is_generator_function(obj, /)");
    BoundArgs a = sig.bind(interp, args);
    return Value::fromBool(a[0].is(ObjectKind::Function) &&
                           a[0].as<FunctionObject>()->code->isGenerator);
}

void installStdlibSupport(Interpreter& interp, ModuleObject& module) {
    interp.defineNative(module.globals, "caller", stdlibCaller);
    interp.defineNative(module.globals, "parameters", stdlibParameters);
    interp.defineNative(module.globals, "is_generator_function", stdlibIsGeneratorFunction);
}

} // namespace

void installStdlibSupportModule(Interpreter& interp) {
    interp.registerNativeModule("_kiln_stdlib", installStdlibSupport);
}

} // namespace kiln::torchapi
