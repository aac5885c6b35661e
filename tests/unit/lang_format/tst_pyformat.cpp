// SPDX-License-Identifier: MIT
// Python's number and string formatting against CPython 3.11. Every expected string in these
// tables was printed by python3.11 itself (format(), `%`, string.Formatter().parse, repr(),
// round()); errors appear as "!Kind: message" with CPython's exception name and text.
#include "lang/format.h"

#include <QtTest>
#include <charconv>
#include <cmath>
#include <limits>

using namespace kiln;
using namespace kiln::lang;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

QByteArray bytes(const std::string& s) {
    return QByteArray::fromStdString(s);
}

QByteArray errorText(const Diagnostic& d) {
    return bytes("!" + d.kind + ": " + d.message);
}

/// A result as the tables spell it: the text, or "!Kind: message".
QByteArray rendered(const Expected<std::string>& r) {
    return r ? bytes(r.value()) : errorText(r.error());
}

/// One `%` argument of the few types the tables use.
struct V {
    enum class Kind { None, Bool, Int, Float, Str } kind = Kind::None;
    int64_t i = 0;
    double d = 0.0;
    std::string s;

    V() = default;
    V(bool b)
        : kind(Kind::Bool)
        , i(b) {}
    V(int v)
        : kind(Kind::Int)
        , i(v) {}
    V(qint64 v)
        : kind(Kind::Int)
        , i(v) {}
    V(double v)
        : kind(Kind::Float)
        , d(v) {}
    V(const char* text)
        : kind(Kind::Str)
        , s(text) {}

    std::string str() const {
        switch (kind) {
        case Kind::None:
            return "None";
        case Kind::Bool:
            return i ? "True" : "False";
        case Kind::Int:
            return intToString(i);
        case Kind::Float:
            return floatRepr(d);
        case Kind::Str:
            return s;
        }
        return {};
    }
    std::string repr() const { return kind == Kind::Str ? pyStringRepr(s) : str(); }
    std::string typeName() const {
        const char* names[] = {"NoneType", "bool", "int", "float", "str"};
        return names[int(kind)];
    }
};

/// The right operand of `%`: a tuple, a single value, or a dict.
struct Operand {
    enum class Kind { Tuple, Single, Dict } kind = Kind::Tuple;
    std::vector<V> items;
    std::vector<std::pair<std::string, V>> entries;
};

Operand tuple(std::vector<V> items) {
    return Operand{Operand::Kind::Tuple, std::move(items), {}};
}
Operand one(V value) {
    return Operand{Operand::Kind::Single, {std::move(value)}, {}};
}
Operand dict(std::vector<std::pair<std::string, V>> entries) {
    return Operand{Operand::Kind::Dict, {}, std::move(entries)};
}

/// What the interpreter does for `%`, over Operand. In a dict, id 0 is the dict itself and
/// looked-up values get ids from kLookedUp on.
class TestArgs final : public PercentArgs {
public:
    explicit TestArgs(const Operand& op)
        : m_op(op) {}

    size_t count() const override { return isMapping() ? 1 : m_op.items.size(); }
    bool isMapping() const override { return m_op.kind == Operand::Kind::Dict; }
    Expected<size_t> lookupKey(std::string_view key) override {
        for (const auto& [k, v] : m_op.entries) {
            if (k == key) {
                m_lookedUp.push_back(v);
                return kLookedUp + m_lookedUp.size() - 1;
            }
        }
        return makeDiagnostic("KeyError", pyStringRepr(key));
    }
    bool isInt(size_t id) const override {
        return !isDict(id) && (at(id).kind == V::Kind::Int || at(id).kind == V::Kind::Bool);
    }
    bool isNumber(size_t id) const override {
        return isInt(id) || (!isDict(id) && at(id).kind == V::Kind::Float);
    }
    bool isStr(size_t id) const override { return !isDict(id) && at(id).kind == V::Kind::Str; }
    int64_t asInt(size_t id) override { return at(id).i; }
    double asFloat(size_t id) override {
        return at(id).kind == V::Kind::Float ? at(id).d : double(at(id).i);
    }
    std::string str(size_t id) override { return isDict(id) ? dictRepr() : at(id).str(); }
    std::string repr(size_t id) override { return isDict(id) ? dictRepr() : at(id).repr(); }
    std::string typeName(size_t id) const override {
        return isDict(id) ? "dict" : at(id).typeName();
    }

private:
    static constexpr size_t kLookedUp = 1000;

    bool isDict(size_t id) const { return isMapping() && id == 0; }
    const V& at(size_t id) const {
        return id >= kLookedUp ? m_lookedUp[id - kLookedUp] : m_op.items.at(id);
    }
    std::string dictRepr() const {
        std::string out = "{";
        for (const auto& [k, v] : m_op.entries)
            out += (out.size() > 1 ? ", " : "") + pyStringRepr(k) + ": " + v.repr();
        return out + "}";
    }

    const Operand& m_op;
    std::vector<V> m_lookedUp;
};

/// str.format pieces in the notation the table uses: "(literal)" then "{head accessors!c:spec}",
/// with "#n" for positional indexes and a trailing '*' on specs that hold fields.
QByteArray renderPieces(const std::vector<FormatPiece>& pieces) {
    std::string out;
    for (const FormatPiece& piece : pieces) {
        out += "(" + piece.literal + ")";
        if (!piece.field) continue;
        const FormatField& f = *piece.field;
        out += "{" + (f.argIndex >= 0 ? "#" + std::to_string(f.argIndex) : f.keyword);
        for (const FieldAccessor& a : f.accessors) {
            if (a.isAttribute)
                out += "." + a.name;
            else
                out += a.index >= 0 ? "[#" + std::to_string(a.index) + "]" : "[" + a.name + "]";
        }
        if (f.conversion) out += std::string("!") + f.conversion;
        out += ":" + f.spec + (f.specHasFields ? "*" : "") + "}";
    }
    return bytes(out);
}

