// SPDX-License-Identifier: MIT
// Binary pointwise ops and type promotion: every op on every dtype against PyTorch (values,
// result dtype or the exact error), broadcasting and strided inputs, Python-number operands,
// integer edge cases, in-place forms and the autograd node names PyTorch records.
#include "compute_testing.h"
#include "tensor/ops.h"

#include <QtTest>
#include <cmath>

using namespace kiln::tensor;
using namespace kiln::testing;

Q_DECLARE_METATYPE(kiln::tensor::BinaryOp)

namespace {

enum class Kind { Dim, Zero, Number };

/// An operand of the promotion table: a 1-D tensor, a 0-dim tensor or a Python number.
Tensor promotionOperand(DType dtype, Kind kind) {
    if (kind == Kind::Number)
        return wrapNumber(dtype == DType::Bool    ? Scalar(true)
                          : dtype == DType::Int64 ? Scalar(int64_t(2))
                                                  : Scalar(2.5));
    if (kind == Kind::Zero) return scalarTensor(Scalar(int64_t(1)), dtype);
    return makeTensor({1, 1}, DimVector{2}, dtype);
}

/// The inputs the PyTorch table was computed from.
std::pair<Tensor, Tensor> tableInputs(DType dtype) {
    if (dtype == DType::Bool)
        return {vector({1, 1, 0, 0, 1, 0}, dtype), vector({1, 0, 1, 0, 0, 1}, dtype)};
    if (isFloating(dtype))
        return {vector({-7.5, -3, -1.25, 0, 2.5, 5}, dtype),
                vector({2, -2, 3, 1.5, -3, 0.5}, dtype)};
    return {vector({-7, -3, -1, 0, 2, 5}, dtype), vector({2, -2, 3, 1, -3, 2}, dtype)};
}

} // namespace

Q_DECLARE_METATYPE(Kind)

class PointwiseBinaryTest : public QObject {
    Q_OBJECT

private slots:
    void resultTypeMatchesPyTorch_data() {
        QTest::addColumn<DType>("aType");
        QTest::addColumn<Kind>("aKind");
        QTest::addColumn<DType>("bType");
        QTest::addColumn<Kind>("bKind");
        QTest::addColumn<DType>("expected");
        // Generated with torch.result_type(a, b).
        QTest::newRow("BoolDim+BoolNumber")
            << DType::Bool << Kind::Dim << DType::Bool << Kind::Number << DType::Bool;
        QTest::newRow("BoolDim+Int64Number")
            << DType::Bool << Kind::Dim << DType::Int64 << Kind::Number << DType::Int64;
        QTest::newRow("BoolDim+Float64Number")
            << DType::Bool << Kind::Dim << DType::Float64 << Kind::Number << DType::Float32;
        QTest::newRow("Int32Dim+BoolNumber")
            << DType::Int32 << Kind::Dim << DType::Bool << Kind::Number << DType::Int32;
        QTest::newRow("Int32Dim+Int64Number")
            << DType::Int32 << Kind::Dim << DType::Int64 << Kind::Number << DType::Int32;
        QTest::newRow("Int32Dim+Float64Number")
            << DType::Int32 << Kind::Dim << DType::Float64 << Kind::Number << DType::Float32;
        QTest::newRow("Int64Dim+BoolNumber")
            << DType::Int64 << Kind::Dim << DType::Bool << Kind::Number << DType::Int64;
        QTest::newRow("Int64Dim+Int64Number")
            << DType::Int64 << Kind::Dim << DType::Int64 << Kind::Number << DType::Int64;
        QTest::newRow("Int64Dim+Float64Number")
            << DType::Int64 << Kind::Dim << DType::Float64 << Kind::Number << DType::Float32;
        QTest::newRow("Float16Dim+BoolNumber")
            << DType::Float16 << Kind::Dim << DType::Bool << Kind::Number << DType::Float16;
        QTest::newRow("Float16Dim+Int64Number")
            << DType::Float16 << Kind::Dim << DType::Int64 << Kind::Number << DType::Float16;
        QTest::newRow("Float16Dim+Float64Number")
            << DType::Float16 << Kind::Dim << DType::Float64 << Kind::Number << DType::Float16;
        QTest::newRow("BFloat16Dim+BoolNumber")
            << DType::BFloat16 << Kind::Dim << DType::Bool << Kind::Number << DType::BFloat16;
        QTest::newRow("BFloat16Dim+Int64Number")
            << DType::BFloat16 << Kind::Dim << DType::Int64 << Kind::Number << DType::BFloat16;
        QTest::newRow("BFloat16Dim+Float64Number")
            << DType::BFloat16 << Kind::Dim << DType::Float64 << Kind::Number << DType::BFloat16;
        QTest::newRow("Float32Dim+BoolNumber")
            << DType::Float32 << Kind::Dim << DType::Bool << Kind::Number << DType::Float32;
        QTest::newRow("Float32Dim+Int64Number")
            << DType::Float32 << Kind::Dim << DType::Int64 << Kind::Number << DType::Float32;
        QTest::newRow("Float32Dim+Float64Number")
            << DType::Float32 << Kind::Dim << DType::Float64 << Kind::Number << DType::Float32;
        QTest::newRow("Float64Dim+BoolNumber")
            << DType::Float64 << Kind::Dim << DType::Bool << Kind::Number << DType::Float64;
        QTest::newRow("Float64Dim+Int64Number")
            << DType::Float64 << Kind::Dim << DType::Int64 << Kind::Number << DType::Float64;
        QTest::newRow("Float64Dim+Float64Number")
            << DType::Float64 << Kind::Dim << DType::Float64 << Kind::Number << DType::Float64;
        QTest::newRow("BoolDim+BoolZero")
            << DType::Bool << Kind::Dim << DType::Bool << Kind::Zero << DType::Bool;
        QTest::newRow("BoolDim+Int32Zero")
            << DType::Bool << Kind::Dim << DType::Int32 << Kind::Zero << DType::Int32;
        QTest::newRow("BoolDim+Int64Zero")
            << DType::Bool << Kind::Dim << DType::Int64 << Kind::Zero << DType::Int64;
        QTest::newRow("BoolDim+Float16Zero")
            << DType::Bool << Kind::Dim << DType::Float16 << Kind::Zero << DType::Float16;
        QTest::newRow("BoolDim+Float64Zero")
            << DType::Bool << Kind::Dim << DType::Float64 << Kind::Zero << DType::Float64;
        QTest::newRow("Int32Dim+BoolZero")
            << DType::Int32 << Kind::Dim << DType::Bool << Kind::Zero << DType::Int32;
        QTest::newRow("Int32Dim+Int32Zero")
            << DType::Int32 << Kind::Dim << DType::Int32 << Kind::Zero << DType::Int32;
        QTest::newRow("Int32Dim+Int64Zero")
            << DType::Int32 << Kind::Dim << DType::Int64 << Kind::Zero << DType::Int32;
        QTest::newRow("Int32Dim+Float16Zero")
            << DType::Int32 << Kind::Dim << DType::Float16 << Kind::Zero << DType::Float16;
        QTest::newRow("Int32Dim+Float64Zero")
            << DType::Int32 << Kind::Dim << DType::Float64 << Kind::Zero << DType::Float64;
        QTest::newRow("Float16Dim+BoolZero")
            << DType::Float16 << Kind::Dim << DType::Bool << Kind::Zero << DType::Float16;
        QTest::newRow("Float16Dim+Int32Zero")
            << DType::Float16 << Kind::Dim << DType::Int32 << Kind::Zero << DType::Float16;
        QTest::newRow("Float16Dim+Int64Zero")
            << DType::Float16 << Kind::Dim << DType::Int64 << Kind::Zero << DType::Float16;
        QTest::newRow("Float16Dim+Float16Zero")
            << DType::Float16 << Kind::Dim << DType::Float16 << Kind::Zero << DType::Float16;
        QTest::newRow("Float16Dim+Float64Zero")
            << DType::Float16 << Kind::Dim << DType::Float64 << Kind::Zero << DType::Float16;
        QTest::newRow("BFloat16Dim+BoolZero")
            << DType::BFloat16 << Kind::Dim << DType::Bool << Kind::Zero << DType::BFloat16;
        QTest::newRow("BFloat16Dim+Int32Zero")
            << DType::BFloat16 << Kind::Dim << DType::Int32 << Kind::Zero << DType::BFloat16;
        QTest::newRow("BFloat16Dim+Int64Zero")
            << DType::BFloat16 << Kind::Dim << DType::Int64 << Kind::Zero << DType::BFloat16;
        QTest::newRow("BFloat16Dim+Float16Zero")
            << DType::BFloat16 << Kind::Dim << DType::Float16 << Kind::Zero << DType::BFloat16;
        QTest::newRow("BFloat16Dim+Float64Zero")
            << DType::BFloat16 << Kind::Dim << DType::Float64 << Kind::Zero << DType::BFloat16;
        QTest::newRow("Float32Dim+BoolZero")
            << DType::Float32 << Kind::Dim << DType::Bool << Kind::Zero << DType::Float32;
        QTest::newRow("Float32Dim+Int32Zero")
            << DType::Float32 << Kind::Dim << DType::Int32 << Kind::Zero << DType::Float32;
        QTest::newRow("Float32Dim+Int64Zero")
            << DType::Float32 << Kind::Dim << DType::Int64 << Kind::Zero << DType::Float32;
        QTest::newRow("Float32Dim+Float16Zero")
            << DType::Float32 << Kind::Dim << DType::Float16 << Kind::Zero << DType::Float32;
        QTest::newRow("Float32Dim+Float64Zero")
            << DType::Float32 << Kind::Dim << DType::Float64 << Kind::Zero << DType::Float32;
        QTest::newRow("BoolDim+Int32Dim")
            << DType::Bool << Kind::Dim << DType::Int32 << Kind::Dim << DType::Int32;
        QTest::newRow("Int32Dim+Int64Dim")
            << DType::Int32 << Kind::Dim << DType::Int64 << Kind::Dim << DType::Int64;
        QTest::newRow("Int64Dim+Float16Dim")
            << DType::Int64 << Kind::Dim << DType::Float16 << Kind::Dim << DType::Float16;
        QTest::newRow("Float16Dim+BFloat16Dim")
            << DType::Float16 << Kind::Dim << DType::BFloat16 << Kind::Dim << DType::Float32;
        QTest::newRow("BFloat16Dim+Float32Dim")
            << DType::BFloat16 << Kind::Dim << DType::Float32 << Kind::Dim << DType::Float32;
        QTest::newRow("Float32Dim+Float64Dim")
            << DType::Float32 << Kind::Dim << DType::Float64 << Kind::Dim << DType::Float64;
        QTest::newRow("BoolDim+BoolDim")
            << DType::Bool << Kind::Dim << DType::Bool << Kind::Dim << DType::Bool;
        QTest::newRow("BoolZero+BoolNumber")
            << DType::Bool << Kind::Zero << DType::Bool << Kind::Number << DType::Bool;
        QTest::newRow("BoolZero+Int64Number")
            << DType::Bool << Kind::Zero << DType::Int64 << Kind::Number << DType::Int64;
        QTest::newRow("BoolZero+Float64Number")
            << DType::Bool << Kind::Zero << DType::Float64 << Kind::Number << DType::Float32;
        QTest::newRow("Int32Zero+BoolNumber")
            << DType::Int32 << Kind::Zero << DType::Bool << Kind::Number << DType::Int32;
        QTest::newRow("Int32Zero+Int64Number")
            << DType::Int32 << Kind::Zero << DType::Int64 << Kind::Number << DType::Int32;
        QTest::newRow("Int32Zero+Float64Number")
            << DType::Int32 << Kind::Zero << DType::Float64 << Kind::Number << DType::Float32;
        QTest::newRow("Float16Zero+BoolNumber")
            << DType::Float16 << Kind::Zero << DType::Bool << Kind::Number << DType::Float16;
        QTest::newRow("Float16Zero+Int64Number")
            << DType::Float16 << Kind::Zero << DType::Int64 << Kind::Number << DType::Float16;
        QTest::newRow("Float16Zero+Float64Number")
            << DType::Float16 << Kind::Zero << DType::Float64 << Kind::Number << DType::Float16;
    }

