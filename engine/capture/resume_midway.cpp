// SPDX-License-Identifier: MIT
// Resume points in the middle of a statement. Dynamo resumes at the bytecode instruction after
// the one that broke the graph, so in `return g(x) - 1` with a break in g, the subtraction is
// part of the resume function's graph. Kiln's frames run statements, so a break inside an
// expression resumes when that expression's evaluation finishes: the rest of the statement and
// of the function is traced from there, with the expression's value as the resume point's
// stack input (`___stack0`). A cached resume point stands in for that rest by ending the frame,
// or by continuing it at the statement where its own graph broke (a FrameJump).
#include "capture/capture_session.h"
#include "capture/sym_ints.h"
#include "capture/value_kinds.h"

#include <algorithm>

namespace kiln::capture {

using lang::Value;

namespace {

/// True when finishing `e` leaves nothing of statement `s` to do but binding names or
/// returning: the frame may resume after the statement, as it does for a break at a
/// statement's last operation.
bool isStatementValue(const lang::Stmt& s, const lang::Expr& e) {
    auto names = [](const lang::Expr& target) {
        if (target.kind == lang::ExprKind::Name) return true;
        if (target.kind != lang::ExprKind::Tuple && target.kind != lang::ExprKind::List)
            return false;
        const auto& items = static_cast<const lang::SequenceExpr&>(target).elements;
        return std::all_of(items.begin(), items.end(),
                           [](const lang::ExprPtr& i) { return i->kind == lang::ExprKind::Name; });
    };
    switch (s.kind) {
    case lang::StmtKind::Expr:
        return static_cast<const lang::ExprStmt&>(s).value.get() == &e;
    case lang::StmtKind::Return:
        return static_cast<const lang::ReturnStmt&>(s).value.get() == &e;
    case lang::StmtKind::Assign: {
        const auto& a = static_cast<const lang::AssignStmt&>(s);
        return a.value.get() == &e &&
               std::all_of(a.targets.begin(), a.targets.end(),
                           [&](const lang::ExprPtr& t) { return names(*t); });
    }
    default:
        return false;
    }
}

bool within(const SourceSpan& inner, const SourceSpan& outer) {
    auto before = [](const SourcePos& a, const SourcePos& b) {
        return a.line < b.line || (a.line == b.line && a.column <= b.column);
    };
    return before(outer.begin, inner.begin) && before(inner.end, outer.end);
}

/// The values of the statement's sub-expressions evaluated before `e` finished (outside `e`),
/// in source order: what Dynamo keeps on its value stack. They are inputs of the resume point
/// (`___stack1`, ...), so a graph that uses them reads them, and they seed the new trace's memo
/// so the statement can be replayed if it breaks again.
CaptureEngine::Prefix statementPrefix(const lang::ExpressionMemo* memo, const Tracer* previous,
                                      const lang::Expr& e) {
    CaptureEngine::Prefix entries;
    if (previous)
        entries = previous->memo();
    else if (memo)
        entries.assign(memo->begin(), memo->end());
    std::erase_if(entries, [&](const auto& entry) { return within(entry.first->span, e.span); });
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
        const auto& pa = a.first->span.begin;
        const auto& pb = b.first->span.begin;
        return pa.line < pb.line || (pa.line == pb.line && pa.column < pb.column);
    });
    return entries;
}

/// The frame's locals, then `___stack0` (the finished expression's value), then the prefix.
std::vector<Value> resumeInputs(const lang::Frame& f, const Value& stack,
                                const CaptureEngine::Prefix& prefix) {
    const size_t count = f.code->scope->slots.size();
    std::vector<Value> slots =
        frameInputs(std::vector<Value>(f.slots, f.slots + count), *f.code, f.closure);
    slots.push_back(stack);
    for (const auto& entry : prefix)
        slots.push_back(entry.second);
    return slots;
}

} // namespace

void CaptureEngine::noteResumeExpression(lang::Frame& f, const lang::Expr& e) {
    // The trace that broke learns where its frame went on, so replays wait for the same spot.
    if (m_session && m_session->breakEntry && !m_session->breakEntry->resumeExpr &&
        m_session->tracer && m_session->tracer->topFrame() == &f)
        m_session->breakEntry->resumeExpr = &e;
}

Value CaptureEngine::onExpressionDone(lang::Frame& f, const lang::Expr& e, Value v) {
    lang::ResumeRequest& request = *f.resume;
    const lang::Stmt& statement = *request.statement;
    noteResumeExpression(f, e);
    if (isStatementValue(statement, e)) {
        request.awaitExpression = false; // resume after the statement, as onResume does
        return v;
    }
    f.resume = nullptr;
    if (m_contexts.empty()) return v;
    FrameRecord& rec = record(FrameKey{f.code, &statement, -1, &e}, *f.code);
    if (rec.skip) return v;
    // The statement's earlier values: from the latest trace of this frame when it began after
    // the frame's current replay memo was installed (it saw everything since), else from that
    // memo (a cached entry replayed the statement's start).
    const Tracer* previous = m_session && m_session->tracer &&
                                     m_session->tracer->topFrame() == &f &&
                                     m_session->memoAtStart == f.memo
                                 ? m_session->tracer.get()
                                 : nullptr;
    Prefix prefix = statementPrefix(f.memo, previous, e);
    std::vector<Value> slots = resumeInputs(f, v, prefix);
    if (const CacheEntry* entry = lookup(rec, m_interp, slots, *f.globals))
        replayContinuation(*entry, f, slots);
    std::string reason;
    if (!admitCompile(rec, slots, *f.globals, reason)) return v;
    openContinuation(rec, f, slots, std::move(prefix), reason);
    return v;
}

