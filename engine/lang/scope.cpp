// SPDX-License-Identifier: MIT
#include "lang/scope.h"

#include <algorithm>
#include <map>
#include <set>

namespace kiln::lang {

int32_t Scope::slotOf(Symbol name) const {
    auto it = std::find(slots.begin(), slots.end(), name);
    return it == slots.end() ? -1 : static_cast<int32_t>(it - slots.begin());
}

int32_t Scope::freeIndexOf(Symbol name) const {
    auto it = std::find(freeNames.begin(), freeNames.end(), name);
    return it == freeNames.end() ? -1 : static_cast<int32_t>(it - freeNames.begin());
}

bool Scope::isCellSlot(int32_t slot) const {
    return std::find(cellSlots.begin(), cellSlots.end(), slot) != cellSlots.end();
}

namespace {

struct ScopeFailure {
    Diagnostic diagnostic;
};

/// Analysis state of one scope while resolving.
struct ScopeInfo {
    Scope* scope = nullptr;
    FunctionCode* code = nullptr;
    std::vector<Symbol> boundOrder;
    std::set<uint32_t> bound, globals, nonlocals;
    std::vector<NameExpr*> names; ///< every name node that belongs to this scope
    std::string className;        ///< the innermost enclosing class, for name mangling
    /// The nonlocal declarations, in order, with the statement that made each.
    std::vector<std::pair<Symbol, SourceSpan>> nonlocalDeclarations;
    int loopDepth = 0; ///< loops around the statement being visited (break/continue checks)
};

// Private names: inside a class, `__x` (not `__x__`) becomes `_Class__x`, as CPython's compiler
// rewrites identifiers and attribute names.
Symbol mangle(const ScopeInfo& s, Symbol name) {
    const std::string& id = name.str();
    if (s.className.empty() || id.size() < 3 || id.compare(0, 2, "__") != 0 ||
        (id.size() >= 4 && id.compare(id.size() - 2, 2, "__") == 0))
        return name;
    size_t start = s.className.find_first_not_of('_');
    if (start == std::string::npos) return name;
    return Symbol::intern("_" + s.className.substr(start) + id);
}

class Resolver {
public:
    explicit Resolver(const SourceFile* source)
        : m_source(source) {}

    void run(FunctionCode& module);

private:
    ScopeInfo& open(FunctionCode& code, ScopeKind kind, ScopeInfo* parent);
    void bind(ScopeInfo& s, Symbol name) {
        if (s.bound.insert(name.id()).second) s.boundOrder.push_back(name);
    }
    void visitBlock(ScopeInfo& s, const Block& block);
    void visitLoopBody(ScopeInfo& s, const Block& body) {
        ++s.loopDepth;
        visitBlock(s, body);
        --s.loopDepth;
    }
    void visitStmt(ScopeInfo& s, Stmt& stmt);
    void visitExpr(ScopeInfo& s, Expr* e);
    /// A deferred (PEP 563) annotation is a string: its names are never looked up.
    void visitAnnotation(ScopeInfo& s, Annotation& a) {
        if (!a.deferred) visitExpr(s, a.expr.get());
    }
    void visitTarget(ScopeInfo& s, Expr* e);
    void visitFunction(ScopeInfo& s, FunctionCode& code, ScopeKind kind);
    void visitComprehension(ScopeInfo& s, ComprehensionExpr& comp);
    void declare(ScopeInfo& s, NamesStmt& stmt);

    void layoutSlots(ScopeInfo& s);
    void resolveFree(ScopeInfo& s);
    int32_t requestFree(ScopeInfo& s, Symbol name);
    void fixNames(ScopeInfo& s);

    [[noreturn]] void fail(const std::string& message, SourceSpan span) {
        Diagnostic d;
        d.kind = "SyntaxError";
        d.message = message;
        d.file = m_source->path();
        d.span = span;
        throw ScopeFailure{std::move(d)};
    }

