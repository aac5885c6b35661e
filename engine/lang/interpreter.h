// SPDX-License-Identifier: MIT
/// \file
/// The interpreter: executes a parsed module by walking its AST with Python's semantics.
///
/// Python exceptions travel as C++ `PyException`s carrying the exception instance; each
/// function frame appends its traceback entry as the exception passes. Tensor errors
/// (TensorError) become the Python exception of the same name at the first frame they cross.
/// Frames keep locals in slots of one interpreter-owned value stack, so a call allocates
/// nothing for its locals. The public methods here are the protocol the builtins and the torch
/// bindings use (call, attributes, items, iteration, repr/str, comparisons).
#pragma once

#include "lang/ast.h"
#include "lang/capture_hooks.h"
#include "lang/objects.h"
#include "lang/types.h"
#include "support/assert.h"
#include "support/event_sink.h"

#include <atomic>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kiln::lang {

/// A Python exception in flight.
struct GeneratorBody;

struct PyException {
    Value exception; ///< an InstanceObject of a BaseException subclass
};

/// An execution frame: one call of a function, a class body, or a module body.
struct Frame {
    const FunctionCode* code = nullptr;
    Value* slots = nullptr;
    FunctionObject* function = nullptr; ///< null for module and class bodies
    ModuleObject* globals = nullptr;
    AttrMap* classNamespace = nullptr; ///< class bodies only
    const std::vector<Ref<CellObject>>* closure = nullptr;
    Frame* parent = nullptr;
    SourceSpan at;       ///< the expression or statement being executed (for tracebacks)
    SourceSpan emphasis; ///< within `at`: the operator CPython marks with '^' (binary ops)
    Value returnValue;
    uint64_t serial = 0;               ///< unique per frame, for traceback bookkeeping
    const Stmt* currentStmt = nullptr; ///< innermost statement being executed
    int32_t loopDepth = 0;           ///< for/while bodies being executed (graph breaks skip frames)
    int32_t blockDepth = 0;          ///< with/try blocks being executed (no resume point inside)
    ResumeRequest* resume = nullptr; ///< set when a graph broke in this frame
    const ExpressionMemo* memo = nullptr; ///< cache-hit replay of a breaking statement
    bool captureOpen = false;             ///< the capture layer traces in this frame past a break

    void mark(const SourceSpan& span, const SourceSpan& operatorSpan = {}) {
        at = span;
        emphasis = operatorSpan;
    }
};

enum class Flow : uint8_t { Normal, Break, Continue, Return };

/// Counts a nesting level of a frame (loop bodies, with/try blocks) for the current scope.
struct DepthScope {
    explicit DepthScope(int32_t& depth)
        : m_depth(depth) {
        ++m_depth;
    }
    ~DepthScope() { --m_depth; }
    DepthScope(const DepthScope&) = delete;
    DepthScope& operator=(const DepthScope&) = delete;

private:
    int32_t& m_depth;
};

/// A module whose contents come from C++ (torch, math, ...): called once on first import.
using NativeModuleInit = std::function<void(Interpreter&, ModuleObject&)>;

class Interpreter {
public:
    explicit Interpreter(EventSink& output);
    ~Interpreter();
    Interpreter(const Interpreter&) = delete;
    Interpreter& operator=(const Interpreter&) = delete;

    // --- running code
    /// Executes a parsed module as `__main__`. Throws PyException for an uncaught exception.
    void runMain(const Module& module);
    /// Parses and executes Python source as module `name` (for bundled library modules).
    Ref<ModuleObject> runSourceModule(const std::string& name, const std::string& path,
                                      const std::string& source);

    // --- modules
    void registerNativeModule(const std::string& name, NativeModuleInit init);
    void registerSourceModule(const std::string& name, const std::string& path, std::string source);
    Ref<ModuleObject> importModule(const std::string& name);
    ModuleObject& builtinsModule() { return *m_builtins; }