    void resultTypeMatchesPyTorch() {
        QFETCH(DType, aType);
        QFETCH(Kind, aKind);
        QFETCH(DType, bType);
        QFETCH(Kind, bKind);
        QFETCH(DType, expected);
        Tensor a = promotionOperand(aType, aKind);
        Tensor b = promotionOperand(bType, bKind);
        QCOMPARE(resultType({&a, &b}), expected);
        QCOMPARE(resultType({&b, &a}), expected);
        QCOMPARE(binary(BinaryOp::Mul, a, b).dtype(), expected);
    }

    void resultTypeFollowsDefaultFloat() {
        setDefaultFloatDType(DType::Float64);
        Tensor ints = vector({1, 2}, DType::Int32);
        Tensor number = wrapNumber(Scalar(0.5));
        const DType withFloat64Default = resultType({&ints, &number});
        const DType trueDivision = binary(BinaryOp::Div, ints, ints).dtype();
        setDefaultFloatDType(DType::Float32);
        QCOMPARE(withFloat64Default, DType::Float64);
        QCOMPARE(trueDivision, DType::Float64);
    }

    void binaryMatchesPyTorch_data() {
        QTest::addColumn<BinaryOp>("op");
        QTest::addColumn<DType>("dtype");
        QTest::addColumn<DType>("resultDType");
        QTest::addColumn<std::vector<double>>("expected");
        QTest::addColumn<QString>("error");
        // Generated with PyTorch 2.15 from the inputs in tableInputs().
        QTest::newRow("Add/Bool") << BinaryOp::Add << DType::Bool << DType::Bool
                                  << std::vector<double>{1, 1, 1, 0, 1, 1} << QString();
        QTest::newRow("Add/Int32") << BinaryOp::Add << DType::Int32 << DType::Int32
                                   << std::vector<double>{-5, -5, 2, 1, -1, 7} << QString();
        QTest::newRow("Add/Int64") << BinaryOp::Add << DType::Int64 << DType::Int64
                                   << std::vector<double>{-5, -5, 2, 1, -1, 7} << QString();
        QTest::newRow("Add/Float16")
            << BinaryOp::Add << DType::Float16 << DType::Float16
            << std::vector<double>{-5.5, -5, 1.75, 1.5, -0.5, 5.5} << QString();
        QTest::newRow("Add/BFloat16")
            << BinaryOp::Add << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{-5.5, -5, 1.75, 1.5, -0.5, 5.5} << QString();
        QTest::newRow("Add/Float32")
            << BinaryOp::Add << DType::Float32 << DType::Float32
            << std::vector<double>{-5.5, -5, 1.75, 1.5, -0.5, 5.5} << QString();
        QTest::newRow("Add/Float64")
            << BinaryOp::Add << DType::Float64 << DType::Float64
            << std::vector<double>{-5.5, -5, 1.75, 1.5, -0.5, 5.5} << QString();
        QTest::newRow("Sub/Bool")
            << BinaryOp::Sub << DType::Bool << DType::Bool << std::vector<double>{}
            << QString("Subtraction, the `-` operator, with two bool tensors is not supported. Use "
                       "the `^` or `logical_xor()` operator instead.");
        QTest::newRow("Sub/Int32") << BinaryOp::Sub << DType::Int32 << DType::Int32
                                   << std::vector<double>{-9, -1, -4, -1, 5, 3} << QString();
        QTest::newRow("Sub/Int64") << BinaryOp::Sub << DType::Int64 << DType::Int64
                                   << std::vector<double>{-9, -1, -4, -1, 5, 3} << QString();
        QTest::newRow("Sub/Float16")
            << BinaryOp::Sub << DType::Float16 << DType::Float16
            << std::vector<double>{-9.5, -1, -4.25, -1.5, 5.5, 4.5} << QString();
        QTest::newRow("Sub/BFloat16")
            << BinaryOp::Sub << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{-9.5, -1, -4.25, -1.5, 5.5, 4.5} << QString();
        QTest::newRow("Sub/Float32")
            << BinaryOp::Sub << DType::Float32 << DType::Float32
            << std::vector<double>{-9.5, -1, -4.25, -1.5, 5.5, 4.5} << QString();
        QTest::newRow("Sub/Float64")
            << BinaryOp::Sub << DType::Float64 << DType::Float64
            << std::vector<double>{-9.5, -1, -4.25, -1.5, 5.5, 4.5} << QString();
        QTest::newRow("Mul/Bool") << BinaryOp::Mul << DType::Bool << DType::Bool
                                  << std::vector<double>{1, 0, 0, 0, 0, 0} << QString();
        QTest::newRow("Mul/Int32") << BinaryOp::Mul << DType::Int32 << DType::Int32
                                   << std::vector<double>{-14, 6, -3, 0, -6, 10} << QString();
        QTest::newRow("Mul/Int64") << BinaryOp::Mul << DType::Int64 << DType::Int64
                                   << std::vector<double>{-14, 6, -3, 0, -6, 10} << QString();
        QTest::newRow("Mul/Float16")
            << BinaryOp::Mul << DType::Float16 << DType::Float16
            << std::vector<double>{-15, 6, -3.75, 0, -7.5, 2.5} << QString();
        QTest::newRow("Mul/BFloat16")
            << BinaryOp::Mul << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{-15, 6, -3.75, 0, -7.5, 2.5} << QString();
        QTest::newRow("Mul/Float32")
            << BinaryOp::Mul << DType::Float32 << DType::Float32
            << std::vector<double>{-15, 6, -3.75, 0, -7.5, 2.5} << QString();
        QTest::newRow("Mul/Float64")
            << BinaryOp::Mul << DType::Float64 << DType::Float64
            << std::vector<double>{-15, 6, -3.75, 0, -7.5, 2.5} << QString();
        QTest::newRow("Div/Bool") << BinaryOp::Div << DType::Bool << DType::Float32
                                  << std::vector<double>{1, kInf, 0, kNan, kInf, 0} << QString();
        QTest::newRow("Div/Int32")
            << BinaryOp::Div << DType::Int32 << DType::Float32
            << std::vector<double>{-3.5, 1.5, -0.3333333432674408, 0, -0.6666666865348816, 2.5}
            << QString();
        QTest::newRow("Div/Int64")
            << BinaryOp::Div << DType::Int64 << DType::Float32
            << std::vector<double>{-3.5, 1.5, -0.3333333432674408, 0, -0.6666666865348816, 2.5}
            << QString();
        QTest::newRow("Div/Float16")
            << BinaryOp::Div << DType::Float16 << DType::Float16
            << std::vector<double>{-3.75, 1.5, -0.416748046875, 0, -0.83349609375, 10} << QString();
        QTest::newRow("Div/BFloat16")
            << BinaryOp::Div << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{-3.75, 1.5, -0.416015625, 0, -0.83203125, 10} << QString();
        QTest::newRow("Div/Float32")
            << BinaryOp::Div << DType::Float32 << DType::Float32
            << std::vector<double>{-3.75, 1.5, -0.4166666567325592, 0, -0.8333333134651184, 10}
            << QString();
        QTest::newRow("Div/Float64")
            << BinaryOp::Div << DType::Float64 << DType::Float64
            << std::vector<double>{-3.75, 1.5, -0.4166666666666667, 0, -0.8333333333333334, 10}
            << QString();
        QTest::newRow("FloorDiv/Bool")
            << BinaryOp::FloorDiv << DType::Bool << DType::Bool << std::vector<double>{}
            << QString("\"div_floor_cpu\" not implemented for 'Bool'");
        QTest::newRow("FloorDiv/Int32") << BinaryOp::FloorDiv << DType::Int32 << DType::Int32
                                        << std::vector<double>{-4, 1, -1, 0, -1, 2} << QString();
        QTest::newRow("FloorDiv/Int64") << BinaryOp::FloorDiv << DType::Int64 << DType::Int64
                                        << std::vector<double>{-4, 1, -1, 0, -1, 2} << QString();
        QTest::newRow("FloorDiv/Float16") << BinaryOp::FloorDiv << DType::Float16 << DType::Float16
                                          << std::vector<double>{-4, 1, -1, 0, -1, 10} << QString();
        QTest::newRow("FloorDiv/BFloat16")
            << BinaryOp::FloorDiv << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{-4, 1, -1, 0, -1, 10} << QString();
        QTest::newRow("FloorDiv/Float32") << BinaryOp::FloorDiv << DType::Float32 << DType::Float32
                                          << std::vector<double>{-4, 1, -1, 0, -1, 10} << QString();
        QTest::newRow("FloorDiv/Float64") << BinaryOp::FloorDiv << DType::Float64 << DType::Float64
                                          << std::vector<double>{-4, 1, -1, 0, -1, 10} << QString();
        QTest::newRow("TruncDiv/Bool")
            << BinaryOp::TruncDiv << DType::Bool << DType::Bool << std::vector<double>{}
            << QString("\"div_trunc_cpu\" not implemented for 'Bool'");
        QTest::newRow("TruncDiv/Int32") << BinaryOp::TruncDiv << DType::Int32 << DType::Int32
                                        << std::vector<double>{-3, 1, 0, 0, 0, 2} << QString();
        QTest::newRow("TruncDiv/Int64") << BinaryOp::TruncDiv << DType::Int64 << DType::Int64
                                        << std::vector<double>{-3, 1, 0, 0, 0, 2} << QString();
        QTest::newRow("TruncDiv/Float16") << BinaryOp::TruncDiv << DType::Float16 << DType::Float16
                                          << std::vector<double>{-3, 1, -0, 0, -0, 10} << QString();
        QTest::newRow("TruncDiv/BFloat16")
            << BinaryOp::TruncDiv << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{-3, 1, -0, 0, -0, 10} << QString();
        QTest::newRow("TruncDiv/Float32") << BinaryOp::TruncDiv << DType::Float32 << DType::Float32
                                          << std::vector<double>{-3, 1, -0, 0, -0, 10} << QString();
        QTest::newRow("TruncDiv/Float64") << BinaryOp::TruncDiv << DType::Float64 << DType::Float64
                                          << std::vector<double>{-3, 1, -0, 0, -0, 10} << QString();
        QTest::newRow("Remainder/Bool")
            << BinaryOp::Remainder << DType::Bool << DType::Bool << std::vector<double>{}
            << QString("\"remainder_cpu\" not implemented for 'Bool'");
        QTest::newRow("Remainder/Int32") << BinaryOp::Remainder << DType::Int32 << DType::Int32
                                         << std::vector<double>{1, -1, 2, 0, -1, 1} << QString();
        QTest::newRow("Remainder/Int64") << BinaryOp::Remainder << DType::Int64 << DType::Int64
                                         << std::vector<double>{1, -1, 2, 0, -1, 1} << QString();
        QTest::newRow("Remainder/Float16")
            << BinaryOp::Remainder << DType::Float16 << DType::Float16
            << std::vector<double>{0.5, -1, 1.75, 0, -0.5, 0} << QString();
        QTest::newRow("Remainder/BFloat16")
            << BinaryOp::Remainder << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{0.5, -1, 1.75, 0, -0.5, 0} << QString();
        QTest::newRow("Remainder/Float32")
            << BinaryOp::Remainder << DType::Float32 << DType::Float32
            << std::vector<double>{0.5, -1, 1.75, 0, -0.5, 0} << QString();
        QTest::newRow("Remainder/Float64")
            << BinaryOp::Remainder << DType::Float64 << DType::Float64
            << std::vector<double>{0.5, -1, 1.75, 0, -0.5, 0} << QString();
        QTest::newRow("Fmod/Bool")
            << BinaryOp::Fmod << DType::Bool << DType::Bool << std::vector<double>{}
            << QString("\"fmod_cpu\" not implemented for 'Bool'");
        QTest::newRow("Fmod/Int32") << BinaryOp::Fmod << DType::Int32 << DType::Int32
                                    << std::vector<double>{-1, -1, -1, 0, 2, 1} << QString();
        QTest::newRow("Fmod/Int64") << BinaryOp::Fmod << DType::Int64 << DType::Int64
                                    << std::vector<double>{-1, -1, -1, 0, 2, 1} << QString();
        QTest::newRow("Fmod/Float16")
            << BinaryOp::Fmod << DType::Float16 << DType::Float16
            << std::vector<double>{-1.5, -1, -1.25, 0, 2.5, 0} << QString();
        QTest::newRow("Fmod/BFloat16")
            << BinaryOp::Fmod << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{-1.5, -1, -1.25, 0, 2.5, 0} << QString();
        QTest::newRow("Fmod/Float32")
            << BinaryOp::Fmod << DType::Float32 << DType::Float32
            << std::vector<double>{-1.5, -1, -1.25, 0, 2.5, 0} << QString();
        QTest::newRow("Fmod/Float64")
            << BinaryOp::Fmod << DType::Float64 << DType::Float64
            << std::vector<double>{-1.5, -1, -1.25, 0, 2.5, 0} << QString();
        QTest::newRow("Pow/Bool") << BinaryOp::Pow << DType::Bool << DType::Bool
                                  << std::vector<double>{}
                                  << QString("\"pow\" not implemented for 'Bool'");
        QTest::newRow("Pow/Int32") << BinaryOp::Pow << DType::Int32 << DType::Int32
                                   << std::vector<double>{49, 0, -1, 0, 0, 25} << QString();
        QTest::newRow("Pow/Int64") << BinaryOp::Pow << DType::Int64 << DType::Int64
                                   << std::vector<double>{49, 0, -1, 0, 0, 25} << QString();
        QTest::newRow("Pow/Float16") << BinaryOp::Pow << DType::Float16 << DType::Float16
                                     << std::vector<double>{56.25, 0.111083984375,   -1.953125,
                                                            0,     0.06402587890625, 2.236328125}
                                     << QString();
        QTest::newRow("Pow/BFloat16")
            << BinaryOp::Pow << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{56.25, 0.111328125, -1.953125, 0, 0.06396484375, 2.234375}
            << QString();
        QTest::newRow("Pow/Float32")
            << BinaryOp::Pow << DType::Float32 << DType::Float32
            << std::vector<double>{56.25, 0.1111111119389534,  -1.953125,
                                   0,     0.06400000303983688, 2.2360680103302}
            << QString();
        QTest::newRow("Pow/Float64")
            << BinaryOp::Pow << DType::Float64 << DType::Float64
            << std::vector<double>{56.25, 0.1111111111111111, -1.953125, 0, 0.064, 2.23606797749979}
            << QString();
        QTest::newRow("Maximum/Bool") << BinaryOp::Maximum << DType::Bool << DType::Bool
                                      << std::vector<double>{1, 1, 1, 0, 1, 1} << QString();
        QTest::newRow("Maximum/Int32") << BinaryOp::Maximum << DType::Int32 << DType::Int32
                                       << std::vector<double>{2, -2, 3, 1, 2, 5} << QString();
        QTest::newRow("Maximum/Int64") << BinaryOp::Maximum << DType::Int64 << DType::Int64
                                       << std::vector<double>{2, -2, 3, 1, 2, 5} << QString();
        QTest::newRow("Maximum/Float16") << BinaryOp::Maximum << DType::Float16 << DType::Float16
                                         << std::vector<double>{2, -2, 3, 1.5, 2.5, 5} << QString();
        QTest::newRow("Maximum/BFloat16")
            << BinaryOp::Maximum << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{2, -2, 3, 1.5, 2.5, 5} << QString();
        QTest::newRow("Maximum/Float32") << BinaryOp::Maximum << DType::Float32 << DType::Float32
                                         << std::vector<double>{2, -2, 3, 1.5, 2.5, 5} << QString();
        QTest::newRow("Maximum/Float64") << BinaryOp::Maximum << DType::Float64 << DType::Float64
                                         << std::vector<double>{2, -2, 3, 1.5, 2.5, 5} << QString();
        QTest::newRow("Minimum/Bool") << BinaryOp::Minimum << DType::Bool << DType::Bool
                                      << std::vector<double>{1, 0, 0, 0, 0, 0} << QString();
        QTest::newRow("Minimum/Int32") << BinaryOp::Minimum << DType::Int32 << DType::Int32
                                       << std::vector<double>{-7, -3, -1, 0, -3, 2} << QString();
        QTest::newRow("Minimum/Int64") << BinaryOp::Minimum << DType::Int64 << DType::Int64
                                       << std::vector<double>{-7, -3, -1, 0, -3, 2} << QString();
        QTest::newRow("Minimum/Float16")
            << BinaryOp::Minimum << DType::Float16 << DType::Float16
            << std::vector<double>{-7.5, -3, -1.25, 0, -3, 0.5} << QString();
        QTest::newRow("Minimum/BFloat16")
            << BinaryOp::Minimum << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{-7.5, -3, -1.25, 0, -3, 0.5} << QString();
        QTest::newRow("Minimum/Float32")
            << BinaryOp::Minimum << DType::Float32 << DType::Float32
            << std::vector<double>{-7.5, -3, -1.25, 0, -3, 0.5} << QString();
        QTest::newRow("Minimum/Float64")
            << BinaryOp::Minimum << DType::Float64 << DType::Float64
            << std::vector<double>{-7.5, -3, -1.25, 0, -3, 0.5} << QString();
        QTest::newRow("Atan2/Bool") << BinaryOp::Atan2 << DType::Bool << DType::Float32
                                    << std::vector<double>{0.7853981852531433,
                                                           1.5707963705062866,
                                                           0,
                                                           0,
                                                           1.5707963705062866,
                                                           0}
                                    << QString();
        QTest::newRow("Atan2/Int32")
            << BinaryOp::Atan2 << DType::Int32 << DType::Float32
            << std::vector<double>{-1.292496681213379, -2.158798933029175, -0.32175055146217346, 0,
                                   2.5535900592803955, 1.1902899742126465}
            << QString();
        QTest::newRow("Atan2/Int64")
            << BinaryOp::Atan2 << DType::Int64 << DType::Float32
            << std::vector<double>{-1.292496681213379, -2.158798933029175, -0.32175055146217346, 0,
                                   2.5535900592803955, 1.1902899742126465}
            << QString();
        QTest::newRow("Atan2/Float16")
            << BinaryOp::Atan2 << DType::Float16 << DType::Float16
            << std::vector<double>{-1.310546875, -2.158203125, -0.394775390625, 0,
                                   2.447265625,  1.470703125}
            << QString();
        QTest::newRow("Atan2/BFloat16")
            << BinaryOp::Atan2 << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{-1.3125, -2.15625, -0.39453125, 0, 2.453125, 1.46875}
            << QString();
        QTest::newRow("Atan2/Float32")
            << BinaryOp::Atan2 << DType::Float32 << DType::Float32
            << std::vector<double>{-1.3101938962936401, -2.158798933029175, -0.3947910964488983, 0,
                                   2.44685435295105,    1.4711276292800903}
            << QString();
        QTest::newRow("Atan2/Float64")
            << BinaryOp::Atan2 << DType::Float64 << DType::Float64
            << std::vector<double>{-1.3101939350475555, -2.158798930342464, -0.3947911196997615, 0,
                                   2.44685437739309,    1.4711276743037347}
            << QString();
        QTest::newRow("Eq/Bool") << BinaryOp::Eq << DType::Bool << DType::Bool
                                 << std::vector<double>{1, 0, 0, 1, 0, 0} << QString();
        QTest::newRow("Eq/Int32") << BinaryOp::Eq << DType::Int32 << DType::Bool
                                  << std::vector<double>{0, 0, 0, 0, 0, 0} << QString();
        QTest::newRow("Eq/Int64") << BinaryOp::Eq << DType::Int64 << DType::Bool
                                  << std::vector<double>{0, 0, 0, 0, 0, 0} << QString();
        QTest::newRow("Eq/Float16") << BinaryOp::Eq << DType::Float16 << DType::Bool
                                    << std::vector<double>{0, 0, 0, 0, 0, 0} << QString();
        QTest::newRow("Eq/BFloat16") << BinaryOp::Eq << DType::BFloat16 << DType::Bool
                                     << std::vector<double>{0, 0, 0, 0, 0, 0} << QString();
        QTest::newRow("Eq/Float32") << BinaryOp::Eq << DType::Float32 << DType::Bool
                                    << std::vector<double>{0, 0, 0, 0, 0, 0} << QString();
        QTest::newRow("Eq/Float64") << BinaryOp::Eq << DType::Float64 << DType::Bool
                                    << std::vector<double>{0, 0, 0, 0, 0, 0} << QString();
        QTest::newRow("Ne/Bool") << BinaryOp::Ne << DType::Bool << DType::Bool
                                 << std::vector<double>{0, 1, 1, 0, 1, 1} << QString();
        QTest::newRow("Ne/Int32") << BinaryOp::Ne << DType::Int32 << DType::Bool
                                  << std::vector<double>{1, 1, 1, 1, 1, 1} << QString();
        QTest::newRow("Ne/Int64") << BinaryOp::Ne << DType::Int64 << DType::Bool
                                  << std::vector<double>{1, 1, 1, 1, 1, 1} << QString();
        QTest::newRow("Ne/Float16") << BinaryOp::Ne << DType::Float16 << DType::Bool
                                    << std::vector<double>{1, 1, 1, 1, 1, 1} << QString();
        QTest::newRow("Ne/BFloat16") << BinaryOp::Ne << DType::BFloat16 << DType::Bool
                                     << std::vector<double>{1, 1, 1, 1, 1, 1} << QString();
        QTest::newRow("Ne/Float32") << BinaryOp::Ne << DType::Float32 << DType::Bool
                                    << std::vector<double>{1, 1, 1, 1, 1, 1} << QString();
        QTest::newRow("Ne/Float64") << BinaryOp::Ne << DType::Float64 << DType::Bool
                                    << std::vector<double>{1, 1, 1, 1, 1, 1} << QString();
        QTest::newRow("Lt/Bool") << BinaryOp::Lt << DType::Bool << DType::Bool
                                 << std::vector<double>{0, 0, 1, 0, 0, 1} << QString();
        QTest::newRow("Lt/Int32") << BinaryOp::Lt << DType::Int32 << DType::Bool
                                  << std::vector<double>{1, 1, 1, 1, 0, 0} << QString();
        QTest::newRow("Lt/Int64") << BinaryOp::Lt << DType::Int64 << DType::Bool
                                  << std::vector<double>{1, 1, 1, 1, 0, 0} << QString();
        QTest::newRow("Lt/Float16") << BinaryOp::Lt << DType::Float16 << DType::Bool
                                    << std::vector<double>{1, 1, 1, 1, 0, 0} << QString();
        QTest::newRow("Lt/BFloat16") << BinaryOp::Lt << DType::BFloat16 << DType::Bool
                                     << std::vector<double>{1, 1, 1, 1, 0, 0} << QString();
        QTest::newRow("Lt/Float32") << BinaryOp::Lt << DType::Float32 << DType::Bool
                                    << std::vector<double>{1, 1, 1, 1, 0, 0} << QString();
        QTest::newRow("Lt/Float64") << BinaryOp::Lt << DType::Float64 << DType::Bool
                                    << std::vector<double>{1, 1, 1, 1, 0, 0} << QString();
        QTest::newRow("Le/Bool") << BinaryOp::Le << DType::Bool << DType::Bool
                                 << std::vector<double>{1, 0, 1, 1, 0, 1} << QString();
        QTest::newRow("Le/Int32") << BinaryOp::Le << DType::Int32 << DType::Bool
                                  << std::vector<double>{1, 1, 1, 1, 0, 0} << QString();
        QTest::newRow("Le/Int64") << BinaryOp::Le << DType::Int64 << DType::Bool
                                  << std::vector<double>{1, 1, 1, 1, 0, 0} << QString();
        QTest::newRow("Le/Float16") << BinaryOp::Le << DType::Float16 << DType::Bool
                                    << std::vector<double>{1, 1, 1, 1, 0, 0} << QString();
        QTest::newRow("Le/BFloat16") << BinaryOp::Le << DType::BFloat16 << DType::Bool
                                     << std::vector<double>{1, 1, 1, 1, 0, 0} << QString();
        QTest::newRow("Le/Float32") << BinaryOp::Le << DType::Float32 << DType::Bool
                                    << std::vector<double>{1, 1, 1, 1, 0, 0} << QString();
        QTest::newRow("Le/Float64") << BinaryOp::Le << DType::Float64 << DType::Bool
                                    << std::vector<double>{1, 1, 1, 1, 0, 0} << QString();
        QTest::newRow("Gt/Bool") << BinaryOp::Gt << DType::Bool << DType::Bool
                                 << std::vector<double>{0, 1, 0, 0, 1, 0} << QString();
        QTest::newRow("Gt/Int32") << BinaryOp::Gt << DType::Int32 << DType::Bool
                                  << std::vector<double>{0, 0, 0, 0, 1, 1} << QString();
        QTest::newRow("Gt/Int64") << BinaryOp::Gt << DType::Int64 << DType::Bool
                                  << std::vector<double>{0, 0, 0, 0, 1, 1} << QString();
        QTest::newRow("Gt/Float16") << BinaryOp::Gt << DType::Float16 << DType::Bool
                                    << std::vector<double>{0, 0, 0, 0, 1, 1} << QString();
        QTest::newRow("Gt/BFloat16") << BinaryOp::Gt << DType::BFloat16 << DType::Bool
                                     << std::vector<double>{0, 0, 0, 0, 1, 1} << QString();
        QTest::newRow("Gt/Float32") << BinaryOp::Gt << DType::Float32 << DType::Bool
                                    << std::vector<double>{0, 0, 0, 0, 1, 1} << QString();
        QTest::newRow("Gt/Float64") << BinaryOp::Gt << DType::Float64 << DType::Bool
                                    << std::vector<double>{0, 0, 0, 0, 1, 1} << QString();
        QTest::newRow("Ge/Bool") << BinaryOp::Ge << DType::Bool << DType::Bool
                                 << std::vector<double>{1, 1, 0, 1, 1, 0} << QString();
        QTest::newRow("Ge/Int32") << BinaryOp::Ge << DType::Int32 << DType::Bool
                                  << std::vector<double>{0, 0, 0, 0, 1, 1} << QString();
        QTest::newRow("Ge/Int64") << BinaryOp::Ge << DType::Int64 << DType::Bool
                                  << std::vector<double>{0, 0, 0, 0, 1, 1} << QString();
        QTest::newRow("Ge/Float16") << BinaryOp::Ge << DType::Float16 << DType::Bool
                                    << std::vector<double>{0, 0, 0, 0, 1, 1} << QString();
        QTest::newRow("Ge/BFloat16") << BinaryOp::Ge << DType::BFloat16 << DType::Bool
                                     << std::vector<double>{0, 0, 0, 0, 1, 1} << QString();
        QTest::newRow("Ge/Float32") << BinaryOp::Ge << DType::Float32 << DType::Bool
                                    << std::vector<double>{0, 0, 0, 0, 1, 1} << QString();
        QTest::newRow("Ge/Float64") << BinaryOp::Ge << DType::Float64 << DType::Bool
                                    << std::vector<double>{0, 0, 0, 0, 1, 1} << QString();
        QTest::newRow("LogicalAnd/Bool") << BinaryOp::LogicalAnd << DType::Bool << DType::Bool
                                         << std::vector<double>{1, 0, 0, 0, 0, 0} << QString();
        QTest::newRow("LogicalAnd/Int32") << BinaryOp::LogicalAnd << DType::Int32 << DType::Bool
                                          << std::vector<double>{1, 1, 1, 0, 1, 1} << QString();
        QTest::newRow("LogicalAnd/Int64") << BinaryOp::LogicalAnd << DType::Int64 << DType::Bool
                                          << std::vector<double>{1, 1, 1, 0, 1, 1} << QString();
        QTest::newRow("LogicalAnd/Float16") << BinaryOp::LogicalAnd << DType::Float16 << DType::Bool
                                            << std::vector<double>{1, 1, 1, 0, 1, 1} << QString();
        QTest::newRow("LogicalAnd/BFloat16")
            << BinaryOp::LogicalAnd << DType::BFloat16 << DType::Bool
            << std::vector<double>{1, 1, 1, 0, 1, 1} << QString();
        QTest::newRow("LogicalAnd/Float32") << BinaryOp::LogicalAnd << DType::Float32 << DType::Bool
                                            << std::vector<double>{1, 1, 1, 0, 1, 1} << QString();
        QTest::newRow("LogicalAnd/Float64") << BinaryOp::LogicalAnd << DType::Float64 << DType::Bool
                                            << std::vector<double>{1, 1, 1, 0, 1, 1} << QString();
        QTest::newRow("LogicalOr/Bool") << BinaryOp::LogicalOr << DType::Bool << DType::Bool
                                        << std::vector<double>{1, 1, 1, 0, 1, 1} << QString();
        QTest::newRow("LogicalOr/Int32") << BinaryOp::LogicalOr << DType::Int32 << DType::Bool
                                         << std::vector<double>{1, 1, 1, 1, 1, 1} << QString();
        QTest::newRow("LogicalOr/Int64") << BinaryOp::LogicalOr << DType::Int64 << DType::Bool
                                         << std::vector<double>{1, 1, 1, 1, 1, 1} << QString();
        QTest::newRow("LogicalOr/Float16") << BinaryOp::LogicalOr << DType::Float16 << DType::Bool
                                           << std::vector<double>{1, 1, 1, 1, 1, 1} << QString();
        QTest::newRow("LogicalOr/BFloat16") << BinaryOp::LogicalOr << DType::BFloat16 << DType::Bool
                                            << std::vector<double>{1, 1, 1, 1, 1, 1} << QString();
        QTest::newRow("LogicalOr/Float32") << BinaryOp::LogicalOr << DType::Float32 << DType::Bool
                                           << std::vector<double>{1, 1, 1, 1, 1, 1} << QString();
        QTest::newRow("LogicalOr/Float64") << BinaryOp::LogicalOr << DType::Float64 << DType::Bool
                                           << std::vector<double>{1, 1, 1, 1, 1, 1} << QString();
        QTest::newRow("LogicalXor/Bool") << BinaryOp::LogicalXor << DType::Bool << DType::Bool
                                         << std::vector<double>{0, 1, 1, 0, 1, 1} << QString();
        QTest::newRow("LogicalXor/Int32") << BinaryOp::LogicalXor << DType::Int32 << DType::Bool
                                          << std::vector<double>{0, 0, 0, 1, 0, 0} << QString();
        QTest::newRow("LogicalXor/Int64") << BinaryOp::LogicalXor << DType::Int64 << DType::Bool
                                          << std::vector<double>{0, 0, 0, 1, 0, 0} << QString();
        QTest::newRow("LogicalXor/Float16") << BinaryOp::LogicalXor << DType::Float16 << DType::Bool
                                            << std::vector<double>{0, 0, 0, 1, 0, 0} << QString();
        QTest::newRow("LogicalXor/BFloat16")
            << BinaryOp::LogicalXor << DType::BFloat16 << DType::Bool
            << std::vector<double>{0, 0, 0, 1, 0, 0} << QString();
        QTest::newRow("LogicalXor/Float32") << BinaryOp::LogicalXor << DType::Float32 << DType::Bool
                                            << std::vector<double>{0, 0, 0, 1, 0, 0} << QString();
        QTest::newRow("LogicalXor/Float64") << BinaryOp::LogicalXor << DType::Float64 << DType::Bool
                                            << std::vector<double>{0, 0, 0, 1, 0, 0} << QString();
        QTest::newRow("BitwiseAnd/Bool") << BinaryOp::BitwiseAnd << DType::Bool << DType::Bool
                                         << std::vector<double>{1, 0, 0, 0, 0, 0} << QString();
        QTest::newRow("BitwiseAnd/Int32") << BinaryOp::BitwiseAnd << DType::Int32 << DType::Int32
                                          << std::vector<double>{0, -4, 3, 0, 0, 0} << QString();
        QTest::newRow("BitwiseAnd/Int64") << BinaryOp::BitwiseAnd << DType::Int64 << DType::Int64
                                          << std::vector<double>{0, -4, 3, 0, 0, 0} << QString();
        QTest::newRow("BitwiseAnd/Float16")
            << BinaryOp::BitwiseAnd << DType::Float16 << DType::Float16 << std::vector<double>{}
            << QString("\"bitwise_and_cpu\" not implemented for 'Half'");
        QTest::newRow("BitwiseAnd/BFloat16")
            << BinaryOp::BitwiseAnd << DType::BFloat16 << DType::BFloat16 << std::vector<double>{}
            << QString("\"bitwise_and_cpu\" not implemented for 'BFloat16'");
        QTest::newRow("BitwiseAnd/Float32")
            << BinaryOp::BitwiseAnd << DType::Float32 << DType::Float32 << std::vector<double>{}
            << QString("\"bitwise_and_cpu\" not implemented for 'Float'");
        QTest::newRow("BitwiseAnd/Float64")
            << BinaryOp::BitwiseAnd << DType::Float64 << DType::Float64 << std::vector<double>{}
            << QString("\"bitwise_and_cpu\" not implemented for 'Double'");
        QTest::newRow("BitwiseOr/Bool") << BinaryOp::BitwiseOr << DType::Bool << DType::Bool
                                        << std::vector<double>{1, 1, 1, 0, 1, 1} << QString();
        QTest::newRow("BitwiseOr/Int32") << BinaryOp::BitwiseOr << DType::Int32 << DType::Int32
                                         << std::vector<double>{-5, -1, -1, 1, -1, 7} << QString();
        QTest::newRow("BitwiseOr/Int64") << BinaryOp::BitwiseOr << DType::Int64 << DType::Int64
                                         << std::vector<double>{-5, -1, -1, 1, -1, 7} << QString();
        QTest::newRow("BitwiseOr/Float16")
            << BinaryOp::BitwiseOr << DType::Float16 << DType::Float16 << std::vector<double>{}
            << QString("\"bitwise_or_cpu\" not implemented for 'Half'");
        QTest::newRow("BitwiseOr/BFloat16")
            << BinaryOp::BitwiseOr << DType::BFloat16 << DType::BFloat16 << std::vector<double>{}
            << QString("\"bitwise_or_cpu\" not implemented for 'BFloat16'");
        QTest::newRow("BitwiseOr/Float32")
            << BinaryOp::BitwiseOr << DType::Float32 << DType::Float32 << std::vector<double>{}
            << QString("\"bitwise_or_cpu\" not implemented for 'Float'");
        QTest::newRow("BitwiseOr/Float64")
            << BinaryOp::BitwiseOr << DType::Float64 << DType::Float64 << std::vector<double>{}
            << QString("\"bitwise_or_cpu\" not implemented for 'Double'");
        QTest::newRow("BitwiseXor/Bool") << BinaryOp::BitwiseXor << DType::Bool << DType::Bool
                                         << std::vector<double>{0, 1, 1, 0, 1, 1} << QString();
        QTest::newRow("BitwiseXor/Int32") << BinaryOp::BitwiseXor << DType::Int32 << DType::Int32
                                          << std::vector<double>{-5, 3, -4, 1, -1, 7} << QString();
        QTest::newRow("BitwiseXor/Int64") << BinaryOp::BitwiseXor << DType::Int64 << DType::Int64
                                          << std::vector<double>{-5, 3, -4, 1, -1, 7} << QString();
        QTest::newRow("BitwiseXor/Float16")
            << BinaryOp::BitwiseXor << DType::Float16 << DType::Float16 << std::vector<double>{}
            << QString("\"bitwise_xor_cpu\" not implemented for 'Half'");
        QTest::newRow("BitwiseXor/BFloat16")
            << BinaryOp::BitwiseXor << DType::BFloat16 << DType::BFloat16 << std::vector<double>{}
            << QString("\"bitwise_xor_cpu\" not implemented for 'BFloat16'");
        QTest::newRow("BitwiseXor/Float32")
            << BinaryOp::BitwiseXor << DType::Float32 << DType::Float32 << std::vector<double>{}
            << QString("\"bitwise_xor_cpu\" not implemented for 'Float'");
        QTest::newRow("BitwiseXor/Float64")
            << BinaryOp::BitwiseXor << DType::Float64 << DType::Float64 << std::vector<double>{}
            << QString("\"bitwise_xor_cpu\" not implemented for 'Double'");
        QTest::newRow("LeftShift/Bool")
            << BinaryOp::LeftShift << DType::Bool << DType::Bool << std::vector<double>{}
            << QString("\"lshift_cpu\" not implemented for 'Bool'");
        QTest::newRow("LeftShift/Int32") << BinaryOp::LeftShift << DType::Int32 << DType::Int32
                                         << std::vector<double>{-28, 0, -8, 0, 0, 20} << QString();
        QTest::newRow("LeftShift/Int64") << BinaryOp::LeftShift << DType::Int64 << DType::Int64
                                         << std::vector<double>{-28, 0, -8, 0, 0, 20} << QString();
        QTest::newRow("LeftShift/Float16")
            << BinaryOp::LeftShift << DType::Float16 << DType::Float16 << std::vector<double>{}
            << QString("\"lshift_cpu\" not implemented for 'Half'");
        QTest::newRow("LeftShift/BFloat16")
            << BinaryOp::LeftShift << DType::BFloat16 << DType::BFloat16 << std::vector<double>{}
            << QString("\"lshift_cpu\" not implemented for 'BFloat16'");
        QTest::newRow("LeftShift/Float32")
            << BinaryOp::LeftShift << DType::Float32 << DType::Float32 << std::vector<double>{}
            << QString("\"lshift_cpu\" not implemented for 'Float'");
        QTest::newRow("LeftShift/Float64")
            << BinaryOp::LeftShift << DType::Float64 << DType::Float64 << std::vector<double>{}
            << QString("\"lshift_cpu\" not implemented for 'Double'");
        QTest::newRow("RightShift/Bool")
            << BinaryOp::RightShift << DType::Bool << DType::Bool << std::vector<double>{}
            << QString("\"rshift_cpu\" not implemented for 'Bool'");
        QTest::newRow("RightShift/Int32") << BinaryOp::RightShift << DType::Int32 << DType::Int32
                                          << std::vector<double>{-2, -1, -1, 0, 0, 1} << QString();
        QTest::newRow("RightShift/Int64") << BinaryOp::RightShift << DType::Int64 << DType::Int64
                                          << std::vector<double>{-2, -1, -1, 0, 0, 1} << QString();
        QTest::newRow("RightShift/Float16")
            << BinaryOp::RightShift << DType::Float16 << DType::Float16 << std::vector<double>{}
            << QString("\"rshift_cpu\" not implemented for 'Half'");
        QTest::newRow("RightShift/BFloat16")
            << BinaryOp::RightShift << DType::BFloat16 << DType::BFloat16 << std::vector<double>{}
            << QString("\"rshift_cpu\" not implemented for 'BFloat16'");
        QTest::newRow("RightShift/Float32")
            << BinaryOp::RightShift << DType::Float32 << DType::Float32 << std::vector<double>{}
            << QString("\"rshift_cpu\" not implemented for 'Float'");
        QTest::newRow("RightShift/Float64")
            << BinaryOp::RightShift << DType::Float64 << DType::Float64 << std::vector<double>{}
            << QString("\"rshift_cpu\" not implemented for 'Double'");
    }

