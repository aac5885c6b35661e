// SPDX-License-Identifier: MIT
// str.format's field syntax: MarkupIterator, parse_field and field_name_split of CPython's
// Objects/stringlib/unicode_format.h. Value lookups, conversions and the formatting itself are
// the interpreter's; this file only says what the string asks for.
#include "lang/format.h"
#include "lang/format_detail.h"

#include <cstdio>

namespace kiln::lang {

namespace {

Diagnostic valueError(std::string message) {
    return makeDiagnostic("ValueError", std::move(message));
}

/// get_integer: the value of an all-digit string, -1 for anything else (empty included).
Expected<int64_t> digitsValue(std::string_view text) {
    if (text.empty()) return int64_t(-1);
    int64_t value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return int64_t(-1);
        if (value > (INT64_MAX - (c - '0')) / 10)
            return valueError("Too many decimal digits in format string");
        value = value * 10 + (c - '0');
    }
    return value;
}

/// FieldNameIterator_next: one `.attr` or `[key]` from the front of \a rest.
Expected<FieldAccessor> nextAccessor(std::string_view& rest) {
    FieldAccessor step;
    char kind = rest[0];
    rest.remove_prefix(1);
    if (kind == '.') {
        size_t end = std::min(rest.find_first_of(".["), rest.size());
        step.isAttribute = true;
        step.name = std::string(rest.substr(0, end));
        rest.remove_prefix(end);
    } else if (kind == '[') {
        size_t close = rest.find(']');
        if (close == std::string_view::npos) return valueError("Missing ']' in format string");
        step.name = std::string(rest.substr(0, close));
        rest.remove_prefix(close + 1);
        Expected<int64_t> index = digitsValue(step.name);
        if (!index) return index.error();
        step.index = *index;
    } else {
        return valueError("Only '.' or '[' may follow ']' in format field specifier");
    }
    if (step.name.empty()) return valueError("Empty attribute in format string");
    return step;
}

Status checkConversion(char32_t conversion) {
    if (conversion == 0 || conversion == 'r' || conversion == 's' || conversion == 'a')
        return Status::success();
    char buf[48];
    if (conversion > 32 && conversion < 127)
        std::snprintf(buf, sizeof buf, "Unknown conversion specifier %c", char(conversion));
    else
        std::snprintf(buf, sizeof buf, "Unknown conversion specifier \\x%x", unsigned(conversion));
    return valueError(buf);
}

} // namespace

/// CPython's AutoNumber: a string numbers its fields either automatically or by hand, and the
/// fields in nested specs share the outer string's count.
struct FormatStringParser::Numbering {
    enum class State { Init, Auto, Manual } state = State::Init;
    int64_t next = 0;
};

FormatStringParser::FormatStringParser(std::string_view format)
    : FormatStringParser(format, std::make_shared<Numbering>(), 2) {}

FormatStringParser::FormatStringParser(std::string_view format,
                                       std::shared_ptr<Numbering> numbering, int depth)
    : m_text(format)
    , m_numbering(std::move(numbering))
    , m_depth(depth) {}

Expected<FormatStringParser> FormatStringParser::nested(std::string_view spec) const {
    if (m_depth - 1 <= 0) return valueError("Max string recursion exceeded");
    return FormatStringParser(spec, m_numbering, m_depth - 1);
}

Expected<std::optional<FormatPiece>> FormatStringParser::next() {
    if (m_pos >= m_text.size()) return std::optional<FormatPiece>();
    FormatPiece piece;
    while (m_pos < m_text.size()) {
        size_t brace = std::min(m_text.find_first_of("{}", m_pos), m_text.size());
        piece.literal.append(m_text.substr(m_pos, brace - m_pos));
        if (brace == m_text.size()) {
            m_pos = brace;
            break;
        }
        char c = m_text[brace];
        m_pos = brace + 1;
        bool atEnd = m_pos >= m_text.size();
        if (c == '}' && (atEnd || m_text[m_pos] != '}'))
            return valueError("Single '}' encountered in format string");
        if (c == '{' && atEnd) return valueError("Single '{' encountered in format string");
        if (m_text[m_pos] == c) { // "{{" or "}}"
            piece.literal += c;
            ++m_pos;
            continue;
        }
        Expected<FormatField> field = parseField();
        if (!field) return field.error();
        piece.field = std::move(field).value();
        break;
    }
    return std::optional<FormatPiece>(std::move(piece));
}

