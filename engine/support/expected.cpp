// SPDX-License-Identifier: MIT
#include "support/expected.h"

namespace kiln {

std::string Diagnostic::render() const {
    std::string out;
    if (!file.empty()) {
        out += file;
        if (span.known())
            out += ":" + std::to_string(span.begin.line) + ":" + std::to_string(span.begin.column);
        out += ": ";
    }
    out += kind.empty() ? std::string("error") : kind;
    out += ": ";
    out += message;
    return out;
}

Diagnostic makeDiagnostic(std::string kind, std::string message) {
    Diagnostic d;
    d.kind = std::move(kind);
    d.message = std::move(message);
    return d;
}

} // namespace kiln