    void binaryMatchesPyTorch() {
        QFETCH(BinaryOp, op);
        QFETCH(DType, dtype);
        QFETCH(DType, resultDType);
        QFETCH(std::vector<double>, expected);
        QFETCH(QString, error);
        auto [a, b] = tableInputs(dtype);
        if (!error.isEmpty()) {
            QCOMPARE(errorOf([&] { binary(op, a, b); }), error);
            return;
        }
        Tensor out = binary(op, a, b);
        QCOMPARE(out.dtype(), resultDType);
        KILN_CHECK(compareTensor(out, expected, DimVector{6}));
    }

    void broadcastsAndReadsStridedInputs() {
        Tensor x = makeTensor({1, 2, 3, 4, 5, 6}, DimVector{2, 3});
        Tensor y = makeTensor({10, 20, 30, 40, 50, 60}, DimVector{3, 2});
        KILN_CHECK(compareTensor(binary(BinaryOp::Add, x, transposed(y)), {11, 32, 53, 24, 45, 66},
                                 DimVector{2, 3}));
        KILN_CHECK(compareTensor(binary(BinaryOp::Mul, x, vector({1, -1, 2})),
                                 {1, -2, 6, 4, -5, 12}, DimVector{2, 3}));
        // z = arange(12).view(3, 4); z[:, 1::2] * 3 and z[1:, ::2] // 2
        Tensor z =
            makeTensor({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, DimVector{3, 4}, DType::Int64);
        Tensor oddColumns = strided(z, 1, DimVector{3, 2}, DimVector{4, 2});
        KILN_CHECK(compareTensor(binary(BinaryOp::Mul, oddColumns, wrapNumber(Scalar(int64_t(3)))),
                                 {3, 9, 15, 21, 27, 33}, DimVector{3, 2}));
        Tensor lowerEven = strided(z, 4, DimVector{2, 2}, DimVector{4, 2});
        KILN_CHECK(compareTensor(binary(BinaryOp::FloorDiv, lowerEven, vector({2}, DType::Int64)),
                                 {2, 3, 4, 5}, DimVector{2, 2}));
        // A column expanded against a row: (3, 1) with stride 0 on the broadcast dim.
        Tensor column = strided(vector({1, 2, 3}), 0, DimVector{3, 4}, DimVector{1, 0});
        KILN_CHECK(compareTensor(binary(BinaryOp::Sub, column, vector({0, 1, 2, 3})),
                                 {1, 0, -1, -2, 2, 1, 0, -1, 3, 2, 1, 0}, DimVector{3, 4}));
        QCOMPARE(errorOf([&] {
                     binary(BinaryOp::Add, x, vector({1, 2}));
                 }),
                 QString("The size of tensor a (3) must match the size of tensor b (2) at "
                         "non-singleton dimension 1"));
    }

    void pythonNumbersPromoteAsNumbers() {
        Tensor ints = vector({1, 2}, DType::Int32);
        Tensor plusInt = binary(BinaryOp::Add, ints, wrapNumber(Scalar(int64_t(1))));
        QCOMPARE(plusInt.dtype(), DType::Int32);
        KILN_CHECK(compareTensor(plusInt, {2, 3}, DimVector{2}));
        Tensor plusFloat = binary(BinaryOp::Add, wrapNumber(Scalar(1.5)), ints);
        QCOMPARE(plusFloat.dtype(), DType::Float32);
        KILN_CHECK(compareTensor(plusFloat, {2.5, 3.5}, DimVector{2}));
        Tensor bools = vector({1, 0}, DType::Bool);
        QCOMPARE(binary(BinaryOp::Add, bools, wrapNumber(Scalar(int64_t(1)))).dtype(),
                 DType::Int64);
        QCOMPARE(binary(BinaryOp::Add, bools, wrapNumber(Scalar(true))).dtype(), DType::Bool);
        // 2 / x is x.reciprocal() * 2 in Python.
        KILN_CHECK(compareTensor(
            binary(BinaryOp::Div, wrapNumber(Scalar(int64_t(2))), vector({4, 8}, DType::Int64)),
            {0.5, 0.25}, DimVector{2}));
        KILN_CHECK(compareTensor(
            binary(BinaryOp::Pow, wrapNumber(Scalar(int64_t(2))), vector({-1, 2}, DType::Int64)),
            {0, 4}, DimVector{2}));
    }

    void halfPrecisionArithmeticReadsScalarsInFloat() {
        // PyTorch's 16-bit add/sub/mul/div use a scalar operand at float precision:
        // half(3) * 0.1 = half(0.3) = 0.300048828125, not 3 * half(0.1) = 0.2998046875.
        Tensor h = vector({3}, DType::Float16);
        KILN_CHECK(compareTensor(binary(BinaryOp::Mul, h, wrapNumber(Scalar(0.1))),
                                 {0.300048828125}, DimVector{1}, 0));
        KILN_CHECK(compareTensor(binary(BinaryOp::Mul, wrapNumber(Scalar(0.1)), h),
                                 {0.300048828125}, DimVector{1}, 0));
        KILN_CHECK(compareTensor(binary(BinaryOp::Div, h, wrapNumber(Scalar(0.7))), {4.28515625},
                                 DimVector{1}, 0));
        // Other ops convert the scalar to the tensor's dtype first (remainder uses half(0.7)).
        KILN_CHECK(compareTensor(binary(BinaryOp::Remainder, h, wrapNumber(Scalar(0.7))),
                                 {0.19921875}, DimVector{1}, 0));
        KILN_CHECK(compareTensor(
            binary(BinaryOp::Lt, vector({0.1}, DType::Float16), wrapNumber(Scalar(0.1))), {0},
            DimVector{1}));
    }

    void integerEdgeCasesMatchPyTorch() {
        KILN_CHECK(compareTensor(binary(BinaryOp::Add, vector({2147483647}, DType::Int32),
                                        wrapNumber(Scalar(int64_t(1)))),
                                 {-2147483648.0}, DimVector{1}));
        const double int64Min = -9223372036854775808.0;
        Tensor minimum = vector({int64Min}, DType::Int64);
        Tensor minusOne = wrapNumber(Scalar(int64_t(-1)));
        QCOMPARE(item(binary(BinaryOp::FloorDiv, minimum, minusOne)).toInt(),
                 std::numeric_limits<int64_t>::min());
        QCOMPARE(item(binary(BinaryOp::Remainder, minimum, minusOne)).toInt(), int64_t(0));
        QCOMPARE(item(binary(BinaryOp::Pow, vector({5}, DType::Int64), vector({70}, DType::Int64)))
                     .toInt(),
                 int64_t(8111363527490294793));
        Tensor one = vector({1}, DType::Int64);
        QCOMPARE(item(binary(BinaryOp::LeftShift, one, vector({64}, DType::Int64))).toInt(), 0);
        QCOMPARE(item(binary(BinaryOp::LeftShift, one, vector({63}, DType::Int64))).toInt(),
                 std::numeric_limits<int64_t>::min());
        QCOMPARE(item(binary(BinaryOp::RightShift, vector({-8}, DType::Int64),
                             vector({70}, DType::Int64)))
                     .toInt(),
                 int64_t(-1));
        QCOMPARE(
            item(binary(BinaryOp::LeftShift, vector({1}, DType::Int32), vector({33}, DType::Int32)))
                .toInt(),
            int64_t(0));
        QCOMPARE(item(binary(BinaryOp::Pow, vector({-1}, DType::Int64), vector({-3}, DType::Int64)))
                     .toInt(),
                 int64_t(-1));
    }

    void floatFloorDivisionKeepsSignedZero() {
        Tensor q = binary(BinaryOp::FloorDiv, vector({-7, 7, -7, 7, 0, -0.0}),
                          vector({2, 2, -2, -2, 3, 3}));
        KILN_CHECK(compareTensor(q, {-4, 3, 3, -4, 0, 0}, DimVector{6}));
        QVERIFY(!std::signbit(values(q)[4]));
        QVERIFY(std::signbit(values(q)[5]));
        KILN_CHECK(
            compareTensor(binary(BinaryOp::FloorDiv, vector({1, -1, 0}), wrapNumber(Scalar(0.0))),
                          {kInf, -kInf, kNan}, DimVector{3}));
        KILN_CHECK(compareTensor(
            binary(BinaryOp::Remainder, vector({-7.5, 7, -7, 7}), vector({2, 2, -2, -2})),
            {0.5, 1, -1, -1}, DimVector{4}));
        // Of two equal values PyTorch's maximum/minimum return the first: max(-0, 0) is -0.
        QVERIFY(std::signbit(values(binary(BinaryOp::Maximum, vector({-0.0}), vector({0})))[0]));
        QVERIFY(!std::signbit(values(binary(BinaryOp::Minimum, vector({0}), vector({-0.0})))[0]));
        KILN_CHECK(compareTensor(binary(BinaryOp::Maximum, vector({kNan, 1}), vector({1, kNan})),
                                 {kNan, kNan}, DimVector{2}));
    }

    void errorsUsePyTorchWording_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("kind");
        const int runtime = int(ErrorKind::RuntimeError);
        const int notImplemented = int(ErrorKind::NotImplementedError);
        QTest::newRow("floor div by zero") << 0 << "ZeroDivisionError" << runtime;
        QTest::newRow("remainder by zero") << 1 << "ZeroDivisionError" << runtime;
        QTest::newRow("fmod by zero") << 2 << "ZeroDivisionError" << runtime;
        QTest::newRow("trunc div by zero") << 3 << "ZeroDivisionError" << runtime;
        QTest::newRow("int pow negative number")
            << 4 << "Integers to negative integer powers are not allowed." << runtime;
        QTest::newRow("bool minus bool")
            << 5
            << "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
               "or `logical_xor()` operator instead."
            << notImplemented;
        QTest::newRow("bool minus int")
            << 6
            << "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
               "trying to invert a mask, use the `~` or `logical_not()` operator instead."
            << notImplemented;
        QTest::newRow("bitwise on float")
            << 7 << "\"bitwise_and_cpu\" not implemented for 'Float'" << notImplemented;
    }