template <typename Format>
QByteArray formatWith(const QByteArray& spec, const char* typeName, Format format) {
    Expected<FormatSpec> parsed = parseFormatSpec(spec.toStdString(), typeName);
    return parsed ? rendered(format(parsed.value())) : errorText(parsed.error());
}

} // namespace

Q_DECLARE_METATYPE(Operand)

class PyFormatTest : public QObject {
    Q_OBJECT

private slots:
    void floatRepr_data() {
        QTest::addColumn<double>("value");
        QTest::addColumn<QByteArray>("expected");
        auto row = [](double v, const char* expected) {
            QTest::addRow("%s", expected) << v << QByteArray(expected);
        };
        row(0.0, "0.0");
        row(-0.0, "-0.0");
        row(1.0, "1.0");
        row(-1.0, "-1.0");
        row(0.1, "0.1");
        row(0.5, "0.5");
        row(1.5, "1.5");
        row(0.6666666666666666, "0.6666666666666666");
        row(0.3333333333333333, "0.3333333333333333");
        row(100.0, "100.0");
        row(1000000000000000.0, "1000000000000000.0");
        row(1e+16, "1e+16");
        row(1e+17, "1e+17");
        row(1e+22, "1e+22");
        row(1e+23, "1e+23");
        row(123456789012345.0, "123456789012345.0");
        row(1234567890123456.0, "1234567890123456.0");
        row(9999999999999998.0, "9999999999999998.0");
        row(2.000000000000001e+16, "2.000000000000001e+16");
        row(0.0001, "0.0001");
        row(1e-05, "1e-05");
        row(1.5e-05, "1.5e-05");
        row(0.0001234, "0.0001234");
        row(1e-07, "1e-07");
        row(5e-324, "5e-324");
        row(2.2250738585072014e-308, "2.2250738585072014e-308");
        row(1.7976931348623157e+308, "1.7976931348623157e+308");
        row(3.141592653589793, "3.141592653589793");
        row(0.30000000000000004, "0.30000000000000004");
        row(1e+100, "1e+100");
        row(-1e-100, "-1e-100");
        row(12345.678, "12345.678");
        row(kInf, "inf");
        row(-kInf, "-inf");
        row(kNan, "nan");
        row(4.35, "4.35");
        row(0.3, "0.3");
    }
    void floatRepr() {
        QFETCH(double, value);
        QFETCH(QByteArray, expected);
        QCOMPARE(bytes(kiln::lang::floatRepr(value)), expected);
    }

    void intToString_data() {
        QTest::addColumn<qint64>("value");
        QTest::addColumn<QByteArray>("expected");
        auto row = [](qint64 v, const char* expected) {
            QTest::addRow("%s", expected) << v << QByteArray(expected);
        };
        row(qint64(0), "0");
        row(qint64(1), "1");
        row(qint64(-1), "-1");
        row(qint64(42), "42");
        row(qint64(9223372036854775807), "9223372036854775807");
        row(std::numeric_limits<qint64>::min(), "-9223372036854775808");
        row(qint64(1000000), "1000000");
    }
    void intToString() {
        QFETCH(qint64, value);
        QFETCH(QByteArray, expected);
        QCOMPARE(bytes(kiln::lang::intToString(value)), expected);
    }

