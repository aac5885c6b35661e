// SPDX-License-Identifier: MIT
/// \file
/// The cache of compiled code, per code object: a function's body, or a resume point (the rest
/// of a function after the statement where a graph broke, entered inside the chosen branch for
/// a data-dependent `if`). Each code object holds its cache entries newest first; an entry is
/// the guards, the graph's compiled callable, where its inputs come from, and how the frame's
/// Python state is rebuilt from the graph's outputs (a return value, or at a break the locals
/// and the evaluated parts of the breaking statement).
#pragma once

#include "capture/break_reason.h"
#include "capture/guards.h"
#include "capture/recipe.h"
#include "graph/graph.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kiln::capture {

struct FrameKey {
    const lang::FunctionCode* code = nullptr;
    const lang::Stmt* resumeAfter = nullptr; ///< null: the function's start
    int branch = -1;                         ///< for a resume inside an `if`: 0 body, 1 else
    /// For a resume in the middle of `resumeAfter`: the expression whose value the rest of the
    /// statement goes on with (Dynamo's stack value, input `___stack0`).
    const lang::Expr* resumeExpr = nullptr;
    auto operator<=>(const FrameKey&) const = default;
};

struct CacheEntry {
    std::string compileId;
    GuardSet guards;
    std::vector<SourcePtr> inputs;       ///< placeholders' sources, in order
    lang::Value compiled;                ///< the backend's callable; Empty when nothing to run
    std::shared_ptr<graph::Graph> graph; ///< null when the frame traced no ops
    bool endsInBreak = false;
    Recipe returnValue; ///< !endsInBreak
    // endsInBreak: where and how to go on eagerly
    const lang::Stmt* breakStatement = nullptr;
    bool breakAtBranch = false;
    /// The expression around the break that finished first after it (known once the frame
    /// went on after the trace): where a replay hands back to the capture engine.
    const lang::Expr* resumeExpr = nullptr;
    std::vector<Recipe> slots;
    std::vector<std::pair<const lang::Expr*, Recipe>> memo;
    /// Stores into objects that existed before the frame, replayed in order after the graph.
    struct SideEffect {
        enum class Kind : uint8_t { Attribute, Item, Append };
        Kind kind = Kind::Attribute;
        SourcePtr target;
        lang::Value key;
        Recipe value;
    };
    std::vector<SideEffect> sideEffects;
};

/// Automatic dynamic shapes: what earlier compiles of a code object saw for each input.
struct InputHistory {
    std::vector<int64_t> sizes;
    std::vector<bool> dynamic; ///< dims that changed between compiles
};

struct FrameRecord {
    FrameKey key;
    int64_t frameId = -1; ///< assigned on the first compile
    std::string name;     ///< co_name
    std::string file;
    int32_t firstLine = 0;
    int64_t parentFrameId = -1;
    int32_t resumeLine = 0;
    std::vector<std::unique_ptr<CacheEntry>> entries; ///< newest first
    int32_t compileCount = 0;
    bool skip = false; ///< runs eagerly from now on (break in a loop, no ops, ...)
    std::string skipReason;
    bool limitWarned = false;
    std::map<std::string, InputHistory> inputs; ///< by source, for automatic dynamic
};

} // namespace kiln::capture