    void errorsUsePyTorchWording() {
        QFETCH(int, which);
        QFETCH(QString, message);
        QFETCH(int, kind);
        Tensor ints = vector({1, 2}, DType::Int64);
        Tensor zero = wrapNumber(Scalar(int64_t(0)));
        const BinaryOp byZero[] = {BinaryOp::FloorDiv, BinaryOp::Remainder, BinaryOp::Fmod,
                                   BinaryOp::TruncDiv};
        ErrorKind thrown = ErrorKind::ValueError;
        QString got = errorOf(
            [&] {
                if (which < 4)
                    binary(byZero[which], ints, zero);
                else if (which == 4)
                    binary(BinaryOp::Pow, ints, wrapNumber(Scalar(int64_t(-1))));
                else if (which == 5)
                    binary(BinaryOp::Sub, vector({1}, DType::Bool), wrapNumber(Scalar(true)));
                else if (which == 6)
                    binary(BinaryOp::Sub, vector({1}, DType::Bool), wrapNumber(Scalar(int64_t(1))));
                else
                    binary(BinaryOp::BitwiseAnd, vector({1}), wrapNumber(Scalar(int64_t(1))));
            },
            &thrown);
        QCOMPARE(got, message);
        QCOMPARE(int(thrown), kind);
    }