    void formatInt_data() {
        QTest::addColumn<qint64>("value");
        QTest::addColumn<QByteArray>("spec");
        QTest::addColumn<QByteArray>("expected");
        auto row = [](qint64 v, const char* spec, const char* expected) {
            QTest::addRow("format(%lld, '%s')", (long long)v, spec)
                << v << QByteArray(spec) << QByteArray(expected);
        };
        row(qint64(255), "#x", "0xff");
        row(qint64(255), "#X", "0XFF");
        row(qint64(255), "x", "ff");
        row(qint64(255), "X", "FF");
        row(qint64(255), "o", "377");
        row(qint64(255), "#o", "0o377");
        row(qint64(255), "b", "11111111");
        row(qint64(255), "#b", "0b11111111");
        row(qint64(-255), "#b", "-0b11111111");
        row(qint64(0), "#o", "0o0");
        row(qint64(1234567), ",", "1,234,567");
        row(qint64(1234567), "_", "1_234_567");
        row(qint64(-1234567), ",", "-1,234,567");
        row(qint64(1234567), "_x", "12_d687");
        row(qint64(3735928559), "#_x", "0xdead_beef");
        row(qint64(255), "_b", "1111_1111");
        row(qint64(-255), "#010_x", "-0x00_00ff");
        row(qint64(-1), "05d", "-0001");
        row(qint64(42), "05", "00042");
        row(qint64(42), "<05", "42000");
        row(qint64(42), "x<05", "42xxx");
        row(qint64(42), "+d", "+42");
        row(qint64(42), " d", " 42");
        row(qint64(-42), " d", "-42");
        row(qint64(42), "^9", "   42    ");
        row(qint64(42), "*^9", "***42****");
        row(qint64(-12), "=+8", "-     12");
        row(qint64(-12), "=8", "-     12");
        row(qint64(1234), "012,", "0,000,001,234");
        row(qint64(1234), "08,", "0,001,234");
        row(qint64(1234), "0=8,", "0,001,234");
        row(qint64(1234), "x<12,", "1,234xxxxxxx");
        row(qint64(1234), "n", "1234");
        row(qint64(-10), "n", "-10");
        row(qint64(65), "c", "A");
        row(qint64(65), "05c", "0000A");
        row(qint64(65), "^5c", "  A  ");
        row(qint64(8364), "c", "€");
        row(qint64(-1), "c", "!OverflowError: %c arg not in range(0x110000)");
        row(qint64(65), "+c", "!ValueError: Sign not allowed with integer format specifier 'c'");
        row(qint64(65), "#c",
            "!ValueError: Alternate form (#) not allowed with integer format specifier 'c'");
        row(qint64(42), "", "42");
        row(qint64(42), "d", "42");
        row(qint64(42), "=", "42");
        row(std::numeric_limits<qint64>::min(), "", "-9223372036854775808");
        row(std::numeric_limits<qint64>::min(), "x", "-8000000000000000");
        row(qint64(9223372036854775807), ",", "9,223,372,036,854,775,807");
        row(qint64(42), ".2", "!ValueError: Precision not allowed in integer format specifier");
        row(qint64(42), "z",
            "!ValueError: Negative zero coercion (z) not allowed in integer format specifier");
        row(qint64(42), "s", "!ValueError: Unknown format code 's' for object of type 'int'");
        row(qint64(42), "é", "!ValueError: Unknown format code '\\xe9' for object of type 'int'");
        row(qint64(42), "\001", "!ValueError: Unknown format code '\\x1' for object of type 'int'");
        row(qint64(42), "xx",
            "!ValueError: Invalid format specifier 'xx' for object of type 'int'");
        row(qint64(42), ",c", "!ValueError: Cannot specify ',' with 'c'.");
        row(qint64(42), ",n", "!ValueError: Cannot specify ',' with 'n'.");
        row(qint64(42), "_n", "!ValueError: Cannot specify '_' with 'n'.");
        row(qint64(42), ",_", "!ValueError: Cannot specify both ',' and '_'.");
        row(qint64(42), "_,", "!ValueError: Cannot specify both ',' and '_'.");
        row(qint64(42), ",,", "!ValueError: Cannot specify ',' with ','.");
        row(qint64(42), "__", "!ValueError: Cannot specify '_' with '_'.");
        row(qint64(42), "99999999999999999999",
            "!ValueError: Too many decimal digits in format string");
        row(qint64(42), "f", "42.000000");
        row(qint64(42), ".2f", "42.00");
        row(qint64(42), "e", "4.200000e+01");
        row(qint64(42), "%", "4200.000000%");
        row(qint64(42), "g", "42");
        row(qint64(3), ".1%", "300.0%");
        row(qint64(7), "10.3e", " 7.000e+00");
        row(qint64(42), "5,.1f", " 42.0");
        row(qint64(5), "€>5", "€€€€5");
        row(qint64(5), "é^6", "éé5ééé");
    }
    void formatInt() {
        QFETCH(qint64, value);
        QFETCH(QByteArray, spec);
        QFETCH(QByteArray, expected);
        auto format = [&](const FormatSpec& s) { return kiln::lang::formatInt(value, s); };
        QCOMPARE(formatWith(spec, "int", format), expected);
    }