/// parse_field, from after the '{' through the closing '}'.
Expected<FormatField> FormatStringParser::parseField() {
    const size_t nameStart = m_pos;
    char c = 0;
    while (m_pos < m_text.size()) {
        c = m_text[m_pos++];
        if (c == '{') return valueError("unexpected '{' in field name");
        if (c == '[')
            m_pos = std::min(m_text.find(']', m_pos), m_text.size());
        else if (c == '}' || c == ':' || c == '!')
            break;
    }
    if (c != '}' && c != ':' && c != '!') return valueError("expected '}' before end of string");
    const std::string_view name = m_text.substr(nameStart, m_pos - 1 - nameStart);
    char32_t conversion = 0;
    if (c == '!') {
        if (m_pos >= m_text.size())
            return valueError("end of string while looking for conversion specifier");
        conversion = detail::decodeUtf8(m_text, m_pos);
        if (m_pos < m_text.size()) {
            c = m_text[m_pos++];
            if (c != '}' && c != ':') return valueError("expected ':' after conversion specifier");
        }
    }
    std::string_view spec;
    bool specHasFields = false;
    if (c != '}') {
        // The spec runs to the matching '}'; braces inside it are nested replacement fields.
        size_t specStart = m_pos;
        for (int depth = 1; depth > 0; ++m_pos) {
            if (m_pos >= m_text.size()) return valueError("unmatched '{' in format spec");
            specHasFields = specHasFields || m_text[m_pos] == '{';
            depth += m_text[m_pos] == '{' ? 1 : m_text[m_pos] == '}' ? -1 : 0;
        }
        spec = m_text.substr(specStart, m_pos - 1 - specStart);
    }
    // CPython looks at the field name (and numbers it) only once the whole field has been read.
    Expected<FormatField> field = splitFieldName(name);
    if (!field) return field;
    if (Status ok = checkConversion(conversion); !ok) return ok.error();
    field->conversion = char(conversion);
    field->spec = std::string(spec);
    field->specHasFields = specHasFields;
    return field;
}

/// field_name_split: the first name (index, automatic number or keyword) and its accessors.
Expected<FormatField> FormatStringParser::splitFieldName(std::string_view name) {
    size_t firstEnd = std::min(name.find_first_of(".["), name.size());
    std::string_view first = name.substr(0, firstEnd);
    Expected<int64_t> index = digitsValue(first);
    if (!index) return index.error();
    FormatField field;
    const bool automatic = first.empty();
    if (automatic || *index != -1) {
        using State = Numbering::State;
        State& state = m_numbering->state;
        if (state == State::Init) state = automatic ? State::Auto : State::Manual;
        if (state == State::Manual && automatic)
            return valueError("cannot switch from manual field specification to automatic "
                              "field numbering");
        if (state == State::Auto && !automatic)
            return valueError("cannot switch from automatic field numbering to manual field "
                              "specification");
        field.argIndex = automatic ? m_numbering->next++ : *index;
    } else {
        field.keyword = std::string(first);
    }
    for (std::string_view rest = name.substr(firstEnd); !rest.empty();) {
        Expected<FieldAccessor> step = nextAccessor(rest);
        if (!step) return step.error();
        field.accessors.push_back(std::move(step).value());
    }
    return field;
}

Expected<std::vector<FormatPiece>> parseFormatString(std::string_view format) {
    FormatStringParser parser(format);
    std::vector<FormatPiece> pieces;
    for (;;) {
        Expected<std::optional<FormatPiece>> piece = parser.next();
        if (!piece) return piece.error();
        if (!piece->has_value()) return pieces;
        pieces.push_back(std::move(**piece));
    }
}

} // namespace kiln::lang