    // --- the object protocol
    Value call(const Value& callable, const CallArgs& args);
    Value call(const Value& callable, std::initializer_list<Value> positional);
    Value callMethod(const Value& self, Symbol name, std::initializer_list<Value> positional);
    Value getAttr(const Value& object, Symbol name);
    /// Like getAttr but returns Empty instead of raising AttributeError.
    Value tryGetAttr(const Value& object, Symbol name);
    void setAttr(const Value& object, Symbol name, Value value);
    void delAttr(const Value& object, Symbol name);
    Value getItem(const Value& object, const Value& key);
    void setItem(const Value& object, const Value& key, Value value);
    void delItem(const Value& object, const Value& key);
    bool truthy(const Value& v);
    /// Python's callable(v).
    bool isCallable(const Value& v);
    int64_t len(const Value& v);
    bool contains(const Value& container, const Value& item);
    std::string repr(const Value& v);
    std::string str(const Value& v);
    bool equals(const Value& a, const Value& b);
    bool dictViewsEqual(const DictViewObject& x, const DictViewObject& y);
    size_t hash(const Value& v);
    /// hash(v) by the class attribute `__hash__` the user's class set: None is unhashable, a
    /// function is called; nullopt leaves the built-in hash.
    std::optional<size_t> userHash(const Value& v, const Value& hashAttr);
    Value binaryOp(BinaryOperator op, const Value& a, const Value& b);
    /// Like binaryOp, but Empty instead of a TypeError when no operand supports `op`.
    Value tryBinaryOp(BinaryOperator op, const Value& a, const Value& b);
    Value inplaceOp(BinaryOperator op, const Value& a, const Value& b);
    Value unaryOp(UnaryOperator op, const Value& v);
    Value compare(CompareOperator op, const Value& a, const Value& b);
    /// Three-way ordering used by sorted/min/max: a < b.
    bool lessThan(const Value& a, const Value& b);
    Value getIter(const Value& v);
    /// Whether getIter would accept `v` (without calling __iter__).
    bool isIterable(const Value& v);
    /// Advances an iterator from getIter; false when exhausted.
    bool iterNext(const Value& iterator, Value& out);
    /// Materialises any iterable into a vector.
    std::vector<Value> toVector(const Value& iterable);
    TypeObject* typeOf(const Value& v) const;

    // --- generators (interp_generators.cpp)
    /// Runs a generator until its next `yield` (true, the value in `out`) or its end (false;
    /// its return value in `g.returned`), sending `sent` as the value of the `yield` it stopped
    /// at. Raises what the generator raises; ValueError if it is already running.
    bool resumeGenerator(GeneratorBody& g, Value sent, Value& out);
    /// generator.close(): GeneratorExit at its `yield`; RuntimeError if it yields again.
    void closeGenerator(GeneratorBody& g);
    /// A generator dropped while suspended: closed at the next statement boundary (its
    /// `finally` blocks run then), or abandoned once the interpreter is being destroyed.
    void deferGeneratorClose(std::unique_ptr<GeneratorBody> body);
    bool isInstance(const Value& v, const TypeObject* type) const;

    /// Counts one level of C++ recursion (repr or comparison of nested containers) against the
    /// recursion limit, as CPython's Py_EnterRecursiveCall does; `where` ends the message.
    class NestedCall {
    public:
        NestedCall(Interpreter& interp, const char* where);
        ~NestedCall() { --m_interp.m_depth; }
        NestedCall(const NestedCall&) = delete;
        NestedCall& operator=(const NestedCall&) = delete;

    private:
        Interpreter& m_interp;
    };

    /// The class `{a, b}` and set comprehensions build (builtins.set, a bundled Python class).
    void setSetType(Value type) { m_setType = std::move(type); }

    // --- torch.compile capture (see capture_hooks.h)
    void setFrameHook(FrameHook* hook) { m_frameHook = hook; }
    FrameHook* frameHook() const { return m_frameHook; }
    /// A compiled region is active: Python calls go through the frame hook.
    void setFrameHookActive(bool active) { m_frameHookActive = active; }
    bool frameHookActive() const { return m_frameHookActive; }
    /// The frame hook off for a scope: Python the compiler itself runs (guard checks, the
    /// reprs in guard text) is not a frame to compile, as Dynamo's own code runs outside its
    /// eval-frame callback.
    class FrameHookPause {
    public:
        explicit FrameHookPause(Interpreter& interp)
            : m_interp(interp)
            , m_wasActive(interp.m_frameHookActive) {
            interp.m_frameHookActive = false;
        }
        ~FrameHookPause() { m_interp.m_frameHookActive = m_wasActive; }
        FrameHookPause(const FrameHookPause&) = delete;
        FrameHookPause& operator=(const FrameHookPause&) = delete;

