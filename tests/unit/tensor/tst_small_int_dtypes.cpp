// SPDX-License-Identifier: MIT
// The small integer dtypes (uint8, int8, int16) in the tensor library: names and sizes, the
// whole promotion lattice against torch.promote_types, conversions from floats as PyTorch's
// x86 kernels make them, the value-range check of fill/full, and arithmetic, reductions and
// conditions in the new widths (uint8 is unsigned everywhere).
#include "tensor/convert.h"
#include "tensor/error.h"
#include "tensor_testing.h"

#include <QtTest>
#include <cmath>

using namespace kiln::tensor;
using kiln::testing::compareTensor;
using kiln::testing::makeTensor;

namespace {

constexpr DType kAll[] = {DType::Bool,    DType::UInt8,  DType::Int8,    DType::Int16,
                          DType::Int32,   DType::Int64,  DType::Float16, DType::BFloat16,
                          DType::Float32, DType::Float64};

/// torch.promote_types over kAll x kAll, as PyTorch 2.11 and 2.3.1 print it (b = bool,
/// u8, i8, i16, i32, i64, h = float16, bf = bfloat16, f = float32, d = float64).
const char* const kLattice[] = {"b b u8 i8 i16 i32 i64 h bf f d",
                                "u8 u8 u8 i16 i16 i32 i64 h bf f d",
                                "i8 i8 i16 i8 i16 i32 i64 h bf f d",
                                "i16 i16 i16 i16 i16 i32 i64 h bf f d",
                                "i32 i32 i32 i32 i32 i32 i64 h bf f d",
                                "i64 i64 i64 i64 i64 i64 i64 h bf f d",
                                "h h h h h h h h f f d",
                                "bf bf bf bf bf bf bf f bf f d",
                                "f f f f f f f f f f d",
                                "d d d d d d d d d d d"};

DType fromShortName(const QString& s) {
    static const QStringList names{"b", "u8", "i8", "i16", "i32", "i64", "h", "bf", "f", "d"};
    return kAll[names.indexOf(s)];
}

QString runtimeErrorOf(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const TensorError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class SmallIntDTypesTest : public QObject {
    Q_OBJECT

private slots:
    void namesAndSizes() {
        QCOMPARE(dtypeName(DType::UInt8), std::string_view("uint8"));
        QCOMPARE(dtypeName(DType::Int8), std::string_view("int8"));
        QCOMPARE(dtypeName(DType::Int16), std::string_view("int16"));
        QCOMPARE(dtypeLegacyName(DType::UInt8), std::string_view("Byte"));
        QCOMPARE(dtypeLegacyName(DType::Int8), std::string_view("Char"));
        QCOMPARE(dtypeLegacyName(DType::Int16), std::string_view("Short"));
        QCOMPARE(itemSize(DType::UInt8), int64_t(1));
        QCOMPARE(itemSize(DType::Int8), int64_t(1));
        QCOMPARE(itemSize(DType::Int16), int64_t(2));
        for (DType d : {DType::UInt8, DType::Int8, DType::Int16}) {
            QVERIFY(isIntegral(d, false));
            QVERIFY(!isFloating(d));
        }
        QVERIFY(!isSigned(DType::UInt8));
        QVERIFY(!isSigned(DType::Bool));
        QVERIFY(isSigned(DType::Int8) && isSigned(DType::Int16) && isSigned(DType::Float16));
    }

    void promotionMatchesTorchForEveryPair() {
        for (int i = 0; i < kDTypeCount; ++i) {
            QStringList row = QString(kLattice[i]).split(' ', Qt::SkipEmptyParts);
            QCOMPARE(fromShortName(row[0]), kAll[i]);
            for (int j = 0; j < kDTypeCount; ++j) {
                DType want = fromShortName(row[j + 1]);
                QVERIFY2(
                    promoteTypes(kAll[i], kAll[j]) == want,
                    qPrintable(QString("%1 with %2")
                                   .arg(dtypeName(kAll[i]).data(), dtypeName(kAll[j]).data())));
            }
        }
    }

    void floatsConvertAsOnX86() {
        // uint8 through int64, int8 and int16 through int32 (out of range: the minimum), then
        // the low bits: the values torch 2.3.1 and 2.11 give on x86 for float32 and float64.
        const std::vector<double> in{-1.0,  -1.5,   300.0,   -300.0, 255.9,    256.0,       1e10,
                                     127.5, -128.7, 32768.0, NAN,    INFINITY, 4294967301.0};
        struct Case {
            DType dtype;
            std::vector<double> want;
        };
        const Case cases[] = {
            {DType::UInt8, {255, 255, 44, 212, 255, 0, 0, 127, 128, 0, 0, 0, 5}},
            {DType::Int8, {-1, -1, 44, -44, -1, 0, 0, 127, -128, 0, 0, 0, 0}},
            {DType::Int16, {-1, -1, 300, -300, 255, 256, 0, 127, -128, -32768, 0, 0, 0}},
        };
        Tensor src = makeTensor(in, DimVector{int64_t(in.size())}, DType::Float64);
        for (const Case& c : cases) {
            QString msg = compareTensor(toDType(src, c.dtype), c.want, src.sizes(), 0);
            QVERIFY2(msg.isEmpty(), qPrintable(dtypeName(c.dtype).data() + (": " + msg)));
        }
        // Integers wrap (two's complement).
        Tensor ints = makeTensor({300, -1, 70000, -70000}, DimVector{4}, DType::Int64);
        QVERIFY(compareTensor(toDType(ints, DType::UInt8), {44, 255, 112, 144}, DimVector{4})
                    .isEmpty());
        QVERIFY(
            compareTensor(toDType(ints, DType::Int8), {44, -1, 112, -112}, DimVector{4}).isEmpty());
        QVERIFY(compareTensor(toDType(ints, DType::Int16), {300, -1, 4464, -4464}, DimVector{4})
                    .isEmpty());
        // uint8 reads back unsigned.
        Tensor u = makeTensor({200, 255}, DimVector{2}, DType::UInt8);
        QVERIFY(compareTensor(toDType(u, DType::Float32), {200, 255}, DimVector{2}).isEmpty());
        QCOMPARE(item(select(u, 0, 1)).toInt(), int64_t(255));
    }

    void fillChecksTheValueRange() {
        Tensor u = Tensor::empty(DimVector{2}, DType::UInt8);
        fill(u, Scalar(int64_t(-255))); // negative integers wrap into uint8 down to -255
        QVERIFY(compareTensor(u, {1, 1}, DimVector{2}).isEmpty());
        QCOMPARE(runtimeErrorOf([&] { fill(u, Scalar(int64_t(256))); }),
                 QString("value cannot be converted to type uint8_t without overflow"));
        QCOMPARE(runtimeErrorOf([&] { fill(u, Scalar(int64_t(-256))); }),
                 QString("value cannot be converted to type uint8_t without overflow"));
        QCOMPARE(runtimeErrorOf([&] { fill(u, Scalar(-0.5)); }),
                 QString("value cannot be converted to type uint8_t without overflow"));
        QCOMPARE(runtimeErrorOf([&] { fill(u, Scalar(NAN)); }),
                 QString("value cannot be converted to type uint8_t without overflow"));
        Tensor c = Tensor::empty(DimVector{1}, DType::Int8);
        QCOMPARE(runtimeErrorOf([&] { fill(c, Scalar(127.5)); }),
                 QString("value cannot be converted to type int8_t without overflow"));
        QCOMPARE(runtimeErrorOf([&] {
                     checkScalarFits(Scalar(int64_t(40000)), DType::Int16, TypeNaming::DTypeName);
                 }),
                 QString("value cannot be converted to type int16 without overflow"));
        QCOMPARE(runtimeErrorOf([&] { checkScalarFits(Scalar(int64_t(1) << 31), DType::Int32); }),
                 QString("value cannot be converted to type int without overflow"));
        QVERIFY(runtimeErrorOf([&] { fill(c, Scalar(true)); }).isEmpty());
        QVERIFY(runtimeErrorOf([&] { checkScalarFits(Scalar(1e300), DType::Float16); }).isEmpty());
    }

    void arithmeticWrapsInTheNarrowType() {
        Tensor a = makeTensor({200, 100, 7, 0}, DimVector{4}, DType::UInt8);
        Tensor b = makeTensor({100, 200, 2, 3}, DimVector{4}, DType::UInt8);
        QVERIFY(compareTensor(binary(BinaryOp::Add, a, b), {44, 44, 9, 3}, DimVector{4}).isEmpty());
        QVERIFY(
            compareTensor(binary(BinaryOp::Sub, a, b), {100, 156, 5, 253}, DimVector{4}).isEmpty());
        QVERIFY(
            compareTensor(binary(BinaryOp::FloorDiv, a, b), {2, 0, 3, 0}, DimVector{4}).isEmpty());
        QVERIFY(compareTensor(unary(UnaryOp::Neg, a), {56, 156, 249, 0}, DimVector{4}).isEmpty());
        // A Python number takes the tensor's type (wrapping); a uint8 comparison is unsigned.
        Tensor plus = binary(BinaryOp::Add, a, wrapNumber(Scalar(int64_t(300))));
        QCOMPARE(plus.dtype(), DType::UInt8);
        QVERIFY(compareTensor(plus, {244, 144, 51, 44}, DimVector{4}).isEmpty());
        QVERIFY(compareTensor(binary(BinaryOp::Gt, a, wrapNumber(Scalar(int64_t(128)))),
                              {1, 0, 0, 0}, DimVector{4})
                    .isEmpty());
        Tensor c = makeTensor({-128, -7, 7, 127}, DimVector{4}, DType::Int8);
        QVERIFY(compareTensor(unary(UnaryOp::Abs, c), {-128, 7, 7, 127}, DimVector{4}).isEmpty());
        QVERIFY(compareTensor(binary(BinaryOp::Remainder, c, wrapNumber(Scalar(int64_t(3)))),
                              {1, 2, 1, 1}, DimVector{4})
                    .isEmpty());
        Tensor mixed = binary(BinaryOp::Add, a, c);
        QCOMPARE(mixed.dtype(), DType::Int16);
        QVERIFY(compareTensor(mixed, {72, 93, 14, 127}, DimVector{4}).isEmpty());
        QVERIFY(compareTensor(binary(BinaryOp::RightShift, a, wrapNumber(Scalar(int64_t(1)))),
                              {100, 50, 3, 0}, DimVector{4})
                    .isEmpty());
    }

    void reductionsWidenSumsAndKeepExtremes() {
        Tensor a = makeTensor({200, 100, 255, 0}, DimVector{2, 2}, DType::UInt8);
        Tensor s = sum(a, {}, false);
        QCOMPARE(s.dtype(), DType::Int64);
        QCOMPARE(item(s).toInt(), int64_t(555));
        Tensor m = amax(a, DimVector{1}, false);
        QCOMPARE(m.dtype(), DType::UInt8);
        QVERIFY(compareTensor(m, {200, 255}, DimVector{2}).isEmpty());
        Tensor w = makeTensor({-30000, 30000, 30000}, DimVector{3}, DType::Int16);
        QCOMPARE(item(sum(w, {}, false)).toInt(), int64_t(30000));
    }

    void uint8ConditionsReadAsTruth() {
        Tensor cond = makeTensor({2, 0, 255}, DimVector{3}, DType::UInt8);
        Tensor x = makeTensor({1, 2, 3}, DimVector{3}, DType::Int64);
        Tensor y = makeTensor({-1, -2, -3}, DimVector{3}, DType::Int64);
        QVERIFY(compareTensor(where(cond, x, y), {1, -2, 3}, DimVector{3}).isEmpty());
        Tensor notByte = makeTensor({1, 0, 1}, DimVector{3}, DType::Int8);
        QCOMPARE(runtimeErrorOf([&] { where(notByte, x, y); }),
                 QString("where expected condition to be a boolean tensor, but got a tensor with "
                         "dtype Char"));
        QCOMPARE(runtimeErrorOf([&] { maskedFill(x, cond, wrapNumber(Scalar(int64_t(0)))); }),
                 QString("masked_fill_ only supports boolean masks, but got mask with dtype "
                         "unsigned char"));
    }
};

QTEST_GUILESS_MAIN(SmallIntDTypesTest)
#include "tst_small_int_dtypes.moc"
