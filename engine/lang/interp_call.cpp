// SPDX-License-Identifier: MIT
// Calls: functions, argument binding with Python's error messages, classes and instances,
// comprehension frames, and the frame bookkeeping shared by all of them.
#include "lang/interpreter.h"
#include "lang/scope.h"

#include <algorithm>
#include <optional>

namespace kiln::lang {

namespace {

constexpr size_t kStackSlots = 1 << 20;

std::string plural(size_t n, const char* word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// 'a'; 'a' and 'b'; 'a', 'b', and 'c' -- as CPython lists missing arguments.
std::string quotedList(const std::vector<std::string>& names) {
    std::string out;
    for (size_t i = 0; i < names.size(); ++i) {
        if (i > 0) out += names.size() == 2 ? " and " : (i + 1 == names.size() ? ", and " : ", ");
        out += "'" + names[i] + "'";
    }
    return out;
}

} // namespace

Value* Interpreter::allocateSlots(size_t count) {
    if (m_stack.empty()) m_stack.resize(kStackSlots);
    if (m_stackTop + count > m_stack.size())
        raise(builtinTypes().recursionError.get(), "maximum recursion depth exceeded");
    Value* slots = m_stack.data() + m_stackTop;
    m_stackTop += count;
    return slots;
}

void Interpreter::releaseSlots(Value* slots, size_t count) {
    for (size_t i = 0; i < count; ++i)
        slots[i] = Value();
    m_stackTop -= count;
}

void Interpreter::enterCall() {
    checkCancel();
    if (m_depth >= m_recursionLimit)
        raise(builtinTypes().recursionError.get(), "maximum recursion depth exceeded");
    ++m_depth;
}

Interpreter::NestedCall::NestedCall(Interpreter& interp, const char* where)
    : m_interp(interp) {
    if (interp.m_depth >= interp.m_recursionLimit)
        interp.raise(builtinTypes().recursionError.get(),
                     std::string("maximum recursion depth exceeded") + where);
    ++interp.m_depth;
}

void Interpreter::recordLocation(PyException& e, const Frame& f) {
    if (!e.exception.is(ObjectKind::Instance) || !f.code) return;
    ExceptionState& state = e.exception.as<InstanceObject>()->exceptionState();
    if (state.lastRecordedFrame == f.serial) return;
    state.lastRecordedFrame = f.serial;
    state.traceback.push_back({f.code, f.globals, f.at, f.emphasis});
}

std::vector<Ref<CellObject>> Interpreter::buildClosure(const Scope& scope, Frame& enclosing) {
    std::vector<Ref<CellObject>> closure;
    closure.reserve(scope.freeSources.size());
    for (const auto& src : scope.freeSources) {
        if (src.fromCellSlot)
            closure.emplace_back(enclosing.slots[src.index].as<CellObject>());
        else
            closure.push_back((*enclosing.closure)[static_cast<size_t>(src.index)]);
    }
    return closure;
}

Value Interpreter::annotationValue(Frame& frame, const Annotation& a) {
    return a.deferred ? strValue(a.text) : eval(frame, *a.expr);
}

Value Interpreter::makeFunction(std::shared_ptr<FunctionCode> code, Frame& frame) {
    auto fn = makeRef<FunctionObject>(code, Ref<ModuleObject>(frame.globals));
    fn->defaults.resize(code->params.size());
    for (size_t i = 0; i < code->params.size(); ++i)
        if (code->params[i].defaultValue)
            fn->defaults[i] = eval(frame, *code->params[i].defaultValue);
    // CPython 3.11 evaluates annotations when the def runs, parameters in order, then 'return'.
    Ref<DictObject> annotations;
    auto annotate = [&](const std::string& name, const Annotation& a) {
        if (!a) return;
        if (!annotations) annotations = makeRef<DictObject>();
        annotations->set(*this, strValue(name), annotationValue(frame, a));
    };
    for (const Parameter& p : code->params)
        annotate(p.name.str(), p.annotation);
    annotate("return", code->returns);
    if (annotations) fn->attrs.set(Symbol::intern("__annotations__"), Value(annotations));
    fn->closure = buildClosure(*code->scope, frame);
    return Value(fn);
}

Value Interpreter::call(const Value& callable, std::initializer_list<Value> positional) {
    return call(callable,
                CallArgs{std::span<const Value>(positional.begin(), positional.size()), {}, {}});
}

Value Interpreter::callMethod(const Value& self, Symbol name,
                              std::initializer_list<Value> positional) {
    bool unbound = false;
    Value method = lookupMethod(self, name, unbound);
    if (!unbound) return call(method, positional);
    std::vector<Value> args;
    args.reserve(positional.size() + 1);
    args.push_back(self);
    args.insert(args.end(), positional.begin(), positional.end());
    return call(method, CallArgs{args, {}, {}});
}

Value Interpreter::call(const Value& callable, const CallArgs& args) {
    if (!callable.isObject()) raiseTypeError("'" + typeName(callable) + "' object is not callable");
    Object* obj = callable.asObject();
    switch (obj->kind()) {
    case ObjectKind::Function:
        return callFunction(*static_cast<FunctionObject*>(obj), args, nullptr);
    case ObjectKind::NativeFunction: {
        auto* native = static_cast<NativeFunctionObject*>(obj);
        if (native->bound.isEmpty()) {
            if (m_recorder) [[unlikely]]
                return m_recorder->callNative(*native, args);
            return native->fn(*this, args, native->data);
        }
        std::vector<Value> withSelf;
        withSelf.reserve(args.positional.size() + 1);
        withSelf.push_back(native->bound);
        withSelf.insert(withSelf.end(), args.positional.begin(), args.positional.end());
        CallArgs full{withSelf, args.keywordNames, args.keywordValues};
        if (m_recorder) [[unlikely]]
            return m_recorder->callNative(*native, full);
        return native->fn(*this, full, native->data);
    }
    case ObjectKind::BoundMethod: {
        auto* bm = static_cast<BoundMethodObject*>(obj);
        if (bm->function.is(ObjectKind::Function))
            return callFunction(*bm->function.as<FunctionObject>(), args, &bm->self);
        std::vector<Value> withSelf;
        withSelf.reserve(args.positional.size() + 1);
        withSelf.push_back(bm->self);
        withSelf.insert(withSelf.end(), args.positional.begin(), args.positional.end());
        return call(bm->function, CallArgs{withSelf, args.keywordNames, args.keywordValues});
    }
    case ObjectKind::Type:
        return callType(*static_cast<TypeObject*>(obj), args);
    case ObjectKind::StaticMethod:
        return call(static_cast<StaticMethodObject*>(obj)->function, args);
    default:
        break;
    }
    bool unbound = false;
    Value dunder = tryGetAttr(callable, Symbol::intern("__call__"));
    if (dunder.isEmpty() || obj->kind() == ObjectKind::Module)
        raiseTypeError("'" + typeName(callable) + "' object is not callable");
    (void)unbound;
    return call(dunder, args);
}

Value Interpreter::callFunction(FunctionObject& fn, const CallArgs& args, const Value* self,
                                bool useHook) {
    if (useHook && m_frameHookActive) [[unlikely]] {
        Value served = m_frameHook->onCall(fn, args, self);
        if (!served.isEmpty()) return served;
    }
    const FunctionCode& code = *fn.code;
    if (code.isGenerator) return makeGenerator(fn, args, self);
    const size_t slotCount = code.scope->slots.size();
    Frame frame;
    frame.slots = allocateSlots(slotCount);
    struct Release {
        Interpreter& interp;
        Value* slots;
        size_t count;
        ~Release() { interp.releaseSlots(slots, count); }
    } release{*this, frame.slots, slotCount};
    initFrame(frame, fn);
    // Binding errors (wrong arity, unknown keyword) belong to the caller's line, as in CPython:
    // the callee's frame has not started yet.
    bindArguments(fn, frame, args, self);
    return enterFrame(frame, fn, FrameStart{});
}

void Interpreter::initFrame(Frame& frame, FunctionObject& fn) {
    frame.code = fn.code.get();
    frame.function = &fn;
    frame.globals = fn.globals.get();
    frame.closure = &fn.closure;
    frame.mark(fn.code->span);
}

Value Interpreter::enterFrame(Frame& frame, FunctionObject& fn, const FrameStart& start) {
    for (int32_t slot : fn.code->scope->cellSlots) {
        if (frame.slots[slot].is(ObjectKind::Cell))
            continue; // reconstructed slots of a resume point may already hold the cell
        auto cell = makeRef<CellObject>();
        cell->value = std::move(frame.slots[slot]);
        frame.slots[slot] = Value(cell);
    }
    return runInFrame(frame, [&]() -> Value {
        if (start.entered) start.entered(frame);
        CaptureExit exit{*this, frame};
        Flow flow = runBody(frame, fn, start);
        Value result = flow == Flow::Return ? std::move(frame.returnValue) : Value::none();
        exit.leave(result);
        return result;
    });
}

Flow Interpreter::runBody(Frame& frame, FunctionObject& fn, const FrameStart& start) {
    // A FrameJump from the capture layer ends the frame or continues it at a statement; the
    // memo and resume request it carries live here while that statement runs.
    std::optional<FrameJump> jump;
    for (;;) {
        try {
            if (jump) return runFrom(frame, *jump->continueAt);
            switch (start.mode) {
            case FrameStart::Mode::Whole:
                return execBlock(frame, fn.code->body);
            case FrameStart::Mode::AtStatement:
                return runFrom(frame, *start.statement);
            case FrameStart::Mode::AfterStatement:
                return runAfter(frame, *start.statement, start.branch);
            }
            return Flow::Normal;
        } catch (FrameJump& j) {
            if (j.frame != &frame) throw;
            if (!j.continueAt) {
                frame.returnValue = std::move(j.returnValue);
                return Flow::Return;
            }
            jump = std::move(j);
            frame.memo = &jump->memo;
            frame.resume = &jump->resume;
        }
    }
}

Interpreter::CaptureExit::~CaptureExit() {
    if (!m_left && m_frame.captureOpen) {
        Value none;
        m_interp.m_frameHook->onFrameExit(m_frame, none, true);
    }
}

void Interpreter::CaptureExit::leave(Value& result) {
    m_left = true;
    if (m_frame.captureOpen) m_interp.m_frameHook->onFrameExit(m_frame, result, false);
}

std::vector<Value> Interpreter::bindToSlots(FunctionObject& fn, const CallArgs& args,
                                            const Value* self) {
    const size_t slotCount = fn.code->scope->slots.size();
    Frame frame;
    frame.slots = allocateSlots(slotCount);
    struct Release {
        Interpreter& interp;
        Value* slots;
        size_t count;
        ~Release() { interp.releaseSlots(slots, count); }
    } release{*this, frame.slots, slotCount};
    initFrame(frame, fn);
    bindArguments(fn, frame, args, self);
    return std::vector<Value>(frame.slots, frame.slots + slotCount);
}

Value Interpreter::runFrame(FunctionObject& fn, std::vector<Value> slots, const FrameStart& start) {
    const size_t slotCount = fn.code->scope->slots.size();
    KILN_ASSERT(slots.size() == slotCount, "runFrame: slot count does not match the function");
    Frame frame;
    frame.slots = allocateSlots(slotCount);
    struct Release {
        Interpreter& interp;
        Value* slots;
        size_t count;
        ~Release() { interp.releaseSlots(slots, count); }
    } release{*this, frame.slots, slotCount};
    for (size_t i = 0; i < slotCount; ++i)
        frame.slots[i] = std::move(slots[i]);
    initFrame(frame, fn);
    frame.memo = start.memo;
    frame.resume = start.resume;
    return enterFrame(frame, fn, start);
}

void Interpreter::bindArguments(FunctionObject& fn, Frame& frame, const CallArgs& args,
                                const Value* self) {
    const FunctionCode& code = *fn.code;
    const auto& params = code.params;
    const std::string& name = code.qualifiedName;
    Value* slots = frame.slots;
    size_t positionalParams = 0, withDefaults = 0;
    int varArgs = -1, varKw = -1;
    for (size_t i = 0; i < params.size(); ++i) {
        auto k = params[i].kind;
        if (k == Parameter::Kind::Positional || k == Parameter::Kind::PositionalOnly) {
            ++positionalParams;
            withDefaults += params[i].defaultValue != nullptr;
        } else if (k == Parameter::Kind::VarArgs) {
            varArgs = static_cast<int>(i);
        } else if (k == Parameter::Kind::VarKeywords) {
            varKw = static_cast<int>(i);
        }
    }
    const size_t given = args.positional.size() + (self ? 1 : 0);
    std::vector<Value> extra;
    for (size_t i = 0; i < given; ++i) {
        const Value& v = (self && i == 0) ? *self : args.positional[i - (self ? 1 : 0)];
        if (i < positionalParams)
            slots[i] = v;
        else
            extra.push_back(v);
    }
    if (!extra.empty() && varArgs < 0)
        tooManyPositional(fn, args, given, positionalParams, withDefaults);
    if (varArgs >= 0) slots[varArgs] = tupleValue(std::move(extra));
    Ref<DictObject> kwDict = varKw >= 0 ? makeRef<DictObject>() : Ref<DictObject>();
    std::vector<std::string> positionalOnlyAsKeyword;
    for (size_t k = 0; k < args.keywordNames.size(); ++k) {
        Symbol key = args.keywordNames[k];
        int index = -1;
        for (size_t i = 0; i < params.size(); ++i) {
            auto kind = params[i].kind;
            if (params[i].name == key && kind != Parameter::Kind::VarArgs &&
                kind != Parameter::Kind::VarKeywords)
                index = static_cast<int>(i);
        }
        if (index >= 0 && params[index].kind == Parameter::Kind::PositionalOnly) {
            if (kwDict) {
                kwDict->set(*this, strValue(key.str()), args.keywordValues[k]);
                continue;
            }
            positionalOnlyAsKeyword.push_back(key.str());
            continue;
        }
        if (index >= 0) {
            if (!slots[index].isEmpty())
                raiseTypeError(name + "() got multiple values for argument '" + key.str() + "'");
            slots[index] = args.keywordValues[k];
        } else if (kwDict) {
            kwDict->set(*this, strValue(key.str()), args.keywordValues[k]);
        } else {
            raiseTypeError(name + "() got an unexpected keyword argument '" + key.str() + "'");
        }
    }
    if (!positionalOnlyAsKeyword.empty()) {
        std::string list;
        for (size_t i = 0; i < positionalOnlyAsKeyword.size(); ++i)
            list += (i ? ", " : "") + positionalOnlyAsKeyword[i];
        raiseTypeError(name +
                       "() got some positional-only arguments passed as keyword "
                       "arguments: '" +
                       list + "'");
    }
    if (varKw >= 0) slots[varKw] = Value(kwDict);
    std::vector<std::string> missingPositional, missingKeyword;
    for (size_t i = 0; i < params.size(); ++i) {
        if (!slots[i].isEmpty() || static_cast<int>(i) == varArgs || static_cast<int>(i) == varKw)
            continue;
        if (!fn.defaults[i].isEmpty()) {
            slots[i] = fn.defaults[i];
            continue;
        }
        (params[i].kind == Parameter::Kind::KeywordOnly ? missingKeyword : missingPositional)
            .push_back(params[i].name.str());
    }
    if (!missingPositional.empty())
        raiseTypeError(name + "() missing " +
                       plural(missingPositional.size(), "required positional argument") + ": " +
                       quotedList(missingPositional));
    if (!missingKeyword.empty())
        raiseTypeError(name + "() missing " +
                       plural(missingKeyword.size(), "required keyword-only argument") + ": " +
                       quotedList(missingKeyword));
}

void Interpreter::tooManyPositional(const FunctionObject& fn, const CallArgs& args, size_t given,
                                    size_t positionalParams, size_t withDefaults) {
    std::string takes = withDefaults ? "from " + std::to_string(positionalParams - withDefaults) +
                                           " to " + std::to_string(positionalParams)
                                     : std::to_string(positionalParams);
    // CPython also counts the keyword-only arguments that were passed, to explain the mismatch.
    size_t keywordOnlyGiven = 0;
    for (const Parameter& p : fn.code->params)
        if (p.kind == Parameter::Kind::KeywordOnly)
            for (Symbol k : args.keywordNames)
                keywordOnlyGiven += k == p.name;
    std::string givenText = std::to_string(given);
    if (keywordOnlyGiven)
        givenText += std::string(" positional argument") + (given == 1 ? "" : "s") + " (and " +
                     plural(keywordOnlyGiven, "keyword-only argument") + ")";
    raiseTypeError(fn.code->qualifiedName + "() takes " + takes + " positional argument" +
                   (positionalParams == 1 && !withDefaults ? "" : "s") + " but " + givenText +
                   (given == 1 && !keywordOnlyGiven ? " was" : " were") + " given");
}

Value Interpreter::evalComprehension(Frame& f, const ComprehensionExpr& e) {
    Value firstIterable = eval(f, *e.generators.front().iter);
    if (e.kind == ExprKind::GeneratorExp) return makeGeneratorExpression(f, e, firstIterable);
    f.mark(e.span); // the caller's line points at the comprehension it is running, as CPython's
    const FunctionCode& code = *e.code;
    const Scope& scope = *code.scope;
    std::vector<Ref<CellObject>> closure = buildClosure(scope, f);
    Frame inner;
    inner.code = &code;
    inner.function = f.function;
    inner.globals = f.globals;
    inner.closure = &closure;
    inner.mark(e.span);
    const size_t slotCount = scope.slots.size();
    inner.slots = allocateSlots(slotCount);
    struct Release {
        Interpreter& interp;
        Value* slots;
        size_t count;
        ~Release() { interp.releaseSlots(slots, count); }
    } release{*this, inner.slots, slotCount};
    for (int32_t slot : scope.cellSlots)
        inner.slots[slot] = Value(makeRef<CellObject>());
    auto list = e.kind == ExprKind::DictComp ? Ref<ListObject>() : makeRef<ListObject>();
    auto dict = e.kind == ExprKind::DictComp ? makeRef<DictObject>() : Ref<DictObject>();
    std::function<void()> emit = [&] {
        if (dict) {
            Value key = eval(inner, *e.element);
            Value value = eval(inner, *e.value);
            dict->set(*this, key, std::move(value));
        } else {
            list->items.push_back(eval(inner, *e.element));
        }
    };
    runInFrame(inner, [&] {
        runComprehensionLevel(inner, e, 0, firstIterable, emit);
        return 0;
    });
    if (dict) return Value(dict);
    return Value(list);
}

void Interpreter::runComprehensionLevel(Frame& inner, const ComprehensionExpr& e, size_t level,
                                        const Value& iterable, const std::function<void()>& emit) {
    const Comprehension& g = e.generators[level];
    auto step = [&](const Value& item) {
        checkCancel();
        assign(inner, *g.target, item);
        for (const auto& cond : g.ifs)
            if (!evalTest(inner, *cond)) return;
        if (level + 1 == e.generators.size()) {
            emit();
            return;
        }
        Value next = eval(inner, *e.generators[level + 1].iter);
        runComprehensionLevel(inner, e, level + 1, next, emit);
    };
    if (iterable.is(ObjectKind::Range)) {
        auto* r = iterable.as<RangeObject>();
        const uint64_t n = r->count();
        for (uint64_t k = 0; k < n; ++k)
            step(Value::fromInt(r->at(k)));
        return;
    }
    Value it = getIter(iterable);
    Value item;
    while (iterNext(it, item))
        step(item);
}

} // namespace kiln::lang
