// SPDX-License-Identifier: MIT
// Reductions against PyTorch: every reduction on every dtype (values, result dtype and shape or
// the exact error), on contiguous and transposed inputs; empty inputs, NaN and tie rules,
// dtype arguments, dims handling, accumulation accuracy and autograd node names.
#include "compute_testing.h"
#include "tensor/ops.h"

#include <QtTest>
#include <cmath>

using namespace kiln::tensor;
using namespace kiln::testing;

Q_DECLARE_METATYPE(kiln::tensor::DimVector)

namespace {

enum class Case {
    Sum,
    Sum0,
    Sum1Keep,
    Prod1,
    Amax0,
    Amin1,
    All1,
    Any0,
    Cumsum1,
    Cumprod0,
    Argmax0,
    Argmin,
    Mean1,
    Var0,
    Std1Correction0,
    Softmax1,
    LogSoftmax0,
    Logsumexp1,
    Norm1,
    MaxAll,
    MinDimValues,
    MinDimIndices,
    MaxKeepValues,
    Prod,
    Mean01,
    Norm1All,
    NormInf0,
    NormNegInf1,
    Norm0,
    Norm3
};

/// The 3x4 matrix the PyTorch table was computed from, as `dtype` (bool: x > 1). With
/// `strided` it is the transpose of a contiguous 4x3 buffer.
Tensor tableInput(DType dtype, bool strided) {
    const std::vector<double> x = {1.5, -2, 3.25, 0.5, 4, 5.5, -6, 7, -0.25, 8, 9.5, -1};
    std::vector<double> v = x;
    if (dtype == DType::Bool)
        for (double& e : v)
            e = e > 1 ? 1 : 0;
    if (!strided) return makeTensor(v, DimVector{3, 4}, dtype);
    std::vector<double> columnMajor;
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 3; ++r)
            columnMajor.push_back(v[r * 4 + c]);
    return transposed(makeTensor(columnMajor, DimVector{4, 3}, dtype));
}

Tensor run(Case c, const Tensor& t) {
    const double inf = kInf;
    switch (c) {
    case Case::Sum:
        return sum(t, {}, false);
    case Case::Sum0:
        return sum(t, DimVector{0}, false);
    case Case::Sum1Keep:
        return sum(t, DimVector{1}, true);
    case Case::Prod1:
        return prod(t, DimVector{1}, false);
    case Case::Amax0:
        return amax(t, DimVector{0}, false);
    case Case::Amin1:
        return amin(t, DimVector{1}, false);
    case Case::All1:
        return all(t, 1, false);
    case Case::Any0:
        return any(t, 0, false);
    case Case::Cumsum1:
        return cumsum(t, 1);
    case Case::Cumprod0:
        return cumprod(t, 0);
    case Case::Argmax0:
        return argmax(t, 0, false);
    case Case::Argmin:
        return argmin(t, std::nullopt, false);
    case Case::Mean1:
        return mean(t, DimVector{1}, false);
    case Case::Var0:
        return var(t, DimVector{0}, 1, false);
    case Case::Std1Correction0:
        return kiln::tensor::std(t, DimVector{1}, 0, false);
    case Case::Softmax1:
        return softmax(t, 1);
    case Case::LogSoftmax0:
        return logSoftmax(t, 0);
    case Case::Logsumexp1:
        return logsumexp(t, DimVector{1}, false);
    case Case::Norm1:
        return norm(t, 2, DimVector{1}, false);
    case Case::MaxAll:
        return maxAll(t);
    case Case::MinDimValues:
        return minDim(t, 1, false).first;
    case Case::MinDimIndices:
        return minDim(t, 1, false).second;
    case Case::MaxKeepValues:
        return maxDim(t, 0, true).first;
    case Case::Prod:
        return prod(t, {}, false);
    case Case::Mean01:
        return mean(t, DimVector{0, 1}, false);
    case Case::Norm1All:
        return norm(t, 1, {}, false);
    case Case::NormInf0:
        return norm(t, inf, DimVector{0}, false);
    case Case::NormNegInf1:
        return norm(t, -inf, DimVector{1}, false);
    case Case::Norm0:
        return norm(t, 0, {}, false);
    case Case::Norm3:
        return norm(t, 3, {}, false);
    }
    return {};
}

} // namespace

Q_DECLARE_METATYPE(Case)