    private:
        Interpreter& m_interp;
        bool m_wasActive;
    };
    void setRecorder(TraceRecorder* recorder) { m_recorder = recorder; }
    /// Capture's shadow execution is computing values (natives and eager operators run with
    /// no recorder then): what they compute may be replaced by the compiled graph's results.
    bool computingShadows() const { return m_shadowDepth > 0; }
    void enterShadowExecution() { ++m_shadowDepth; }
    void leaveShadowExecution() { --m_shadowDepth; }
    TraceRecorder* recorder() const { return m_recorder; }
    /// How many generators this interpreter has made (each has its serial).
    uint64_t generatorsMade() const { return m_generatorsMade; }
    /// Calls a Python function without consulting the frame hook (the hook itself, eager runs).
    Value callFunctionDirect(FunctionObject& fn, const CallArgs& args, const Value* self) {
        return callFunction(fn, args, self, false);
    }
    /// The frame's local slots after binding `args` as a call would (defaults applied, cells
    /// not yet created): what guards look at before a frame runs.
    std::vector<Value> bindToSlots(FunctionObject& fn, const CallArgs& args, const Value* self);
    /// Where runFrame starts executing a function body.
    struct FrameStart {
        enum class Mode : uint8_t { Whole, AtStatement, AfterStatement };
        Mode mode = Mode::Whole;
        const Stmt* statement = nullptr;
        int branch = -1;                      ///< AfterStatement of an `if`: the chosen block
        const ExpressionMemo* memo = nullptr; ///< AtStatement: values of its sub-expressions
        ResumeRequest* resume = nullptr;      ///< AtStatement: hand the rest to the frame hook
        /// Called with the new frame before its body runs (the tracer learns its top frame).
        std::function<void(Frame&)> entered;
    };
    /// Runs `fn` with its slots given (from bindToSlots or reconstructed by the capture layer),
    /// from the start of its body or from a statement (a resume point).
    Value runFrame(FunctionObject& fn, std::vector<Value> slots, const FrameStart& start);
    /// The rest of a frame after statement `s` (or inside the chosen branch of the `if` s when
    /// branch >= 0): used by the capture layer to run a resume point in the current frame.
    Flow runAfter(Frame& f, const Stmt& s, int branch);
    /// Runs statement `start` of frame `f` then the rest of the function (a resume point replayed
    /// in place, with `f.memo`/`f.resume` set by the caller).
    Flow runFromStatement(Frame& f, const Stmt& start) { return runFrom(f, start); }
    /// Method lookup as a call site does it (unbound: pass the receiver as first argument).
    Value lookupMethodForCall(const Value& object, Symbol name, bool& unbound) {
        return lookupMethod(object, name, unbound);
    }

    // --- raising
    [[noreturn]] void raise(TypeObject* type, const std::string& message);
    [[noreturn]] void raise(const Value& exceptionInstance);
    [[noreturn]] void raiseTypeError(const std::string& message);
    /// ModuleNotFoundError with a note saying that Kiln workloads cannot import it.
    [[noreturn]] void raiseModuleNotFound(const std::string& name);
    /// An attribute of a (bundled) module, importing it first: lang's hooks into the library.
    Value libraryAttr(const std::string& module, const char* name);
    [[noreturn]] void raiseValueError(const std::string& message);
    /// NameError/AttributeError carrying `name` (and `obj`) as CPython's do, for suggestions.
    [[noreturn]] void raiseNameError(Symbol name, const std::string& message);
    [[noreturn]] void raiseAttributeError(const Value& object, Symbol name,
                                          const std::string& message);
    Value makeException(TypeObject* type, const std::string& message);
    /// Turns whatever C++ exception is in flight into a PyException (TensorError, bad_alloc).
    PyException currentAsPyException();

