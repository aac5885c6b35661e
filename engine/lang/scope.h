// SPDX-License-Identifier: MIT
/// \file
/// Scope resolution: decides, once after parsing, where every name lives, with Python's rules.
/// A name bound anywhere in a function is local to it unless declared global/nonlocal; a name
/// read but not bound comes from the nearest enclosing function that binds it (a closure cell)
/// or else from the module globals and builtins. Class bodies bind into the class namespace and
/// are skipped when methods look for enclosing names. Comprehensions have their own scope.
/// The interpreter then reads locals by slot index instead of by name.
#pragma once

#include "lang/ast.h"
#include "support/expected.h"

#include <vector>

namespace kiln::lang {

enum class ScopeKind : uint8_t { Module, Function, Class, Comprehension };

struct Scope {
    ScopeKind kind = ScopeKind::Function;
    Scope* parent = nullptr;
    /// Local slots: parameters first (in declaration order), then other bound names.
    std::vector<Symbol> slots;
    /// Slots captured by an inner scope: they hold a Cell, created at frame entry.
    std::vector<int32_t> cellSlots;
    /// Names read from enclosing function scopes, in closure order.
    std::vector<Symbol> freeNames;
    /// For each free name: where the defining frame finds it when it builds the closure.
    struct FreeSource {
        bool fromCellSlot = true; ///< true: the enclosing scope's cell slot; false: its free index
        int32_t index = 0;
    };
    std::vector<FreeSource> freeSources;

    int32_t slotOf(Symbol name) const;
    int32_t freeIndexOf(Symbol name) const;
    bool isCellSlot(int32_t slot) const;
};

/// Resolves every scope reachable from the module code; reports misuse of global/nonlocal as a
/// SyntaxError diagnostic.
Status resolveScopes(FunctionCode& module);

} // namespace kiln::lang