    const SourceFile* m_source;
    std::vector<std::unique_ptr<ScopeInfo>> m_infos;
    std::map<const Scope*, ScopeInfo*> m_byScope;
};

ScopeInfo& Resolver::open(FunctionCode& code, ScopeKind kind, ScopeInfo* parent) {
    code.scope = std::make_unique<Scope>();
    code.scope->kind = kind;
    code.scope->parent = parent ? parent->scope : nullptr;
    auto info = std::make_unique<ScopeInfo>();
    info->scope = code.scope.get();
    info->code = &code;
    info->className = kind == ScopeKind::Class ? code.name.str()
                      : parent                 ? parent->className
                                               : std::string();
    m_byScope[info->scope] = info.get();
    m_infos.push_back(std::move(info));
    return *m_infos.back();
}

void Resolver::declare(ScopeInfo& s, NamesStmt& stmt) {
    bool isGlobal = stmt.kind == StmtKind::Global;
    for (Symbol& declared : stmt.names) {
        declared = mangle(s, declared);
        Symbol name = declared;
        if (s.scope->kind == ScopeKind::Module && !isGlobal)
            fail("nonlocal declaration not allowed at module level", stmt.span);
        if (s.bound.count(name.id()) ||
            std::any_of(s.names.begin(), s.names.end(), [&](NameExpr* n) { return n->id == name; }))
            fail("name '" + name.str() + "' is used prior to " +
                     (isGlobal ? "global declaration" : "nonlocal declaration"),
                 stmt.span);
        (isGlobal ? s.globals : s.nonlocals).insert(name.id());
        if (!isGlobal) s.nonlocalDeclarations.emplace_back(name, stmt.span);
    }
}

void Resolver::visitBlock(ScopeInfo& s, const Block& block) {
    for (const auto& stmt : block)
        visitStmt(s, *stmt);
}

void Resolver::visitStmt(ScopeInfo& s, Stmt& stmt) {
    switch (stmt.kind) {
    case StmtKind::Expr:
        visitExpr(s, static_cast<ExprStmt&>(stmt).value.get());
        break;
    case StmtKind::Assign: {
        auto& a = static_cast<AssignStmt&>(stmt);
        visitExpr(s, a.value.get());
        for (auto& t : a.targets)
            visitTarget(s, t.get());
        break;
    }
    case StmtKind::AugAssign: {
        auto& a = static_cast<AugAssignStmt&>(stmt);
        visitExpr(s, a.value.get());
        visitTarget(s, a.target.get());
        break;
    }
    case StmtKind::AnnAssign: {
        auto& a = static_cast<AnnAssignStmt&>(stmt);
        visitExpr(s, a.value.get());
        // Evaluated in module and class bodies only; in a function CPython never evaluates it.
        if (s.scope->kind == ScopeKind::Module || s.scope->kind == ScopeKind::Class)
            visitAnnotation(s, a.annotation);
        visitTarget(s, a.target.get()); // `x: int` also makes x local
        break;
    }
    case StmtKind::If: {
        auto& i = static_cast<IfStmt&>(stmt);
        visitExpr(s, i.test.get());
        visitBlock(s, i.body);
        visitBlock(s, i.orelse);
        break;
    }
    case StmtKind::For: {
        auto& f = static_cast<ForStmt&>(stmt);
        visitExpr(s, f.iter.get());
        visitTarget(s, f.target.get());
        visitLoopBody(s, f.body);
        visitBlock(s, f.orelse);
        break;
    }
    case StmtKind::While: {
        auto& w = static_cast<WhileStmt&>(stmt);
        visitExpr(s, w.test.get());
        visitLoopBody(s, w.body);
        visitBlock(s, w.orelse);
        break;
    }
    case StmtKind::Return:
        if (s.scope->kind == ScopeKind::Module || s.scope->kind == ScopeKind::Class)
            fail("'return' outside function", stmt.span);
        visitExpr(s, static_cast<ReturnStmt&>(stmt).value.get());
        break;
    case StmtKind::FunctionDef: {
        auto& f = static_cast<FunctionDefStmt&>(stmt);
        for (auto& d : f.decorators)
            visitExpr(s, d.get());
        for (auto& p : f.code->params)
            visitExpr(s, p.defaultValue.get());
        for (auto& p : f.code->params) // evaluated after the defaults, in the defining scope
            visitAnnotation(s, p.annotation);
        visitAnnotation(s, f.code->returns);
        visitFunction(s, *f.code, ScopeKind::Function);
        visitTarget(s, f.target.get());
        break;
    }
    case StmtKind::ClassDef: {
        auto& c = static_cast<ClassDefStmt&>(stmt);
        for (auto& d : c.decorators)
            visitExpr(s, d.get());
        for (auto& a : c.arguments)
            visitExpr(s, a.value.get());
        visitFunction(s, *c.body, ScopeKind::Class);
        visitTarget(s, c.target.get());
        break;
    }
    case StmtKind::Import:
        for (auto& alias : static_cast<ImportStmt&>(stmt).names)
            visitTarget(s, alias.target.get());
        break;
    case StmtKind::ImportFrom:
        for (auto& alias : static_cast<ImportFromStmt&>(stmt).names)
            visitTarget(s, alias.target.get());
        break;
    case StmtKind::Global:
    case StmtKind::Nonlocal:
        declare(s, static_cast<NamesStmt&>(stmt));
        break;
    case StmtKind::Assert: {
        auto& a = static_cast<AssertStmt&>(stmt);
        visitExpr(s, a.test.get());
        visitExpr(s, a.message.get());
        break;
    }
    case StmtKind::Raise: {
        auto& r = static_cast<RaiseStmt&>(stmt);
        visitExpr(s, r.exception.get());
        visitExpr(s, r.cause.get());
        break;
    }
    case StmtKind::Try: {
        auto& t = static_cast<TryStmt&>(stmt);
        visitBlock(s, t.body);
        for (auto& h : t.handlers) {
            visitExpr(s, h.type.get());
            if (h.name) visitTarget(s, h.name.get());
            visitBlock(s, h.body);
        }
        visitBlock(s, t.orelse);
        visitBlock(s, t.finalbody);
        break;
    }
    case StmtKind::With: {
        auto& w = static_cast<WithStmt&>(stmt);
        for (auto& item : w.items) {
            visitExpr(s, item.context.get());
            if (item.target) visitTarget(s, item.target.get());
        }
        visitBlock(s, w.body);
        break;
    }
    case StmtKind::Del:
        for (auto& t : static_cast<DelStmt&>(stmt).targets)
            visitTarget(s, t.get());
        break;
    case StmtKind::Break:
        if (s.loopDepth == 0) fail("'break' outside loop", stmt.span);
        break;
    case StmtKind::Continue:
        if (s.loopDepth == 0) fail("'continue' not properly in loop", stmt.span);
        break;
    case StmtKind::Pass:
        break;
    }
}

void Resolver::visitTarget(ScopeInfo& s, Expr* e) {
    switch (e->kind) {
    case ExprKind::Name: {
        auto* n = static_cast<NameExpr*>(e);
        n->id = mangle(s, n->id);
        bind(s, n->id);
        s.names.push_back(n);
        break;
    }
    case ExprKind::Tuple:
    case ExprKind::List:
        for (auto& el : static_cast<SequenceExpr*>(e)->elements)
            visitTarget(s, el.get());
        break;
    case ExprKind::Starred:
        visitTarget(s, static_cast<StarredExpr*>(e)->value.get());
        break;
    default:
        visitExpr(s, e); // attribute and subscript targets evaluate their parts
    }
}

void Resolver::visitFunction(ScopeInfo& s, FunctionCode& code, ScopeKind kind) {
    ScopeInfo& child = open(code, kind, &s);
    for (auto& p : code.params) {
        p.name = mangle(child, p.name);
        bind(child, p.name);
    }
    visitBlock(child, code.body);
}

void Resolver::visitComprehension(ScopeInfo& s, ComprehensionExpr& comp) {
    // The first iterable is evaluated in the enclosing scope; everything else inside.
    visitExpr(s, comp.generators.front().iter.get());
    ScopeInfo& child = open(*comp.code, ScopeKind::Comprehension, &s);
    for (size_t i = 0; i < comp.generators.size(); ++i) {
        Comprehension& g = comp.generators[i];
        if (i > 0) visitExpr(child, g.iter.get());
        visitTarget(child, g.target.get());
        for (auto& cond : g.ifs)
            visitExpr(child, cond.get());
    }
    visitExpr(child, comp.element.get());
    visitExpr(child, comp.value.get());
}

void Resolver::visitExpr(ScopeInfo& s, Expr* e) {
    if (!e) return;
    switch (e->kind) {
    case ExprKind::Constant:
        break;
    case ExprKind::FString:
        for (auto& part : static_cast<FStringExpr*>(e)->parts) {
            visitExpr(s, part.expr.get());
            visitExpr(s, part.spec.get());
        }
        break;
    case ExprKind::Name: {
        auto* n = static_cast<NameExpr*>(e);
        n->id = mangle(s, n->id);
        s.names.push_back(n);
        break;
    }
    case ExprKind::Attribute: {
        auto* a = static_cast<AttributeExpr*>(e);
        a->attr = mangle(s, a->attr);
        visitExpr(s, a->value.get());
        break;
    }
    case ExprKind::Subscript: {
        auto* sub = static_cast<SubscriptExpr*>(e);
        visitExpr(s, sub->value.get());
        visitExpr(s, sub->index.get());
        break;
    }
    case ExprKind::Slice: {
        auto* sl = static_cast<SliceExpr*>(e);
        visitExpr(s, sl->lower.get());
        visitExpr(s, sl->upper.get());
        visitExpr(s, sl->step.get());
        break;
    }
    case ExprKind::Call: {
        auto* c = static_cast<CallExpr*>(e);
        visitExpr(s, c->func.get());
        for (auto& a : c->args)
            visitExpr(s, a.value.get());
        break;
    }
    case ExprKind::BinOp: {
        auto* b = static_cast<BinOpExpr*>(e);
        visitExpr(s, b->left.get());
        visitExpr(s, b->right.get());
        break;
    }
    case ExprKind::UnaryOp:
        visitExpr(s, static_cast<UnaryOpExpr*>(e)->operand.get());
        break;
    case ExprKind::Yield:
        visitExpr(s, static_cast<YieldExpr*>(e)->value.get());
        break;
    case ExprKind::BoolOp:
        for (auto& v : static_cast<BoolOpExpr*>(e)->values)
            visitExpr(s, v.get());
        break;
    case ExprKind::Compare: {
        auto* c = static_cast<CompareExpr*>(e);
        visitExpr(s, c->left.get());
        for (auto& v : c->comparators)
            visitExpr(s, v.get());
        break;
    }
    case ExprKind::IfExp: {
        auto* i = static_cast<IfExpExpr*>(e);
        visitExpr(s, i->test.get());
        visitExpr(s, i->body.get());
        visitExpr(s, i->orelse.get());
        break;
    }
    case ExprKind::Lambda: {
        auto* l = static_cast<LambdaExpr*>(e);
        for (auto& p : l->code->params)
            visitExpr(s, p.defaultValue.get());
        visitFunction(s, *l->code, ScopeKind::Function);
        break;
    }
    case ExprKind::List:
    case ExprKind::Tuple:
    case ExprKind::Set:
        for (auto& el : static_cast<SequenceExpr*>(e)->elements)
            visitExpr(s, el.get());
        break;
    case ExprKind::Dict: {
        auto* d = static_cast<DictExpr*>(e);
        for (size_t i = 0; i < d->keys.size(); ++i) {
            visitExpr(s, d->keys[i].get());
            visitExpr(s, d->values[i].get());
        }
        break;
    }
    case ExprKind::ListComp:
    case ExprKind::DictComp:
    case ExprKind::SetComp:
    case ExprKind::GeneratorExp:
        visitComprehension(s, *static_cast<ComprehensionExpr*>(e));
        break;
    case ExprKind::Starred:
        visitExpr(s, static_cast<StarredExpr*>(e)->value.get());
        break;
    case ExprKind::NamedExpr: {
        auto* n = static_cast<NamedExpr*>(e);
        visitExpr(s, n->value.get());
        // A walrus inside a comprehension binds in the enclosing function scope.
        ScopeInfo* owner = &s;
        while (owner->scope->kind == ScopeKind::Comprehension)
            owner = m_byScope[owner->scope->parent];
        auto& target = static_cast<NameExpr&>(*n->target);
        target.id = mangle(s, target.id);
        bind(*owner, target.id);
        s.names.push_back(static_cast<NameExpr*>(n->target.get()));
        break;
    }
    }
}

void Resolver::layoutSlots(ScopeInfo& s) {
    if (s.scope->kind == ScopeKind::Module || s.scope->kind == ScopeKind::Class) return;
    for (Symbol name : s.boundOrder)
        if (!s.globals.count(name.id()) && !s.nonlocals.count(name.id()))
            s.scope->slots.push_back(name);
}

// Makes `name` a free variable of scope s (and of every scope between s and its definer).
// Returns its free index in s, or -1 when no enclosing function binds it.
int32_t Resolver::requestFree(ScopeInfo& s, Symbol name) {
    int32_t existing = s.scope->freeIndexOf(name);
    if (existing >= 0) return existing;
    ScopeInfo* parent = s.scope->parent ? m_byScope[s.scope->parent] : nullptr;
    if (!parent || parent->scope->kind == ScopeKind::Module) return -1;
    Scope::FreeSource source;
    int32_t slot = -1;
    // Methods do not see class-body names: a class scope only passes enclosing cells along.
    if (parent->scope->kind != ScopeKind::Class) {
        if (parent->globals.count(name.id())) return -1;
        slot = parent->scope->slotOf(name);
    }
    if (slot >= 0) {
        if (!parent->scope->isCellSlot(slot)) parent->scope->cellSlots.push_back(slot);
        source.fromCellSlot = true;
        source.index = slot;
    } else {
        int32_t index = requestFree(*parent, name);
        if (index < 0) return -1;
        source.fromCellSlot = false;
        source.index = index;
    }
    s.scope->freeNames.push_back(name);
    s.scope->freeSources.push_back(source);
    return static_cast<int32_t>(s.scope->freeNames.size() - 1);
}

void Resolver::resolveFree(ScopeInfo& s) {
    for (const auto& [name, span] : s.nonlocalDeclarations)
        if (requestFree(s, name) < 0)
            fail("no binding for nonlocal '" + name.str() + "' found", span);
    for (NameExpr* n : s.names) {
        if (s.globals.count(n->id.id()) || s.scope->kind == ScopeKind::Module) continue;
        if (s.scope->kind != ScopeKind::Class && s.scope->slotOf(n->id) >= 0) continue;
        if (s.scope->kind == ScopeKind::Class && s.bound.count(n->id.id())) continue;
        requestFree(s, n->id);
    }
}

void Resolver::fixNames(ScopeInfo& s) {
    Scope& scope = *s.scope;
    for (NameExpr* n : s.names) {
        if (scope.kind == ScopeKind::Module || s.globals.count(n->id.id())) {
            n->scope = NameScope::Global;
            continue;
        }
        if (scope.kind == ScopeKind::Class && s.bound.count(n->id.id())) {
            n->scope = NameScope::ClassBody;
            continue;
        }
        int32_t slot = scope.kind == ScopeKind::Class ? -1 : scope.slotOf(n->id);
        if (slot >= 0) {
            n->scope = scope.isCellSlot(slot) ? NameScope::Cell : NameScope::Local;
            n->slot = slot;
            continue;
        }
        int32_t free = scope.freeIndexOf(n->id);
        if (free >= 0) {
            n->scope = NameScope::Free;
            n->slot = free;
            continue;
        }
        n->scope = scope.kind == ScopeKind::Class ? NameScope::ClassBody : NameScope::Global;
    }
}

void Resolver::run(FunctionCode& module) {
    ScopeInfo& root = open(module, ScopeKind::Module, nullptr);
    visitBlock(root, module.body);
    for (auto& info : m_infos)
        layoutSlots(*info);
    // Children were opened after their parents, so walking in reverse resolves inner scopes
    // first; requestFree walks outward itself, so order only affects free-list ordering.
    for (auto it = m_infos.rbegin(); it != m_infos.rend(); ++it)
        resolveFree(**it);
    for (auto& info : m_infos)
        fixNames(*info);
}

} // namespace

Status resolveScopes(FunctionCode& module) {
    Resolver resolver(module.source.get());
    try {
        resolver.run(module);
    } catch (ScopeFailure& f) {
        return std::move(f.diagnostic);
    }
    return Status::success();
}

} // namespace kiln::lang