    void inPlaceKeepsDTypeAndWritesThroughViews() {
        Tensor base = makeTensor({1, 2, 3, 4, 5, 6}, DimVector{2, 3});
        Tensor view = transposed(base); // (3, 2) view
        binaryInPlace(BinaryOp::Mul, view, vector({10, 100}));
        KILN_CHECK(compareTensor(base, {10, 20, 30, 400, 500, 600}, DimVector{2, 3}));
        Tensor ints = vector({1, 2}, DType::Int32);
        binaryInPlace(BinaryOp::Add, ints, vector({1}, DType::Int64));
        QCOMPARE(ints.dtype(), DType::Int32);
        KILN_CHECK(compareTensor(ints, {2, 3}, DimVector{2}));
        Tensor floats = vector({1, 2});
        binaryInPlace(BinaryOp::Add, floats, vector({0.5, 0.25}, DType::Float64));
        QCOMPARE(floats.dtype(), DType::Float32);
        KILN_CHECK(compareTensor(floats, {1.5, 2.25}, DimVector{2}));
        unaryInPlace(UnaryOp::Neg, floats);
        KILN_CHECK(compareTensor(floats, {-1.5, -2.25}, DimVector{2}));
    }

    void inPlaceErrorsUsePyTorchWording() {
        Tensor longs = vector({1, 2}, DType::Int64);
        QCOMPARE(errorOf([&] { binaryInPlace(BinaryOp::Add, longs, wrapNumber(Scalar(1.5))); }),
                 QString("result type Float can't be cast to the desired output type Long"));
        QCOMPARE(
            errorOf([&] { binaryInPlace(BinaryOp::Div, longs, wrapNumber(Scalar(int64_t(2)))); }),
            QString("result type Float can't be cast to the desired output type Long"));
        QCOMPARE(errorOf([&] { unaryInPlace(UnaryOp::Exp, longs); }),
                 QString("result type Float can't be cast to the desired output type Long"));
        QCOMPARE(errorOf([&] {
                     binaryInPlace(BinaryOp::Add, vector({1}, DType::Bool),
                                   wrapNumber(Scalar(int64_t(1))));
                 }),
                 QString("result type Long can't be cast to the desired output type Bool"));
        QCOMPARE(errorOf([&] {
                     binaryInPlace(BinaryOp::Add, vector({1}), makeTensor({1, 2}, DimVector{2, 1}));
                 }),
                 QString("output with shape [1] doesn't match the broadcast shape [2, 1]"));
        Tensor x = leaf({1, 2});
        QCOMPARE(errorOf([&] { binaryInPlace(BinaryOp::Add, x, wrapNumber(Scalar(int64_t(1)))); }),
                 QString("a leaf Variable that requires grad is being used in an in-place "
                         "operation."));
    }