    // --- output and control
    void write(OutputStream stream, std::string_view text) { m_output.output(stream, text); }
    /// Makes the interpreter raise KeyboardInterrupt-like cancellation at every check from now
    /// on (statement, loop iteration, call): the script cannot go on (a timeout). Safe to call
    /// from another thread.
    void requestCancel() { m_cancelRequested.store(true, std::memory_order_relaxed); }
    bool cancelRequested() const { return m_cancelRequested.load(std::memory_order_relaxed); }
    /// Makes the interpreter raise KeyboardInterrupt once, at the next check (SIGINT, as
    /// CPython: the script may catch it and go on). Safe to call from another thread.
    void requestInterrupt() { m_interruptPending.store(true, std::memory_order_relaxed); }
    /// An interrupt was requested and has not been raised yet.
    bool interruptPending() const { return m_interruptPending.load(std::memory_order_relaxed); }
    /// Raises the cancellation or interrupt requested (natives that wait call it).
    void checkCancel();
    int recursionLimit() const { return m_recursionLimit; }
    void setRecursionLimit(int limit) { m_recursionLimit = limit; }
    Frame* currentFrame() const { return m_frame; }
    /// The innermost frame running script code; for warnings with a source position.
    const Frame* userFrame() const;

    // --- helpers for native code
    std::string typeName(const Value& v) const;
    Value makeFunction(std::shared_ptr<FunctionCode> code, Frame& frame);
    /// An annotation's value: evaluated in \a frame, or its text under PEP 563.
    Value annotationValue(Frame& frame, const Annotation& a);
    /// Reads the new class's __slots__ (TypeObject::slots, instancesHaveDict).
    void applySlots(TypeObject& cls);
    /// A user class (type.__new__: class statements, type(name, bases, dict)): checks bases and
    /// the MRO. `metaclass` is its type when not `type`; `subclassKeywords` (the class
    /// statement's keywords) go to the nearest base's __init_subclass__.
    Value createClass(const std::string& name, std::vector<Ref<TypeObject>> bases, AttrMap ns,
                      const std::string& module, TypeObject* metaclass = nullptr,
                      const CallArgs* subclassKeywords = nullptr);
    /// The most derived of `meta` and the bases' metaclasses (CPython's
    /// _PyType_CalculateMetaclass); TypeError "metaclass conflict" when none is.
    TypeObject* winningMetaclass(TypeObject* meta, const std::vector<Ref<TypeObject>>& bases);
    /// Special method `name` of a class object as its user metaclass defines it, bound to the
    /// class; Empty for other values and for what `type` itself decides. CPython looks special
    /// methods up on the type, which for a class is its metaclass.
    Value metaclassMethod(const Value& cls, Symbol name);
    /// type.__call__: an instance made by the class's __new__ and __init__, whatever its
    /// metaclass's __call__ does.
    Value constructInstance(TypeObject& type, const CallArgs& args);
    /// TypeError when `type` has abstract methods left (object.__new__'s check).
    void checkNotAbstract(const TypeObject& type);
    /// The live user classes that list `type` among their bases (type.__subclasses__()).
    std::vector<Value> userSubclasses(const TypeObject& type);
    /// type.__setattr__ (or, with a null value, type.__delattr__): the class's own dict,
    /// whatever its metaclass's __setattr__ does.
    void setClassAttribute(TypeObject& cls, Symbol name, const Value* value);
    Value newNative(const std::string& name, NativeFn fn, void* data = nullptr);
    /// Defines a native function as an attribute (module global or type method).
    void defineNative(AttrMap& into, const std::string& name, NativeFn fn, void* data = nullptr);

private:
    friend class FrameScope;
    // execution (interp_exec.cpp)
    Flow execBlock(Frame& f, const Block& block);
    Flow execStmt(Frame& f, const Stmt& s);
    Flow execFor(Frame& f, const ForStmt& s);
    Flow execWhile(Frame& f, const WhileStmt& s);
    Flow execTry(Frame& f, const TryStmt& s);
    Flow execWith(Frame& f, const WithStmt& s);
    void execClassDef(Frame& f, const ClassDefStmt& s);
    void recordAnnotation(Frame& f, const AnnAssignStmt& a);
    void execFunctionDef(Frame& f, const FunctionDefStmt& s);
    void applyDecorators(Frame& f, const std::vector<ExprPtr>& exprs,
                         const std::vector<Value>& decorators, Value& target);
    void execImport(Frame& f, const ImportStmt& s);
    void execImportFrom(Frame& f, const ImportFromStmt& s);
    void execRaise(Frame& f, const RaiseStmt& s);
    void execAugAssign(Frame& f, const AugAssignStmt& s);
    void execDelete(Frame& f, const Expr& target);
    void assign(Frame& f, const Expr& target, const Value& value);
    void assignUnpack(Frame& f, const SequenceExpr& target, const Value& value);
    void storeName(Frame& f, const NameExpr& name, Value value);

