// SPDX-License-Identifier: MIT
// Generators (lang/generators.h): making one, resuming it, `yield` and `yield from`, closing,
// and the generator type's methods.
#include "lang/generators.h"
#include "lang/scope.h"
#include "lang/signature.h"
#include "lang/types.h"

#include <cstdio>
#include <new>

namespace kiln::lang {

namespace {

GeneratorObject& generatorSelf(const CallArgs& args) {
    return *static_cast<GeneratorObject*>(args.positional[0].asObject());
}

bool isInstanceOf(const Value& exception, TypeObject* type) {
    return exception.is(ObjectKind::Instance) &&
           exception.as<InstanceObject>()->type()->isSubtypeOf(type);
}

/// The exception instance `throw(type)`, `throw(type, value)` or `throw(instance)` raises.
Value thrownException(Interpreter& interp, const CallArgs& args) {
    if (args.positional.size() < 2 || args.positional.size() > 4)
        interp.raiseTypeError("throw expected at least 1 argument, got " +
                              std::to_string(args.positional.size() - 1));
    const Value& what = args.positional[1];
    if (what.is(ObjectKind::Type)) {
        if (!what.as<TypeObject>()->isSubtypeOf(builtinTypes().baseException.get()))
            interp.raiseTypeError("exceptions must be classes or instances deriving from "
                                  "BaseException, not type");
        if (args.positional.size() >= 3 && !args.positional[2].isNone()) {
            if (isInstanceOf(args.positional[2], what.as<TypeObject>())) return args.positional[2];
            return interp.call(what, {args.positional[2]});
        }
        return interp.call(what, {});
    }
    if (!isInstanceOf(what, builtinTypes().baseException.get()))
        interp.raiseTypeError("exceptions must be classes or instances deriving from "
                              "BaseException, not " +
                              interp.typeName(what));
    return what;
}

/// send/throw's outcome: the next yielded value, or StopIteration with the return value.
Value yieldedOrStop(Interpreter& interp, GeneratorBody& g, bool yielded, Value& out) {
    if (yielded) return out;
    if (g.returned.isEmpty() || g.returned.isNone())
        interp.raise(builtinTypes().stopIteration.get(), "");
    interp.raise(interp.call(Value(builtinTypes().stopIteration), {g.returned}));
}

Value generatorSend(Interpreter& interp, const CallArgs& args, void*) {
    if (args.positional.size() != 2)
        interp.raiseTypeError("generator.send() takes exactly one argument (" +
                              std::to_string(args.positional.size() - 1) + " given)");
    GeneratorBody& g = generatorSelf(args).body();
    if (g.state == GeneratorBody::State::Created && !args.positional[1].isNone())
        interp.raiseTypeError("can't send non-None value to a just-started generator");
    Value out;
    bool yielded = interp.resumeGenerator(g, args.positional[1], out);
    return yieldedOrStop(interp, g, yielded, out);
}

Value generatorNext(Interpreter& interp, const CallArgs& args, void*) {
    GeneratorBody& g = generatorSelf(args).body();
    Value out;
    bool yielded = interp.resumeGenerator(g, Value::none(), out);
    return yieldedOrStop(interp, g, yielded, out);
}

Value generatorThrow(Interpreter& interp, const CallArgs& args, void*) {
    GeneratorBody& g = generatorSelf(args).body();
    Value exception = thrownException(interp, args);
    if (g.state != GeneratorBody::State::Suspended) {
        // Not started or finished: it raises at once (and a fresh generator is finished).
        if (g.state == GeneratorBody::State::Created) g.state = GeneratorBody::State::Done;
        interp.raise(exception);
    }
    g.thrown = PyException{exception};
    Value out;
    bool yielded = interp.resumeGenerator(g, Value::none(), out);
    return yieldedOrStop(interp, g, yielded, out);
}

Value generatorClose(Interpreter& interp, const CallArgs& args, void*) {
    interp.closeGenerator(generatorSelf(args).body());
    return Value::none();
}

Value generatorIter(Interpreter&, const CallArgs& args, void*) {
    return args.positional[0];
}

Value generatorRepr(Interpreter&, const CallArgs& args, void*) {
    GeneratorObject& g = generatorSelf(args);
    char address[32];
    std::snprintf(address, sizeof address, "%p", static_cast<const void*>(&g));
    return strValue("<generator object " + g.qualifiedName() + " at " + address + ">");
}

} // namespace

GeneratorBody::GeneratorBody(Interpreter& owner)
    : interp(&owner) {
    serial = owner.generatorBodyMade(this);
}

GeneratorBody::~GeneratorBody() {
    if (interp) interp->generatorBodyGone(this);
}

GeneratorObject::GeneratorObject(std::unique_ptr<GeneratorBody> body)
    : IteratorObject(builtinTypes().generator.get())
    , m_body(std::move(body)) {}

GeneratorObject::~GeneratorObject() {
    if (m_body && m_body->state == GeneratorBody::State::Suspended && m_body->interp)
        m_body->interp->deferGeneratorClose(std::move(m_body));
}

bool GeneratorObject::next(Interpreter& interp, Value& out) {
    return interp.resumeGenerator(*m_body, Value::none(), out);
}

const std::string& GeneratorObject::qualifiedName() const {
    return m_body->code->qualifiedName;
}

Value Interpreter::makeGenerator(FunctionObject& fn, const CallArgs& args, const Value* self) {
    auto body = std::make_unique<GeneratorBody>(*this);
    body->code = fn.code.get();
    body->function = Ref<FunctionObject>(&fn);
    body->slots.resize(fn.code->scope->slots.size());
    body->frame.slots = body->slots.data();
    initFrame(body->frame, fn);
    bindArguments(fn, body->frame, args, self); // binding errors are the caller's, at once
    GeneratorBody* g = body.get();
    body->coroutine = std::make_unique<Coroutine>([this, g] {
        runGeneratorBody(*g, [&] { return enterFrame(g->frame, *g->function, FrameStart{}); });
    });
    return Value(makeRef<GeneratorObject>(std::move(body)));
}

Value Interpreter::makeGeneratorExpression(Frame& f, const ComprehensionExpr& e,
                                           const Value& firstIterable) {
    Value first = getIter(firstIterable); // `(x for x in 5)` fails here, not when consumed
    auto body = std::make_unique<GeneratorBody>(*this);
    body->code = e.code.get();
    if (f.function) body->function = Ref<FunctionObject>(f.function);
    body->globals = Ref<ModuleObject>(f.globals);
    body->closure = buildClosure(*e.code->scope, f);
    body->slots.resize(e.code->scope->slots.size());
    for (int32_t slot : e.code->scope->cellSlots)
        body->slots[static_cast<size_t>(slot)] = Value(makeRef<CellObject>());
    Frame& inner = body->frame;
    inner.code = e.code.get();
    inner.function = f.function;
    inner.globals = f.globals;
    inner.closure = &body->closure;
    inner.slots = body->slots.data();
    inner.mark(e.span);
    GeneratorBody* g = body.get();
    body->coroutine = std::make_unique<Coroutine>([this, g, &e, first] {
        runGeneratorBody(*g, [&] {
            const std::function<void()> emit = [&] { yieldOut(eval(g->frame, *e.element)); };
            return runInFrame(g->frame, [&] {
                runComprehensionLevel(g->frame, e, 0, first, emit);
                return Value::none();
            });
        });
    });
    return Value(makeRef<GeneratorObject>(std::move(body)));
}

void Interpreter::runGeneratorBody(GeneratorBody& generator, const std::function<Value()>& run) {
    GeneratorBody* g = &generator;
    {
        try {
            g->returned = run();
        } catch (PyException& e) {
            if (isInstanceOf(e.exception, builtinTypes().stopIteration.get())) {
                // PEP 479: a StopIteration leaving a generator would end the loop that reads it
                // silently; it becomes a RuntimeError caused by it.
                Value error = call(Value(builtinTypes().runtimeError),
                                   {strValue("generator raised StopIteration")});
                error.as<InstanceObject>()->exceptionState().cause = e.exception;
                g->error = std::make_exception_ptr(PyException{error});
            } else {
                g->error = std::current_exception();
            }
        } catch (...) {
            g->error = std::current_exception();
        }
        g->state = GeneratorBody::State::Done;
    }
}

bool Interpreter::resumeGenerator(GeneratorBody& g, Value sent, Value& out) {
    using State = GeneratorBody::State;
    if (g.state == State::Running)
        raise(builtinTypes().valueError.get(), "generator already executing");
    if (g.state == State::Done) { // finished before: no value to return any more
        g.thrown.reset();
        g.returned = Value();
        return false;
    }
    checkCancel();
    if (m_recorder) m_recorder->resumingGenerator(g.serial);
    try {
        g.coroutine->reserveStack();
    } catch (const std::bad_alloc&) {
        raise(builtinTypes().memoryError.get(),
              "cannot run another generator: " + std::to_string(Coroutine::maxStacks()) +
                  " are suspended already, each with a stack of its own");
    }
    // The body continues on top of this frame: its frame's caller is ours now, its call depth
    // and the exceptions it was handling go back on the interpreter's stacks.
    Frame* resumerFrame = m_frame;
    const int resumerDepth = m_depth;
    const size_t resumerHandled = m_handledExceptions.size();
    GeneratorBody* resumerGenerator = m_runningGenerator;
    if (g.state == State::Suspended) {
        if (m_depth + g.depth > m_recursionLimit)
            raise(builtinTypes().recursionError.get(), "maximum recursion depth exceeded");
        g.frame.parent = m_frame;
        m_frame = &g.frame;
        m_depth += g.depth;
        for (Value& v : g.handled)
            m_handledExceptions.push_back(std::move(v));
        g.handled.clear();
    }
    g.transfer = std::move(sent);
    g.state = State::Running;
    m_runningGenerator = &g;
    g.coroutine->resume();
    m_runningGenerator = resumerGenerator;
    if (g.state == State::Suspended) { // it yielded: take its part of the state back out
        g.depth = m_depth - resumerDepth;
        g.handled.assign(std::make_move_iterator(m_handledExceptions.begin() +
                                                 static_cast<ptrdiff_t>(resumerHandled)),
                         std::make_move_iterator(m_handledExceptions.end()));
        m_handledExceptions.resize(resumerHandled);
        m_frame = resumerFrame;
        m_depth = resumerDepth;
        out = std::move(g.transfer);
        return true;
    }
    // Finished: its frame has unwound itself.
    g.coroutine.reset();
    g.slots.clear();
    if (g.error) std::rethrow_exception(std::exchange(g.error, nullptr));
    return false;
}

Value Interpreter::yieldOut(Value v) {
    GeneratorBody* g = m_runningGenerator;
    KILN_ASSERT(g && m_frame == &g->frame, "yield outside the running generator's frame");
    g->transfer = std::move(v);
    g->state = GeneratorBody::State::Suspended;
    g->coroutine->suspend();
    // Resumed (by resumeGenerator, which set the state back to Running).
    if (g->thrown) {
        PyException e = std::move(*g->thrown);
        g->thrown.reset();
        throw e;
    }
    return std::move(g->transfer);
}

Value Interpreter::evalYield(Frame& f, const YieldExpr& e) {
    Value v = e.value ? eval(f, *e.value) : Value::none();
    f.mark(e.span);
    if (e.from) return yieldFrom(f, v);
    return yieldOut(std::move(v));
}

Value Interpreter::yieldFrom(Frame& f, const Value& iterable) {
    Value it = getIter(iterable);
    if (!it.is(ObjectKind::Iterator) || it.asObject()->type() != builtinTypes().generator.get()) {
        Value item;
        while (iterNext(it, item))
            yieldOut(std::move(item)); // what is sent in is dropped, as for any plain iterator
        return Value::none();
    }
    // A generator: what is sent in, thrown in or closed goes to it, its return value is ours.
    GeneratorBody& inner = static_cast<GeneratorObject*>(it.asObject())->body();
    Value sent = Value::none();
    for (;;) {
        Value out;
        if (!resumeGenerator(inner, std::move(sent), out))
            return inner.returned.isEmpty() ? Value::none() : inner.returned;
        try {
            sent = yieldOut(std::move(out));
        } catch (PyException& e) {
            if (isInstanceOf(e.exception, builtinTypes().generatorExit.get())) {
                closeGenerator(inner);
                throw;
            }
            if (inner.state != GeneratorBody::State::Suspended) throw;
            inner.thrown = e;
            sent = Value::none();
        }
    }
}

void Interpreter::closeGenerator(GeneratorBody& g) {
    using State = GeneratorBody::State;
    if (g.state == State::Created) g.state = State::Done;
    if (g.state != State::Suspended) return;
    g.thrown = PyException{call(Value(builtinTypes().generatorExit), {})};
    Value out;
    bool yieldedAgain = false;
    try {
        yieldedAgain = resumeGenerator(g, Value::none(), out);
    } catch (PyException& e) {
        if (isInstanceOf(e.exception, builtinTypes().generatorExit.get()) ||
            isInstanceOf(e.exception, builtinTypes().stopIteration.get()))
            return;
        throw;
    }
    if (yieldedAgain) raise(builtinTypes().runtimeError.get(), "generator ignored GeneratorExit");
}

void Interpreter::deferGeneratorClose(std::unique_ptr<GeneratorBody> body) {
    if (m_finalizing) return; // abandoned with its stack
    m_pendingCloses.push_back(std::move(body));
}

void Interpreter::runPendingCloses() {
    // Not while a graph is traced: a finally block would be recorded into it.
    if (m_recorder) return;
    while (!m_pendingCloses.empty()) {
        std::unique_ptr<GeneratorBody> g = std::move(m_pendingCloses.back());
        m_pendingCloses.pop_back();
        try {
            closeGenerator(*g);
        } catch (PyException& e) {
            // CPython reports an error while finalizing and goes on.
            char address[32];
            std::snprintf(address, sizeof address, "%p", static_cast<const void*>(g.get()));
            m_output.output(OutputStream::Stderr, "Exception ignored in: <generator object " +
                                                      g->code->qualifiedName + " at " + address +
                                                      ">\n" + formatTraceback(*this, e.exception));
        }
    }
}

void installGeneratorMethods(Interpreter& interp) {
    AttrMap& dict = builtinTypes().generator->dict;
    interp.defineNative(dict, "send", generatorSend);
    interp.defineNative(dict, "throw", generatorThrow);
    interp.defineNative(dict, "close", generatorClose);
    interp.defineNative(dict, "__next__", generatorNext);
    interp.defineNative(dict, "__iter__", generatorIter);
    interp.defineNative(dict, "__repr__", generatorRepr);
}

} // namespace kiln::lang