    void addScaledMatchesTorchAdd() {
        KILN_CHECK(compareTensor(addScaled(vector({1, 2}), vector({1}), Scalar(int64_t(2))), {3, 4},
                                 DimVector{2}));
        KILN_CHECK(compareTensor(addScaled(vector({1}, DType::Int64), vector({1.5}), Scalar(2.5)),
                                 {4.75}, DimVector{1}));
        KILN_CHECK(compareTensor(
            addScaled(vector({1, 0}, DType::Bool), vector({0, 1}, DType::Bool), Scalar(true)),
            {1, 1}, DimVector{2}));
        Tensor sub = addScaled(vector({10, 20}, DType::Int32), vector({1, 2}, DType::Int32),
                               Scalar(int64_t(-3)));
        QCOMPARE(sub.dtype(), DType::Int32);
        KILN_CHECK(compareTensor(sub, {7, 14}, DimVector{2}));
        QCOMPARE(errorOf([] {
                     addScaled(vector({1}, DType::Int64), vector({1}, DType::Int64), Scalar(2.5));
                 }),
                 QString("For integral input tensors, argument alpha must not be a floating point "
                         "number."));
        QCOMPARE(errorOf([] { addScaled(vector({1.5}), vector({1}), Scalar(true)); }),
                 QString("Boolean alpha only supported for Boolean results."));
    }