    void formatFloat_data() {
        QTest::addColumn<double>("value");
        QTest::addColumn<QByteArray>("spec");
        QTest::addColumn<QByteArray>("expected");
        auto row = [](double v, const char* spec, const char* expected) {
            QTest::addRow("format(%.17g, '%s')", v, spec)
                << v << QByteArray(spec) << QByteArray(expected);
        };
        row(1.0, "", "1.0");
        row(1.5, "", "1.5");
        row(0.1, "", "0.1");
        row(1e+16, "", "1e+16");
        row(1e+22, "", "1e+22");
        row(1.5e-05, "", "1.5e-05");
        row(0.0001, "", "0.0001");
        row(-0.0, "", "-0.0");
        row(kInf, "", "inf");
        row(-kInf, "", "-inf");
        row(kNan, "", "nan");
        row(1.0, ".3", "1.0");
        row(1e+20, ".3", "1e+20");
        row(100.0, ".1", "1e+02");
        row(12.0, ".1", "1e+01");
        row(1.0, ".0", "1e+00");
        row(0.0001, ".1", "0.0001");
        row(123456789.0, ".3", "1.23e+08");
        row(1e+16, ".17", "1e+16");
        row(1.0, "#", "1.0");
        row(1e+20, "#", "1.e+20");
        row(1.5, "#.3", "1.50");
        row(0.1234, ".2%", "12.34%");
        row(1.5, "%", "150.000000%");
        row(1.0, "%", "100.000000%");
        row(-0.001, "z.1%", "-0.1%");
        row(1e-05, ".3%", "0.001%");
        row(3.14159, "10.2f", "      3.14");
        row(3.14159, "<10.2f", "3.14      ");
        row(3.14159, "^10.2f", "   3.14   ");
        row(-3.14159, "010.2f", "-000003.14");
        row(-3.14159, "=+10.2f", "-     3.14");
        row(3.14159, "+.3f", "+3.142");
        row(3.14159, " .1f", " 3.1");
        row(0.5, ".0f", "0");
        row(1.5, ".0f", "2");
        row(2.5, ".0f", "2");
        row(0.125, ".2f", "0.12");
        row(0.375, ".2f", "0.38");
        row(2.675, ".2f", "2.67");
        row(1.0, "#.0f", "1.");
        row(1e+300, "f",
            "10000000000000000525047602552044202487044685811081591549158541155118024579889081957863"
            "71375080447864043704443832883878176942523235360430575644792184786706982848387200926575"
            "80373783023379478809005936895323497079994508111903896764088007465274278014249457925878"
            "8820056842838115669472196386865459400540160.000000");
        row(0.1, ".30f", "0.100000000000000005551115123126");
        row(-0.0, "z.1f", "0.0");
        row(-1e-05, "z.2f", "0.00");
        row(-1e-05, "z", "-1e-05");
        row(-1e-07, "z.2e", "-1.00e-07");
        row(-0.0, "z", "0.0");
        row(-0.0, "+z", "+0.0");
        row(-0.0, ".1f", "-0.0");
        row(1234.5, "e", "1.234500e+03");
        row(1234.5, "E", "1.234500E+03");
        row(1234.5, ".2e", "1.23e+03");
        row(1.0, ".0e", "1e+00");
        row(1.0, "#.0e", "1.e+00");
        row(0.0, "e", "0.000000e+00");
        row(1e-300, ".3e", "1.000e-300");
        row(1e+100, "e", "1.000000e+100");
        row(1234.5, "g", "1234.5");
        row(1234.5, "G", "1234.5");
        row(1e-05, "g", "1e-05");
        row(0.0001, "g", "0.0001");
        row(123456.0, "g", "123456");
        row(1234567.0, "g", "1.23457e+06");
        row(0.0001234, ".2g", "0.00012");
        row(123456.0, ".2g", "1.2e+05");
        row(1.0, "#g", "1.00000");
        row(0.0, "g", "0");
        row(1e-10, "G", "1E-10");
        row(1.5, "#.3g", "1.50");
        row(kInf, "E", "INF");
        row(kNan, "F", "NAN");
        row(kInf, "+", "+inf");
        row(kNan, "+", "+nan");
        row(kNan, "", "nan");
        row(kInf, "010", "0000000inf");
        row(kInf, "010,", "0000000inf");
        row(-kInf, "^9", "  -inf   ");
        row(kNan, "f", "nan");
        row(kInf, "%", "inf%");
        row(12345.678, ",.2f", "12,345.68");
        row(12345.678, "_", "12_345.678");
        row(1234567.0, ",", "1,234,567.0");
        row(1234567.0, ",e", "1.234567e+06");
        row(1e+16, ",", "1e+16");
        row(1234567.891, "015,.2f", "0,001,234,567.89");
        row(-1234.5, "012,", "-0,001,234.5");
        row(1234.5, "n", "1234.5");
        row(1.0, "n", "1");
        row(1234567.0, "n", "1.23457e+06");
        row(1.5, "d", "!ValueError: Unknown format code 'd' for object of type 'float'");
        row(1.5, "x", "!ValueError: Unknown format code 'x' for object of type 'float'");
        row(1.5, "s", "!ValueError: Unknown format code 's' for object of type 'float'");
        row(1.5, ".", "!ValueError: Format specifier missing precision");
        row(1.5, ".x", "!ValueError: Format specifier missing precision");
        row(1.5, ".3000000000", "!ValueError: precision too big");
        row(1.5, "_n", "!ValueError: Cannot specify '_' with 'n'.");
        row(1.5, "e#", "!ValueError: Invalid format specifier 'e#' for object of type 'float'");
        row(1.5, ",", "1.5");
        row(5e-324, "", "5e-324");
        row(1.7976931348623157e+308, "", "1.7976931348623157e+308");
        row(1.7976931348623157e+308, ",.0f",
            "179,769,313,486,231,570,814,527,423,731,704,356,798,070,567,525,844,996,598,917,476,"
            "803,157,260,780,028,538,760,589,558,632,766,878,171,540,458,953,514,382,464,234,321,"
            "326,889,464,182,768,467,546,703,537,516,986,049,910,576,551,282,076,245,490,090,389,"
            "328,944,075,868,508,455,133,942,304,583,236,903,222,948,165,808,559,332,123,348,274,"
            "797,826,204,144,723,168,738,177,180,919,299,881,250,404,026,184,124,858,368");
    }
    void formatFloat() {
        QFETCH(double, value);
        QFETCH(QByteArray, spec);
        QFETCH(QByteArray, expected);
        auto format = [&](const FormatSpec& s) { return kiln::lang::formatFloat(value, s); };
        QCOMPARE(formatWith(spec, "float", format), expected);
    }

    void formatString_data() {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QByteArray>("spec");
        QTest::addColumn<QByteArray>("expected");
        auto row = [](const char* v, const char* spec, const char* expected) {
            QTest::addRow("format('%s', '%s')", v, spec)
                << QByteArray(v) << QByteArray(spec) << QByteArray(expected);
        };
        row("ab", "^6", "  ab  ");
        row("ab", "*^7", "**ab***");
        row("ab", ">5", "   ab");
        row("ab", "<5", "ab   ");
        row("ab", "05", "ab000");
        row("abc", ".2", "ab");
        row("abc", "<<5", "abc<<");
        row("é", "^5", "  é  ");
        row("héllo", ".3", "hél");
        row("héllo", "→^9.2", "→→→hé→→→→");
        row("x", "s", "x");
        row("x", "", "x");
        row("", "3", "   ");
        row("a", "+", "!ValueError: Sign not allowed in string format specifier");
        row("a", "-", "!ValueError: Sign not allowed in string format specifier");
        row("a", " ", "!ValueError: Space not allowed in string format specifier");
        row("a", "z",
            "!ValueError: Negative zero coercion (z) not allowed in string format specifier");
        row("a", "#", "!ValueError: Alternate form (#) not allowed in string format specifier");
        row("a", "=5", "!ValueError: '=' alignment not allowed in string format specifier");
        row("a", "d", "!ValueError: Unknown format code 'd' for object of type 'str'");
        row("a", ",", "!ValueError: Cannot specify ',' with 's'.");
        row("a", "_s", "!ValueError: Cannot specify '_' with 's'.");
        row("a", ".", "!ValueError: Format specifier missing precision");
        row("a", "5x", "!ValueError: Unknown format code 'x' for object of type 'str'");
    }
    void formatString() {
        QFETCH(QByteArray, value);
        QFETCH(QByteArray, spec);
        QFETCH(QByteArray, expected);
        std::string text = value.toStdString();
        auto format = [&](const FormatSpec& s) { return kiln::lang::formatString(text, s); };
        QCOMPARE(formatWith(spec, "str", format), expected);
    }

