// SPDX-License-Identifier: MIT
// Running the rest of a function from a statement: what a resume point after a graph break
// executes. Resume points exist only in straight-line code and inside `if` blocks (a break in a
// loop, `with` or `try` skips the whole frame instead), so the rest of a function is: the rest
// of the statement's block, then the rest of each enclosing `if`'s block, outwards.
#include "lang/interpreter.h"

namespace kiln::lang {

bool Interpreter::findStatementPath(const Block& block, const Stmt& target,
                                    std::vector<std::pair<const Block*, size_t>>& path) const {
    for (size_t i = 0; i < block.size(); ++i) {
        const Stmt& s = *block[i];
        path.emplace_back(&block, i);
        if (&s == &target) return true;
        if (s.kind == StmtKind::If) {
            const auto& is = static_cast<const IfStmt&>(s);
            if (findStatementPath(is.body, target, path) ||
                findStatementPath(is.orelse, target, path))
                return true;
        }
        path.pop_back();
    }
    return false;
}

Flow Interpreter::runAfter(Frame& f, const Stmt& s, int branch) {
    std::vector<std::pair<const Block*, size_t>> path;
    bool found = findStatementPath(f.code->body, s, path);
    KILN_ASSERT(found, "resume statement is not in straight-line or if-nested code of its frame");
    if (branch >= 0) {
        KILN_ASSERT(s.kind == StmtKind::If, "a branch resume point must be an if statement");
        const auto& is = static_cast<const IfStmt&>(s);
        Flow flow = execBlock(f, branch == 0 ? is.body : is.orelse);
        if (flow != Flow::Normal) return flow;
    }
    for (size_t level = path.size(); level-- > 0;) {
        const Block& block = *path[level].first;
        for (size_t i = path[level].second + 1; i < block.size(); ++i) {
            Flow flow = execStmt(f, *block[i]);
            if (f.resume) [[unlikely]] {
                if (f.resume->statement == block[i].get() && !f.resume->atBranch) {
                    f.resume = nullptr;
                    if (flow == Flow::Return) return flow;
                    return m_frameHook->onResume(f, *block[i], -1);
                }
            }
            if (flow != Flow::Normal) return flow;
        }
    }
    f.returnValue = Value::none(); // fell off the end of the function
    return Flow::Return;
}

Flow Interpreter::runFrom(Frame& f, const Stmt& start) {
    Flow flow = execStmt(f, start);
    if (f.resume && f.resume->statement == &start && !f.resume->atBranch) {
        f.resume = nullptr;
        f.memo = nullptr;
        return flow == Flow::Return ? flow : m_frameHook->onResume(f, start, -1);
    }
    f.memo = nullptr; // the memo covers the breaking statement only
    if (flow != Flow::Normal) return flow;
    return runAfter(f, start, -1);
}

} // namespace kiln::lang
