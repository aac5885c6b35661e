// SPDX-License-Identifier: MIT
/// \file
/// Python-style error reports: the traceback of an uncaught exception (with CPython 3.11's
/// caret lines, chained causes and collapsed recursion) and the report of a syntax error.
#pragma once

#include "lang/interpreter.h"
#include "support/expected.h"

#include <string>

namespace kiln::lang {

/// The full text CPython prints for an uncaught exception, ending with a newline.
std::string formatTraceback(Interpreter& interp, const Value& exception);
/// str(value) for reporting an uncaught exception: CPython's "<exception str() failed>" when
/// its __str__ raises (or returns something else than a str), never a second exception.
std::string exceptionMessage(Interpreter& interp, const Value& value);
/// "ErrorType: message" (or just "ErrorType" when the message is empty).
std::string formatExceptionOnly(Interpreter& interp, const Value& exception);
/// The text CPython prints for a SyntaxError/IndentationError found before running.
std::string formatSyntaxError(const Diagnostic& diagnostic, const SourceFile& source);

/// Where the innermost traceback entry points, for one-line summaries (file:line:col).
struct ErrorLocation {
    std::string file;
    SourcePos pos;
    bool known = false;
};
ErrorLocation innermostLocation(const Value& exception);

} // namespace kiln::lang