    void formatBool_data() {
        QTest::addColumn<bool>("value");
        QTest::addColumn<QByteArray>("spec");
        QTest::addColumn<QByteArray>("expected");
        auto row = [](bool v, const char* spec, const char* expected) {
            QTest::addRow("format(%s, '%s')", v ? "True" : "False", spec)
                << v << QByteArray(spec) << QByteArray(expected);
        };
        row(true, "", "True");
        row(false, "", "False");
        row(true, ">6", "     1");
        row(false, "^5", "  0  ");
        row(true, "d", "1");
        row(true, "f", "1.000000");
        row(true, "c", "\001");
        row(true, "x", "1");
        row(true, "s", "!ValueError: Unknown format code 's' for object of type 'bool'");
        row(true, ".2", "!ValueError: Precision not allowed in integer format specifier");
        row(true, "#b", "0b1");
    }
    void formatBool() {
        QFETCH(bool, value);
        QFETCH(QByteArray, spec);
        QFETCH(QByteArray, expected);
        auto format = [&](const FormatSpec& s) { return kiln::lang::formatBool(value, s); };
        QCOMPARE(formatWith(spec, "bool", format), expected);
    }

    void parsedSpecKeepsEveryPart() {
        Expected<FormatSpec> spec = parseFormatSpec("→^+z#12_.3f", "float");
        QVERIFY(spec.ok());
        QCOMPARE(spec->fill, std::string("→"));
        QCOMPARE(spec->align, '^');
        QCOMPARE(spec->sign, '+');
        QVERIFY(spec->noNegativeZero && spec->alternate && !spec->zeroPad);
        QCOMPARE(spec->width, int64_t(12));
        QCOMPARE(spec->grouping, '_');
        QCOMPARE(spec->precision, int64_t(3));
        QCOMPARE(spec->type, char32_t('f'));
    }