    // evaluation (interp_eval.cpp)
    Value eval(Frame& f, const Expr& e);
    Value evalExpr(Frame& f, const Expr& e);
    Value evalName(Frame& f, const NameExpr& e);
    /// The truth of a condition (if, while, ternary, comprehension filter, assert, `not`).
    bool evalTest(Frame& f, const Expr& e);
    Value evalCall(Frame& f, const CallExpr& e);
    Value evalSubscript(Frame& f, const SubscriptExpr& e);
    Value evalCompare(Frame& f, const CompareExpr& e);
    Value evalFString(Frame& f, const FStringExpr& e);
    Value evalSequence(Frame& f, const SequenceExpr& e);
    Value evalDict(Frame& f, const DictExpr& e);
    Value evalComprehension(Frame& f, const ComprehensionExpr& e);
    void runComprehensionLevel(Frame& inner, const ComprehensionExpr& e, size_t level,
                               const Value& iterable, const std::function<void()>& emit);
    Value evalSliceObject(Frame& f, const SliceExpr& e);
    void collectCallArgs(Frame& f, const CallExpr& e, const Value& callee,
                         std::vector<Value>& positional, std::vector<Symbol>& names,
                         std::vector<Value>& values);

    // calls (interp_call.cpp)
    Value callFunction(FunctionObject& fn, const CallArgs& args, const Value* self,
                       bool useHook = true);
    void bindArguments(FunctionObject& fn, Frame& frame, const CallArgs& args, const Value* self);
    void initFrame(Frame& frame, FunctionObject& fn);
    Value enterFrame(Frame& frame, FunctionObject& fn, const FrameStart& start);
    /// Runs statement `start`, then the rest of the function after it.
    Flow runFrom(Frame& f, const Stmt& start);
    /// Which block of the function holds `target`, and the chain of enclosing `if`s.
    bool findStatementPath(const Block& block, const Stmt& target,
                           std::vector<std::pair<const Block*, size_t>>& path) const;
    [[noreturn]] void tooManyPositional(const FunctionObject& fn, const CallArgs& args,
                                        size_t given, size_t positionalParams, size_t withDefaults);
    Value callType(TypeObject& type, const CallArgs& args);
    // class statements (interp_class.cpp)
    /// The class statement's bases and keywords, evaluated as CPython's __build_class__ does.
    void evalClassArguments(Frame& f, const ClassDefStmt& s, std::vector<Value>& bases,
                            std::vector<Symbol>& names, std::vector<Value>& values);
    /// Runs the class body in `ns` (what the metaclass's __prepare__ returned).
    void runClassBody(Frame& f, const ClassDefStmt& s, AttrMap& ns);
    Value buildClass(Frame& f, const ClassDefStmt& s);
    void registerUserClass(Ref<TypeObject> cls);
    void enterCall();
    void leaveCall() { --m_depth; }

    // attributes (interp_attr.cpp)
    Value getAttrOrEmpty(const Value& object, Symbol name, bool bindMethods);
    Value classAttribute(const Value& object, Symbol name, bool bindMethods);
    Value bindDescriptor(const Value& attr, const Value& instance, TypeObject* owner);
    Value lookupMethod(const Value& object, Symbol name, bool& isUnbound);

    template <typename Fn>
    auto runInFrame(Frame& frame, Fn&& body) -> decltype(body());
    Flow runBody(Frame& frame, FunctionObject& fn, const FrameStart& start);
    /// Tells the frame hook when a frame the capture layer keeps tracing leaves.
    class CaptureExit {
    public:
        CaptureExit(Interpreter& interp, Frame& frame)
            : m_interp(interp)
            , m_frame(frame) {}
        ~CaptureExit();
        void leave(Value& result);