class ReduceTest : public QObject {
    Q_OBJECT

private slots:
    void reductionsMatchPyTorch_data() {
        QTest::addColumn<Case>("which");
        QTest::addColumn<DType>("dtype");
        QTest::addColumn<DType>("resultDType");
        QTest::addColumn<DimVector>("shape");
        QTest::addColumn<std::vector<double>>("expected");
        QTest::addColumn<QString>("error");
        // Generated with PyTorch 2.15 from tableInput().
        QTest::newRow("Sum/Float32") << Case::Sum << DType::Float32 << DType::Float32 << DimVector{}
                                     << std::vector<double>{30} << QString();
        QTest::newRow("Sum0/Float32")
            << Case::Sum0 << DType::Float32 << DType::Float32 << DimVector{4}
            << std::vector<double>{5.25, 11.5, 6.75, 6.5} << QString();
        QTest::newRow("Sum1Keep/Float32")
            << Case::Sum1Keep << DType::Float32 << DType::Float32 << DimVector{3, 1}
            << std::vector<double>{3.25, 10.5, 16.25} << QString();
        QTest::newRow("Prod1/Float32")
            << Case::Prod1 << DType::Float32 << DType::Float32 << DimVector{3}
            << std::vector<double>{-4.875, -924, 19} << QString();
        QTest::newRow("Amax0/Float32")
            << Case::Amax0 << DType::Float32 << DType::Float32 << DimVector{4}
            << std::vector<double>{4, 8, 9.5, 7} << QString();
        QTest::newRow("Amin1/Float32")
            << Case::Amin1 << DType::Float32 << DType::Float32 << DimVector{3}
            << std::vector<double>{-2, -6, -1} << QString();
        QTest::newRow("All1/Float32") << Case::All1 << DType::Float32 << DType::Bool << DimVector{3}
                                      << std::vector<double>{1, 1, 1} << QString();
        QTest::newRow("Any0/Float32") << Case::Any0 << DType::Float32 << DType::Bool << DimVector{4}
                                      << std::vector<double>{1, 1, 1, 1} << QString();
        QTest::newRow("Cumsum1/Float32")
            << Case::Cumsum1 << DType::Float32 << DType::Float32 << DimVector{3, 4}
            << std::vector<double>{1.5, -0.5, 2.75,  3.25, 4,     9.5,
                                   3.5, 10.5, -0.25, 7.75, 17.25, 16.25}
            << QString();
        QTest::newRow("Cumprod0/Float32")
            << Case::Cumprod0 << DType::Float32 << DType::Float32 << DimVector{3, 4}
            << std::vector<double>{1.5, -2, 3.25, 0.5, 6, -11, -19.5, 3.5, -1.5, -88, -185.25, -3.5}
            << QString();
        QTest::newRow("Argmax0/Float32")
            << Case::Argmax0 << DType::Float32 << DType::Int64 << DimVector{4}
            << std::vector<double>{1, 2, 2, 1} << QString();
        QTest::newRow("Argmin/Float32") << Case::Argmin << DType::Float32 << DType::Int64
                                        << DimVector{} << std::vector<double>{6} << QString();
        QTest::newRow("Mean1/Float32")
            << Case::Mean1 << DType::Float32 << DType::Float32 << DimVector{3}
            << std::vector<double>{0.8125, 2.625, 4.0625} << QString();
        QTest::newRow("Var0/Float32")
            << Case::Var0 << DType::Float32 << DType::Float32 << DimVector{4}
            << std::vector<double>{4.5625, 27.08333396911621, 60.8125, 18.08333396911621}
            << QString();
        QTest::newRow("Std1Correction0/Float32")
            << Case::Std1Correction0 << DType::Float32 << DType::Float32 << DimVector{3}
            << std::vector<double>{1.898807168006897, 5.091352939605713, 4.724851131439209}
            << QString();
        QTest::newRow("Softmax1/Float32")
            << Case::Softmax1 << DType::Float32 << DType::Float32 << DimVector{3, 4}
            << std::vector<double>{0.13980774581432343,    0.004221828188747168,
                                   0.8045380115509033,     0.05143239349126816,
                                   0.039112500846385956,   0.1752900779247284,
                                   1.775704845385917e-06,  0.7855955958366394,
                                   4.7656889364589006e-05, 0.1824127435684204,
                                   0.8175171613693237,     2.251152000098955e-05}
            << QString();
        QTest::newRow("LogSoftmax0/Float32")
            << Case::LogSoftmax0 << DType::Float32 << DType::Float32 << DimVector{3, 4}
            << std::vector<double>{-2.5919857025146484,    -10.07893180847168,
                                   -6.251928806304932,     -6.501837253570557,
                                   -0.091985784471035,     -2.5789318084716797,
                                   -15.501928329467773,    -0.00183723377995193,
                                   -4.341985702514648,     -0.07893171906471252,
                                   -0.0019287331961095333, -8.001836776733398}
            << QString();
        QTest::newRow("Logsumexp1/Float32")
            << Case::Logsumexp1 << DType::Float32 << DType::Float32 << DimVector{3}
            << std::vector<double>{3.467487096786499, 7.2413129806518555, 9.701483726501465}
            << QString();
        QTest::newRow("Norm1/Float32")
            << Case::Norm1 << DType::Float32 << DType::Float32 << DimVector{3}
            << std::vector<double>{4.130677700042725, 11.456439018249512, 12.462443351745605}
            << QString();
        QTest::newRow("MaxAll/Float32") << Case::MaxAll << DType::Float32 << DType::Float32
                                        << DimVector{} << std::vector<double>{9.5} << QString();
        QTest::newRow("MinDimValues/Float32")
            << Case::MinDimValues << DType::Float32 << DType::Float32 << DimVector{3}
            << std::vector<double>{-2, -6, -1} << QString();
        QTest::newRow("MinDimIndices/Float32")
            << Case::MinDimIndices << DType::Float32 << DType::Int64 << DimVector{3}
            << std::vector<double>{1, 2, 3} << QString();
        QTest::newRow("MaxKeepValues/Float32")
            << Case::MaxKeepValues << DType::Float32 << DType::Float32 << DimVector{1, 4}
            << std::vector<double>{4, 8, 9.5, 7} << QString();
        QTest::newRow("Prod/Float32") << Case::Prod << DType::Float32 << DType::Float32
                                      << DimVector{} << std::vector<double>{85585.5} << QString();
        QTest::newRow("Mean01/Float32") << Case::Mean01 << DType::Float32 << DType::Float32
                                        << DimVector{} << std::vector<double>{2.5} << QString();
        QTest::newRow("Norm1All/Float32") << Case::Norm1All << DType::Float32 << DType::Float32
                                          << DimVector{} << std::vector<double>{48.5} << QString();
        QTest::newRow("NormInf0/Float32")
            << Case::NormInf0 << DType::Float32 << DType::Float32 << DimVector{4}
            << std::vector<double>{4, 8, 9.5, 7} << QString();
        QTest::newRow("NormNegInf1/Float32")
            << Case::NormNegInf1 << DType::Float32 << DType::Float32 << DimVector{3}
            << std::vector<double>{0.5, 4, 0.25} << QString();
        QTest::newRow("Norm0/Float32") << Case::Norm0 << DType::Float32 << DType::Float32
                                       << DimVector{} << std::vector<double>{12} << QString();
        QTest::newRow("Norm3/Float32")
            << Case::Norm3 << DType::Float32 << DType::Float32 << DimVector{}
            << std::vector<double>{13.016928672790527} << QString();
        QTest::newRow("Sum/Float64") << Case::Sum << DType::Float64 << DType::Float64 << DimVector{}
                                     << std::vector<double>{30} << QString();
        QTest::newRow("Sum0/Float64")
            << Case::Sum0 << DType::Float64 << DType::Float64 << DimVector{4}
            << std::vector<double>{5.25, 11.5, 6.75, 6.5} << QString();
        QTest::newRow("Sum1Keep/Float64")
            << Case::Sum1Keep << DType::Float64 << DType::Float64 << DimVector{3, 1}
            << std::vector<double>{3.25, 10.5, 16.25} << QString();
        QTest::newRow("Prod1/Float64")
            << Case::Prod1 << DType::Float64 << DType::Float64 << DimVector{3}
            << std::vector<double>{-4.875, -924, 19} << QString();
        QTest::newRow("Amax0/Float64")
            << Case::Amax0 << DType::Float64 << DType::Float64 << DimVector{4}
            << std::vector<double>{4, 8, 9.5, 7} << QString();
        QTest::newRow("Amin1/Float64")
            << Case::Amin1 << DType::Float64 << DType::Float64 << DimVector{3}
            << std::vector<double>{-2, -6, -1} << QString();
        QTest::newRow("All1/Float64") << Case::All1 << DType::Float64 << DType::Bool << DimVector{3}
                                      << std::vector<double>{1, 1, 1} << QString();
        QTest::newRow("Any0/Float64") << Case::Any0 << DType::Float64 << DType::Bool << DimVector{4}
                                      << std::vector<double>{1, 1, 1, 1} << QString();
        QTest::newRow("Cumsum1/Float64")
            << Case::Cumsum1 << DType::Float64 << DType::Float64 << DimVector{3, 4}
            << std::vector<double>{1.5, -0.5, 2.75,  3.25, 4,     9.5,
                                   3.5, 10.5, -0.25, 7.75, 17.25, 16.25}
            << QString();
        QTest::newRow("Cumprod0/Float64")
            << Case::Cumprod0 << DType::Float64 << DType::Float64 << DimVector{3, 4}
            << std::vector<double>{1.5, -2, 3.25, 0.5, 6, -11, -19.5, 3.5, -1.5, -88, -185.25, -3.5}
            << QString();
        QTest::newRow("Argmax0/Float64")
            << Case::Argmax0 << DType::Float64 << DType::Int64 << DimVector{4}
            << std::vector<double>{1, 2, 2, 1} << QString();
        QTest::newRow("Argmin/Float64") << Case::Argmin << DType::Float64 << DType::Int64
                                        << DimVector{} << std::vector<double>{6} << QString();
        QTest::newRow("Mean1/Float64")
            << Case::Mean1 << DType::Float64 << DType::Float64 << DimVector{3}
            << std::vector<double>{0.8125, 2.625, 4.0625} << QString();
        QTest::newRow("Var0/Float64")
            << Case::Var0 << DType::Float64 << DType::Float64 << DimVector{4}
            << std::vector<double>{4.5625, 27.083333333333332, 60.8125, 18.083333333333336}
            << QString();
        QTest::newRow("Std1Correction0/Float64")
            << Case::Std1Correction0 << DType::Float64 << DType::Float64 << DimVector{3}
            << std::vector<double>{1.898807191370414, 5.091352963604075, 4.724851188132807}
            << QString();
        QTest::newRow("Softmax1/Float64")
            << Case::Softmax1 << DType::Float64 << DType::Float64 << DimVector{3, 4}
            << std::vector<double>{0.13980774616228597,    0.004221828116272728,
                                   0.8045380301918208,     0.051432395529620624,
                                   0.03911250381829842,    0.17529008087602385,
                                   1.7757049261856686e-06, 0.7855956396007515,
                                   4.7656884922465043e-05, 0.18241272329861732,
                                   0.8175171082980149,     2.251151844520005e-05}
            << QString();
        QTest::newRow("LogSoftmax0/Float64")
            << Case::LogSoftmax0 << DType::Float64 << DType::Float64 << DimVector{3, 4}
            << std::vector<double>{-2.5919857805919686,  -10.07893168938614,     -6.251928778385854,
                                   -6.501837213110858,   -0.09198578059196878,   -2.57893168938614,
                                   -15.501928778385853,  -0.0018372131108575801, -4.341985780591969,
                                   -0.07893168938613994, -0.0019287783858538388, -8.001837213110857}
            << QString();
        QTest::newRow("Logsumexp1/Float64")
            << Case::Logsumexp1 << DType::Float64 << DType::Float64 << DimVector{3}
            << std::vector<double>{3.4674870418312773, 7.24131307236366, 9.701483448848037}
            << QString();
        QTest::newRow("Norm1/Float64")
            << Case::Norm1 << DType::Float64 << DType::Float64 << DimVector{3}
            << std::vector<double>{4.130677910464576, 11.4564392373896, 12.462443580614517}
            << QString();
        QTest::newRow("MaxAll/Float64") << Case::MaxAll << DType::Float64 << DType::Float64
                                        << DimVector{} << std::vector<double>{9.5} << QString();
        QTest::newRow("MinDimValues/Float64")
            << Case::MinDimValues << DType::Float64 << DType::Float64 << DimVector{3}
            << std::vector<double>{-2, -6, -1} << QString();
        QTest::newRow("MinDimIndices/Float64")
            << Case::MinDimIndices << DType::Float64 << DType::Int64 << DimVector{3}
            << std::vector<double>{1, 2, 3} << QString();
        QTest::newRow("MaxKeepValues/Float64")
            << Case::MaxKeepValues << DType::Float64 << DType::Float64 << DimVector{1, 4}
            << std::vector<double>{4, 8, 9.5, 7} << QString();
        QTest::newRow("Prod/Float64") << Case::Prod << DType::Float64 << DType::Float64
                                      << DimVector{} << std::vector<double>{85585.5} << QString();
        QTest::newRow("Mean01/Float64") << Case::Mean01 << DType::Float64 << DType::Float64
                                        << DimVector{} << std::vector<double>{2.5} << QString();
        QTest::newRow("Norm1All/Float64") << Case::Norm1All << DType::Float64 << DType::Float64
                                          << DimVector{} << std::vector<double>{48.5} << QString();
        QTest::newRow("NormInf0/Float64")
            << Case::NormInf0 << DType::Float64 << DType::Float64 << DimVector{4}
            << std::vector<double>{4, 8, 9.5, 7} << QString();
        QTest::newRow("NormNegInf1/Float64")
            << Case::NormNegInf1 << DType::Float64 << DType::Float64 << DimVector{3}
            << std::vector<double>{0.5, 4, 0.25} << QString();
        QTest::newRow("Norm0/Float64") << Case::Norm0 << DType::Float64 << DType::Float64
                                       << DimVector{} << std::vector<double>{12} << QString();
        QTest::newRow("Norm3/Float64")
            << Case::Norm3 << DType::Float64 << DType::Float64 << DimVector{}
            << std::vector<double>{13.01692814443422} << QString();
        QTest::newRow("Sum/Float16") << Case::Sum << DType::Float16 << DType::Float16 << DimVector{}
                                     << std::vector<double>{30} << QString();
        QTest::newRow("Sum0/Float16")
            << Case::Sum0 << DType::Float16 << DType::Float16 << DimVector{4}
            << std::vector<double>{5.25, 11.5, 6.75, 6.5} << QString();
        QTest::newRow("Sum1Keep/Float16")
            << Case::Sum1Keep << DType::Float16 << DType::Float16 << DimVector{3, 1}
            << std::vector<double>{3.25, 10.5, 16.25} << QString();
        QTest::newRow("Prod1/Float16")
            << Case::Prod1 << DType::Float16 << DType::Float16 << DimVector{3}
            << std::vector<double>{-4.875, -924, 19} << QString();
        QTest::newRow("Amax0/Float16")
            << Case::Amax0 << DType::Float16 << DType::Float16 << DimVector{4}
            << std::vector<double>{4, 8, 9.5, 7} << QString();
        QTest::newRow("Amin1/Float16")
            << Case::Amin1 << DType::Float16 << DType::Float16 << DimVector{3}
            << std::vector<double>{-2, -6, -1} << QString();
        QTest::newRow("All1/Float16") << Case::All1 << DType::Float16 << DType::Bool << DimVector{3}
                                      << std::vector<double>{1, 1, 1} << QString();
        QTest::newRow("Any0/Float16") << Case::Any0 << DType::Float16 << DType::Bool << DimVector{4}
                                      << std::vector<double>{1, 1, 1, 1} << QString();
        QTest::newRow("Cumsum1/Float16")
            << Case::Cumsum1 << DType::Float16 << DType::Float16 << DimVector{3, 4}
            << std::vector<double>{1.5, -0.5, 2.75,  3.25, 4,     9.5,
                                   3.5, 10.5, -0.25, 7.75, 17.25, 16.25}
            << QString();
        QTest::newRow("Cumprod0/Float16")
            << Case::Cumprod0 << DType::Float16 << DType::Float16 << DimVector{3, 4}
            << std::vector<double>{1.5, -2, 3.25, 0.5, 6, -11, -19.5, 3.5, -1.5, -88, -185.25, -3.5}
            << QString();
        QTest::newRow("Argmax0/Float16")
            << Case::Argmax0 << DType::Float16 << DType::Int64 << DimVector{4}
            << std::vector<double>{1, 2, 2, 1} << QString();
        QTest::newRow("Argmin/Float16") << Case::Argmin << DType::Float16 << DType::Int64
                                        << DimVector{} << std::vector<double>{6} << QString();
        QTest::newRow("Mean1/Float16")
            << Case::Mean1 << DType::Float16 << DType::Float16 << DimVector{3}
            << std::vector<double>{0.8125, 2.625, 4.0625} << QString();
        QTest::newRow("Var0/Float16")
            << Case::Var0 << DType::Float16 << DType::Float16 << DimVector{4}
            << std::vector<double>{4.5625, 27.078125, 60.8125, 18.078125} << QString();
        QTest::newRow("Std1Correction0/Float16")
            << Case::Std1Correction0 << DType::Float16 << DType::Float16 << DimVector{3}
            << std::vector<double>{1.8984375, 5.08984375, 4.7265625} << QString();
        QTest::newRow("Softmax1/Float16")
            << Case::Softmax1 << DType::Float16 << DType::Float16 << DimVector{3, 4}
            << std::vector<double>{0.1397705078125,
                                   0.004222869873046875,
                                   0.8046875,
                                   0.051422119140625,
                                   0.03912353515625,
                                   0.17529296875,
                                   1.7881393432617188e-06,
                                   0.78564453125,
                                   4.76837158203125e-05,
                                   0.182373046875,
                                   0.8173828125,
                                   2.2530555725097656e-05}
            << QString();
        QTest::newRow("LogSoftmax0/Float16")
            << Case::LogSoftmax0 << DType::Float16 << DType::Float16 << DimVector{3, 4}
            << std::vector<double>{-2.591796875,
                                   -10.078125,
                                   -6.25,
                                   -6.5,
                                   -0.09197998046875,
                                   -2.578125,
                                   -15.5,
                                   -0.0018367767333984375,
                                   -4.34375,
                                   -0.07891845703125,
                                   -0.0019283294677734375,
                                   -8}
            << QString();
        QTest::newRow("Logsumexp1/Float16")
            << Case::Logsumexp1 << DType::Float16 << DType::Float16 << DimVector{3}
            << std::vector<double>{3.466796875, 7.2421875, 9.703125} << QString();
        QTest::newRow("Norm1/Float16")
            << Case::Norm1 << DType::Float16 << DType::Float16 << DimVector{3}
            << std::vector<double>{4.12890625, 11.453125, 12.4609375} << QString();
        QTest::newRow("MaxAll/Float16") << Case::MaxAll << DType::Float16 << DType::Float16
                                        << DimVector{} << std::vector<double>{9.5} << QString();
        QTest::newRow("MinDimValues/Float16")
            << Case::MinDimValues << DType::Float16 << DType::Float16 << DimVector{3}
            << std::vector<double>{-2, -6, -1} << QString();
        QTest::newRow("MinDimIndices/Float16")
            << Case::MinDimIndices << DType::Float16 << DType::Int64 << DimVector{3}
            << std::vector<double>{1, 2, 3} << QString();
        QTest::newRow("MaxKeepValues/Float16")
            << Case::MaxKeepValues << DType::Float16 << DType::Float16 << DimVector{1, 4}
            << std::vector<double>{4, 8, 9.5, 7} << QString();
        QTest::newRow("Prod/Float16") << Case::Prod << DType::Float16 << DType::Float16
                                      << DimVector{} << std::vector<double>{kInf} << QString();
        QTest::newRow("Mean01/Float16") << Case::Mean01 << DType::Float16 << DType::Float16
                                        << DimVector{} << std::vector<double>{2.5} << QString();
        QTest::newRow("Norm1All/Float16") << Case::Norm1All << DType::Float16 << DType::Float16
                                          << DimVector{} << std::vector<double>{48.5} << QString();
        QTest::newRow("NormInf0/Float16")
            << Case::NormInf0 << DType::Float16 << DType::Float16 << DimVector{4}
            << std::vector<double>{4, 8, 9.5, 7} << QString();
        QTest::newRow("NormNegInf1/Float16")
            << Case::NormNegInf1 << DType::Float16 << DType::Float16 << DimVector{3}
            << std::vector<double>{0.5, 4, 0.25} << QString();
        QTest::newRow("Norm0/Float16") << Case::Norm0 << DType::Float16 << DType::Float16
                                       << DimVector{} << std::vector<double>{12} << QString();
        QTest::newRow("Norm3/Float16")
            << Case::Norm3 << DType::Float16 << DType::Float16 << DimVector{}
            << std::vector<double>{13.015625} << QString();
        QTest::newRow("Sum/BFloat16") << Case::Sum << DType::BFloat16 << DType::BFloat16
                                      << DimVector{} << std::vector<double>{30} << QString();
        QTest::newRow("Sum0/BFloat16")
            << Case::Sum0 << DType::BFloat16 << DType::BFloat16 << DimVector{4}
            << std::vector<double>{5.25, 11.5, 6.75, 6.5} << QString();
        QTest::newRow("Sum1Keep/BFloat16")
            << Case::Sum1Keep << DType::BFloat16 << DType::BFloat16 << DimVector{3, 1}
            << std::vector<double>{3.25, 10.5, 16.25} << QString();
        QTest::newRow("Prod1/BFloat16")
            << Case::Prod1 << DType::BFloat16 << DType::BFloat16 << DimVector{3}
            << std::vector<double>{-4.875, -924, 19} << QString();
        QTest::newRow("Amax0/BFloat16")
            << Case::Amax0 << DType::BFloat16 << DType::BFloat16 << DimVector{4}
            << std::vector<double>{4, 8, 9.5, 7} << QString();
        QTest::newRow("Amin1/BFloat16")
            << Case::Amin1 << DType::BFloat16 << DType::BFloat16 << DimVector{3}
            << std::vector<double>{-2, -6, -1} << QString();
        QTest::newRow("All1/BFloat16") << Case::All1 << DType::BFloat16 << DType::Bool
                                       << DimVector{3} << std::vector<double>{1, 1, 1} << QString();
        QTest::newRow("Any0/BFloat16")
            << Case::Any0 << DType::BFloat16 << DType::Bool << DimVector{4}
            << std::vector<double>{1, 1, 1, 1} << QString();
        QTest::newRow("Cumsum1/BFloat16")
            << Case::Cumsum1 << DType::BFloat16 << DType::BFloat16 << DimVector{3, 4}
            << std::vector<double>{1.5, -0.5, 2.75,  3.25, 4,     9.5,
                                   3.5, 10.5, -0.25, 7.75, 17.25, 16.25}
            << QString();
        QTest::newRow("Cumprod0/BFloat16")
            << Case::Cumprod0 << DType::BFloat16 << DType::BFloat16 << DimVector{3, 4}
            << std::vector<double>{1.5, -2, 3.25, 0.5, 6, -11, -19.5, 3.5, -1.5, -88, -185, -3.5}
            << QString();
        QTest::newRow("Argmax0/BFloat16")
            << Case::Argmax0 << DType::BFloat16 << DType::Int64 << DimVector{4}
            << std::vector<double>{1, 2, 2, 1} << QString();
        QTest::newRow("Argmin/BFloat16") << Case::Argmin << DType::BFloat16 << DType::Int64
                                         << DimVector{} << std::vector<double>{6} << QString();
        QTest::newRow("Mean1/BFloat16")
            << Case::Mean1 << DType::BFloat16 << DType::BFloat16 << DimVector{3}
            << std::vector<double>{0.8125, 2.625, 4.0625} << QString();
        QTest::newRow("Var0/BFloat16")
            << Case::Var0 << DType::BFloat16 << DType::BFloat16 << DimVector{4}
            << std::vector<double>{4.5625, 27.125, 60.75, 18.125} << QString();
        QTest::newRow("Std1Correction0/BFloat16")
            << Case::Std1Correction0 << DType::BFloat16 << DType::BFloat16 << DimVector{3}
            << std::vector<double>{1.8984375, 5.09375, 4.71875} << QString();
        QTest::newRow("Softmax1/BFloat16")
            << Case::Softmax1 << DType::BFloat16 << DType::BFloat16 << DimVector{3, 4}
            << std::vector<double>{0.1396484375,          0.00421142578125, 0.8046875,
                                   0.051513671875,        0.0390625,        0.1748046875,
                                   1.773238182067871e-06, 0.78515625,       4.76837158203125e-05,
                                   0.1826171875,          0.81640625,       2.2530555725097656e-05}
            << QString();
        QTest::newRow("LogSoftmax0/BFloat16")
            << Case::LogSoftmax0 << DType::BFloat16 << DType::BFloat16 << DimVector{3, 4}
            << std::vector<double>{-2.59375,
                                   -10.0625,
                                   -6.25,
                                   -6.5,
                                   -0.091796875,
                                   -2.578125,
                                   -15.5,
                                   -0.00183868408203125,
                                   -4.34375,
                                   -0.0791015625,
                                   -0.00193023681640625,
                                   -8}
            << QString();
        QTest::newRow("Logsumexp1/BFloat16")
            << Case::Logsumexp1 << DType::BFloat16 << DType::BFloat16 << DimVector{3}
            << std::vector<double>{3.46875, 7.25, 9.6875} << QString();
        QTest::newRow("Norm1/BFloat16")
            << Case::Norm1 << DType::BFloat16 << DType::BFloat16 << DimVector{3}
            << std::vector<double>{4.125, 11.4375, 12.4375} << QString();
        QTest::newRow("MaxAll/BFloat16") << Case::MaxAll << DType::BFloat16 << DType::BFloat16
                                         << DimVector{} << std::vector<double>{9.5} << QString();
        QTest::newRow("MinDimValues/BFloat16")
            << Case::MinDimValues << DType::BFloat16 << DType::BFloat16 << DimVector{3}
            << std::vector<double>{-2, -6, -1} << QString();
        QTest::newRow("MinDimIndices/BFloat16")
            << Case::MinDimIndices << DType::BFloat16 << DType::Int64 << DimVector{3}
            << std::vector<double>{1, 2, 3} << QString();
        QTest::newRow("MaxKeepValues/BFloat16")
            << Case::MaxKeepValues << DType::BFloat16 << DType::BFloat16 << DimVector{1, 4}
            << std::vector<double>{4, 8, 9.5, 7} << QString();
        QTest::newRow("Prod/BFloat16") << Case::Prod << DType::BFloat16 << DType::BFloat16
                                       << DimVector{} << std::vector<double>{84992} << QString();
        QTest::newRow("Mean01/BFloat16") << Case::Mean01 << DType::BFloat16 << DType::BFloat16
                                         << DimVector{} << std::vector<double>{2.5} << QString();
        QTest::newRow("Norm1All/BFloat16") << Case::Norm1All << DType::BFloat16 << DType::BFloat16
                                           << DimVector{} << std::vector<double>{48.5} << QString();
        QTest::newRow("NormInf0/BFloat16")
            << Case::NormInf0 << DType::BFloat16 << DType::BFloat16 << DimVector{4}
            << std::vector<double>{4, 8, 9.5, 7} << QString();
        QTest::newRow("NormNegInf1/BFloat16")
            << Case::NormNegInf1 << DType::BFloat16 << DType::BFloat16 << DimVector{3}
            << std::vector<double>{0.5, 4, 0.25} << QString();
        QTest::newRow("Norm0/BFloat16") << Case::Norm0 << DType::BFloat16 << DType::BFloat16
                                        << DimVector{} << std::vector<double>{12} << QString();
        QTest::newRow("Norm3/BFloat16") << Case::Norm3 << DType::BFloat16 << DType::BFloat16
                                        << DimVector{} << std::vector<double>{13} << QString();
        QTest::newRow("Sum/Int32") << Case::Sum << DType::Int32 << DType::Int64 << DimVector{}
                                   << std::vector<double>{28} << QString();
        QTest::newRow("Sum0/Int32") << Case::Sum0 << DType::Int32 << DType::Int64 << DimVector{4}
                                    << std::vector<double>{5, 11, 6, 6} << QString();
        QTest::newRow("Sum1Keep/Int32")
            << Case::Sum1Keep << DType::Int32 << DType::Int64 << DimVector{3, 1}
            << std::vector<double>{2, 10, 16} << QString();
        QTest::newRow("Prod1/Int32") << Case::Prod1 << DType::Int32 << DType::Int64 << DimVector{3}
                                     << std::vector<double>{0, -840, 0} << QString();
        QTest::newRow("Amax0/Int32") << Case::Amax0 << DType::Int32 << DType::Int32 << DimVector{4}
                                     << std::vector<double>{4, 8, 9, 7} << QString();
        QTest::newRow("Amin1/Int32") << Case::Amin1 << DType::Int32 << DType::Int32 << DimVector{3}
                                     << std::vector<double>{-2, -6, -1} << QString();
        QTest::newRow("All1/Int32") << Case::All1 << DType::Int32 << DType::Bool << DimVector{3}
                                    << std::vector<double>{0, 1, 0} << QString();
        QTest::newRow("Any0/Int32") << Case::Any0 << DType::Int32 << DType::Bool << DimVector{4}
                                    << std::vector<double>{1, 1, 1, 1} << QString();
        QTest::newRow("Cumsum1/Int32")
            << Case::Cumsum1 << DType::Int32 << DType::Int64 << DimVector{3, 4}
            << std::vector<double>{1, -1, 2, 2, 4, 9, 3, 10, 0, 8, 17, 16} << QString();
        QTest::newRow("Cumprod0/Int32")
            << Case::Cumprod0 << DType::Int32 << DType::Int64 << DimVector{3, 4}
            << std::vector<double>{1, -2, 3, 0, 4, -10, -18, 0, 0, -80, -162, 0} << QString();
        QTest::newRow("Argmax0/Int32")
            << Case::Argmax0 << DType::Int32 << DType::Int64 << DimVector{4}
            << std::vector<double>{1, 2, 2, 1} << QString();
        QTest::newRow("Argmin/Int32") << Case::Argmin << DType::Int32 << DType::Int64 << DimVector{}
                                      << std::vector<double>{6} << QString();
        QTest::newRow("Mean1/Int32")
            << Case::Mean1 << DType::Int32 << DType::Int32 << DimVector{} << std::vector<double>{}
            << QString("mean(): could not infer output dtype. Input dtype must be either a "
                       "floating point or complex dtype. Got: Int");
        QTest::newRow("Var0/Int32")
            << Case::Var0 << DType::Int32 << DType::Int32 << DimVector{} << std::vector<double>{}
            << QString("std and var only support floating point and complex dtypes");
        QTest::newRow("Std1Correction0/Int32")
            << Case::Std1Correction0 << DType::Int32 << DType::Int32 << DimVector{}
            << std::vector<double>{}
            << QString("std and var only support floating point and complex dtypes");
        QTest::newRow("Softmax1/Int32")
            << Case::Softmax1 << DType::Int32 << DType::Int32 << DimVector{}
            << std::vector<double>{}
            << QString("\"softmax_lastdim_kernel_impl\" not implemented for 'Int'");
        QTest::newRow("LogSoftmax0/Int32")
            << Case::LogSoftmax0 << DType::Int32 << DType::Int32 << DimVector{}
            << std::vector<double>{}
            << QString("\"log_softmax_kernel_impl\" not implemented for 'Int'");
        QTest::newRow("Logsumexp1/Int32")
            << Case::Logsumexp1 << DType::Int32 << DType::Float32 << DimVector{3}
            << std::vector<double>{3.1755154132843018, 7.1698479652404785, 9.313385009765625}
            << QString();
        QTest::newRow("Norm1/Int32")
            << Case::Norm1 << DType::Int32 << DType::Int32 << DimVector{} << std::vector<double>{}
            << QString("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                       "Got Int");
        QTest::newRow("MaxAll/Int32") << Case::MaxAll << DType::Int32 << DType::Int32 << DimVector{}
                                      << std::vector<double>{9} << QString();
        QTest::newRow("MinDimValues/Int32")
            << Case::MinDimValues << DType::Int32 << DType::Int32 << DimVector{3}
            << std::vector<double>{-2, -6, -1} << QString();
        QTest::newRow("MinDimIndices/Int32")
            << Case::MinDimIndices << DType::Int32 << DType::Int64 << DimVector{3}
            << std::vector<double>{1, 2, 3} << QString();
        QTest::newRow("MaxKeepValues/Int32")
            << Case::MaxKeepValues << DType::Int32 << DType::Int32 << DimVector{1, 4}
            << std::vector<double>{4, 8, 9, 7} << QString();
        QTest::newRow("Prod/Int32") << Case::Prod << DType::Int32 << DType::Int64 << DimVector{}
                                    << std::vector<double>{0} << QString();
        QTest::newRow("Mean01/Int32")
            << Case::Mean01 << DType::Int32 << DType::Int32 << DimVector{} << std::vector<double>{}
            << QString("mean(): could not infer output dtype. Input dtype must be either a "
                       "floating point or complex dtype. Got: Int");
        QTest::newRow("Norm1All/Int32") << Case::Norm1All << DType::Int32 << DType::Int32
                                        << DimVector{} << std::vector<double>{}
                                        << QString("linalg.vector_norm: Expected a floating point "
                                                   "or complex tensor as input. Got Int");
        QTest::newRow("NormInf0/Int32") << Case::NormInf0 << DType::Int32 << DType::Int32
                                        << DimVector{} << std::vector<double>{}
                                        << QString("linalg.vector_norm: Expected a floating point "
                                                   "or complex tensor as input. Got Int");
        QTest::newRow("NormNegInf1/Int32") << Case::NormNegInf1 << DType::Int32 << DType::Int32
                                           << DimVector{} << std::vector<double>{}
                                           << QString("linalg.vector_norm: Expected a floating "
                                                      "point or complex tensor as input. Got Int");
        QTest::newRow("Norm0/Int32")
            << Case::Norm0 << DType::Int32 << DType::Int32 << DimVector{} << std::vector<double>{}
            << QString("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                       "Got Int");
        QTest::newRow("Norm3/Int32")
            << Case::Norm3 << DType::Int32 << DType::Int32 << DimVector{} << std::vector<double>{}
            << QString("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                       "Got Int");
        QTest::newRow("Sum/Int64") << Case::Sum << DType::Int64 << DType::Int64 << DimVector{}
                                   << std::vector<double>{28} << QString();
        QTest::newRow("Sum0/Int64") << Case::Sum0 << DType::Int64 << DType::Int64 << DimVector{4}
                                    << std::vector<double>{5, 11, 6, 6} << QString();
        QTest::newRow("Sum1Keep/Int64")
            << Case::Sum1Keep << DType::Int64 << DType::Int64 << DimVector{3, 1}
            << std::vector<double>{2, 10, 16} << QString();
        QTest::newRow("Prod1/Int64") << Case::Prod1 << DType::Int64 << DType::Int64 << DimVector{3}
                                     << std::vector<double>{0, -840, 0} << QString();
        QTest::newRow("Amax0/Int64") << Case::Amax0 << DType::Int64 << DType::Int64 << DimVector{4}
                                     << std::vector<double>{4, 8, 9, 7} << QString();
        QTest::newRow("Amin1/Int64") << Case::Amin1 << DType::Int64 << DType::Int64 << DimVector{3}
                                     << std::vector<double>{-2, -6, -1} << QString();
        QTest::newRow("All1/Int64") << Case::All1 << DType::Int64 << DType::Bool << DimVector{3}
                                    << std::vector<double>{0, 1, 0} << QString();
        QTest::newRow("Any0/Int64") << Case::Any0 << DType::Int64 << DType::Bool << DimVector{4}
                                    << std::vector<double>{1, 1, 1, 1} << QString();
        QTest::newRow("Cumsum1/Int64")
            << Case::Cumsum1 << DType::Int64 << DType::Int64 << DimVector{3, 4}
            << std::vector<double>{1, -1, 2, 2, 4, 9, 3, 10, 0, 8, 17, 16} << QString();
        QTest::newRow("Cumprod0/Int64")
            << Case::Cumprod0 << DType::Int64 << DType::Int64 << DimVector{3, 4}
            << std::vector<double>{1, -2, 3, 0, 4, -10, -18, 0, 0, -80, -162, 0} << QString();
        QTest::newRow("Argmax0/Int64")
            << Case::Argmax0 << DType::Int64 << DType::Int64 << DimVector{4}
            << std::vector<double>{1, 2, 2, 1} << QString();
        QTest::newRow("Argmin/Int64") << Case::Argmin << DType::Int64 << DType::Int64 << DimVector{}
                                      << std::vector<double>{6} << QString();
        QTest::newRow("Mean1/Int64")
            << Case::Mean1 << DType::Int64 << DType::Int64 << DimVector{} << std::vector<double>{}
            << QString("mean(): could not infer output dtype. Input dtype must be either a "
                       "floating point or complex dtype. Got: Long");
        QTest::newRow("Var0/Int64")
            << Case::Var0 << DType::Int64 << DType::Int64 << DimVector{} << std::vector<double>{}
            << QString("std and var only support floating point and complex dtypes");
        QTest::newRow("Std1Correction0/Int64")
            << Case::Std1Correction0 << DType::Int64 << DType::Int64 << DimVector{}
            << std::vector<double>{}
            << QString("std and var only support floating point and complex dtypes");
        QTest::newRow("Softmax1/Int64")
            << Case::Softmax1 << DType::Int64 << DType::Int64 << DimVector{}
            << std::vector<double>{}
            << QString("\"softmax_lastdim_kernel_impl\" not implemented for 'Long'");
        QTest::newRow("LogSoftmax0/Int64")
            << Case::LogSoftmax0 << DType::Int64 << DType::Int64 << DimVector{}
            << std::vector<double>{}
            << QString("\"log_softmax_kernel_impl\" not implemented for 'Long'");
        QTest::newRow("Logsumexp1/Int64")
            << Case::Logsumexp1 << DType::Int64 << DType::Float32 << DimVector{3}
            << std::vector<double>{3.1755154132843018, 7.1698479652404785, 9.313385009765625}
            << QString();
        QTest::newRow("Norm1/Int64")
            << Case::Norm1 << DType::Int64 << DType::Int64 << DimVector{} << std::vector<double>{}
            << QString("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                       "Got Long");
        QTest::newRow("MaxAll/Int64") << Case::MaxAll << DType::Int64 << DType::Int64 << DimVector{}
                                      << std::vector<double>{9} << QString();
        QTest::newRow("MinDimValues/Int64")
            << Case::MinDimValues << DType::Int64 << DType::Int64 << DimVector{3}
            << std::vector<double>{-2, -6, -1} << QString();
        QTest::newRow("MinDimIndices/Int64")
            << Case::MinDimIndices << DType::Int64 << DType::Int64 << DimVector{3}
            << std::vector<double>{1, 2, 3} << QString();
        QTest::newRow("MaxKeepValues/Int64")
            << Case::MaxKeepValues << DType::Int64 << DType::Int64 << DimVector{1, 4}
            << std::vector<double>{4, 8, 9, 7} << QString();
        QTest::newRow("Prod/Int64") << Case::Prod << DType::Int64 << DType::Int64 << DimVector{}
                                    << std::vector<double>{0} << QString();
        QTest::newRow("Mean01/Int64")
            << Case::Mean01 << DType::Int64 << DType::Int64 << DimVector{} << std::vector<double>{}
            << QString("mean(): could not infer output dtype. Input dtype must be either a "
                       "floating point or complex dtype. Got: Long");
        QTest::newRow("Norm1All/Int64") << Case::Norm1All << DType::Int64 << DType::Int64
                                        << DimVector{} << std::vector<double>{}
                                        << QString("linalg.vector_norm: Expected a floating point "
                                                   "or complex tensor as input. Got Long");
        QTest::newRow("NormInf0/Int64") << Case::NormInf0 << DType::Int64 << DType::Int64
                                        << DimVector{} << std::vector<double>{}
                                        << QString("linalg.vector_norm: Expected a floating point "
                                                   "or complex tensor as input. Got Long");
        QTest::newRow("NormNegInf1/Int64") << Case::NormNegInf1 << DType::Int64 << DType::Int64
                                           << DimVector{} << std::vector<double>{}
                                           << QString("linalg.vector_norm: Expected a floating "
                                                      "point or complex tensor as input. Got Long");
        QTest::newRow("Norm0/Int64")
            << Case::Norm0 << DType::Int64 << DType::Int64 << DimVector{} << std::vector<double>{}
            << QString("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                       "Got Long");
        QTest::newRow("Norm3/Int64")
            << Case::Norm3 << DType::Int64 << DType::Int64 << DimVector{} << std::vector<double>{}
            << QString("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                       "Got Long");
        QTest::newRow("Sum/Bool") << Case::Sum << DType::Bool << DType::Int64 << DimVector{}
                                  << std::vector<double>{7} << QString();
        QTest::newRow("Sum0/Bool") << Case::Sum0 << DType::Bool << DType::Int64 << DimVector{4}
                                   << std::vector<double>{2, 2, 2, 1} << QString();
        QTest::newRow("Sum1Keep/Bool")
            << Case::Sum1Keep << DType::Bool << DType::Int64 << DimVector{3, 1}
            << std::vector<double>{2, 3, 2} << QString();
        QTest::newRow("Prod1/Bool") << Case::Prod1 << DType::Bool << DType::Int64 << DimVector{3}
                                    << std::vector<double>{0, 0, 0} << QString();
        QTest::newRow("Amax0/Bool") << Case::Amax0 << DType::Bool << DType::Bool << DimVector{4}
                                    << std::vector<double>{1, 1, 1, 1} << QString();
        QTest::newRow("Amin1/Bool") << Case::Amin1 << DType::Bool << DType::Bool << DimVector{3}
                                    << std::vector<double>{0, 0, 0} << QString();
        QTest::newRow("All1/Bool") << Case::All1 << DType::Bool << DType::Bool << DimVector{3}
                                   << std::vector<double>{0, 0, 0} << QString();
        QTest::newRow("Any0/Bool") << Case::Any0 << DType::Bool << DType::Bool << DimVector{4}
                                   << std::vector<double>{1, 1, 1, 1} << QString();
        QTest::newRow("Cumsum1/Bool")
            << Case::Cumsum1 << DType::Bool << DType::Int64 << DimVector{3, 4}
            << std::vector<double>{1, 1, 2, 2, 1, 2, 2, 3, 0, 1, 2, 2} << QString();
        QTest::newRow("Cumprod0/Bool")
            << Case::Cumprod0 << DType::Bool << DType::Int64 << DimVector{3, 4}
            << std::vector<double>{1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0} << QString();
        QTest::newRow("Argmax0/Bool")
            << Case::Argmax0 << DType::Bool << DType::Bool << DimVector{} << std::vector<double>{}
            << QString("argmax(): does not support bool input");
        QTest::newRow("Argmin/Bool")
            << Case::Argmin << DType::Bool << DType::Bool << DimVector{} << std::vector<double>{}
            << QString("argmin(): does not support bool input");
        QTest::newRow("Mean1/Bool")
            << Case::Mean1 << DType::Bool << DType::Bool << DimVector{} << std::vector<double>{}
            << QString("mean(): could not infer output dtype. Input dtype must be either a "
                       "floating point or complex dtype. Got: Bool");
        QTest::newRow("Var0/Bool")
            << Case::Var0 << DType::Bool << DType::Bool << DimVector{} << std::vector<double>{}
            << QString("std and var only support floating point and complex dtypes");
        QTest::newRow("Std1Correction0/Bool")
            << Case::Std1Correction0 << DType::Bool << DType::Bool << DimVector{}
            << std::vector<double>{}
            << QString("std and var only support floating point and complex dtypes");
        QTest::newRow("Softmax1/Bool")
            << Case::Softmax1 << DType::Bool << DType::Bool << DimVector{} << std::vector<double>{}
            << QString("\"softmax_lastdim_kernel_impl\" not implemented for 'Bool'");
        QTest::newRow("LogSoftmax0/Bool")
            << Case::LogSoftmax0 << DType::Bool << DType::Bool << DimVector{}
            << std::vector<double>{}
            << QString("\"log_softmax_kernel_impl\" not implemented for 'Bool'");
        QTest::newRow("Logsumexp1/Bool")
            << Case::Logsumexp1 << DType::Bool << DType::Float32 << DimVector{3}
            << std::vector<double>{2.00640869140625, 2.2142832279205322, 2.00640869140625}
            << QString();
        QTest::newRow("Norm1/Bool")
            << Case::Norm1 << DType::Bool << DType::Bool << DimVector{} << std::vector<double>{}
            << QString("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                       "Got Bool");
        QTest::newRow("MaxAll/Bool") << Case::MaxAll << DType::Bool << DType::Bool << DimVector{}
                                     << std::vector<double>{1} << QString();
        QTest::newRow("MinDimValues/Bool")
            << Case::MinDimValues << DType::Bool << DType::Bool << DimVector{3}
            << std::vector<double>{0, 0, 0} << QString();
        QTest::newRow("MinDimIndices/Bool")
            << Case::MinDimIndices << DType::Bool << DType::Int64 << DimVector{3}
            << std::vector<double>{1, 2, 0} << QString();
        QTest::newRow("MaxKeepValues/Bool")
            << Case::MaxKeepValues << DType::Bool << DType::Bool << DimVector{1, 4}
            << std::vector<double>{1, 1, 1, 1} << QString();
        QTest::newRow("Prod/Bool") << Case::Prod << DType::Bool << DType::Int64 << DimVector{}
                                   << std::vector<double>{0} << QString();
        QTest::newRow("Mean01/Bool")
            << Case::Mean01 << DType::Bool << DType::Bool << DimVector{} << std::vector<double>{}
            << QString("mean(): could not infer output dtype. Input dtype must be either a "
                       "floating point or complex dtype. Got: Bool");
        QTest::newRow("Norm1All/Bool")
            << Case::Norm1All << DType::Bool << DType::Bool << DimVector{} << std::vector<double>{}
            << QString("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                       "Got Bool");
        QTest::newRow("NormInf0/Bool")
            << Case::NormInf0 << DType::Bool << DType::Bool << DimVector{} << std::vector<double>{}
            << QString("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                       "Got Bool");
        QTest::newRow("NormNegInf1/Bool") << Case::NormNegInf1 << DType::Bool << DType::Bool
                                          << DimVector{} << std::vector<double>{}
                                          << QString("linalg.vector_norm: Expected a floating "
                                                     "point or complex tensor as input. Got Bool");
        QTest::newRow("Norm0/Bool")
            << Case::Norm0 << DType::Bool << DType::Bool << DimVector{} << std::vector<double>{}
            << QString("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                       "Got Bool");
        QTest::newRow("Norm3/Bool")
            << Case::Norm3 << DType::Bool << DType::Bool << DimVector{} << std::vector<double>{}
            << QString("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                       "Got Bool");
    }

    void reductionsMatchPyTorch() {
        QFETCH(Case, which);
        QFETCH(DType, dtype);
        QFETCH(DType, resultDType);
        QFETCH(DimVector, shape);
        QFETCH(std::vector<double>, expected);
        QFETCH(QString, error);
        for (bool stridedInput : {false, true}) {
            Tensor input = tableInput(dtype, stridedInput);
            if (!error.isEmpty()) {
                ErrorKind kind = ErrorKind::RuntimeError;
                QCOMPARE(errorOf([&] { run(which, input); }, &kind), error);
                QCOMPARE(kind, ErrorKind::NotImplementedError);
                continue;
            }
            Tensor out = run(which, input);
            QCOMPARE(out.dtype(), resultDType);
            KILN_CHECK(compareTensor(out, expected, shape));
        }
    }

    void reducesPermutedInputsOverSeveralDims() {
        // torch.arange(24.).view(2, 3, 4).permute(2, 0, 1): shape (4, 2, 3), strides (1, 12, 4).
        std::vector<double> v(24);
        for (int i = 0; i < 24; ++i)
            v[i] = i;
        Tensor x =
            strided(makeTensor(v, DimVector{24}), 0, DimVector{4, 2, 3}, DimVector{1, 12, 4});
        KILN_CHECK(compareTensor(sum(x, DimVector{1, 2}, false), {60, 66, 72, 78}, DimVector{4}));
        KILN_CHECK(
            compareTensor(amax(x, DimVector{0}, false), {3, 7, 11, 15, 19, 23}, DimVector{2, 3}));
        KILN_CHECK(compareTensor(var(x, DimVector{0, 2}, 1, false), {13, 13}, DimVector{2}));
        QCOMPARE(sum(x, DimVector{0, -1}, true).sizes(), (DimVector{1, 2, 1}));
        KILN_CHECK(compareTensor(
            softmax(strided(makeTensor(v, DimVector{24}), 0, DimVector{3, 4}, DimVector{4, 1}), 0),
            {0.0003293204354122281, 0.0003293204354122281, 0.0003293204354122281,
             0.0003293204354122281, 0.017980286851525307, 0.017980286851525307,
             0.017980286851525307, 0.017980286851525307, 0.9816903471946716, 0.9816903471946716,
             0.9816903471946716, 0.9816903471946716},
            DimVector{3, 4}));
    }

    void floatSumsAccumulateInDouble() {
        // 10^6 float32 0.1f: the exact sum is 100000.00149; float accumulation drifts far.
        Tensor ones = full(DimVector{1000000}, Scalar(0.1), TensorOptions{});
        KILN_CHECK(compareTensor(sum(ones, {}, false), {100000.0015}, DimVector{}, 1e-7));
        KILN_CHECK(compareTensor(mean(ones, {}, false), {0.1}, DimVector{}, 1e-7));
        KILN_CHECK(compareTensor(var(ones, {}, 1, false), {0}, DimVector{}, 1e-12));
        Tensor halves = full(DimVector{4096}, Scalar(1.0), TensorOptions{DType::Float16});
        KILN_CHECK(compareTensor(sum(halves, {}, false), {4096}, DimVector{}, 0));
    }

    void emptyReductionsMatchPyTorch() {
        Tensor e = zeros(DimVector{0, 3}, TensorOptions{});
        KILN_CHECK(compareTensor(sum(e, DimVector{0}, false), {0, 0, 0}, DimVector{3}));
        KILN_CHECK(compareTensor(sum(e, {}, false), {0}, DimVector{}));
        KILN_CHECK(compareTensor(prod(e, {}, false), {1}, DimVector{}));
        KILN_CHECK(compareTensor(mean(e, {}, false), {kNan}, DimVector{}));
        KILN_CHECK(compareTensor(var(e, DimVector{0}, 1, false), {kNan, kNan, kNan}, DimVector{3}));
        KILN_CHECK(compareTensor(all(e, std::nullopt, false), {1}, DimVector{}));
        KILN_CHECK(
            compareTensor(logsumexp(e, DimVector{0}, false), {-kInf, -kInf, -kInf}, DimVector{3}));
        QCOMPARE(amax(e, DimVector{1}, false).sizes(), DimVector{0});
        QCOMPARE(argmin(e, 1, false).sizes(), DimVector{0});
        QCOMPARE(softmax(e, 0).sizes(), (DimVector{0, 3}));
        KILN_CHECK(compareTensor(norm(e, 2, {}, false), {0}, DimVector{}));
    }

    void emptyReductionErrorsMatchPyTorch_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("kind");
        const int runtime = int(ErrorKind::RuntimeError), index = int(ErrorKind::IndexError);
        QTest::newRow("amax all") << 0
                                  << "amax(): Expected reduction dim to be specified for "
                                     "input.numel() == 0. Specify the reduction dim with the "
                                     "'dim' argument."
                                  << runtime;
        QTest::newRow("amax dims")
            << 1 << "amax(): Expected reduction dim 0 to have non-zero size." << index;
        QTest::newRow("max all") << 2
                                 << "max(): Expected reduction dim to be specified for "
                                    "input.numel() == 0. Specify the reduction dim with the "
                                    "'dim' argument."
                                 << runtime;
        QTest::newRow("max dim") << 3 << "max(): Expected reduction dim 0 to have non-zero size."
                                 << index;
        QTest::newRow("argmax all")
            << 4 << "argmax(): Expected reduction dim to be specified for input.numel() == 0."
            << index;
        QTest::newRow("min all") << 5
                                 << "min(): Expected reduction dim to be specified for "
                                    "input.numel() == 0. Specify the reduction dim with the "
                                    "'dim' argument."
                                 << runtime;
        QTest::newRow("inf norm")
            << 6
            << "linalg.vector_norm cannot compute the inf norm on an empty tensor because the "
               "operation does not have an identity"
            << runtime;
        QTest::newRow("-inf norm dim")
            << 7
            << "linalg.vector_norm cannot compute the -inf norm on the dimension 0because this "
               "dimension is empty and the operation does not have an identity"
            << runtime;
        QTest::newRow("duplicate dims")
            << 8 << "dim 1 appears multiple times in the list of dims" << runtime;
        QTest::newRow("dim out of range")
            << 9 << "Dimension out of range (expected to be in range of [-2, 1], but got 2)"
            << index;
        QTest::newRow("mean dtype")
            << 10
            << "mean(): could not infer output dtype. Optional dtype must be either a floating "
               "point or complex dtype. Got: Long"
            << int(ErrorKind::NotImplementedError);
    }

    void emptyReductionErrorsMatchPyTorch() {
        QFETCH(int, which);
        QFETCH(QString, message);
        QFETCH(int, kind);
        Tensor e = zeros(DimVector{0, 3}, TensorOptions{});
        Tensor x = zeros(DimVector{2, 3}, TensorOptions{});
        ErrorKind thrown = ErrorKind::ValueError;
        QString got = errorOf(
            [&] {
                switch (which) {
                case 0:
                    amax(e, {}, false);
                    break;
                case 1:
                    amax(e, DimVector{1, 0}, false);
                    break;
                case 2:
                    maxAll(e);
                    break;
                case 3:
                    maxDim(e, 0, false);
                    break;
                case 4:
                    argmax(e, std::nullopt, false);
                    break;
                case 5:
                    minAll(e);
                    break;
                case 6:
                    norm(e, kInf, {}, false);
                    break;
                case 7:
                    norm(e, -kInf, DimVector{0}, false);
                    break;
                case 8:
                    sum(x, DimVector{1, -1}, false);
                    break;
                case 9:
                    sum(x, DimVector{2}, false);
                    break;
                default:
                    mean(x, {}, false, DType::Int64);
                    break;
                }
            },
            &thrown);
        QCOMPARE(got, message);
        QCOMPARE(int(thrown), kind);
    }

    void nanAndTiesFollowPyTorch() {
        Tensor m = makeTensor({1, kNan, 3, 2, 2, 1}, DimVector{2, 3});
        auto [values, indices] = maxDim(m, 1, false);
        KILN_CHECK(compareTensor(values, {kNan, 2}, DimVector{2}));
        KILN_CHECK(compareTensor(indices, {1, 0}, DimVector{2}));
        KILN_CHECK(
            compareTensor(argmax(vector({1, kNan, kNan}), std::nullopt, false), {1}, DimVector{}));
        KILN_CHECK(compareTensor(argmax(vector({2, 5, 5}), std::nullopt, false), {1}, DimVector{}));
        KILN_CHECK(compareTensor(argmin(vector({2, 1, 1}), std::nullopt, false), {1}, DimVector{}));
        KILN_CHECK(compareTensor(amax(vector({kNan, 1}), {}, false), {kNan}, DimVector{}));
        KILN_CHECK(compareTensor(norm(vector({1, kNan}), kInf, {}, false), {kNan}, DimVector{}));
        Tensor rows = makeTensor({kInf, 1, -kInf, -kInf, kNan, 1}, DimVector{3, 2});
        KILN_CHECK(
            compareTensor(logsumexp(rows, DimVector{1}, false), {kInf, -kInf, kNan}, DimVector{3}));
        KILN_CHECK(compareTensor(softmax(vector({-kInf, -kInf}), 0), {kNan, kNan}, DimVector{2}));
    }

    void dtypeArgumentsConvertFirst() {
        Tensor s = sum(vector({1.5, 1.5}), {}, false, DType::Int32);
        QCOMPARE(s.dtype(), DType::Int32);
        KILN_CHECK(compareTensor(s, {2}, DimVector{}));
        Tensor m = mean(vector({1, 2}, DType::Int64), {}, false, DType::Float64);
        QCOMPARE(m.dtype(), DType::Float64);
        KILN_CHECK(compareTensor(m, {1.5}, DimVector{}));
        QCOMPARE(prod(vector({1, 2}, DType::Int64), DimVector{0}, false, DType::Float16).dtype(),
                 DType::Float16);
        KILN_CHECK(compareTensor(cumsum(vector({1.5, 2}), 0, DType::Int64), {1, 3}, DimVector{2}));
        QCOMPARE(softmax(vector({1, 2}), 0, DType::Float64).dtype(), DType::Float64);
        Tensor narrow = cumsum(vector({1, 2}, DType::Int64), 0, DType::Int32);
        QCOMPARE(narrow.dtype(), DType::Int32);
        KILN_CHECK(compareTensor(narrow, {1, 3}, DimVector{2}));
        Tensor anyTrue = sum(vector({1, 1}, DType::Bool), {}, false, DType::Bool);
        QCOMPARE(anyTrue.dtype(), DType::Bool);
        KILN_CHECK(compareTensor(anyTrue, {1}, DimVector{}));
        QCOMPARE(errorOf([] { cumsum(vector({1}, DType::Bool), 0, DType::Bool); }),
                 QString("\"cumsum_out_cpu\" not implemented for 'Bool'"));
    }

    void zeroDimTensorsReduceToThemselves() {
        Tensor s = scalarTensor(Scalar(3.0), DType::Float32);
        KILN_CHECK(compareTensor(sum(s, DimVector{0}, false), {3}, DimVector{}));
        KILN_CHECK(compareTensor(sum(s, DimVector{-1}, true), {3}, DimVector{}));
        KILN_CHECK(compareTensor(softmax(s, 0), {1}, DimVector{}));
        KILN_CHECK(compareTensor(cumsum(s, 0), {3}, DimVector{}));
        KILN_CHECK(compareTensor(argmax(s, 0, false), {0}, DimVector{}));
        KILN_CHECK(compareTensor(var(s, {}, 1, false), {kNan}, DimVector{}));
        QCOMPARE(errorOf([&] { sum(s, DimVector{1}, false); }),
                 QString("Dimension out of range (expected to be in range of [-1, 0], but got 1)"));
        QCOMPARE(argmax(makeTensor({1, 2, 3, 4}, DimVector{2, 2}), std::nullopt, true).sizes(),
                 (DimVector{1, 1}));
    }

    void varianceCorrectionFollowsPyTorch() {
        KILN_CHECK(compareTensor(var(vector({1, 2}), {}, 3, false), {kInf}, DimVector{}));
        KILN_CHECK(compareTensor(var(vector({1, 1}), {}, 3, false), {kNan}, DimVector{}));
        KILN_CHECK(compareTensor(var(vector({1, 2, 4}), {}, 0.5, false), {1.8666666666666667},
                                 DimVector{}));
        KILN_CHECK(
            compareTensor(var(vector({1, 2}), {}, -1, false), {0.16666666666666666}, DimVector{}));
    }

    void recordsPyTorchGradFnNames() {
        Tensor x = leaf({1.5, 2, 3});
        const std::vector<std::pair<Tensor, const char*>> cases = {
            {sum(x, {}, false), "SumBackward0"},
            {sum(x, DimVector{0}, false), "SumBackward1"},
            {mean(x, {}, false), "MeanBackward0"},
            {mean(x, DimVector{0}, false), "MeanBackward1"},
            {prod(x, {}, false), "ProdBackward0"},
            {prod(x, DimVector{0}, false), "ProdBackward1"},
            {amax(x, {}, false), "AmaxBackward0"},
            {amin(x, DimVector{0}, false), "AminBackward0"},
            {maxAll(x), "MaxBackward1"},
            {minAll(x), "MinBackward1"},
            {maxDim(x, 0, false).first, "MaxBackward0"},
            {minDim(x, 0, false).first, "MinBackward0"},
            {var(x, {}, 1, false), "VarBackward0"},
            {kiln::tensor::std(x, DimVector{0}, 1, false), "StdBackward0"},
            {softmax(x, 0), "SoftmaxBackward0"},
            {logSoftmax(x, 0), "LogSoftmaxBackward0"},
            {logsumexp(x, DimVector{0}, false), "LogsumexpBackward0"},
            {cumsum(x, 0), "CumsumBackward0"},
            {cumprod(x, 0), "CumprodBackward0"},
            {norm(x, 2, {}, false), "LinalgVectorNormBackward0"},
        };
        for (const auto& [out, name] : cases)
            QCOMPARE(out.gradFn(), std::string_view(name));
        QVERIFY(!argmax(x, std::nullopt, false).requiresGrad());
        QVERIFY(!maxDim(x, 0, false).second.requiresGrad());
        QVERIFY(!all(x, std::nullopt, false).requiresGrad());
    }
};

QTEST_APPLESS_MAIN(ReduceTest)
#include "tst_reduce.moc"