    void percentFormat_data() {
        QTest::addColumn<QByteArray>("format");
        QTest::addColumn<Operand>("operand");
        QTest::addColumn<QByteArray>("expected");
        int n = 0;
        auto row = [&n](const char* format, Operand operand, const char* expected) {
            QTest::addRow("%d: %s", n++, format)
                << QByteArray(format) << operand << QByteArray(expected);
        };
        row("%s", one(V("x")), "x");
        row("%s %s", tuple({V(1), V("a")}), "1 a");
        row("%d", one(V(42)), "42");
        row("%i", one(V(-7)), "-7");
        row("%u", one(V(5)), "5");
        row("%5d|", one(V(42)), "   42|");
        row("%-5d|", one(V(42)), "42   |");
        row("%05d", one(V(-42)), "-0042");
        row("%+d", one(V(5)), "+5");
        row("% d", one(V(5)), " 5");
        row("% 05d", one(V(-3)), "-0003");
        row("%+.3d", one(V(5)), "+005");
        row("%.3d", one(V(-5)), "-005");
        row("%x", one(V(255)), "ff");
        row("%X", one(V(255)), "FF");
        row("%#x", one(V(255)), "0xff");
        row("%#X", one(V(255)), "0XFF");
        row("%#o", one(V(8)), "0o10");
        row("%o", one(V(8)), "10");
        row("%x", one(V(-255)), "-ff");
        row("%#X", one(V(-255)), "-0XFF");
        row("%#.5x", one(V(255)), "0x000ff");
        row("%#010x", one(V(255)), "0x000000ff");
        row("%-#10X|", one(V(255)), "0XFF      |");
        row("%#08o", one(V(8)), "0o000010");
        row("%#8o", one(V(8)), "    0o10");
        row("%+#010x", one(V(255)), "+0x00000ff");
        row("%#5x", one(V(255)), " 0xff");
        row("%d", one(V(3.7)), "3");
        row("%d", one(V(-3.7)), "-3");
        row("%d", one(V(-0.5)), "0");
        row("%d", one(V(1e+20)), "100000000000000000000");
        row("%i", one(V(5.5)), "5");
        row("%d", one(V(true)), "1");
        row("%x", one(V(true)), "1");
        row("%d", one(V(qint64(4611686018427387904))), "4611686018427387904");
        row("%d", one(V(std::numeric_limits<qint64>::min())), "-9223372036854775808");
        row("%f", one(V(3.14159)), "3.141590");
        row("%.2f", one(V(2.675)), "2.67");
        row("%.0f", one(V(2.5)), "2");
        row("%#.0f", one(V(1.0)), "1.");
        row("%e", one(V(1234.5)), "1.234500e+03");
        row("%E", one(V(1234.5)), "1.234500E+03");
        row("%.0e", one(V(12345)), "1e+04");
        row("%10.3e", one(V(1234.5)), " 1.234e+03");
        row("%g", one(V(1e-05)), "1e-05");
        row("%g", one(V(0.0001)), "0.0001");
        row("%G", one(V(1e-10)), "1E-10");
        row("%#g", one(V(1.0)), "1.00000");
        row("%.3g", one(V(0.0001)), "0.0001");
        row("%#.3g", one(V(0.0001)), "0.000100");
        row("%e", one(V(0)), "0.000000e+00");
        row("%f", one(V(true)), "1.000000");
        row("%.2f", one(V(2)), "2.00");
        row("%+.1f", one(V(2.25)), "+2.2");
        row("%010.2f", one(V(-3.14159)), "-000003.14");
        row("%-10.2f|", one(V(3.14159)), "3.14      |");
        row("% f", one(V(1.5)), " 1.500000");
        row("%f", one(V(kInf)), "inf");
        row("%f", one(V(-kInf)), "-inf");
        row("%F", one(V(kNan)), "NAN");
        row("%+f", one(V(kNan)), "+nan");
        row("%010f", one(V(-kInf)), "-000000inf");
        row("%5.1f|%-8.3e|%+g", tuple({V(2.25), V(12345.678), V(0.1)}), "  2.2|1.235e+04|+0.1");
        row("%*d", tuple({V(5), V(42)}), "   42");
        row("%-*d|", tuple({V(-5), V(3)}), "3    |");
        row("%*.*f", tuple({V(8), V(2), V(3.14159)}), "    3.14");
        row("%.*f", tuple({V(-3), V(1.5)}), "2");
        row("%.*s", tuple({V(2), V("abc")}), "ab");
        row("%c", one(V(65)), "A");
        row("%c", one(V("é")), "é");
        row("%c%c", tuple({V(65), V("é")}), "Aé");
        row("%3c|", one(V(65)), "  A|");
        row("%-3c|", one(V("x")), "x  |");
        row("%c", one(V(128512)), "😀");
        row("%r", one(V("a\012b")), "'a\\nb'");
        row("%r", one(V("it's")), "\"it's\"");
        row("%a", one(V("é")), "'\\xe9'");
        row("%r", one(V("é")), "'é'");
        row("%s", one(V(1.0)), "1.0");
        row("%s", one(V(true)), "True");
        row("%r", one(V()), "None");
        row("%s", one(V()), "None");
        row("%10.4s|", one(V("abcdefg")), "      abcd|");
        row("%-10r|", one(V("ab")), "'ab'      |");
        row("%.2s", one(V("abc")), "ab");
        row("%05s", one(V("ab")), "   ab");
        row("%+5s", one(V("a")), "    a");
        row("%5s", one(V("héllo")), "héllo");
        row("%.1a", one(V("é")), "'");
        row("100%%", tuple({}), "100%");
        row("%s%%", one(V(5)), "5%");
        row("%hd %ld %Ld", tuple({V(1), V(2), V(3)}), "1 2 3");
        row("%(a)s %(b)d", dict({{"a", V("x")}, {"b", V(2)}}), "x 2");
        row("%(a)s %(a)r", dict({{"a", V("x")}}), "x 'x'");
        row("%(a)d%%", dict({{"a", V(5)}}), "5%");
        row("%(x(y))s", dict({{"x(y)", V(1)}}), "1");
        row("abc", dict({{"a", V(1)}}), "abc");
        row("%s", dict({{"a", V(1)}}), "{'a': 1}");
        row("%(a)-5d|", dict({{"a", V(5)}}), "5    |");
        row("%s %s", tuple({V(1)}), "!TypeError: not enough arguments for format string");
        row("%s", tuple({V(1), V(2)}),
            "!TypeError: not all arguments converted during string formatting");
        row("abc", one(V(5)), "!TypeError: not all arguments converted during string formatting");
        row("%d", one(V("a")), "!TypeError: %d format: a real number is required, not str");
        row("%x", one(V(3.5)), "!TypeError: %x format: an integer is required, not float");
        row("%o", one(V("a")), "!TypeError: %o format: an integer is required, not str");
        row("%f", one(V("a")), "!TypeError: must be real number, not str");
        row("%c", one(V(3.0)), "!TypeError: %c requires int or char");
        row("%c", one(V("ab")), "!TypeError: %c requires int or char");
        row("%c", one(V(-1)), "!OverflowError: %c arg not in range(0x110000)");
        row("%c", one(V(1114112)), "!OverflowError: %c arg not in range(0x110000)");
        row("%*d", tuple({V("a"), V(1)}), "!TypeError: * wants int");
        row("%(a", dict({{"a", V(1)}}), "!ValueError: incomplete format key");
        row("%(a)s", one(V(5)), "!TypeError: format requires a mapping");
        row("%(b)s", dict({{"a", V(1)}}), "!KeyError: 'b'");
        row("%d", one(V(kInf)), "!OverflowError: cannot convert float infinity to integer");
        row("%d", one(V(kNan)), "!ValueError: cannot convert float NaN to integer");
        row("%y", one(V(1)), "!ValueError: unsupported format character 'y' (0x79) at index 1");
        row("abc %y", one(V(1)), "!ValueError: unsupported format character 'y' (0x79) at index 5");
        row("%y", tuple({}), "!TypeError: not enough arguments for format string");
        row("%é", one(V(1)), "!ValueError: unsupported format character '?' (0xe9) at index 1");
        row("%€", one(V(1)), "!ValueError: unsupported format character '?' (0x20ac) at index 1");
        row("é%€", one(V(1)), "!ValueError: unsupported format character '?' (0x20ac) at index 2");
        row("%5%", one(V(1)), "!ValueError: unsupported format character '%' (0x25) at index 2");
        row("%5%", tuple({}), "!TypeError: not enough arguments for format string");
        row("abc%", tuple({}), "!ValueError: incomplete format");
        row("%", tuple({}), "!ValueError: incomplete format");
        row("%(a)", dict({{"a", V(1)}}), "!ValueError: incomplete format");
        row("%.", one(V(1)), "!ValueError: incomplete format");
        row("%*", tuple({V(1)}), "!ValueError: incomplete format");
        row("%s %", one(V(1)), "!ValueError: incomplete format");
        row("%-", one(V(1)), "!ValueError: incomplete format");
        row("%05", one(V(1)), "!ValueError: incomplete format");
        row("%(a)s %s", dict({{"a", V(1)}}), "!TypeError: not enough arguments for format string");
        row("%(a)*d", dict({{"a", V(1)}}), "!TypeError: not enough arguments for format string");
        row("%d", one(V()), "!TypeError: %d format: a real number is required, not NoneType");
        row("%.3f", one(V()), "!TypeError: must be real number, not NoneType");
        row("%99999999999999999999d", one(V(1)), "!ValueError: width too big");
        row("%.99999999999d", one(V(1)), "!ValueError: precision too big");
    }
    void percentFormat() {
        QFETCH(QByteArray, format);
        QFETCH(Operand, operand);
        QFETCH(QByteArray, expected);
        TestArgs args(operand);
        QCOMPARE(rendered(kiln::lang::percentFormat(format.toStdString(), args)), expected);
    }

