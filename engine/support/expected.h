// SPDX-License-Identifier: MIT
/// \file
/// Expected failures: a Diagnostic says what went wrong and where, and Expected<T> carries either
/// a value or a Diagnostic. Used at every boundary where a failure is a normal outcome (bad
/// scripts, I/O, missing devices). Kiln's own bugs are KILN_ASSERTs instead.
#pragma once

#include "support/assert.h"
#include "support/source.h"

#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace kiln {

struct Diagnostic {
    std::string kind; ///< a short category: "SyntaxError", "TraceError", "UsageError", ...
    std::string
        message; ///< lower-case start for engine messages; scripts' messages as Python words them
    std::string file; ///< empty when the failure has no source position
    SourceSpan span;
    std::vector<std::string> notes;

    /// "file:line:col: kind: message", or "kind: message" without a position.
    std::string render() const;
};

Diagnostic makeDiagnostic(std::string kind, std::string message);

template <typename T>
class [[nodiscard]] Expected {
public:
    Expected(T value)
        : m_state(std::in_place_index<0>, std::move(value)) {}
    Expected(Diagnostic error)
        : m_state(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return m_state.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & {
        KILN_ASSERT(ok(), "value() of a failed Expected");
        return std::get<0>(m_state);
    }
    T&& value() && {
        KILN_ASSERT(ok(), "value() of a failed Expected");
        return std::get<0>(std::move(m_state));
    }
    const T& value() const& {
        KILN_ASSERT(ok(), "value() of a failed Expected");
        return std::get<0>(m_state);
    }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }

    const Diagnostic& error() const {
        KILN_ASSERT(!ok(), "error() of a successful Expected");
        return std::get<1>(m_state);
    }
    Diagnostic takeError() && {
        KILN_ASSERT(!ok(), "takeError() of a successful Expected");
        return std::get<1>(std::move(m_state));
    }

private:
    std::variant<T, Diagnostic> m_state;
};

/// Success or a Diagnostic, for operations without a result value.
class [[nodiscard]] Status {
public:
    Status() = default;
    Status(Diagnostic error)
        : m_error(std::move(error))
        , m_failed(true) {}
    static Status success() { return {}; }

    bool ok() const { return !m_failed; }
    explicit operator bool() const { return ok(); }
    const Diagnostic& error() const {
        KILN_ASSERT(m_failed, "error() of a successful Status");
        return m_error;
    }

private:
    Diagnostic m_error;
    bool m_failed = false;
};

} // namespace kiln
