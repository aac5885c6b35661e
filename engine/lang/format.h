// SPDX-License-Identifier: MIT
/// \file
/// Python's text formatting of numbers and strings, character for character as CPython 3.11
/// prints it: repr/str of floats and ints, the format-spec mini-language (format(), f-strings,
/// str.format), printf-style `%` formatting, str.format field parsing, repr of str, and round().
/// Scripts' output is compared against real PyTorch runs, so "close" is wrong here.
///
/// Nothing in this header depends on the interpreter's object model: the interpreter passes plain
/// C++ values, and answers questions about `%` operands through PercentArgs. Failures a script can
/// cause come back as Diagnostics whose kind is the Python exception name ("ValueError", ...) and
/// whose message is CPython's text. Strings are UTF-8; widths and precisions count code points.
#pragma once

#include "support/expected.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::lang {

// ---- repr / str -------------------------------------------------------------------------------

/// repr(float) and str(float): the shortest digits that round-trip, laid out as CPython does
/// ("1.0", "1e+16", "1.5e-05", "-0.0", "inf", "nan").
std::string floatRepr(double v);
std::string intToString(int64_t v);
/// repr(str): quotes chosen as CPython chooses them, non-printable characters escaped.
std::string pyStringRepr(std::string_view utf8);
/// ascii() applied to an existing repr: every non-ASCII character becomes \x.., \u.... or
/// \U........ (what `%a` and `!a` print).
std::string asciiEscape(std::string_view utf8);

// ---- round() ----------------------------------------------------------------------------------

/// round(x, ndigits): correctly rounded, ties to even on the exact binary value (round(2.675, 2)
/// is 2.67). inf and nan pass through. OverflowError "rounded value too large to represent" when
/// rounding a finite value overflows (round(1.7e308, -308)).
Expected<double> pyRound(double x, int64_t ndigits);
/// round(x) without ndigits, as a float holding an integer (ties to even); the caller converts it
/// to int and reports inf/nan the way int() does.
double pyRoundHalfEven(double x);

// ---- the format-spec mini-language ------------------------------------------------------------

/// A parsed `[[fill]align][sign][z][#][0][width][grouping][.precision][type]`. Only the syntax is
/// checked here; what the spec means depends on the value's type, so formatInt/formatFloat/...
/// check the rest. A default-constructed FormatSpec is the empty spec.
struct FormatSpec {
    std::string fill;            ///< one character (UTF-8), empty when not given
    char align = 0;              ///< '<', '>', '=', '^', or 0 when not given
    char sign = 0;               ///< '+', '-', ' ', or 0 when not given
    bool noNegativeZero = false; ///< 'z' (3.11): -0.0 rounds print as 0.0
    bool alternate = false;      ///< '#'
    bool zeroPad = false;        ///< a '0' right before the width, with no explicit fill
    int64_t width = -1;          ///< -1 when not given
    char grouping = 0;           ///< ',' or '_', or 0
    int64_t precision = -1;      ///< -1 when not given
    char32_t type = 0;           ///< the presentation type, 0 when not given

    /// Every part absent, as only the spec '' parses: format(x, '') is str(x), which differs
    /// from any non-empty spec for bool (format(True, '') is 'True', format(True, '>1') is '1').
    bool isEmpty() const {
        return fill.empty() && !align && !sign && !noNegativeZero && !alternate && !zeroPad &&
               width < 0 && !grouping && precision < 0 && !type;
    }
};

/// Parses a spec for an object whose type is named \a typeName (only used in messages, as in
/// "Invalid format specifier 'xx' for object of type 'int'").
Expected<FormatSpec> parseFormatSpec(std::string_view spec, std::string_view typeName);

Expected<std::string> formatInt(int64_t v, const FormatSpec& spec);
Expected<std::string> formatFloat(double v, const FormatSpec& spec);
Expected<std::string> formatString(std::string_view utf8, const FormatSpec& spec);
/// bool is an int subclass: an empty spec prints "True"/"False", any other spec formats 1 or 0
/// (format(True, '>6') is '     1'), and errors name the type 'bool'.
Expected<std::string> formatBool(bool v, const FormatSpec& spec);

// ---- printf-style `%` formatting --------------------------------------------------------------

