// SPDX-License-Identifier: MIT
#include "lang/traceback.h"

#include "lang/source_text.h"
#include "lang/suggestions.h"
#include "lang/text_encoding.h"

#include <algorithm>

namespace kiln::lang {

namespace {

std::string stripLeft(std::string_view line, size_t& removed) {
    removed = 0;
    while (removed < line.size() && (line[removed] == ' ' || line[removed] == '\t'))
        ++removed;
    return std::string(line.substr(removed));
}

// Byte offset of a 1-based character column in a UTF-8 line.
size_t byteOffset(std::string_view line, int32_t column) {
    size_t i = 0;
    for (int32_t c = 1; c < column && i < line.size(); ++c) {
        ++i;
        while (i < line.size() && (static_cast<unsigned char>(line[i]) & 0xC0) == 0x80)
            ++i;
    }
    return i;
}

// CPython 3.11 marks the failing expression under the source line: '^' for the part that
// failed, '~' for the operands around a binary operator or the value before a subscript. No
// marks when they would cover the whole line.
std::string caretLine(std::string_view line, const SourceSpan& span, const SourceSpan* inner,
                      size_t indent) {
    if (!span.known() || span.end.line != span.begin.line) return "";
    size_t begin = byteOffset(line, span.begin.column);
    size_t end = byteOffset(line, span.end.column);
    size_t lineEnd = line.find_last_not_of(" \t\r");
    if (end <= begin || lineEnd == std::string_view::npos) return "";
    if (begin <= indent && end >= lineEnd + 1) return "";
    std::string marks(end - begin, '^');
    if (inner && inner->known() && inner->begin.line == span.begin.line) {
        size_t ib = byteOffset(line, inner->begin.column), ie = byteOffset(line, inner->end.column);
        for (size_t i = begin; i < end; ++i)
            marks[i - begin] = (i >= ib && i < ie) ? '^' : '~';
    }
    return std::string(4 + begin - indent, ' ') + marks + "\n";
}

// The part of an expression CPython underlines with '^' (operator of a binary op, the
// bracketed index of a subscript); null when the whole span is marked.
const SourceSpan* findEmphasis(const FunctionCode* code, const SourceSpan& span, SourceSpan& out);

std::string formatEntry(const TracebackEntry& entry) {
    const FunctionCode* code = entry.code;
    std::string text = "  File \"" + code->source->path() + "\", line " +
                       std::to_string(entry.span.begin.line) + ", in " + code->name.str() + "\n";
    std::string_view line = code->source->line(entry.span.begin.line);
    size_t indent = 0;
    std::string stripped = stripLeft(line, indent);
    if (stripped.empty()) return text;
    while (!stripped.empty() && (stripped.back() == ' ' || stripped.back() == '\r'))
        stripped.pop_back();
    text += "    " + stripped + "\n";
    SourceSpan emphasis = entry.emphasis;
    const SourceSpan* inner =
        emphasis.known() ? &emphasis : findEmphasis(code, entry.span, emphasis);
    text += caretLine(line, entry.span, inner, indent);
    return text;
}

/// PEP 678: each string in the exception's __notes__, on its own line under the message.
std::string formatNotes(Interpreter& interp, const Value& exception) {
    const Value* notes = exception.as<InstanceObject>()->attrs.find(Symbol::intern("__notes__"));
    if (!notes || !notes->is(ObjectKind::List)) return "";
    std::string out;
    for (const Value& note : notes->as<ListObject>()->items)
        out += (note.is(ObjectKind::Str) ? note.as<StrObject>()->str() : interp.repr(note)) + "\n";
    return out;
}

std::string formatOne(Interpreter& interp, const Value& exception) {
    std::string out;
    auto* inst = exception.as<InstanceObject>();
    if (inst->exception && !inst->exception->traceback.empty()) {
        out += "Traceback (most recent call last):\n";
        const auto& tb = inst->exception->traceback;
        std::string previous;
        int repeats = 0;
        // `repeats` counts the copies after the first; CPython prints three in all.
        auto flushRepeats = [&] {
            if (repeats > 2)
                out += "  [Previous line repeated " + std::to_string(repeats - 2) + " more time" +
                       (repeats - 2 == 1 ? "" : "s") + "]\n";
            repeats = 0;
        };
        for (auto it = tb.rbegin(); it != tb.rend(); ++it) {
            std::string entry = formatEntry(*it);
            if (entry == previous) {
                if (++repeats < 3) out += entry;
                continue;
            }
            flushRepeats();
            out += entry;
            previous = entry;
        }
        flushRepeats();
    }
    out += formatExceptionOnly(interp, exception) + "\n";
    out += formatNotes(interp, exception);
    return out;
}

} // namespace

// Finds the sub-span to emphasise by re-deriving it from the source text: for `a / b` the
// operator, for `x[i]` the bracket. The AST is not kept per entry, so this scans the line.
namespace {

const SourceSpan* findEmphasis(const FunctionCode* code, const SourceSpan& span, SourceSpan& out) {
    if (!span.known() || span.begin.line != span.end.line) return nullptr;
    std::string_view line = code->source->line(span.begin.line);
    size_t begin = byteOffset(line, span.begin.column), end = byteOffset(line, span.end.column);
    if (end > line.size() || end <= begin) return nullptr;
    std::string_view text = line.substr(begin, end - begin);
    // Subscript: the span ends with ']' and its matching '[' starts the emphasis.
    if (text.back() == ']') {
        int depth = 0;
        for (size_t i = text.size(); i-- > 0;) {
            if (text[i] == ']')
                ++depth;
            else if (text[i] == '[' && --depth == 0) {
                if (i == 0) return nullptr;
                out = span;
                out.begin.column =
                    span.begin.column + static_cast<int32_t>(utf8Length(text.substr(0, i)));
                return &out;
            }
        }
    }
    return nullptr;
}

} // namespace

std::string exceptionMessage(Interpreter& interp, const Value& value) {
    try {
        return interp.str(value);
    } catch (PyException&) {
        return "<exception str() failed>"; // CPython's words when __str__ raises
    }
}

std::string formatExceptionOnly(Interpreter& interp, const Value& exception) {
    TypeObject* type = exception.asObject()->type();
    // CPython prints the qualified name (Outer.Error, f.<locals>.Error).
    std::string name = type->qualname.empty() ? type->name : type->qualname;
    // Classes outside builtins print qualified, as CPython's (torch.OutOfMemoryError).
    if ((type->isUserClass || type == builtinTypes().outOfMemoryError.get()) &&
        type->moduleName != "__main__" && type->moduleName != "builtins")
        name = type->moduleName + "." + name;
    std::string message = exceptionMessage(interp, exception);
    std::string suggestion = suggestionFor(interp, exception);
    if (!suggestion.empty()) message += ". Did you mean: '" + suggestion + "'?";
    return message.empty() ? name : name + ": " + message;
}

std::string formatTraceback(Interpreter& interp, const Value& exception) {
    if (!exception.is(ObjectKind::Instance)) return "Exception: " + interp.repr(exception) + "\n";
    auto* inst = exception.as<InstanceObject>();
    std::string prefix;
    if (inst->exception) {
        const ExceptionState& st = *inst->exception;
        if (!st.cause.isEmpty() && st.cause.is(ObjectKind::Instance))
            prefix = formatTraceback(interp, st.cause) +
                     "\nThe above exception was the direct cause of the following exception:\n\n";
        else if (!st.suppressContext && !st.context.isEmpty() &&
                 st.context.is(ObjectKind::Instance))
            prefix = formatTraceback(interp, st.context) +
                     "\nDuring handling of the above exception, another exception occurred:\n\n";
    }
    // CPython's stderr writes lone surrogates (in messages, reprs) as \udXXX escapes.
    return backslashReplaceSurrogates(prefix + formatOne(interp, exception));
}

std::string formatSyntaxError(const Diagnostic& d, const SourceFile& source) {
    // Errors about the file as a whole (its encoding, a limit of the parser) have no position;
    // CPython prints only their last line ("MemoryError" alone when there is no message).
    if (!d.span.known()) return d.kind + (d.message.empty() ? "" : ": " + d.message) + "\n";
    std::string out = "  File \"" + d.file + "\", line " + std::to_string(d.span.begin.line) + "\n";
    // Positions count lines as the lexer did, in the text without BOM and \r line endings.
    const SourceFile normalized(source.path(), normalizeSourceText(source.text()));
    std::string_view line = normalized.line(d.span.begin.line);
    line = line.substr(0, line.find('\0')); // CPython shows a line with a NUL up to it
    size_t indent = 0;
    std::string stripped = stripLeft(line, indent);
    while (!stripped.empty() && (stripped.back() == ' ' || stripped.back() == '\r'))
        stripped.pop_back();
    if (!stripped.empty()) {
        out += "    " + stripped + "\n";
        bool noCaret = (d.kind == "IndentationError" && d.message == "unexpected indent") ||
                       d.kind == "TabError";
        if (!noCaret) {
            size_t begin = byteOffset(line, d.span.begin.column);
            size_t end = d.span.end.line == d.span.begin.line ? byteOffset(line, d.span.end.column)
                                                              : begin + 1;
            if (end <= begin) end = begin + 1;
            // Markers and padding count characters, not UTF-8 bytes.
            end = std::min(end, line.size());
            begin = std::min(begin, end);
            size_t pad = begin >= indent ? utf8Length(line.substr(indent, begin - indent)) : 0;
            size_t width = std::max<size_t>(1, utf8Length(line.substr(begin, end - begin)));
            out += std::string(4 + pad, ' ') + std::string(width, '^') + "\n";
        }
    }
    out += d.kind + ": " + d.message + "\n";
    return out;
}

ErrorLocation innermostLocation(const Value& exception) {
    ErrorLocation loc;
    if (!exception.is(ObjectKind::Instance)) return loc;
    auto* inst = exception.as<InstanceObject>();
    if (!inst->exception || inst->exception->traceback.empty()) return loc;
    const TracebackEntry& e = inst->exception->traceback.front();
    loc.file = e.code->source->path();
    loc.pos = e.span.begin;
    loc.known = true;
    return loc;
}

} // namespace kiln::lang
