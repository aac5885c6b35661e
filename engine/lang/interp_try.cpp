// SPDX-License-Identifier: MIT
// try/except/else/finally and with-statements.
#include "lang/interpreter.h"

#include <exception>

namespace kiln::lang {

namespace {

// Pops the handled-exception stack and unbinds `except ... as name` on every exit path, as
// CPython deletes the name at the end of the handler.
struct HandlerScope {
    Interpreter& interp;
    std::vector<Value>& handled;
    Frame& frame;
    const ExprPtr& name;
    ~HandlerScope() {
        handled.pop_back();
        if (!name) return;
        const auto& n = static_cast<const NameExpr&>(*name);
        if (n.scope == NameScope::Local)
            frame.slots[n.slot] = Value();
        else if (n.scope == NameScope::Global)
            frame.globals->globals.erase(n.id);
        else if (n.scope == NameScope::ClassBody)
            frame.classNamespace->erase(n.id);
    }
};

} // namespace

bool Interpreter::handlerMatches(const Value& exception, const Value& handlerType) {
    if (handlerType.is(ObjectKind::Tuple)) {
        for (const Value& t : handlerType.as<TupleObject>()->items)
            if (handlerMatches(exception, t)) return true;
        return false;
    }
    if (!handlerType.is(ObjectKind::Type) ||
        !handlerType.as<TypeObject>()->isSubtypeOf(builtinTypes().baseException.get()))
        raiseTypeError("catching classes that do not inherit from BaseException is not allowed");
    return isInstance(exception, handlerType.as<TypeObject>());
}

Flow Interpreter::runHandler(Frame& f, const ExceptHandler& h, const PyException& pe) {
    if (h.name) storeName(f, static_cast<const NameExpr&>(*h.name), pe.exception);
    m_handledExceptions.push_back(pe.exception);
    HandlerScope scope{*this, m_handledExceptions, f, h.name};
    return execBlock(f, h.body);
}

Flow Interpreter::execTryBody(Frame& f, const TryStmt& s) {
    Flow flow;
    try {
        flow = execBlock(f, s.body);
    } catch (...) {
        PyException pe = currentAsPyException();
        recordLocation(pe, f);
        for (const ExceptHandler& h : s.handlers) {
            if (h.type) {
                Value type = eval(f, *h.type);
                if (!handlerMatches(pe.exception, type)) continue;
            }
            return runHandler(f, h, pe);
        }
        throw pe;
    }
    if (flow == Flow::Normal && !s.orelse.empty()) return execBlock(f, s.orelse);
    return flow;
}

Flow Interpreter::execTry(Frame& f, const TryStmt& s) {
    DepthScope inBlock(f.blockDepth);
    if (s.finalbody.empty()) return execTryBody(f, s);
    Flow flow = Flow::Normal;
    std::optional<PyException> pending;
    Value savedReturn;
    try {
        flow = execTryBody(f, s);
    } catch (...) {
        pending = currentAsPyException();
        recordLocation(*pending, f);
    }
    if (flow == Flow::Return) savedReturn = f.returnValue;
    if (pending) m_handledExceptions.push_back(pending->exception);
    Flow finalFlow;
    try {
        finalFlow = execBlock(f, s.finalbody);
    } catch (...) {
        if (pending) m_handledExceptions.pop_back();
        throw;
    }
    if (pending) m_handledExceptions.pop_back();
    if (finalFlow != Flow::Normal)
        return finalFlow; // return/break/continue in finally discards a pending exception
    if (pending) throw *pending;
    if (flow == Flow::Return) f.returnValue = savedReturn;
    return flow;
}

Flow Interpreter::execWith(Frame& f, const WithStmt& s) {
    DepthScope inBlock(f.blockDepth);
    return execWithItem(f, s, 0);
}

Flow Interpreter::execWithItem(Frame& f, const WithStmt& s, size_t index) {
    if (index == s.items.size()) return execBlock(f, s.body);
    const WithItem& item = s.items[index];
    Value manager = eval(f, *item.context);
    f.mark(item.context->span);
    Value enter = tryGetAttr(manager, Symbol::intern("__enter__"));
    Value exit = tryGetAttr(manager, Symbol::intern("__exit__"));
    if (enter.isEmpty() || exit.isEmpty())
        raiseTypeError("'" + typeName(manager) +
                       "' object does not support the context manager protocol" +
                       (enter.isEmpty() ? "" : " (missed __exit__ method)"));
    Value entered = call(enter, {});
    if (item.target) assign(f, *item.target, entered);
    Flow flow;
    try {
        flow = execWithItem(f, s, index + 1);
    } catch (...) {
        PyException pe = currentAsPyException();
        recordLocation(pe, f);
        m_handledExceptions.push_back(pe.exception);
        f.mark(item.context->span); // __exit__ runs "at" the with statement
        Value suppress;
        try {
            suppress = call(exit, {Value(typeOf(pe.exception)), pe.exception, Value::none()});
        } catch (...) {
            m_handledExceptions.pop_back();
            throw;
        }
        m_handledExceptions.pop_back();
        if (truthy(suppress)) return Flow::Normal;
        throw pe;
    }
    f.mark(item.context->span);
    call(exit, {Value::none(), Value::none(), Value::none()});
    return flow;
}

} // namespace kiln::lang