/// The right operand of `str % operand`, answered by the interpreter. Arguments are addressed by
/// an id. When the operand is a tuple, ids 0..count()-1 are its items; any other operand is a
/// single argument (count() == 1, id 0). Ids returned by lookupKey() are the interpreter's to
/// choose (they may be >= count()) and are passed back to the accessors below.
class PercentArgs {
public:
    virtual ~PercentArgs() = default;

    virtual size_t count() const = 0;
    /// True when the operand is not a tuple or str but supports `operand[key]` (a dict, and, as in
    /// CPython, a list). Enables `%(key)s`; then unused arguments are not an error.
    virtual bool isMapping() const = 0;
    /// `operand[key]` for `%(key)s`: the id of the value, or the lookup's error (KeyError with
    /// the key's repr as message, or whatever the operand's __getitem__ raises).
    virtual Expected<size_t> lookupKey(std::string_view key) = 0;

    /// An int (bool included), or anything with __index__.
    virtual bool isInt(size_t id) const = 0;
    /// Anything %d/%f accept: ints, floats, and objects with __int__/__float__.
    virtual bool isNumber(size_t id) const = 0;
    virtual bool isStr(size_t id) const = 0;
    /// Only called when isInt(id).
    virtual int64_t asInt(size_t id) = 0;
    /// float(x); only called when isNumber(id).
    virtual double asFloat(size_t id) = 0;
    /// str(x), repr(x); for a str operand str() is its text.
    virtual std::string str(size_t id) = 0;
    virtual std::string repr(size_t id) = 0;
    virtual std::string typeName(size_t id) const = 0;
};

/// `format % args` with flags `-+ #0`, width and precision (both may be `*`), an ignored length
/// modifier `hlL`, conversions `d i u o x X e E f F g G c r s a %`, and CPython's errors.
Expected<std::string> percentFormat(std::string_view format, PercentArgs& args);

// ---- str.format -------------------------------------------------------------------------------

/// One `.name` or `[key]` step after a replacement field's first name.
struct FieldAccessor {
    bool isAttribute = false; ///< `.name` when true, `[key]` otherwise
    std::string name;         ///< the attribute name or the key text
    int64_t index = -1;       ///< for `[key]` whose key is all digits: its value, else -1
};

/// A replacement field `{name!conv:spec}`.
struct FormatField {
    int64_t argIndex = -1;                ///< positional index (explicit or automatic), else -1
    std::string keyword;                  ///< the keyword name when argIndex is -1
    std::vector<FieldAccessor> accessors; ///< applied left to right to the looked-up value
    char conversion = 0;                  ///< 'r', 's', 'a', or 0
    /// The spec text after ':'. When specHasFields is true it contains replacement fields of its
    /// own ("{:{width}}"): expand it with FormatStringParser::nested() and format the value with
    /// the expanded text.
    std::string spec;
    bool specHasFields = false;
};

/// Literal text (with `{{` and `}}` unescaped), then the field that follows it, if any.
struct FormatPiece {
    std::string literal;
    std::optional<FormatField> field;
};

/// Reads a str.format string piece by piece, as CPython does. An error in a later piece is only
/// reported when that piece is reached, so an interpreter that looks up each field before asking
/// for the next piece reports the same error CPython reports when a string has several. (Within
/// one field, syntax errors in its accessors or conversion come before its lookup errors; CPython
/// looks the value up first.)
class FormatStringParser {
public:
    /// \a format must outlive the parser.
    explicit FormatStringParser(std::string_view format);

    /// The next piece, or std::nullopt at the end of the string.
    Expected<std::optional<FormatPiece>> next();
    /// A parser for the spec of a field with specHasFields. It numbers automatic fields after
    /// this parser's ("{:{}}" takes arguments 0 and 1) and fails with "Max string recursion
    /// exceeded" when nesting goes deeper than CPython allows.
    Expected<FormatStringParser> nested(std::string_view spec) const;

private:
    struct Numbering;
    FormatStringParser(std::string_view format, std::shared_ptr<Numbering> numbering, int depth);
    Expected<FormatField> parseField();
    Expected<FormatField> splitFieldName(std::string_view name);

    std::string_view m_text;
    size_t m_pos = 0;
    std::shared_ptr<Numbering> m_numbering;
    int m_depth = 2;
};

/// All pieces of a format string at once (no nested spec expansion); the first error anywhere
/// in the string fails the whole parse.
Expected<std::vector<FormatPiece>> parseFormatString(std::string_view format);

} // namespace kiln::lang