    void recordsPyTorchGradFnNames() {
        Tensor x = leaf({1.5, 2, 3});
        Tensor y = leaf({1.5, 2, 3});
        Tensor one = wrapNumber(Scalar(int64_t(1)));
        Tensor two = wrapNumber(Scalar(2.0));
        QCOMPARE(binary(BinaryOp::Add, x, one).gradFn(), "AddBackward0");
        QCOMPARE(binary(BinaryOp::Sub, x, one).gradFn(), "SubBackward0");
        QCOMPARE(binary(BinaryOp::Sub, one, x).gradFn(), "RsubBackward1");
        QCOMPARE(binary(BinaryOp::Mul, two, x).gradFn(), "MulBackward0");
        QCOMPARE(binary(BinaryOp::Div, x, two).gradFn(), "DivBackward0");
        QCOMPARE(binary(BinaryOp::Div, two, x).gradFn(), "MulBackward0");
        QCOMPARE(binary(BinaryOp::FloorDiv, x, two).gradFn(), "NotImplemented");
        QCOMPARE(binary(BinaryOp::TruncDiv, x, y).gradFn(), "DivBackward2");
        QCOMPARE(binary(BinaryOp::Remainder, x, two).gradFn(), "RemainderBackward0");
        QCOMPARE(binary(BinaryOp::Remainder, x, y).gradFn(), "RemainderBackward1");
        QCOMPARE(binary(BinaryOp::Fmod, x, two).gradFn(), "FmodBackward0");
        QCOMPARE(binary(BinaryOp::Pow, x, two).gradFn(), "PowBackward0");
        QCOMPARE(binary(BinaryOp::Pow, x, y).gradFn(), "PowBackward1");
        QCOMPARE(binary(BinaryOp::Pow, two, x).gradFn(), "PowBackward2");
        QCOMPARE(binary(BinaryOp::Maximum, x, y).gradFn(), "MaximumBackward0");
        QCOMPARE(binary(BinaryOp::Atan2, x, y).gradFn(), "Atan2Backward0");
        QCOMPARE(addScaled(x, y, Scalar(int64_t(2))).gradFn(), "AddBackward0");
        Tensor compared = binary(BinaryOp::Gt, x, one);
        QVERIFY(compared.gradFn().empty());
        QVERIFY(!compared.requiresGrad());
        setGradModeEnabled(false);
        Tensor noGrad = binary(BinaryOp::Add, x, one);
        setGradModeEnabled(true);
        QVERIFY(!noGrad.requiresGrad());
    }
};

QTEST_APPLESS_MAIN(PointwiseBinaryTest)
#include "tst_pointwise_binary.moc"