void CaptureEngine::openContinuation(FrameRecord& rec, lang::Frame& f,
                                     const std::vector<Value>& slots, Prefix prefix,
                                     const std::string& reason) {
    auto s = std::make_unique<Session>();
    s->globals = f.globals;
    s->entrySlots = slots;
    s->frame = &f;
    s->previous = m_session;
    s->memoAtStart = f.memo;
    beginSession(*s, rec, reason);
    const size_t locals = f.code->scope->slots.size() + f.code->scope->freeNames.size();
    s->tracer->setTopFrame(&f);
    s->tracer->registerInputs(*f.code, std::vector<Value>(slots.begin(), slots.begin() + locals));
    for (size_t i = locals; i < slots.size(); ++i)
        s->tracer->registerInput(slots[i], Source::local(static_cast<int32_t>(i),
                                                         "___stack" + std::to_string(i - locals)));
    s->tracer->seedMemo(f.currentStmt, std::move(prefix));
    s->tracer->install();
    m_session = s.get();
    m_open.push_back(std::move(s));
    f.captureOpen = true;
}

void CaptureEngine::replayContinuation(const CacheEntry& e, lang::Frame& f,
                                       const std::vector<Value>& slots) {
    std::vector<Value> outputs = callGraph(e, slots, *f.globals);
    lang::FrameJump jump;
    jump.frame = &f;
    if (!e.endsInBreak) {
        jump.returnValue = materialise(m_interp, e.returnValue, outputs, slots, *f.globals);
        throw jump;
    }
    for (size_t i = 0; i < e.slots.size(); ++i) {
        Value v = materialise(m_interp, e.slots[i], outputs, slots, *f.globals);
        if (f.slots[i].is(lang::ObjectKind::Cell) && v.is(lang::ObjectKind::Cell))
            f.slots[i].as<lang::CellObject>()->value = v.as<lang::CellObject>()->value;
        else
            f.slots[i] = std::move(v);
    }
    for (const auto& [expr, r] : e.memo)
        jump.memo[expr] = materialise(m_interp, r, outputs, slots, *f.globals);
    jump.continueAt = e.breakStatement;
    jump.resume =
        lang::ResumeRequest{e.breakStatement, e.breakAtBranch, !e.breakAtBranch, e.resumeExpr};
    throw jump;
}

void CaptureEngine::onFrameExit(lang::Frame& f, Value& returnValue, bool unwinding) {
    while (!m_open.empty() && m_open.back()->frame == &f) {
        std::unique_ptr<Session> s = std::move(m_open.back());
        m_open.pop_back();
        m_session = s->previous;
        if (unwinding)
            abandonTrace(*s, "failed", "the frame raised while it was traced", false);
        else if (!s->done) {
            finishTrace(*s, End::Return, &returnValue);
            returnValue = concreteValue(m_interp, returnValue);
        }
    }
    f.captureOpen = false;
}

bool CaptureEngine::skipInPlace(const BreakReason& reason, const std::string& message) {
    if (!m_session || m_session->done || !m_session->tracing()) return false;
    Session& s = *m_session;
    // Dynamo runs a skipped frame again from its start, so the functions it calls before the
    // break run (and compile) as frames of their own on this very call. Shadow execution has
    // already run that part: it reruns only where doing so repeats nothing a program could
    // see: in-place tensor changes and every store the trace made (globals included) are put
    // back and the random generator rewound (skipFrame, tracer_undo.cpp). What cannot be put
    // back (an advanced generator from before the trace, a list-slice store), or a
    // continuation, which cannot rerun the rest of its statement, goes on eagerly from here.
    if (!s.frame && s.tracer->storesUndoable()) return false;
    reportBreak(s, reason);
    KILN_TORCH_LOG(m_logger, LogLevel::Info, "torch._dynamo.convert_frame", s.compile.compileId,
                   message + "\n" + formatUserStack(reason.stack));
    s.rec->skip = true;
    s.rec->skipReason = message;
    abandonTrace(s, "skipped", message, false);
    if (lang::Frame* top = s.tracer->topFrame()) {
        const size_t locals = top->code->scope->slots.size();
        for (size_t i = 0; i < locals; ++i)
            top->slots[i] = concreteValue(m_interp, top->slots[i]);
    }
    return true;
}

} // namespace kiln::capture