    private:
        Interpreter& m_interp;
        Frame& m_frame;
        bool m_left = false;
    };
    std::vector<Ref<CellObject>> buildClosure(const Scope& scope, Frame& enclosing);
    Flow execTryBody(Frame& f, const TryStmt& s);
    Flow runHandler(Frame& f, const ExceptHandler& h, const PyException& pe);
    bool handlerMatches(const Value& exception, const Value& handlerType);
    Flow execWithItem(Frame& f, const WithStmt& s, size_t index);
    Value* allocateSlots(size_t count);
    Value makeGenerator(FunctionObject& fn, const CallArgs& args, const Value* self);
    /// `(x for x in xs)`: a generator over the comprehension, its first iterable already
    /// evaluated (and iter() applied) in the enclosing frame, as CPython does.
    Value makeGeneratorExpression(Frame& f, const ComprehensionExpr& e, const Value& firstIterable);
    Value evalYield(Frame& f, const YieldExpr& e);
    /// Suspends the running generator at a `yield` of `v`; the value sent when it resumes.
    Value yieldOut(Value v);
    Value yieldFrom(Frame& f, const Value& iterable);
    /// A generator's coroutine body: `run` until it returns or raises (what it raises is
    /// handed to the resumer; a StopIteration becomes a RuntimeError, PEP 479).
    void runGeneratorBody(GeneratorBody& g, const std::function<Value()>& run);
    void runPendingCloses();
    /// ~Interpreter: every generator still alive (in a reference cycle) is abandoned.
    void releaseGenerators();
    void releaseSlots(Value* slots, size_t count);
    void recordLocation(PyException& e, const Frame& f);

    EventSink& m_output;
    Ref<ModuleObject> m_builtins;
    std::map<std::string, Ref<ModuleObject>> m_modules;
    std::map<std::string, NativeModuleInit> m_nativeModules;
    struct SourceModule {
        std::string path;
        std::string source;
    };
    std::map<std::string, SourceModule> m_sourceModules;
    std::vector<std::shared_ptr<FunctionCode>> m_keepAlive;
    /// Every user class created and still referenced from somewhere else: a class and its
    /// methods reference each other, so the destructor clears these classes' dicts to free them.
    std::vector<Ref<TypeObject>> m_userClasses;
    size_t m_userClassesPruneAt = 64;
    std::vector<Value> m_stack; ///< slot storage for all frames
    size_t m_stackTop = 0;
    Frame* m_frame = nullptr;
    int m_depth = 0;
    uint64_t m_frameSerial = 0;
    int m_recursionLimit = 1000;
    std::atomic<bool> m_cancelRequested{false};
    std::atomic<bool> m_interruptPending{false};
    std::vector<Value> m_handledExceptions; ///< exceptions being handled (for bare raise)
    Value m_setType;
    FrameHook* m_frameHook = nullptr;
    bool m_frameHookActive = false;
    TraceRecorder* m_recorder = nullptr;
    int m_shadowDepth = 0;
    GeneratorBody* m_runningGenerator = nullptr; ///< the innermost generator executing
    std::vector<std::unique_ptr<GeneratorBody>> m_pendingCloses;
    bool m_finalizing = false; ///< in ~Interpreter: generators are abandoned, not closed
    /// Every generator body of this interpreter that has a coroutine: those a reference cycle
    /// keeps alive past the interpreter give their stacks back when it goes.
    std::set<GeneratorBody*> m_liveGenerators;
    uint64_t m_generatorsMade = 0;

public:
    uint64_t generatorBodyMade(GeneratorBody* g) {
        m_liveGenerators.insert(g);
        return ++m_generatorsMade;
    }
    void generatorBodyGone(GeneratorBody* g) { m_liveGenerators.erase(g); }

private:
};

/// Runs `body` with `frame` as the current frame: links it to its caller, counts recursion depth
/// and adds the frame's traceback entry to any exception leaving it.
template <typename Fn>
inline auto Interpreter::runInFrame(Frame& frame, Fn&& body) -> decltype(body()) {
    frame.parent = m_frame;
    frame.serial = ++m_frameSerial;
    enterCall();
    m_frame = &frame;
    struct Restore {
        Interpreter& interp;
        Frame& frame;
        ~Restore() {
            interp.m_frame = frame.parent;
            interp.leaveCall();
        }
    } restore{*this, frame};
    try {
        return body();
    } catch (PyException& e) {
        recordLocation(e, frame);
        throw;
    } catch (...) {
        PyException e = currentAsPyException();
        recordLocation(e, frame);
        throw e;
    }
}

/// Builds the traceback text CPython prints for an uncaught exception.
std::string formatTraceback(Interpreter& interp, const Value& exception);
/// "TypeError: message" (the last line of a traceback).
std::string formatExceptionOnly(Interpreter& interp, const Value& exception);
/// The Python type name of the exception instance and its message (str(e)).
std::string exceptionTypeName(const Value& exception);

} // namespace kiln::lang
