// SPDX-License-Identifier: MIT
// Statement execution.
#include "lang/builtins.h"
#include "lang/interpreter.h"

namespace kiln::lang {

namespace {

Symbol sym(const char* name) {
    return Symbol::intern(name);
}

} // namespace

Flow Interpreter::execBlock(Frame& f, const Block& block) {
    for (const auto& stmt : block) {
        Flow flow = execStmt(f, *stmt);
        if (f.resume) [[unlikely]] {
            // A graph broke in this statement: the capture layer runs the rest of the frame.
            if (f.resume->statement == stmt.get() && !f.resume->atBranch) {
                const Stmt& broke = *f.resume->statement;
                f.resume = nullptr;
                if (flow == Flow::Return) return flow;
                return m_frameHook->onResume(f, broke, -1);
            }
        }
        if (flow != Flow::Normal) return flow;
    }
    return Flow::Normal;
}

Flow Interpreter::execStmt(Frame& f, const Stmt& s) {
    if (!m_pendingCloses.empty()) [[unlikely]]
        runPendingCloses();
    f.mark(s.span);
    f.currentStmt = &s;
    // A SIGINT that came during a long native call raises here, at the next statement, as
    // CPython raises it at its next instruction boundary.
    checkCancel();
    switch (s.kind) {
    case StmtKind::Expr:
        eval(f, *static_cast<const ExprStmt&>(s).value);
        return Flow::Normal;
    case StmtKind::Assign: {
        const auto& a = static_cast<const AssignStmt&>(s);
        Value v = eval(f, *a.value);
        for (const auto& t : a.targets)
            assign(f, *t, v);
        return Flow::Normal;
    }
    case StmtKind::AugAssign:
        execAugAssign(f, static_cast<const AugAssignStmt&>(s));
        return Flow::Normal;
    case StmtKind::AnnAssign: {
        const auto& a = static_cast<const AnnAssignStmt&>(s);
        if (a.value) assign(f, *a.target, eval(f, *a.value));
        if (!f.function) recordAnnotation(f, a);
        return Flow::Normal;
    }
    case StmtKind::If: {
        const auto& i = static_cast<const IfStmt&>(s);
        bool taken = evalTest(f, *i.test);
        if (f.resume && f.resume->statement == &s && f.resume->atBranch) [[unlikely]] {
            f.resume = nullptr; // the test needed a traced tensor's value: resume in the branch
            return m_frameHook->onResume(f, s, taken ? 0 : 1);
        }
        return execBlock(f, taken ? i.body : i.orelse);
    }
    case StmtKind::For:
        return execFor(f, static_cast<const ForStmt&>(s));
    case StmtKind::While:
        return execWhile(f, static_cast<const WhileStmt&>(s));
    case StmtKind::Break:
        return Flow::Break;
    case StmtKind::Continue:
        return Flow::Continue;
    case StmtKind::Return: {
        const auto& r = static_cast<const ReturnStmt&>(s);
        f.returnValue = r.value ? eval(f, *r.value) : Value::none();
        return Flow::Return;
    }
    case StmtKind::Pass:
    case StmtKind::Global:
    case StmtKind::Nonlocal:
        return Flow::Normal;
    case StmtKind::FunctionDef:
        execFunctionDef(f, static_cast<const FunctionDefStmt&>(s));
        return Flow::Normal;
    case StmtKind::ClassDef:
        execClassDef(f, static_cast<const ClassDefStmt&>(s));
        return Flow::Normal;
    case StmtKind::Import:
        execImport(f, static_cast<const ImportStmt&>(s));
        return Flow::Normal;
    case StmtKind::ImportFrom:
        execImportFrom(f, static_cast<const ImportFromStmt&>(s));
        return Flow::Normal;
    case StmtKind::Assert: {
        const auto& a = static_cast<const AssertStmt&>(s);
        if (!evalTest(f, *a.test)) {
            if (!a.message) raise(makeException(builtinTypes().assertionError.get(), ""));
            Value msg = eval(f, *a.message);
            f.mark(s.span);
            Value exc = call(Value(builtinTypes().assertionError), {msg});
            raise(exc);
        }
        return Flow::Normal;
    }
    case StmtKind::Raise:
        execRaise(f, static_cast<const RaiseStmt&>(s));
        return Flow::Normal;
    case StmtKind::Try:
        return execTry(f, static_cast<const TryStmt&>(s));
    case StmtKind::With:
        return execWith(f, static_cast<const WithStmt&>(s));
    case StmtKind::Del:
        for (const auto& t : static_cast<const DelStmt&>(s).targets)
            execDelete(f, *t);
        return Flow::Normal;
    }
    KILN_UNREACHABLE("unknown statement kind");
}

Flow Interpreter::execFor(Frame& f, const ForStmt& s) {
    DepthScope inLoop(f.loopDepth);
    Value iterable = eval(f, *s.iter);
    f.mark(s.iter->span);
    const Expr& target = *s.target;
    // Returns true when the loop must stop (break or return); `flow` says which.
    Flow flow = Flow::Normal;
    const bool simpleTarget = target.kind == ExprKind::Name;
    auto body = [&](Value item) -> bool {
        if (!simpleTarget)
            f.mark(target.span); // unpacking can fail; CPython reports the `for` line
        assign(f, target, std::move(item));
        flow = execBlock(f, s.body);
        if (flow == Flow::Continue) flow = Flow::Normal;
        return flow != Flow::Normal;
    };
    bool stopped = false;
    if (iterable.is(ObjectKind::Range)) {
        // By count: start + k * step never steps past the int64 limits.
        const RangeObject& range = *iterable.as<RangeObject>(); // immutable, held by iterable
        const uint64_t n = range.count();
        for (uint64_t k = 0; k < n; ++k) {
            checkCancel();
            if ((stopped = body(Value::fromInt(range.at(k))))) break;
        }
    } else if (iterable.is(ObjectKind::List) || iterable.is(ObjectKind::Tuple)) {
        // Index-based like CPython's list iterator: appends during the loop are seen.
        for (size_t i = 0;; ++i) {
            const auto& items = iterable.is(ObjectKind::List) ? iterable.as<ListObject>()->items
                                                              : iterable.as<TupleObject>()->items;
            if (i >= items.size()) break;
            checkCancel();
            if ((stopped = body(items[i]))) break;
        }
    } else {
        Value it = getIter(iterable);
        Value item;
        for (;;) {
            f.mark(s.iter->span); // errors raised by the iterator belong to the `for` line
            if (!iterNext(it, item)) break;
            checkCancel();
            if ((stopped = body(std::move(item)))) break;
        }
    }
    if (stopped) return flow == Flow::Break ? Flow::Normal : flow;
    return execBlock(f, s.orelse);
}

Flow Interpreter::execWhile(Frame& f, const WhileStmt& s) {
    DepthScope inLoop(f.loopDepth);
    while (evalTest(f, *s.test)) {
        checkCancel();
        Flow flow = execBlock(f, s.body);
        if (flow == Flow::Break) return Flow::Normal;
        if (flow == Flow::Return) return flow;
    }
    return execBlock(f, s.orelse);
}

// Applies decorators bottom-up; a failing one is reported at its own `@` line, as in CPython.
void Interpreter::applyDecorators(Frame& f, const std::vector<ExprPtr>& exprs,
                                  const std::vector<Value>& decorators, Value& target) {
    for (size_t i = decorators.size(); i-- > 0;) {
        f.mark(exprs[i]->span);
        target = call(decorators[i], {target});
    }
}

void Interpreter::execFunctionDef(Frame& f, const FunctionDefStmt& s) {
    std::vector<Value> decorators;
    for (const auto& d : s.decorators)
        decorators.push_back(eval(f, *d));
    f.mark(s.span);
    Value fn = makeFunction(s.code, f);
    applyDecorators(f, s.decorators, decorators, fn);
    storeName(f, static_cast<const NameExpr&>(*s.target), std::move(fn));
}

void Interpreter::recordAnnotation(Frame& f, const AnnAssignStmt& a) {
    // Module and class bodies evaluate the annotation after the assignment; a bare name's goes
    // into the namespace's __annotations__ (created by the first one, as SETUP_ANNOTATIONS
    // does), an attribute's or subscript's is evaluated and dropped.
    Value value = annotationValue(f, a.annotation);
    if (!a.simple) return;
    static const Symbol key = Symbol::intern("__annotations__");
    AttrMap& ns = f.classNamespace ? *f.classNamespace : f.globals->globals;
    const Value* dict = ns.find(key);
    if (!dict || !dict->is(ObjectKind::Dict)) {
        ns.set(key, Value(makeRef<DictObject>()));
        dict = ns.find(key);
    }
    dict->as<DictObject>()->set(*this, strValue(static_cast<const NameExpr&>(*a.target).id.str()),
                                std::move(value));
}

void Interpreter::execClassDef(Frame& f, const ClassDefStmt& s) {
    std::vector<Value> decorators;
    for (const auto& d : s.decorators)
        decorators.push_back(eval(f, *d));
    Value cls = buildClass(f, s);
    applyDecorators(f, s.decorators, decorators, cls);
    storeName(f, static_cast<const NameExpr&>(*s.target), std::move(cls));
}

void Interpreter::execImport(Frame& f, const ImportStmt& s) {
    for (const auto& alias : s.names) {
        f.mark(alias.span);
        Ref<ModuleObject> module = importModule(alias.name);
        if (alias.asName.valid()) {
            storeName(f, static_cast<const NameExpr&>(*alias.target), Value(module));
            continue;
        }
        // `import a.b.c` binds `a` (all parents were imported on the way).
        std::string top = alias.name.substr(0, alias.name.find('.'));
        storeName(f, static_cast<const NameExpr&>(*alias.target), Value(importModule(top)));
    }
}

void Interpreter::execImportFrom(Frame& f, const ImportFromStmt& s) {
    f.mark(s.span);
    Ref<ModuleObject> module = importModule(s.module);
    for (const auto& alias : s.names) {
        f.mark(alias.span);
        Symbol name = Symbol::intern(alias.name);
        Value v = tryGetAttr(Value(module), name);
        if (v.isEmpty()) {
            // `from torch import nn` also finds submodules that are not attributes yet.
            std::string sub = s.module + "." + alias.name;
            if (m_nativeModules.count(sub) || m_sourceModules.count(sub) || m_modules.count(sub))
                v = Value(importModule(sub));
        }
        if (v.isEmpty())
            raise(builtinTypes().importError.get(),
                  "cannot import name '" + alias.name + "' from '" + s.module + "' (" +
                      (module->source ? module->source->path() : std::string("built-in")) + ")");
        storeName(f, static_cast<const NameExpr&>(*alias.target), std::move(v));
    }
}

void Interpreter::execRaise(Frame& f, const RaiseStmt& s) {
    if (!s.exception) {
        if (m_handledExceptions.empty())
            raise(builtinTypes().runtimeError.get(), "No active exception to reraise");
        throw PyException{m_handledExceptions.back()};
    }
    Value exc = eval(f, *s.exception);
    if (exc.is(ObjectKind::Type) &&
        exc.as<TypeObject>()->isSubtypeOf(builtinTypes().baseException.get())) {
        f.mark(s.span);
        exc = call(exc, {});
    }
    if (!isInstance(exc, builtinTypes().baseException.get())) {
        f.mark(s.span);
        raiseTypeError("exceptions must derive from BaseException");
    }
    if (s.cause) {
        Value cause = eval(f, *s.cause);
        if (cause.is(ObjectKind::Type) &&
            cause.as<TypeObject>()->isSubtypeOf(builtinTypes().baseException.get()))
            cause = call(cause, {});
        if (!cause.isNone() && !isInstance(cause, builtinTypes().baseException.get())) {
            f.mark(s.span);
            raiseTypeError("exception causes must derive from BaseException");
        }
        auto& state = exc.as<InstanceObject>()->exceptionState();
        state.cause = cause.isNone() ? Value() : cause;
        state.suppressContext = true;
    }
    f.mark(s.span);
    raise(exc);
}

void Interpreter::execAugAssign(Frame& f, const AugAssignStmt& s) {
    const Expr& target = *s.target;
    if (target.kind == ExprKind::Name) {
        Value current = evalName(f, static_cast<const NameExpr&>(target));
        Value rhs = eval(f, *s.value);
        f.mark(s.span);
        storeName(f, static_cast<const NameExpr&>(target), inplaceOp(s.op, current, rhs));
        return;
    }
    if (target.kind == ExprKind::Attribute) {
        const auto& a = static_cast<const AttributeExpr&>(target);
        Value object = eval(f, *a.value);
        f.mark(a.span);
        Value current = getAttr(object, a.attr);
        if (m_recorder) m_recorder->readAttribute(object, a.attr, current); // guarded as a read
        Value rhs = eval(f, *s.value);
        f.mark(s.span);
        setAttr(object, a.attr, inplaceOp(s.op, current, rhs));
        return;
    }
    const auto& sub = static_cast<const SubscriptExpr&>(target);
    Value object = eval(f, *sub.value);
    Value key = eval(f, *sub.index); // a slice or a tuple with slices evaluates to slice objects
    f.mark(sub.span);
    Value current = getItem(object, key);
    if (m_recorder) m_recorder->readItem(object, key, current);
    Value rhs = eval(f, *s.value);
    f.mark(s.span);
    setItem(object, key, inplaceOp(s.op, current, rhs));
}

void Interpreter::storeName(Frame& f, const NameExpr& name, Value value) {
    switch (name.scope) {
    case NameScope::Local:
        if (m_recorder) [[unlikely]]
            m_recorder->localStore(name.id, value);
        f.slots[name.slot] = std::move(value);
        return;
    case NameScope::Cell:
        f.slots[name.slot].as<CellObject>()->value = std::move(value);
        return;
    case NameScope::Free: {
        CellObject* cell = (*f.closure)[static_cast<size_t>(name.slot)].get();
        if (m_recorder) m_recorder->outerNameStore(nullptr, name.id, cell);
        cell->value = std::move(value);
        return;
    }
    case NameScope::ClassBody:
        f.classNamespace->set(name.id, std::move(value));
        return;
    case NameScope::Global:
    case NameScope::Unresolved:
        if (m_recorder) m_recorder->outerNameStore(f.globals, name.id, nullptr);
        f.globals->globals.set(name.id, std::move(value));
        return;
    }
}

void Interpreter::assign(Frame& f, const Expr& target, const Value& value) {
    switch (target.kind) {
    case ExprKind::Name:
        storeName(f, static_cast<const NameExpr&>(target), value);
        return;
    case ExprKind::Attribute: {
        const auto& a = static_cast<const AttributeExpr&>(target);
        Value object = eval(f, *a.value);
        f.mark(a.span);
        setAttr(object, a.attr, value);
        return;
    }
    case ExprKind::Subscript: {
        const auto& s = static_cast<const SubscriptExpr&>(target);
        Value object = eval(f, *s.value);
        Value key = eval(f, *s.index); // a slice or a tuple with slices evaluates to slice objects
        f.mark(s.span);
        setItem(object, key, value);
        return;
    }
    case ExprKind::Tuple:
    case ExprKind::List:
        assignUnpack(f, static_cast<const SequenceExpr&>(target), value);
        return;
    default:
        KILN_UNREACHABLE("parser admitted an invalid assignment target");
    }
}

void Interpreter::assignUnpack(Frame& f, const SequenceExpr& target, const Value& value) {
    std::vector<Value> items;
    if (value.is(ObjectKind::Tuple))
        items = value.as<TupleObject>()->items;
    else if (value.is(ObjectKind::List))
        items = value.as<ListObject>()->items;
    else if (!value.isObject() && !value.isTensor())
        raiseTypeError("cannot unpack non-iterable " + typeName(value) + " object");
    else
        items = toVector(value);
    const auto& targets = target.elements;
    size_t starIndex = targets.size();
    for (size_t i = 0; i < targets.size(); ++i)
        if (targets[i]->kind == ExprKind::Starred) starIndex = i;
    if (starIndex == targets.size()) {
        if (items.size() < targets.size())
            raiseValueError("not enough values to unpack (expected " +
                            std::to_string(targets.size()) + ", got " +
                            std::to_string(items.size()) + ")");
        if (items.size() > targets.size())
            raiseValueError("too many values to unpack (expected " +
                            std::to_string(targets.size()) + ")");
        for (size_t i = 0; i < targets.size(); ++i)
            assign(f, *targets[i], items[i]);
        return;
    }
    size_t after = targets.size() - starIndex - 1;
    if (items.size() < targets.size() - 1)
        raiseValueError("not enough values to unpack (expected at least " +
                        std::to_string(targets.size() - 1) + ", got " +
                        std::to_string(items.size()) + ")");
    for (size_t i = 0; i < starIndex; ++i)
        assign(f, *targets[i], items[i]);
    std::vector<Value> middle(items.begin() + static_cast<long>(starIndex),
                              items.end() - static_cast<long>(after));
    assign(f, *static_cast<const StarredExpr&>(*targets[starIndex]).value,
           listValue(std::move(middle)));
    for (size_t i = 0; i < after; ++i)
        assign(f, *targets[starIndex + 1 + i], items[items.size() - after + i]);
}

void Interpreter::execDelete(Frame& f, const Expr& target) {
    switch (target.kind) {
    case ExprKind::Name: {
        const auto& n = static_cast<const NameExpr&>(target);
        f.mark(n.span);
        if (n.scope == NameScope::Local || n.scope == NameScope::Cell ||
            n.scope == NameScope::Free) {
            Value& slot = n.scope == NameScope::Local  ? f.slots[n.slot]
                          : n.scope == NameScope::Cell ? f.slots[n.slot].as<CellObject>()->value
                                                       : (*f.closure)[n.slot]->value;
            if (slot.isEmpty())
                evalName(f, n); // raises the UnboundLocalError/NameError CPython gives
            slot = Value();
            return;
        }
        bool existed = n.scope == NameScope::ClassBody && f.classNamespace->erase(n.id);
        if (!existed) existed = f.globals->globals.erase(n.id);
        if (!existed)
            raise(builtinTypes().nameError.get(), "name '" + n.id.str() + "' is not defined");
        return;
    }
    case ExprKind::Attribute: {
        const auto& a = static_cast<const AttributeExpr&>(target);
        Value object = eval(f, *a.value);
        delAttr(object, a.attr);
        return;
    }
    case ExprKind::Subscript: {
        const auto& s = static_cast<const SubscriptExpr&>(target);
        Value object = eval(f, *s.value);
        Value key = eval(f, *s.index); // a slice or a tuple with slices evaluates to slice objects
        delItem(object, key);
        return;
    }
    case ExprKind::Tuple:
    case ExprKind::List:
        for (const auto& el : static_cast<const SequenceExpr&>(target).elements)
            execDelete(f, *el);
        return;
    default:
        KILN_UNREACHABLE("parser admitted an invalid del target");
    }
}

} // namespace kiln::lang