    void strFormatFields_data() {
        QTest::addColumn<QByteArray>("format");
        QTest::addColumn<QByteArray>("expected");
        auto row = [](const char* format, const char* expected) {
            QTest::addRow("'%s'", format) << QByteArray(format) << QByteArray(expected);
        };
        row("", "");
        row("plain", "(plain)");
        row("a {0} {name!r:>10} {{}}", "(a ){#0:}( ){name!r:>10}( {})");
        row("{}", "(){#0:}");
        row("{} {}", "(){#0:}( ){#1:}");
        row("{0}{1}{0}", "(){#0:}(){#1:}(){#0:}");
        row("{:>{}}", "(){#0:>{}*}");
        row("{0:{1}.{2}f}", "(){#0:{1}.{2}f*}");
        row("{a.b[c][0].d}", "(){a.b[c][#0].d:}");
        row("{0[key]}", "(){#0[key]:}");
        row("{!a}", "(){#0!a:}");
        row("{x!s:^5}", "(){x!s:^5}");
        row("{{{}}}", "({){#0:}(})");
        row("}}{{", "(}{)");
        row("tail {}", "(tail ){#0:}");
        row("{:}", "(){#0:}");
        row("{0:}", "(){#0:}");
        row("{[0]}", "(){#0[#0]:}");
        row("{.real}", "(){#0.real:}");
        row("{a[}]}", "(){a[}]:}");
        row("{é:é}", "(){é:é}");
        row("{0:{{}}}", "(){#0:{{}}*}");
        row("{a!r}", "(){a!r:}");
        row("{0.x.y}", "(){#0.x.y:}");
        row("{ 0 }", "(){ 0 :}");
        row("{00}", "(){#0:}");
        row("{0a}", "(){0a:}");
        row("{-1}", "(){-1:}");
        row("}", "!ValueError: Single '}' encountered in format string");
        row("a}b", "!ValueError: Single '}' encountered in format string");
        row("{", "!ValueError: Single '{' encountered in format string");
        row("a{", "!ValueError: Single '{' encountered in format string");
        row("{0", "!ValueError: expected '}' before end of string");
        row("{0:", "!ValueError: unmatched '{' in format spec");
        row("{!}", "!ValueError: unmatched '{' in format spec");
        row("{!}x", "!ValueError: expected ':' after conversion specifier");
        row("{!r", "!ValueError: unmatched '{' in format spec");
        row("{!", "!ValueError: end of string while looking for conversion specifier");
        row("{0!x}", "!ValueError: Unknown conversion specifier x");
        row("{0!\001}", "!ValueError: Unknown conversion specifier \\x1");
        row("{0!é}", "!ValueError: Unknown conversion specifier \\xe9");
        row("{!rr}", "!ValueError: expected ':' after conversion specifier");
        row("{a{}", "!ValueError: unexpected '{' in field name");
        row("{0[}", "!ValueError: expected '}' before end of string");
        row("{a[0]x}", "!ValueError: Only '.' or '[' may follow ']' in format field specifier");
        row("{0.}", "!ValueError: Empty attribute in format string");
        row("{0[]}", "!ValueError: Empty attribute in format string");
        row("{}{0}", "!ValueError: cannot switch from automatic field numbering to manual field "
                     "specification");
        row("{0}{}", "!ValueError: cannot switch from manual field specification to automatic "
                     "field numbering");
        row("{:}}", "!ValueError: Single '}' encountered in format string");
        row("{0:{", "!ValueError: unmatched '{' in format spec");
        row("{99999999999999999999}", "!ValueError: Too many decimal digits in format string");
        row("{0[99999999999999999999]}", "!ValueError: Too many decimal digits in format string");
        row("{0!r:{", "!ValueError: unmatched '{' in format spec");
    }
    void strFormatFields() {
        QFETCH(QByteArray, format);
        QFETCH(QByteArray, expected);
        auto pieces = parseFormatString(format.toStdString());
        QCOMPARE(pieces ? renderPieces(pieces.value()) : errorText(pieces.error()), expected);
    }

    void nestedSpecsShareNumbering() {
        // '{:>{}}'.format('ab', 5) == '   ab': the value is argument 0, the width argument 1.
        FormatStringParser parser("{:>{}}");
        auto piece = parser.next();
        QVERIFY(piece.ok() && piece->has_value() && (*piece)->field);
        const FormatField& field = *(*piece)->field;
        QCOMPARE(field.argIndex, int64_t(0));
        QVERIFY(field.specHasFields);
        auto nested = parser.nested(field.spec);
        QVERIFY(nested.ok());
        auto inner = nested->next();
        QVERIFY(inner.ok() && inner->has_value() && (*inner)->field);
        QCOMPARE((*inner)->literal, std::string(">"));
        QCOMPARE((*inner)->field->argIndex, int64_t(1));
        // '{:{:{}}}'.format(1, 2, 3) raises ValueError: Max string recursion exceeded.
        auto deeper = nested->nested("{}");
        QVERIFY(!deeper.ok());
        QCOMPARE(errorText(deeper.error()),
                 QByteArray("!ValueError: Max string recursion exceeded"));
    }

    void laterErrorsWaitForTheirPiece() {
        // '{0} }'.format() raises IndexError for field 0 before the stray '}' is seen.
        FormatStringParser parser("{0} }");
        auto first = parser.next();
        QVERIFY(first.ok() && first->has_value());
        QCOMPARE((*first)->field->argIndex, int64_t(0));
        auto second = parser.next();
        QVERIFY(!second.ok());
        QCOMPARE(errorText(second.error()),
                 QByteArray("!ValueError: Single '}' encountered in format string"));
    }

