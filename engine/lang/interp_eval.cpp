// SPDX-License-Identifier: MIT
// Expression evaluation.
#include "lang/argument_list.h"
#include "lang/builtins.h"
#include "lang/format.h"
#include "lang/interpreter.h"

namespace kiln::lang {

namespace {

Value constantValue(const ConstantExpr& c) {
    switch (c.type) {
    case ConstantExpr::Type::None:
        return Value::none();
    case ConstantExpr::Type::Bool:
        return Value::fromBool(c.boolValue);
    case ConstantExpr::Type::Int:
        return Value::fromInt(c.intValue);
    case ConstantExpr::Type::Float:
        return Value::fromFloat(c.floatValue);
    case ConstantExpr::Type::Str:
        if (c.cached.isEmpty()) c.cached = strValue(c.strValue);
        return c.cached;
    case ConstantExpr::Type::Ellipsis:
        return ellipsisValue();
    }
    return Value::none();
}

// Integer fast paths for the operators loops use most; nullopt means "take the general path"
// (overflow, division, or non-int operands).
std::optional<Value> fastIntBinary(BinaryOperator op, int64_t a, int64_t b) {
    int64_t r;
    switch (op) {
    case BinaryOperator::Add:
        if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
        return Value::fromInt(r);
    case BinaryOperator::Sub:
        if (__builtin_sub_overflow(a, b, &r)) return std::nullopt;
        return Value::fromInt(r);
    case BinaryOperator::Mul:
        if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
        return Value::fromInt(r);
    default:
        return std::nullopt;
    }
}

// How CPython names a callable in argument errors: "__main__.f()", "print()".
std::string calleeDescription(const Value& callee) {
    if (callee.is(ObjectKind::BoundMethod))
        return calleeDescription(callee.as<BoundMethodObject>()->function);
    if (callee.is(ObjectKind::Function)) {
        auto* fn = callee.as<FunctionObject>();
        return fn->globals->name + "." + fn->code->qualifiedName + "()";
    }
    if (callee.is(ObjectKind::NativeFunction))
        return callee.as<NativeFunctionObject>()->name + "()";
    if (callee.is(ObjectKind::Type)) {
        auto* type = callee.as<TypeObject>();
        return (type->moduleName == "builtins" ? "" : type->moduleName + ".") + type->name + "()";
    }
    return "object";
}

} // namespace

Value Interpreter::eval(Frame& f, const Expr& e) {
    if (f.memo || m_recorder || f.resume) [[unlikely]] {
        if (f.memo) {
            auto it = f.memo->find(&e);
            if (it != f.memo->end()) return it->second;
        }
        Value v = evalExpr(f, e);
        if (f.resume && f.resume->awaitExpression &&
            (!f.resume->expression || f.resume->expression == &e))
            v = m_frameHook->onExpressionDone(f, e, std::move(v));
        if (m_recorder) m_recorder->evaluated(f, e, v);
        return v;
    }
    return evalExpr(f, e);
}

Value Interpreter::evalExpr(Frame& f, const Expr& e) {
    switch (e.kind) {
    case ExprKind::Constant:
        return constantValue(static_cast<const ConstantExpr&>(e));
    case ExprKind::Name:
        return evalName(f, static_cast<const NameExpr&>(e));
    case ExprKind::Attribute: {
        const auto& a = static_cast<const AttributeExpr&>(e);
        Value object = eval(f, *a.value);
        f.mark(a.span);
        if (m_recorder) [[unlikely]] {
            Value v = getAttr(object, a.attr);
            if (m_recorder) m_recorder->readAttribute(object, a.attr, v);
            return v;
        }
        return getAttr(object, a.attr);
    }
    case ExprKind::Call:
        return evalCall(f, static_cast<const CallExpr&>(e));
    case ExprKind::Yield:
        return evalYield(f, static_cast<const YieldExpr&>(e));
    case ExprKind::BinOp: {
        const auto& b = static_cast<const BinOpExpr&>(e);
        Value l = eval(f, *b.left);
        Value r = eval(f, *b.right);
        if (l.isInt() && r.isInt()) {
            if (auto v = fastIntBinary(b.op, l.asInt(), r.asInt())) return *v;
        }
        f.mark(b.span, b.opSpan);
        return binaryOp(b.op, l, r);
    }
    case ExprKind::UnaryOp: {
        const auto& u = static_cast<const UnaryOpExpr&>(e);
        if (u.op == UnaryOperator::Not) return Value::fromBool(!evalTest(f, *u.operand));
        Value v = eval(f, *u.operand);
        f.mark(u.span);
        return unaryOp(u.op, v);
    }
    case ExprKind::BoolOp: {
        const auto& b = static_cast<const BoolOpExpr&>(e);
        Value v;
        for (const auto& operand : b.values) {
            v = eval(f, *operand);
            if (truthy(v) != b.isAnd) return v;
        }
        return v;
    }
    case ExprKind::Compare:
        return evalCompare(f, static_cast<const CompareExpr&>(e));
    case ExprKind::IfExp: {
        const auto& i = static_cast<const IfExpExpr&>(e);
        return evalTest(f, *i.test) ? eval(f, *i.body) : eval(f, *i.orelse);
    }
    case ExprKind::Subscript:
        return evalSubscript(f, static_cast<const SubscriptExpr&>(e));
    case ExprKind::FString:
        return evalFString(f, static_cast<const FStringExpr&>(e));
    case ExprKind::Lambda:
        return makeFunction(static_cast<const LambdaExpr&>(e).code, f);
    case ExprKind::List:
    case ExprKind::Tuple:
        return evalSequence(f, static_cast<const SequenceExpr&>(e));
    case ExprKind::Dict:
        return evalDict(f, static_cast<const DictExpr&>(e));
    case ExprKind::ListComp:
    case ExprKind::DictComp:
    case ExprKind::GeneratorExp:
        return evalComprehension(f, static_cast<const ComprehensionExpr&>(e));
    case ExprKind::NamedExpr: {
        const auto& n = static_cast<const NamedExpr&>(e);
        Value v = eval(f, *n.value);
        storeName(f, static_cast<const NameExpr&>(*n.target), v);
        return v;
    }
    case ExprKind::Slice:
        return evalSliceObject(f, static_cast<const SliceExpr&>(e));
    case ExprKind::Starred:
        f.mark(e.span);
        raise(builtinTypes().syntaxError.get(), "can't use starred expression here");
    case ExprKind::Set:
    case ExprKind::SetComp: {
        // A set display builds the list of its items, then set(list): the set type is the
        // bundled Python class torchapi installs as builtins.set.
        Value items = e.kind == ExprKind::Set
                          ? evalSequence(f, static_cast<const SequenceExpr&>(e))
                          : evalComprehension(f, static_cast<const ComprehensionExpr&>(e));
        if (m_setType.isEmpty())
            raise(builtinTypes().notImplementedError.get(), "sets are not available here");
        f.mark(e.span);
        return call(m_setType, {items});
    }
    }
    KILN_UNREACHABLE("unknown expression kind");
}

void Interpreter::raiseNameError(Symbol name, const std::string& message) {
    Value exc = makeException(builtinTypes().nameError.get(), message);
    exc.as<InstanceObject>()->attrs.set(Symbol::intern("name"), strValue(name.str()));
    raise(exc);
}

bool Interpreter::evalTest(Frame& f, const Expr& e) {
    // Like CPython's jumps: `a and b` as a condition asks each operand's truth once, and never
    // the truth of the value the `and` would produce.
    if (e.kind == ExprKind::BoolOp) {
        const auto& b = static_cast<const BoolOpExpr&>(e);
        for (const auto& operand : b.values)
            if (evalTest(f, *operand) != b.isAnd) return !b.isAnd;
        return b.isAnd;
    }
    if (e.kind == ExprKind::UnaryOp && static_cast<const UnaryOpExpr&>(e).op == UnaryOperator::Not)
        return !evalTest(f, *static_cast<const UnaryOpExpr&>(e).operand);
    Value v = eval(f, e);
    if (m_recorder && v.isTensor() && m_recorder->isTraced(v)) [[unlikely]]
        m_recorder->needValue(v, TensorValueUse::Branch);
    return truthy(v);
}

Value Interpreter::evalName(Frame& f, const NameExpr& e) {
    switch (e.scope) {
    case NameScope::Local: {
        const Value& v = f.slots[e.slot];
        if (v.isEmpty()) [[unlikely]] {
            f.mark(e.span);
            raise(builtinTypes().unboundLocalError.get(),
                  "cannot access local variable '" + e.id.str() +
                      "' where it is not associated with a value");
        }
        return v;
    }
    case NameScope::Cell:
    case NameScope::Free: {
        const Value& v = e.scope == NameScope::Cell
                             ? f.slots[e.slot].as<CellObject>()->value
                             : (*f.closure)[static_cast<size_t>(e.slot)]->value;
        if (v.isEmpty()) [[unlikely]] {
            f.mark(e.span);
            raiseNameError(e.id,
                           "cannot access free variable '" + e.id.str() +
                               "' where it is not associated with a value in enclosing scope");
        }
        return v;
    }
    case NameScope::ClassBody:
        if (const Value* v = f.classNamespace->find(e.id)) return *v;
        [[fallthrough]];
    case NameScope::Global:
    case NameScope::Unresolved:
        if (const Value* v = f.globals->globals.find(e.id)) {
            if (m_recorder) [[unlikely]]
                m_recorder->readGlobal(e.id, *v);
            return *v;
        }
        if (const Value* v = m_builtins->globals.find(e.id)) return *v;
        f.mark(e.span);
        raiseNameError(e.id, "name '" + e.id.str() + "' is not defined");
    }
    KILN_UNREACHABLE("bad name scope");
}

void Interpreter::collectCallArgs(Frame& f, const CallExpr& e, const Value& callee,
                                  std::vector<Value>& positional, std::vector<Symbol>& names,
                                  std::vector<Value>& values) {
    if (std::all_of(e.args.begin(), e.args.end(), [](const Argument& a) {
            return a.kind == Argument::Kind::Positional || a.kind == Argument::Kind::Keyword;
        })) {
        // The common call: no * or **, so no messages to build.
        for (const Argument& arg : e.args) {
            if (arg.kind == Argument::Kind::Keyword) names.push_back(arg.name);
            (arg.kind == Argument::Kind::Keyword ? values : positional)
                .push_back(eval(f, *arg.value));
        }
        return;
    }
    const std::string who = calleeDescription(callee);
    const ArgumentMessages messages{who + " argument after *", who + " argument after **", who};
    evaluateArguments(
        *this, e.args, [&](const Expr& arg) { return eval(f, arg); }, [&] { f.mark(e.span); },
        messages, positional, names, values);
}

Value Interpreter::evalCall(Frame& f, const CallExpr& e) {
    std::vector<Value> positional;
    std::vector<Symbol> names;
    std::vector<Value> values;
    positional.reserve(e.args.size() + 1);
    Value callee;
    if (e.func->kind == ExprKind::Attribute) {
        // Method call: look the method up without creating a bound method object.
        const auto& a = static_cast<const AttributeExpr&>(*e.func);
        Value self = eval(f, *a.value);
        f.mark(a.span);
        bool unbound = false;
        callee = lookupMethod(self, a.attr, unbound);
        if (m_recorder && !unbound) [[unlikely]]
            m_recorder->readAttribute(self, a.attr, callee); // e.g. self.fc: a submodule
        if (unbound) positional.push_back(std::move(self));
    } else {
        callee = eval(f, *e.func);
    }
    collectCallArgs(f, e, callee, positional, names, values);
    f.mark(e.span);
    return call(callee, CallArgs{positional, names, values});
}

Value Interpreter::evalSliceObject(Frame& f, const SliceExpr& e) {
    Value lower = e.lower ? eval(f, *e.lower) : Value::none();
    Value upper = e.upper ? eval(f, *e.upper) : Value::none();
    Value step = e.step ? eval(f, *e.step) : Value::none();
    return Value(makeRef<SliceObject>(std::move(lower), std::move(upper), std::move(step)));
}

Value Interpreter::evalSubscript(Frame& f, const SubscriptExpr& e) {
    Value object = eval(f, *e.value);
    Value key = eval(f, *e.index); // slices, also inside a tuple, evaluate to slice objects
    f.mark(e.span);
    if (m_recorder && !object.isTensor()) [[unlikely]] {
        Value v = getItem(object, key);
        if (m_recorder) m_recorder->readItem(object, key, v);
        return v;
    }
    return getItem(object, key);
}

Value Interpreter::evalCompare(Frame& f, const CompareExpr& e) {
    Value left = eval(f, *e.left);
    Value result;
    for (size_t i = 0; i < e.ops.size(); ++i) {
        Value right = eval(f, *e.comparators[i]);
        f.mark(e.span);
        result = compare(e.ops[i], left, right);
        if (i + 1 < e.ops.size() && !truthy(result)) return result;
        left = std::move(right);
    }
    return result;
}

Value Interpreter::evalFString(Frame& f, const FStringExpr& e) {
    std::string out;
    for (const auto& part : e.parts) {
        if (!part.expr) {
            out += part.literal;
            continue;
        }
        Value v = eval(f, *part.expr);
        out += part.debugText;
        f.mark(part.expr->span);
        if (part.conversion == 'r')
            v = strValue(repr(v));
        else if (part.conversion == 'a')
            v = strValue(asciiEscape(repr(v)));
        else if (part.conversion == 's')
            v = strValue(str(v));
        std::string spec = part.spec ? evalFString(f, *part.spec).as<StrObject>()->str() : "";
        out += formatValue(*this, v, spec);
    }
    return strValue(std::move(out));
}

Value Interpreter::evalSequence(Frame& f, const SequenceExpr& e) {
    std::vector<Value> items;
    items.reserve(e.elements.size());
    for (const auto& el : e.elements) {
        if (el->kind == ExprKind::Starred) {
            Value seq = eval(f, *static_cast<const StarredExpr&>(*el).value);
            f.mark(el->span);
            for (Value& v : toVector(seq))
                items.push_back(std::move(v));
        } else {
            items.push_back(eval(f, *el));
        }
    }
    if (e.kind == ExprKind::List || e.kind == ExprKind::Set) return listValue(std::move(items));
    return tupleValue(std::move(items));
}

Value Interpreter::evalDict(Frame& f, const DictExpr& e) {
    auto dict = makeRef<DictObject>();
    for (size_t i = 0; i < e.keys.size(); ++i) {
        if (!e.keys[i]) {
            Value other = eval(f, *e.values[i]);
            if (!other.is(ObjectKind::Dict))
                raiseTypeError("'" + typeName(other) + "' object is not a mapping");
            other.as<DictObject>()->forEach(
                [&](const Value& k, const Value& v) { dict->set(*this, k, v); });
            continue;
        }
        Value key = eval(f, *e.keys[i]);
        Value value = eval(f, *e.values[i]);
        f.mark(e.keys[i]->span);
        dict->set(*this, key, std::move(value));
    }
    return Value(dict);
}

} // namespace kiln::lang