    void pyStringRepr_data() {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QByteArray>("expected");
        // Takes the input's length from the array: one input holds NUL characters.
        auto row = []<size_t N>(const char(&v)[N], const char* expected) {
            QTest::addRow("%s", expected) << QByteArray(v, N - 1) << QByteArray(expected);
        };
        row("", "''");
        row("abc", "'abc'");
        row("it's", "\"it's\"");
        row("say \"hi\"", "'say \"hi\"'");
        row("both ' and \"", "'both \\' and \"'");
        row("tab\011here", "'tab\\there'");
        row("new\012line", "'new\\nline'");
        row("cr\015x", "'cr\\rx'");
        row("back\\slash", "'back\\\\slash'");
        row("\000\001\037", "'\\x00\\x01\\x1f'");
        row("\177", "'\\x7f'");
        row("é", "'é'");
        row("naïve café", "'naïve café'");
        row("\u00a0", "'\\xa0'");
        row("\u00ad", "'\\xad'");
        row("\u200b", "'\\u200b'");
        row("\u2028", "'\\u2028'");
        row("\ufeff", "'\\ufeff'");
        row("\u3000", "'\\u3000'");
        row("日本語", "'日本語'");
        row("😀", "'😀'");
        row("\U000e0001", "'\\U000e0001'");
        row("\355\240\200", "'\\ud800'");
        row("\u0080\u009f", "'\\x80\\x9f'");
        row("\U0010ffff", "'\\U0010ffff'");
        row("\u0378", "'\\u0378'");
        row("a'b\"c", "'a\\'b\"c'");
    }
    void pyStringRepr() {
        QFETCH(QByteArray, value);
        QFETCH(QByteArray, expected);
        QCOMPARE(bytes(kiln::lang::pyStringRepr(value.toStdString())), expected);
    }

    void pyRound_data() {
        QTest::addColumn<double>("value");
        QTest::addColumn<qint64>("ndigits");
        QTest::addColumn<QByteArray>("expected");
        auto row = [](double v, qint64 ndigits, const char* expected) {
            QTest::addRow("round(%.17g, %lld)", v, (long long)ndigits)
                << v << ndigits << QByteArray(expected);
        };
        row(2.675, 2, "2.67");
        row(1234.5, -1, "1230.0");
        row(1235.0, -1, "1240.0");
        row(1245.0, -1, "1240.0");
        row(1245.4, -1, "1250.0");
        row(0.125, 2, "0.12");
        row(0.375, 2, "0.38");
        row(2.5, 0, "2.0");
        row(3.5, 0, "4.0");
        row(-2.5, 0, "-2.0");
        row(-0.4, 0, "-0.0");
        row(-0.0001, 2, "-0.0");
        row(-4.0, -1, "-0.0");
        row(1e-320, 322, "1e-320");
        row(5e-324, 323, "0.0");
        row(1e+300, -299, "1e+300");
        row(1.23456789e-300, 305, "1.23457e-300");
        row(123.456, 400, "123.456");
        row(123.456, -400, "0.0");
        row(-123.456, -400, "-0.0");
        row(1.7976931348623157e+308, -307, "!OverflowError: rounded value too large to represent");
        row(5e+307, -308, "1e+308");
        row(4.5e+307, -308, "0.0");
        row(1.7976931348623157e+308, -308, "!OverflowError: rounded value too large to represent");
        row(15.0, -1, "20.0");
        row(25.0, -1, "20.0");
        row(0.5, -1, "0.0");
        row(5.0, -1, "0.0");
        row(50.0, -2, "0.0");
        row(150.0, -2, "200.0");
        row(1.0000000000000002, 15, "1.0");
        row(kInf, 2, "inf");
        row(-kInf, -2, "-inf");
        row(kNan, 0, "nan");
        row(0.1, 1, "0.1");
        row(0.15, 1, "0.1");
        row(0.25, 1, "0.2");
        row(0.35, 1, "0.3");
        row(1000000000000000.5, 0, "1000000000000000.0");
        row(123456789.98765433, 3, "123456789.988");
        row(-123456789.98765433, -3, "-123457000.0");
        row(9.5, 0, "10.0");
        row(99.5, -1, "100.0");
        row(999999999999999.9, -1, "1000000000000000.0");
    }
    void pyRound() {
        QFETCH(double, value);
        QFETCH(qint64, ndigits);
        QFETCH(QByteArray, expected);
        Expected<double> r = kiln::lang::pyRound(value, ndigits);
        QCOMPARE(r ? bytes(kiln::lang::floatRepr(r.value())) : errorText(r.error()), expected);
    }

    void pyRoundHalfEven_data() {
        QTest::addColumn<double>("value");
        QTest::addColumn<QByteArray>("expected");
        auto row = [](double v, const char* expected) {
            QTest::addRow("round(%.17g)", v) << v << QByteArray(expected);
        };
        row(0.5, "0");
        row(1.5, "2");
        row(2.5, "2");
        row(-0.5, "0");
        row(-1.5, "-2");
        row(-2.5, "-2");
        row(0.49999999999999994, "0");
        row(2.4, "2");
        row(2.6, "3");
        row(-2.6, "-3");
        row(4503599627370495.5, "4503599627370496");
        row(1e+300, "100000000000000005250476025520442024870446858110815915491585411551180245798890"
                    "819578637137508044786404370444383288387817694252323536043057564479218478670698"
                    "284838720092657580373783023379478809005936895323497079994508111903896764088007"
                    "4652742780142494579258788820056842838115669472196386865459400540160");
        row(-0.0, "0");
        row(0.0, "0");
    }
    void pyRoundHalfEven() {
        QFETCH(double, value);
        QFETCH(QByteArray, expected);
        // The caller turns the result into an int, as round(x) returns one; compare that int.
        char digits[400];
        double rounded = kiln::lang::pyRoundHalfEven(value) + 0.0; // -0.0 is the int 0
        auto end =
            std::to_chars(digits, digits + sizeof digits, rounded, std::chars_format::fixed, 0);
        QCOMPARE(QByteArray(digits, int(end.ptr - digits)), expected);
    }
};

QTEST_APPLESS_MAIN(PyFormatTest)
#include "tst_pyformat.moc"
