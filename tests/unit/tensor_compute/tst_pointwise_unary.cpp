// SPDX-License-Identifier: MIT
// Unary pointwise ops: every op on every dtype against PyTorch (values, result dtype or the
// exact error), rounding and sign details, strided inputs and autograd node names.
#include "compute_testing.h"
#include "tensor/ops.h"

#include <QtTest>
#include <cmath>

using namespace kiln::tensor;
using namespace kiln::testing;

Q_DECLARE_METATYPE(kiln::tensor::UnaryOp)

namespace {

/// The input the PyTorch table was computed from.
Tensor tableInput(DType dtype) {
    if (dtype == DType::Bool) return vector({1, 0, 1, 0, 1, 1}, dtype);
    if (isFloating(dtype)) return vector({-2.5, -0.5, 0, 0.3, 1.5, 4}, dtype);
    return vector({-3, -1, 0, 1, 2, 5}, dtype);
}

} // namespace

class PointwiseUnaryTest : public QObject {
    Q_OBJECT

private slots:
    void unaryMatchesPyTorch_data() {
        QTest::addColumn<UnaryOp>("op");
        QTest::addColumn<DType>("dtype");
        QTest::addColumn<DType>("resultDType");
        QTest::addColumn<std::vector<double>>("expected");
        QTest::addColumn<QString>("error");
        // Generated with PyTorch 2.15 from the inputs in tableInput().
        QTest::newRow("Abs/Bool") << UnaryOp::Abs << DType::Bool << DType::Bool
                                  << std::vector<double>{}
                                  << QString("\"abs_cpu\" not implemented for 'Bool'");
        QTest::newRow("Abs/Int32") << UnaryOp::Abs << DType::Int32 << DType::Int32
                                   << std::vector<double>{3, 1, 0, 1, 2, 5} << QString();
        QTest::newRow("Abs/Int64") << UnaryOp::Abs << DType::Int64 << DType::Int64
                                   << std::vector<double>{3, 1, 0, 1, 2, 5} << QString();
        QTest::newRow("Abs/Float16")
            << UnaryOp::Abs << DType::Float16 << DType::Float16
            << std::vector<double>{2.5, 0.5, 0, 0.300048828125, 1.5, 4} << QString();
        QTest::newRow("Abs/BFloat16")
            << UnaryOp::Abs << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{2.5, 0.5, 0, 0.30078125, 1.5, 4} << QString();
        QTest::newRow("Abs/Float32")
            << UnaryOp::Abs << DType::Float32 << DType::Float32
            << std::vector<double>{2.5, 0.5, 0, 0.30000001192092896, 1.5, 4} << QString();
        QTest::newRow("Abs/Float64") << UnaryOp::Abs << DType::Float64 << DType::Float64
                                     << std::vector<double>{2.5, 0.5, 0, 0.3, 1.5, 4} << QString();
        QTest::newRow("Neg/Bool")
            << UnaryOp::Neg << DType::Bool << DType::Bool << std::vector<double>{}
            << QString("Negation, the `-` operator, on a bool tensor is not supported. If you are "
                       "trying to invert a mask, use the `~` or `logical_not()` operator instead.");
        QTest::newRow("Neg/Int32") << UnaryOp::Neg << DType::Int32 << DType::Int32
                                   << std::vector<double>{3, 1, 0, -1, -2, -5} << QString();
        QTest::newRow("Neg/Int64") << UnaryOp::Neg << DType::Int64 << DType::Int64
                                   << std::vector<double>{3, 1, 0, -1, -2, -5} << QString();
        QTest::newRow("Neg/Float16")
            << UnaryOp::Neg << DType::Float16 << DType::Float16
            << std::vector<double>{2.5, 0.5, -0, -0.300048828125, -1.5, -4} << QString();
        QTest::newRow("Neg/BFloat16")
            << UnaryOp::Neg << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{2.5, 0.5, -0, -0.30078125, -1.5, -4} << QString();
        QTest::newRow("Neg/Float32")
            << UnaryOp::Neg << DType::Float32 << DType::Float32
            << std::vector<double>{2.5, 0.5, -0, -0.30000001192092896, -1.5, -4} << QString();
        QTest::newRow("Neg/Float64")
            << UnaryOp::Neg << DType::Float64 << DType::Float64
            << std::vector<double>{2.5, 0.5, -0, -0.3, -1.5, -4} << QString();
        QTest::newRow("Exp/Bool") << UnaryOp::Exp << DType::Bool << DType::Float32
                                  << std::vector<double>{2.7182817459106445, 1,
                                                         2.7182817459106445, 1,
                                                         2.7182817459106445, 2.7182817459106445}
                                  << QString();
        QTest::newRow("Exp/Int32")
            << UnaryOp::Exp << DType::Int32 << DType::Float32
            << std::vector<double>{0.049787066876888275, 0.3678794503211975, 1,
                                   2.7182817459106445,   7.389056205749512,  148.4131622314453}
            << QString();
        QTest::newRow("Exp/Int64")
            << UnaryOp::Exp << DType::Int64 << DType::Float32
            << std::vector<double>{0.049787066876888275, 0.3678794503211975, 1,
                                   2.7182817459106445,   7.389056205749512,  148.4131622314453}
            << QString();
        QTest::newRow("Exp/Float16")
            << UnaryOp::Exp << DType::Float16 << DType::Float16
            << std::vector<double>{0.08209228515625, 0.6064453125, 1,
                                   1.349609375,      4.48046875,   54.59375}
            << QString();
        QTest::newRow("Exp/BFloat16")
            << UnaryOp::Exp << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{0.08203125, 0.60546875, 1, 1.3515625, 4.46875, 54.5}
            << QString();
        QTest::newRow("Exp/Float32")
            << UnaryOp::Exp << DType::Float32 << DType::Float32
            << std::vector<double>{0.08208499848842621, 0.6065306663513184, 1,
                                   1.3498588800430298,  4.481688976287842,  54.598148345947266}
            << QString();
        QTest::newRow("Exp/Float64")
            << UnaryOp::Exp << DType::Float64 << DType::Float64
            << std::vector<double>{0.0820849986238988, 0.6065306597126334, 1,
                                   1.3498588075760032, 4.4816890703380645, 54.598150033144236}
            << QString();
        QTest::newRow("Exp2/Bool") << UnaryOp::Exp2 << DType::Bool << DType::Float32
                                   << std::vector<double>{2, 1, 2, 1, 2, 2} << QString();
        QTest::newRow("Exp2/Int32") << UnaryOp::Exp2 << DType::Int32 << DType::Float32
                                    << std::vector<double>{0.125, 0.5, 1, 2, 4, 32} << QString();
        QTest::newRow("Exp2/Int64") << UnaryOp::Exp2 << DType::Int64 << DType::Float32
                                    << std::vector<double>{0.125, 0.5, 1, 2, 4, 32} << QString();
        QTest::newRow("Exp2/Float16")
            << UnaryOp::Exp2 << DType::Float16 << DType::Float16
            << std::vector<double>{0.1767578125, 0.70703125, 1, 1.2314453125, 2.828125, 16}
            << QString();
        QTest::newRow("Exp2/BFloat16")
            << UnaryOp::Exp2 << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{0.1767578125, 0.70703125, 1, 1.234375, 2.828125, 16}
            << QString();
        QTest::newRow("Exp2/Float32")
            << UnaryOp::Exp2 << DType::Float32 << DType::Float32
            << std::vector<double>{0.1767766922712326, 0.7071067690849304, 1,
                                   1.2311444282531738, 2.8284270763397217, 16}
            << QString();
        QTest::newRow("Exp2/Float64")
            << UnaryOp::Exp2 << DType::Float64 << DType::Float64
            << std::vector<double>{0.1767766952966369, 0.7071067811865476, 1,
                                   1.2311444133449163, 2.8284271247461903, 16}
            << QString();
        QTest::newRow("Expm1/Bool")
            << UnaryOp::Expm1 << DType::Bool << DType::Float32
            << std::vector<double>{1.718281865119934, 0, 1.718281865119934, 0, 1.718281865119934,
                                   1.718281865119934}
            << QString();
        QTest::newRow("Expm1/Int32")
            << UnaryOp::Expm1 << DType::Int32 << DType::Float32
            << std::vector<double>{-0.9502129554748535, -0.6321205496788025, 0,
                                   1.718281865119934,   6.389056205749512,   147.4131622314453}
            << QString();
        QTest::newRow("Expm1/Int64")
            << UnaryOp::Expm1 << DType::Int64 << DType::Float32
            << std::vector<double>{-0.9502129554748535, -0.6321205496788025, 0,
                                   1.718281865119934,   6.389056205749512,   147.4131622314453}
            << QString();
        QTest::newRow("Expm1/Float16")
            << UnaryOp::Expm1 << DType::Float16 << DType::Float16
            << std::vector<double>{-0.91796875,    -0.3935546875, 0,
                                   0.349853515625, 3.482421875,   53.59375}
            << QString();
        QTest::newRow("Expm1/BFloat16")
            << UnaryOp::Expm1 << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{-0.91796875, -0.392578125, 0, 0.3515625, 3.484375, 53.5}
            << QString();
        QTest::newRow("Expm1/Float32")
            << UnaryOp::Expm1 << DType::Float32 << DType::Float32
            << std::vector<double>{-0.9179149866104126, -0.39346933364868164, 0,
                                   0.349858820438385,   3.481688976287842,    53.598148345947266}
            << QString();
        QTest::newRow("Expm1/Float64")
            << UnaryOp::Expm1 << DType::Float64 << DType::Float64
            << std::vector<double>{-0.9179150013761012, -0.3934693402873666, 0,
                                   0.3498588075760031,  3.481689070338065,   53.598150033144236}
            << QString();
        QTest::newRow("Log/Bool") << UnaryOp::Log << DType::Bool << DType::Float32
                                  << std::vector<double>{0, -kInf, 0, -kInf, 0, 0} << QString();
        QTest::newRow("Log/Int32")
            << UnaryOp::Log << DType::Int32 << DType::Float32
            << std::vector<double>{kNan, kNan, -kInf, 0, 0.6931471824645996, 1.6094379425048828}
            << QString();
        QTest::newRow("Log/Int64")
            << UnaryOp::Log << DType::Int64 << DType::Float32
            << std::vector<double>{kNan, kNan, -kInf, 0, 0.6931471824645996, 1.6094379425048828}
            << QString();
        QTest::newRow("Log/Float16")
            << UnaryOp::Log << DType::Float16 << DType::Float16
            << std::vector<double>{kNan, kNan, -kInf, -1.2041015625, 0.405517578125, 1.38671875}
            << QString();
        QTest::newRow("Log/BFloat16")
            << UnaryOp::Log << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{kNan, kNan, -kInf, -1.203125, 0.40625, 1.3828125} << QString();
        QTest::newRow("Log/Float32") << UnaryOp::Log << DType::Float32 << DType::Float32
                                     << std::vector<double>{kNan,
                                                            kNan,
                                                            -kInf,
                                                            -1.2039728164672852,
                                                            0.40546512603759766,
                                                            1.3862943649291992}
                                     << QString();
        QTest::newRow("Log/Float64") << UnaryOp::Log << DType::Float64 << DType::Float64
                                     << std::vector<double>{kNan,
                                                            kNan,
                                                            -kInf,
                                                            -1.2039728043259361,
                                                            0.4054651081081644,
                                                            1.3862943611198906}
                                     << QString();
        QTest::newRow("Log2/Bool") << UnaryOp::Log2 << DType::Bool << DType::Float32
                                   << std::vector<double>{0, -kInf, 0, -kInf, 0, 0} << QString();
        QTest::newRow("Log2/Int32")
            << UnaryOp::Log2 << DType::Int32 << DType::Float32
            << std::vector<double>{kNan, kNan, -kInf, 0, 1, 2.321928024291992} << QString();
        QTest::newRow("Log2/Int64")
            << UnaryOp::Log2 << DType::Int64 << DType::Float32
            << std::vector<double>{kNan, kNan, -kInf, 0, 1, 2.321928024291992} << QString();
        QTest::newRow("Log2/Float16")
            << UnaryOp::Log2 << DType::Float16 << DType::Float16
            << std::vector<double>{kNan, kNan, -kInf, -1.736328125, 0.5849609375, 2} << QString();
        QTest::newRow("Log2/BFloat16")
            << UnaryOp::Log2 << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{kNan, kNan, -kInf, -1.734375, 0.5859375, 2} << QString();
        QTest::newRow("Log2/Float32")
            << UnaryOp::Log2 << DType::Float32 << DType::Float32
            << std::vector<double>{kNan, kNan, -kInf, -1.736965537071228, 0.5849624872207642, 2}
            << QString();
        QTest::newRow("Log2/Float64")
            << UnaryOp::Log2 << DType::Float64 << DType::Float64
            << std::vector<double>{kNan, kNan, -kInf, -1.7369655941662063, 0.5849625007211562, 2}
            << QString();
        QTest::newRow("Log10/Bool") << UnaryOp::Log10 << DType::Bool << DType::Float32
                                    << std::vector<double>{0, -kInf, 0, -kInf, 0, 0} << QString();
        QTest::newRow("Log10/Int32")
            << UnaryOp::Log10 << DType::Int32 << DType::Float32
            << std::vector<double>{kNan, kNan, -kInf, 0, 0.3010300099849701, 0.6989700198173523}
            << QString();
        QTest::newRow("Log10/Int64")
            << UnaryOp::Log10 << DType::Int64 << DType::Float32
            << std::vector<double>{kNan, kNan, -kInf, 0, 0.3010300099849701, 0.6989700198173523}
            << QString();
        QTest::newRow("Log10/Float16")
            << UnaryOp::Log10 << DType::Float16 << DType::Float16
            << std::vector<double>{kNan,         kNan, -kInf, -0.52294921875, 0.1761474609375,
                                   0.60205078125}
            << QString();
        QTest::newRow("Log10/BFloat16")
            << UnaryOp::Log10 << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{kNan, kNan, -kInf, -0.5234375, 0.17578125, 0.6015625}
            << QString();
        QTest::newRow("Log10/Float32") << UnaryOp::Log10 << DType::Float32 << DType::Float32
                                       << std::vector<double>{kNan,
                                                              kNan,
                                                              -kInf,
                                                              -0.5228787064552307,
                                                              0.1760912537574768,
                                                              0.6020600199699402}
                                       << QString();
        QTest::newRow("Log10/Float64") << UnaryOp::Log10 << DType::Float64 << DType::Float64
                                       << std::vector<double>{kNan,
                                                              kNan,
                                                              -kInf,
                                                              -0.5228787452803376,
                                                              0.17609125905568124,
                                                              0.6020599913279624}
                                       << QString();
        QTest::newRow("Log1p/Bool")
            << UnaryOp::Log1p << DType::Bool << DType::Float32
            << std::vector<double>{0.6931471824645996, 0, 0.6931471824645996, 0, 0.6931471824645996,
                                   0.6931471824645996}
            << QString();
        QTest::newRow("Log1p/Int32") << UnaryOp::Log1p << DType::Int32 << DType::Float32
                                     << std::vector<double>{kNan,
                                                            -kInf,
                                                            0,
                                                            0.6931471824645996,
                                                            1.0986123085021973,
                                                            1.7917594909667969}
                                     << QString();
        QTest::newRow("Log1p/Int64") << UnaryOp::Log1p << DType::Int64 << DType::Float32
                                     << std::vector<double>{kNan,
                                                            -kInf,
                                                            0,
                                                            0.6931471824645996,
                                                            1.0986123085021973,
                                                            1.7917594909667969}
                                     << QString();
        QTest::newRow("Log1p/Float16")
            << UnaryOp::Log1p << DType::Float16 << DType::Float16
            << std::vector<double>{kNan, -0.693359375, 0, 0.262451171875, 0.91650390625, 1.609375}
            << QString();
        QTest::newRow("Log1p/BFloat16")
            << UnaryOp::Log1p << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{kNan, -0.69140625, 0, 0.263671875, 0.91796875, 1.609375}
            << QString();
        QTest::newRow("Log1p/Float32") << UnaryOp::Log1p << DType::Float32 << DType::Float32
                                       << std::vector<double>{kNan,
                                                              -0.6931471824645996,
                                                              0,
                                                              0.2623642683029175,
                                                              0.9162907600402832,
                                                              1.6094379425048828}
                                       << QString();
        QTest::newRow("Log1p/Float64") << UnaryOp::Log1p << DType::Float64 << DType::Float64
                                       << std::vector<double>{kNan,
                                                              -0.6931471805599453,
                                                              0,
                                                              0.26236426446749106,
                                                              0.9162907318741551,
                                                              1.6094379124341003}
                                       << QString();
        QTest::newRow("Sqrt/Bool") << UnaryOp::Sqrt << DType::Bool << DType::Float32
                                   << std::vector<double>{1, 0, 1, 0, 1, 1} << QString();
        QTest::newRow("Sqrt/Int32")
            << UnaryOp::Sqrt << DType::Int32 << DType::Float32
            << std::vector<double>{kNan, kNan, 0, 1, 1.4142135381698608, 2.2360680103302}
            << QString();
        QTest::newRow("Sqrt/Int64")
            << UnaryOp::Sqrt << DType::Int64 << DType::Float32
            << std::vector<double>{kNan, kNan, 0, 1, 1.4142135381698608, 2.2360680103302}
            << QString();
        QTest::newRow("Sqrt/Float16")
            << UnaryOp::Sqrt << DType::Float16 << DType::Float16
            << std::vector<double>{kNan, kNan, 0, 0.5478515625, 1.224609375, 2} << QString();
        QTest::newRow("Sqrt/BFloat16")
            << UnaryOp::Sqrt << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{kNan, kNan, 0, 0.546875, 1.2265625, 2} << QString();
        QTest::newRow("Sqrt/Float32")
            << UnaryOp::Sqrt << DType::Float32 << DType::Float32
            << std::vector<double>{kNan, kNan, 0, 0.547722578048706, 1.2247449159622192, 2}
            << QString();
        QTest::newRow("Sqrt/Float64")
            << UnaryOp::Sqrt << DType::Float64 << DType::Float64
            << std::vector<double>{kNan, kNan, 0, 0.5477225575051661, 1.224744871391589, 2}
            << QString();
        QTest::newRow("Rsqrt/Bool") << UnaryOp::Rsqrt << DType::Bool << DType::Float32
                                    << std::vector<double>{1, kInf, 1, kInf, 1, 1} << QString();
        QTest::newRow("Rsqrt/Int32")
            << UnaryOp::Rsqrt << DType::Int32 << DType::Float32
            << std::vector<double>{kNan, kNan, kInf, 1, 0.7071067690849304, 0.4472135901451111}
            << QString();
        QTest::newRow("Rsqrt/Int64")
            << UnaryOp::Rsqrt << DType::Int64 << DType::Float32
            << std::vector<double>{kNan, kNan, kInf, 1, 0.7071067690849304, 0.4472135901451111}
            << QString();
        QTest::newRow("Rsqrt/Float16")
            << UnaryOp::Rsqrt << DType::Float16 << DType::Float16
            << std::vector<double>{kNan, kNan, kInf, 1.8251953125, 0.81640625, 0.5} << QString();
        QTest::newRow("Rsqrt/BFloat16")
            << UnaryOp::Rsqrt << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{kNan, kNan, kInf, 1.828125, 0.81640625, 0.5} << QString();
        QTest::newRow("Rsqrt/Float32")
            << UnaryOp::Rsqrt << DType::Float32 << DType::Float32
            << std::vector<double>{kNan, kNan, kInf, 1.8257417678833008, 0.8164965510368347, 0.5}
            << QString();
        QTest::newRow("Rsqrt/Float64")
            << UnaryOp::Rsqrt << DType::Float64 << DType::Float64
            << std::vector<double>{kNan, kNan, kInf, 1.8257418583505538, 0.8164965809277261, 0.5}
            << QString();
        QTest::newRow("Sin/Bool") << UnaryOp::Sin << DType::Bool << DType::Float32
                                  << std::vector<double>{0.8414709568023682, 0,
                                                         0.8414709568023682, 0,
                                                         0.8414709568023682, 0.8414709568023682}
                                  << QString();
        QTest::newRow("Sin/Int32")
            << UnaryOp::Sin << DType::Int32 << DType::Float32
            << std::vector<double>{-0.14112000167369843, -0.8414709568023682, 0,
                                   0.8414709568023682,   0.9092974066734314,  -0.9589242935180664}
            << QString();
        QTest::newRow("Sin/Int64")
            << UnaryOp::Sin << DType::Int64 << DType::Float32
            << std::vector<double>{-0.14112000167369843, -0.8414709568023682, 0,
                                   0.8414709568023682,   0.9092974066734314,  -0.9589242935180664}
            << QString();
        QTest::newRow("Sin/Float16")
            << UnaryOp::Sin << DType::Float16 << DType::Float16
            << std::vector<double>{-0.5986328125,  -0.4794921875, 0,
                                   0.295654296875, 0.99755859375, -0.7568359375}
            << QString();
        QTest::newRow("Sin/BFloat16")
            << UnaryOp::Sin << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{-0.59765625, -0.478515625, 0, 0.296875, 0.99609375, -0.7578125}
            << QString();
        QTest::newRow("Sin/Float32")
            << UnaryOp::Sin << DType::Float32 << DType::Float32
            << std::vector<double>{-0.5984721183776855, -0.4794255495071411, 0,
                                   0.29552021622657776, 0.9974949955940247,  -0.756802499294281}
            << QString();
        QTest::newRow("Sin/Float64")
            << UnaryOp::Sin << DType::Float64 << DType::Float64
            << std::vector<double>{-0.5984721441039565, -0.479425538604203, 0,
                                   0.29552020666133955, 0.9974949866040544, -0.7568024953079282}
            << QString();
        QTest::newRow("Cos/Bool") << UnaryOp::Cos << DType::Bool << DType::Float32
                                  << std::vector<double>{0.5403023362159729, 1,
                                                         0.5403023362159729, 1,
                                                         0.5403023362159729, 0.5403023362159729}
                                  << QString();
        QTest::newRow("Cos/Int32")
            << UnaryOp::Cos << DType::Int32 << DType::Float32
            << std::vector<double>{-0.9899924993515015, 0.5403023362159729, 1,
                                   0.5403023362159729,  -0.416146844625473, 0.28366219997406006}
            << QString();
        QTest::newRow("Cos/Int64")
            << UnaryOp::Cos << DType::Int64 << DType::Float32
            << std::vector<double>{-0.9899924993515015, 0.5403023362159729, 1,
                                   0.5403023362159729,  -0.416146844625473, 0.28366219997406006}
            << QString();
        QTest::newRow("Cos/Float16")
            << UnaryOp::Cos << DType::Float16 << DType::Float16
            << std::vector<double>{-0.80126953125, 0.87744140625,    1,
                                   0.955078125,    0.07073974609375, -0.65380859375}
            << QString();
        QTest::newRow("Cos/BFloat16")
            << UnaryOp::Cos << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{-0.80078125, 0.87890625,    1,
                                   0.95703125,  0.07080078125, -0.65234375}
            << QString();
        QTest::newRow("Cos/Float32")
            << UnaryOp::Cos << DType::Float32 << DType::Float32
            << std::vector<double>{-0.8011435866355896, 0.8775825500488281,  1,
                                   0.9553365111351013,  0.07073719799518585, -0.6536436080932617}
            << QString();
        QTest::newRow("Cos/Float64")
            << UnaryOp::Cos << DType::Float64 << DType::Float64
            << std::vector<double>{-0.8011436155469337, 0.8775825618903728, 1,
                                   0.955336489125606,   0.0707372016677029, -0.6536436208636119}
            << QString();
        QTest::newRow("Tan/Bool") << UnaryOp::Tan << DType::Bool << DType::Float32
                                  << std::vector<double>{1.5574077367782593, 0,
                                                         1.5574077367782593, 0,
                                                         1.5574077367782593, 1.5574077367782593}
                                  << QString();
        QTest::newRow("Tan/Int32")
            << UnaryOp::Tan << DType::Int32 << DType::Float32
            << std::vector<double>{0.14254654943943024, -1.5574077367782593, 0,
                                   1.5574077367782593,  -2.185039758682251,  -3.3805148601531982}
            << QString();
        QTest::newRow("Tan/Int64")
            << UnaryOp::Tan << DType::Int64 << DType::Float32
            << std::vector<double>{0.14254654943943024, -1.5574077367782593, 0,
                                   1.5574077367782593,  -2.185039758682251,  -3.3805148601531982}
            << QString();
        QTest::newRow("Tan/Float16")
            << UnaryOp::Tan << DType::Float16 << DType::Float16
            << std::vector<double>{0.7470703125,   -0.54638671875, 0,
                                   0.309326171875, 14.1015625,     1.158203125}
            << QString();
        QTest::newRow("Tan/BFloat16")
            << UnaryOp::Tan << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{0.74609375, -0.546875, 0, 0.310546875, 14.125, 1.15625}
            << QString();
        QTest::newRow("Tan/Float32")
            << UnaryOp::Tan << DType::Float32 << DType::Float32
            << std::vector<double>{0.7470223307609558,  -0.5463024973869324, 0,
                                   0.30933627486228943, 14.101419448852539,  1.1578212976455688}
            << QString();
        QTest::newRow("Tan/Float64")
            << UnaryOp::Tan << DType::Float64 << DType::Float64
            << std::vector<double>{0.7470222972386603,  -0.5463024898437905, 0,
                                   0.30933624960962325, 14.101419947171719,  1.1578212823495775}
            << QString();
        QTest::newRow("Asin/Bool")
            << UnaryOp::Asin << DType::Bool << DType::Float32
            << std::vector<double>{1.5707963705062866, 0, 1.5707963705062866, 0, 1.5707963705062866,
                                   1.5707963705062866}
            << QString();
        QTest::newRow("Asin/Int32")
            << UnaryOp::Asin << DType::Int32 << DType::Float32
            << std::vector<double>{kNan, -1.5707963705062866, 0, 1.5707963705062866, kNan, kNan}
            << QString();
        QTest::newRow("Asin/Int64")
            << UnaryOp::Asin << DType::Int64 << DType::Float32
            << std::vector<double>{kNan, -1.5707963705062866, 0, 1.5707963705062866, kNan, kNan}
            << QString();
        QTest::newRow("Asin/Float16")
            << UnaryOp::Asin << DType::Float16 << DType::Float16
            << std::vector<double>{kNan, -0.5234375, 0, 0.3046875, kNan, kNan} << QString();
        QTest::newRow("Asin/BFloat16")
            << UnaryOp::Asin << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{kNan, -0.5234375, 0, 0.3046875, kNan, kNan} << QString();
        QTest::newRow("Asin/Float32")
            << UnaryOp::Asin << DType::Float32 << DType::Float32
            << std::vector<double>{kNan, -0.5235987901687622, 0, 0.30469265580177307, kNan, kNan}
            << QString();
        QTest::newRow("Asin/Float64")
            << UnaryOp::Asin << DType::Float64 << DType::Float64
            << std::vector<double>{kNan, -0.5235987755982989, 0, 0.30469265401539747, kNan, kNan}
            << QString();
        QTest::newRow("Acos/Bool")
            << UnaryOp::Acos << DType::Bool << DType::Float32
            << std::vector<double>{0, 1.5707963705062866, 0, 1.5707963705062866, 0, 0} << QString();
        QTest::newRow("Acos/Int32")
            << UnaryOp::Acos << DType::Int32 << DType::Float32
            << std::vector<double>{kNan, 3.1415927410125732, 1.5707963705062866, 0, kNan, kNan}
            << QString();
        QTest::newRow("Acos/Int64")
            << UnaryOp::Acos << DType::Int64 << DType::Float32
            << std::vector<double>{kNan, 3.1415927410125732, 1.5707963705062866, 0, kNan, kNan}
            << QString();
        QTest::newRow("Acos/Float16")
            << UnaryOp::Acos << DType::Float16 << DType::Float16
            << std::vector<double>{kNan, 2.09375, 1.5703125, 1.265625, kNan, kNan} << QString();
        QTest::newRow("Acos/BFloat16")
            << UnaryOp::Acos << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{kNan, 2.09375, 1.5703125, 1.265625, kNan, kNan} << QString();
        QTest::newRow("Acos/Float32") << UnaryOp::Acos << DType::Float32 << DType::Float32
                                      << std::vector<double>{kNan,
                                                             2.094395160675049,
                                                             1.5707963705062866,
                                                             1.2661036252975464,
                                                             kNan,
                                                             kNan}
                                      << QString();
        QTest::newRow("Acos/Float64") << UnaryOp::Acos << DType::Float64 << DType::Float64
                                      << std::vector<double>{kNan,
                                                             2.0943951023931957,
                                                             1.5707963267948966,
                                                             1.2661036727794992,
                                                             kNan,
                                                             kNan}
                                      << QString();
        QTest::newRow("Atan/Bool")
            << UnaryOp::Atan << DType::Bool << DType::Float32
            << std::vector<double>{0.7853981852531433, 0, 0.7853981852531433, 0, 0.7853981852531433,
                                   0.7853981852531433}
            << QString();
        QTest::newRow("Atan/Int32")
            << UnaryOp::Atan << DType::Int32 << DType::Float32
            << std::vector<double>{-1.249045729637146, -0.7853981852531433, 0,
                                   0.7853981852531433, 1.1071487665176392,  1.3734008073806763}
            << QString();
        QTest::newRow("Atan/Int64")
            << UnaryOp::Atan << DType::Int64 << DType::Float32
            << std::vector<double>{-1.249045729637146, -0.7853981852531433, 0,
                                   0.7853981852531433, 1.1071487665176392,  1.3734008073806763}
            << QString();
        QTest::newRow("Atan/Float16")
            << UnaryOp::Atan << DType::Float16 << DType::Float16
            << std::vector<double>{-1.1904296875, -0.463623046875, 0,
                                   0.29150390625, 0.98291015625,   1.326171875}
            << QString();
        QTest::newRow("Atan/BFloat16")
            << UnaryOp::Atan << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{-1.1875, -0.462890625, 0, 0.29296875, 0.984375, 1.328125}
            << QString();
        QTest::newRow("Atan/Float32")
            << UnaryOp::Atan << DType::Float32 << DType::Float32
            << std::vector<double>{-1.1902899742126465, -0.46364760398864746, 0,
                                   0.29145681858062744, 0.9827936887741089,   1.3258177042007446}
            << QString();
        QTest::newRow("Atan/Float64")
            << UnaryOp::Atan << DType::Float64 << DType::Float64
            << std::vector<double>{-1.1902899496825317, -0.4636476090008061, 0,
                                   0.2914567944778671,  0.982793723247329,   1.3258176636680326}
            << QString();
        QTest::newRow("Sinh/Bool")
            << UnaryOp::Sinh << DType::Bool << DType::Float32
            << std::vector<double>{1.175201177597046, 0, 1.175201177597046, 0, 1.175201177597046,
                                   1.175201177597046}
            << QString();
        QTest::newRow("Sinh/Int32")
            << UnaryOp::Sinh << DType::Int32 << DType::Float32
            << std::vector<double>{-10.017874717712402, -1.175201177597046, 0,
                                   1.175201177597046,   3.6268603801727295, 74.20320892333984}
            << QString();
        QTest::newRow("Sinh/Int64")
            << UnaryOp::Sinh << DType::Int64 << DType::Float32
            << std::vector<double>{-10.017874717712402, -1.175201177597046, 0,
                                   1.175201177597046,   3.6268603801727295, 74.20320892333984}
            << QString();
        QTest::newRow("Sinh/Float16")
            << UnaryOp::Sinh << DType::Float16 << DType::Float16
            << std::vector<double>{-6.05078125, -0.52099609375, 0, 0.3046875, 2.12890625, 27.296875}
            << QString();
        QTest::newRow("Sinh/BFloat16")
            << UnaryOp::Sinh << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{-6.0625, -0.51953125, 0, 0.3046875, 2.125, 27.25} << QString();
        QTest::newRow("Sinh/Float32")
            << UnaryOp::Sinh << DType::Float32 << DType::Float32
            << std::vector<double>{-6.050204753875732,  -0.5210952758789062, 0,
                                   0.30452030897140503, 2.129279375076294,   27.289918899536133}
            << QString();
        QTest::newRow("Sinh/Float64")
            << UnaryOp::Sinh << DType::Float64 << DType::Float64
            << std::vector<double>{-6.0502044810397875, -0.5210953054937474, 0,
                                   0.3045202934471426,  2.1292794550948173,  27.28991719712775}
            << QString();
        QTest::newRow("Cosh/Bool")
            << UnaryOp::Cosh << DType::Bool << DType::Float32
            << std::vector<double>{1.5430805683135986, 1, 1.5430805683135986, 1, 1.5430805683135986,
                                   1.5430805683135986}
            << QString();
        QTest::newRow("Cosh/Int32")
            << UnaryOp::Cosh << DType::Int32 << DType::Float32
            << std::vector<double>{10.067662239074707, 1.5430805683135986, 1,
                                   1.5430805683135986, 3.7621958255767822, 74.20995330810547}
            << QString();
        QTest::newRow("Cosh/Int64")
            << UnaryOp::Cosh << DType::Int64 << DType::Float32
            << std::vector<double>{10.067662239074707, 1.5430805683135986, 1,
                                   1.5430805683135986, 3.7621958255767822, 74.20995330810547}
            << QString();
        QTest::newRow("Cosh/Float16")
            << UnaryOp::Cosh << DType::Float16 << DType::Float16
            << std::vector<double>{6.1328125, 1.1279296875, 1, 1.044921875, 2.3515625, 27.3125}
            << QString();
        QTest::newRow("Cosh/BFloat16")
            << UnaryOp::Cosh << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{6.125, 1.125, 1, 1.046875, 2.359375, 27.25} << QString();
        QTest::newRow("Cosh/Float32")
            << UnaryOp::Cosh << DType::Float32 << DType::Float32
            << std::vector<double>{6.132289409637451, 1.1276259422302246, 1,
                                   1.04533851146698,  2.352409601211548,  27.308231353759766}
            << QString();
        QTest::newRow("Cosh/Float64")
            << UnaryOp::Cosh << DType::Float64 << DType::Float64
            << std::vector<double>{6.132289479663686,  1.1276259652063807, 1,
                                   1.0453385141288605, 2.352409615243247,  27.308232836016487}
            << QString();
        QTest::newRow("Tanh/Bool")
            << UnaryOp::Tanh << DType::Bool << DType::Float32
            << std::vector<double>{0.7615941762924194, 0, 0.7615941762924194, 0, 0.7615941762924194,
                                   0.7615941762924194}
            << QString();
        QTest::newRow("Tanh/Int32")
            << UnaryOp::Tanh << DType::Int32 << DType::Float32
            << std::vector<double>{-0.9950547814369202, -0.7615941762924194, 0,
                                   0.7615941762924194,  0.9640275835990906,  0.9999092221260071}
            << QString();
        QTest::newRow("Tanh/Int64")
            << UnaryOp::Tanh << DType::Int64 << DType::Float32
            << std::vector<double>{-0.9950547814369202, -0.7615941762924194, 0,
                                   0.7615941762924194,  0.9640275835990906,  0.9999092221260071}
            << QString();
        QTest::newRow("Tanh/Float16")
            << UnaryOp::Tanh << DType::Float16 << DType::Float16
            << std::vector<double>{-0.98681640625, -0.462158203125, 0,
                                   0.291259765625, 0.9052734375,    0.99951171875}
            << QString();
        QTest::newRow("Tanh/BFloat16")
            << UnaryOp::Tanh << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{-0.98828125, -0.462890625, 0, 0.29296875, 0.90625, 1}
            << QString();
        QTest::newRow("Tanh/Float32")
            << UnaryOp::Tanh << DType::Float32 << DType::Float32
            << std::vector<double>{-0.9866142868995667, -0.46211716532707214, 0,
                                   0.29131263494491577, 0.9051482677459717,   0.9993293285369873}
            << QString();
        QTest::newRow("Tanh/Float64")
            << UnaryOp::Tanh << DType::Float64 << DType::Float64
            << std::vector<double>{-0.9866142981514303, -0.46211715726000974, 0,
                                   0.2913126124515909,  0.9051482536448664,   0.999329299739067}
            << QString();
        QTest::newRow("Sigmoid/Bool") << UnaryOp::Sigmoid << DType::Bool << DType::Float32
                                      << std::vector<double>{0.7310585975646973, 0.5,
                                                             0.7310585975646973, 0.5,
                                                             0.7310585975646973, 0.7310585975646973}
                                      << QString();
        QTest::newRow("Sigmoid/Int32")
            << UnaryOp::Sigmoid << DType::Int32 << DType::Float32
            << std::vector<double>{0.04742587357759476, 0.2689414322376251, 0.5,
                                   0.7310585975646973,  0.8807970285415649, 0.9933071732521057}
            << QString();
        QTest::newRow("Sigmoid/Int64")
            << UnaryOp::Sigmoid << DType::Int64 << DType::Float32
            << std::vector<double>{0.04742587357759476, 0.2689414322376251, 0.5,
                                   0.7310585975646973,  0.8807970285415649, 0.9933071732521057}
            << QString();
        QTest::newRow("Sigmoid/Float16")
            << UnaryOp::Sigmoid << DType::Float16 << DType::Float16
            << std::vector<double>{0.07586669921875, 0.37744140625, 0.5,
                                   0.57421875,       0.8173828125,  0.98193359375}
            << QString();
        QTest::newRow("Sigmoid/BFloat16")
            << UnaryOp::Sigmoid << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{0.07568359375, 0.376953125, 0.5,
                                   0.57421875,    0.81640625,  0.98046875}
            << QString();
        QTest::newRow("Sigmoid/Float32")
            << UnaryOp::Sigmoid << DType::Float32 << DType::Float32
            << std::vector<double>{0.07585817575454712, 0.3775406777858734, 0.5,
                                   0.5744425058364868,  0.8175744414329529, 0.9820137619972229}
            << QString();
        QTest::newRow("Sigmoid/Float64")
            << UnaryOp::Sigmoid << DType::Float64 << DType::Float64
            << std::vector<double>{0.07585818002124355, 0.3775406687981454, 0.5,
                                   0.574442516811659,   0.8175744761936437, 0.9820137900379085}
            << QString();
        QTest::newRow("Erf/Bool") << UnaryOp::Erf << DType::Bool << DType::Float32
                                  << std::vector<double>{0.8427007794380188, 0,
                                                         0.8427007794380188, 0,
                                                         0.8427007794380188, 0.8427007794380188}
                                  << QString();
        QTest::newRow("Erf/Int32")
            << UnaryOp::Erf << DType::Int32 << DType::Float32
            << std::vector<double>{-0.9999778866767883, -0.8427007794380188, 0,
                                   0.8427007794380188,  0.9953222870826721,  1}
            << QString();
        QTest::newRow("Erf/Int64")
            << UnaryOp::Erf << DType::Int64 << DType::Float32
            << std::vector<double>{-0.9999778866767883, -0.8427007794380188, 0,
                                   0.8427007794380188,  0.9953222870826721,  1}
            << QString();
        QTest::newRow("Erf/Float16") << UnaryOp::Erf << DType::Float16 << DType::Float16
                                     << std::vector<double>{-0.99951171875, -0.5205078125, 0,
                                                            0.32861328125,  0.96630859375, 1}
                                     << QString();
        QTest::newRow("Erf/BFloat16")
            << UnaryOp::Erf << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{-1, -0.51953125, 0, 0.330078125, 0.96484375, 1} << QString();
        QTest::newRow("Erf/Float32")
            << UnaryOp::Erf << DType::Float32 << DType::Float32
            << std::vector<double>{-0.9995930194854736, -0.5204998850822449, 0,
                                   0.3286267817020416,  0.9661051630973816,  1}
            << QString();
        QTest::newRow("Erf/Float64")
            << UnaryOp::Erf << DType::Float64 << DType::Float64
            << std::vector<double>{-0.999593047982555, -0.5204998778130465, 0,
                                   0.3286267594591274, 0.9661051464753108,  0.9999999845827421}
            << QString();
        QTest::newRow("Erfc/Bool")
            << UnaryOp::Erfc << DType::Bool << DType::Float32
            << std::vector<double>{0.15729920566082, 1, 0.15729920566082, 1, 0.15729920566082,
                                   0.15729920566082}
            << QString();
        QTest::newRow("Erfc/Int32")
            << UnaryOp::Erfc << DType::Int32 << DType::Float32
            << std::vector<double>{1.999977946281433, 1.8427008390426636,   1,
                                   0.15729920566082,  0.004677734803408384, 1.5374598295869735e-12}
            << QString();
        QTest::newRow("Erfc/Int64")
            << UnaryOp::Erfc << DType::Int64 << DType::Float32
            << std::vector<double>{1.999977946281433, 1.8427008390426636,   1,
                                   0.15729920566082,  0.004677734803408384, 1.5374598295869735e-12}
            << QString();
        QTest::newRow("Erfc/Float16")
            << UnaryOp::Erfc << DType::Float16 << DType::Float16
            << std::vector<double>{2, 1.5205078125, 1, 0.67138671875, 0.033905029296875, 0}
            << QString();
        QTest::newRow("Erfc/BFloat16")
            << UnaryOp::Erfc << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{2,        1.5234375,      1,
                                   0.671875, 0.033935546875, 1.5366822481155396e-08}
            << QString();
        QTest::newRow("Erfc/Float32")
            << UnaryOp::Erfc << DType::Float32 << DType::Float32
            << std::vector<double>{1.9995930194854736, 1.5204999446868896, 1,
                                   0.6713732481002808, 0.0338948518037796, 1.5417258580896487e-08}
            << QString();
        QTest::newRow("Erfc/Float64")
            << UnaryOp::Erfc << DType::Float64 << DType::Float64
            << std::vector<double>{1.999593047982555,  1.5204998778130465,   1,
                                   0.6713732405408726, 0.033894853524689274, 1.541725790028002e-08}
            << QString();
        QTest::newRow("Floor/Bool")
            << UnaryOp::Floor << DType::Bool << DType::Bool << std::vector<double>{}
            << QString("\"floor_vml_cpu\" not implemented for 'Bool'");
        QTest::newRow("Floor/Int32") << UnaryOp::Floor << DType::Int32 << DType::Int32
                                     << std::vector<double>{-3, -1, 0, 1, 2, 5} << QString();
        QTest::newRow("Floor/Int64") << UnaryOp::Floor << DType::Int64 << DType::Int64
                                     << std::vector<double>{-3, -1, 0, 1, 2, 5} << QString();
        QTest::newRow("Floor/Float16") << UnaryOp::Floor << DType::Float16 << DType::Float16
                                       << std::vector<double>{-3, -1, 0, 0, 1, 4} << QString();
        QTest::newRow("Floor/BFloat16") << UnaryOp::Floor << DType::BFloat16 << DType::BFloat16
                                        << std::vector<double>{-3, -1, 0, 0, 1, 4} << QString();
        QTest::newRow("Floor/Float32") << UnaryOp::Floor << DType::Float32 << DType::Float32
                                       << std::vector<double>{-3, -1, 0, 0, 1, 4} << QString();
        QTest::newRow("Floor/Float64") << UnaryOp::Floor << DType::Float64 << DType::Float64
                                       << std::vector<double>{-3, -1, 0, 0, 1, 4} << QString();
        QTest::newRow("Ceil/Bool")
            << UnaryOp::Ceil << DType::Bool << DType::Bool << std::vector<double>{}
            << QString("\"ceil_vml_cpu\" not implemented for 'Bool'");
        QTest::newRow("Ceil/Int32") << UnaryOp::Ceil << DType::Int32 << DType::Int32
                                    << std::vector<double>{-3, -1, 0, 1, 2, 5} << QString();
        QTest::newRow("Ceil/Int64") << UnaryOp::Ceil << DType::Int64 << DType::Int64
                                    << std::vector<double>{-3, -1, 0, 1, 2, 5} << QString();
        QTest::newRow("Ceil/Float16") << UnaryOp::Ceil << DType::Float16 << DType::Float16
                                      << std::vector<double>{-2, -0, 0, 1, 2, 4} << QString();
        QTest::newRow("Ceil/BFloat16") << UnaryOp::Ceil << DType::BFloat16 << DType::BFloat16
                                       << std::vector<double>{-2, -0, 0, 1, 2, 4} << QString();
        QTest::newRow("Ceil/Float32") << UnaryOp::Ceil << DType::Float32 << DType::Float32
                                      << std::vector<double>{-2, -0, 0, 1, 2, 4} << QString();
        QTest::newRow("Ceil/Float64") << UnaryOp::Ceil << DType::Float64 << DType::Float64
                                      << std::vector<double>{-2, -0, 0, 1, 2, 4} << QString();
        QTest::newRow("Round/Bool")
            << UnaryOp::Round << DType::Bool << DType::Bool << std::vector<double>{}
            << QString("\"round_vml_cpu\" not implemented for 'Bool'");
        QTest::newRow("Round/Int32") << UnaryOp::Round << DType::Int32 << DType::Int32
                                     << std::vector<double>{-3, -1, 0, 1, 2, 5} << QString();
        QTest::newRow("Round/Int64") << UnaryOp::Round << DType::Int64 << DType::Int64
                                     << std::vector<double>{-3, -1, 0, 1, 2, 5} << QString();
        QTest::newRow("Round/Float16") << UnaryOp::Round << DType::Float16 << DType::Float16
                                       << std::vector<double>{-2, -0, 0, 0, 2, 4} << QString();
        QTest::newRow("Round/BFloat16") << UnaryOp::Round << DType::BFloat16 << DType::BFloat16
                                        << std::vector<double>{-2, -0, 0, 0, 2, 4} << QString();
        QTest::newRow("Round/Float32") << UnaryOp::Round << DType::Float32 << DType::Float32
                                       << std::vector<double>{-2, -0, 0, 0, 2, 4} << QString();
        QTest::newRow("Round/Float64") << UnaryOp::Round << DType::Float64 << DType::Float64
                                       << std::vector<double>{-2, -0, 0, 0, 2, 4} << QString();
        QTest::newRow("Trunc/Bool")
            << UnaryOp::Trunc << DType::Bool << DType::Bool << std::vector<double>{}
            << QString("\"trunc_vml_cpu\" not implemented for 'Bool'");
        QTest::newRow("Trunc/Int32") << UnaryOp::Trunc << DType::Int32 << DType::Int32
                                     << std::vector<double>{-3, -1, 0, 1, 2, 5} << QString();
        QTest::newRow("Trunc/Int64") << UnaryOp::Trunc << DType::Int64 << DType::Int64
                                     << std::vector<double>{-3, -1, 0, 1, 2, 5} << QString();
        QTest::newRow("Trunc/Float16") << UnaryOp::Trunc << DType::Float16 << DType::Float16
                                       << std::vector<double>{-2, -0, 0, 0, 1, 4} << QString();
        QTest::newRow("Trunc/BFloat16") << UnaryOp::Trunc << DType::BFloat16 << DType::BFloat16
                                        << std::vector<double>{-2, -0, 0, 0, 1, 4} << QString();
        QTest::newRow("Trunc/Float32") << UnaryOp::Trunc << DType::Float32 << DType::Float32
                                       << std::vector<double>{-2, -0, 0, 0, 1, 4} << QString();
        QTest::newRow("Trunc/Float64") << UnaryOp::Trunc << DType::Float64 << DType::Float64
                                       << std::vector<double>{-2, -0, 0, 0, 1, 4} << QString();
        QTest::newRow("Frac/Bool")
            << UnaryOp::Frac << DType::Bool << DType::Bool << std::vector<double>{}
            << QString("\"frac_cpu\" not implemented for 'Bool'");
        QTest::newRow("Frac/Int32")
            << UnaryOp::Frac << DType::Int32 << DType::Int32 << std::vector<double>{}
            << QString("\"frac_cpu\" not implemented for 'Int'");
        QTest::newRow("Frac/Int64")
            << UnaryOp::Frac << DType::Int64 << DType::Int64 << std::vector<double>{}
            << QString("\"frac_cpu\" not implemented for 'Long'");
        QTest::newRow("Frac/Float16")
            << UnaryOp::Frac << DType::Float16 << DType::Float16
            << std::vector<double>{-0.5, -0.5, 0, 0.300048828125, 0.5, 0} << QString();
        QTest::newRow("Frac/BFloat16")
            << UnaryOp::Frac << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{-0.5, -0.5, 0, 0.30078125, 0.5, 0} << QString();
        QTest::newRow("Frac/Float32")
            << UnaryOp::Frac << DType::Float32 << DType::Float32
            << std::vector<double>{-0.5, -0.5, 0, 0.30000001192092896, 0.5, 0} << QString();
        QTest::newRow("Frac/Float64")
            << UnaryOp::Frac << DType::Float64 << DType::Float64
            << std::vector<double>{-0.5, -0.5, 0, 0.3, 0.5, 0} << QString();
        QTest::newRow("Sign/Bool") << UnaryOp::Sign << DType::Bool << DType::Bool
                                   << std::vector<double>{1, 0, 1, 0, 1, 1} << QString();
        QTest::newRow("Sign/Int32") << UnaryOp::Sign << DType::Int32 << DType::Int32
                                    << std::vector<double>{-1, -1, 0, 1, 1, 1} << QString();
        QTest::newRow("Sign/Int64") << UnaryOp::Sign << DType::Int64 << DType::Int64
                                    << std::vector<double>{-1, -1, 0, 1, 1, 1} << QString();
        QTest::newRow("Sign/Float16") << UnaryOp::Sign << DType::Float16 << DType::Float16
                                      << std::vector<double>{-1, -1, 0, 1, 1, 1} << QString();
        QTest::newRow("Sign/BFloat16") << UnaryOp::Sign << DType::BFloat16 << DType::BFloat16
                                       << std::vector<double>{-1, -1, 0, 1, 1, 1} << QString();
        QTest::newRow("Sign/Float32") << UnaryOp::Sign << DType::Float32 << DType::Float32
                                      << std::vector<double>{-1, -1, 0, 1, 1, 1} << QString();
        QTest::newRow("Sign/Float64") << UnaryOp::Sign << DType::Float64 << DType::Float64
                                      << std::vector<double>{-1, -1, 0, 1, 1, 1} << QString();
        QTest::newRow("Reciprocal/Bool")
            << UnaryOp::Reciprocal << DType::Bool << DType::Float32
            << std::vector<double>{1, kInf, 1, kInf, 1, 1} << QString();
        QTest::newRow("Reciprocal/Int32")
            << UnaryOp::Reciprocal << DType::Int32 << DType::Float32
            << std::vector<double>{-0.3333333432674408, -1, kInf, 1, 0.5, 0.20000000298023224}
            << QString();
        QTest::newRow("Reciprocal/Int64")
            << UnaryOp::Reciprocal << DType::Int64 << DType::Float32
            << std::vector<double>{-0.3333333432674408, -1, kInf, 1, 0.5, 0.20000000298023224}
            << QString();
        QTest::newRow("Reciprocal/Float16")
            << UnaryOp::Reciprocal << DType::Float16 << DType::Float16
            << std::vector<double>{-0.39990234375, -2, kInf, 3.33203125, 0.66650390625, 0.25}
            << QString();
        QTest::newRow("Reciprocal/BFloat16")
            << UnaryOp::Reciprocal << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{-0.400390625, -2, kInf, 3.328125, 0.66796875, 0.25} << QString();
        QTest::newRow("Reciprocal/Float32")
            << UnaryOp::Reciprocal << DType::Float32 << DType::Float32
            << std::vector<double>{-0.4000000059604645, -2,  kInf, 3.3333332538604736,
                                   0.6666666865348816,  0.25}
            << QString();
        QTest::newRow("Reciprocal/Float64")
            << UnaryOp::Reciprocal << DType::Float64 << DType::Float64
            << std::vector<double>{-0.4, -2, kInf, 3.3333333333333335, 0.6666666666666666, 0.25}
            << QString();
        QTest::newRow("Square/Bool") << UnaryOp::Square << DType::Bool << DType::Int64
                                     << std::vector<double>{1, 0, 1, 0, 1, 1} << QString();
        QTest::newRow("Square/Int32") << UnaryOp::Square << DType::Int32 << DType::Int32
                                      << std::vector<double>{9, 1, 0, 1, 4, 25} << QString();
        QTest::newRow("Square/Int64") << UnaryOp::Square << DType::Int64 << DType::Int64
                                      << std::vector<double>{9, 1, 0, 1, 4, 25} << QString();
        QTest::newRow("Square/Float16")
            << UnaryOp::Square << DType::Float16 << DType::Float16
            << std::vector<double>{6.25, 0.25, 0, 0.09002685546875, 2.25, 16} << QString();
        QTest::newRow("Square/BFloat16")
            << UnaryOp::Square << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{6.25, 0.25, 0, 0.09033203125, 2.25, 16} << QString();
        QTest::newRow("Square/Float32")
            << UnaryOp::Square << DType::Float32 << DType::Float32
            << std::vector<double>{6.25, 0.25, 0, 0.09000000357627869, 2.25, 16} << QString();
        QTest::newRow("Square/Float64")
            << UnaryOp::Square << DType::Float64 << DType::Float64
            << std::vector<double>{6.25, 0.25, 0, 0.09, 2.25, 16} << QString();
        QTest::newRow("Relu/Bool")
            << UnaryOp::Relu << DType::Bool << DType::Bool << std::vector<double>{}
            << QString("Boolean inputs not supported for relu");
        QTest::newRow("Relu/Int32") << UnaryOp::Relu << DType::Int32 << DType::Int32
                                    << std::vector<double>{0, 0, 0, 1, 2, 5} << QString();
        QTest::newRow("Relu/Int64") << UnaryOp::Relu << DType::Int64 << DType::Int64
                                    << std::vector<double>{0, 0, 0, 1, 2, 5} << QString();
        QTest::newRow("Relu/Float16")
            << UnaryOp::Relu << DType::Float16 << DType::Float16
            << std::vector<double>{0, 0, 0, 0.300048828125, 1.5, 4} << QString();
        QTest::newRow("Relu/BFloat16")
            << UnaryOp::Relu << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{0, 0, 0, 0.30078125, 1.5, 4} << QString();
        QTest::newRow("Relu/Float32")
            << UnaryOp::Relu << DType::Float32 << DType::Float32
            << std::vector<double>{0, 0, 0, 0.30000001192092896, 1.5, 4} << QString();
        QTest::newRow("Relu/Float64") << UnaryOp::Relu << DType::Float64 << DType::Float64
                                      << std::vector<double>{0, 0, 0, 0.3, 1.5, 4} << QString();
        QTest::newRow("Silu/Bool")
            << UnaryOp::Silu << DType::Bool << DType::Bool << std::vector<double>{}
            << QString("\"silu_cpu\" not implemented for 'Bool'");
        QTest::newRow("Silu/Int32")
            << UnaryOp::Silu << DType::Int32 << DType::Int32 << std::vector<double>{}
            << QString("\"silu_cpu\" not implemented for 'Int'");
        QTest::newRow("Silu/Int64")
            << UnaryOp::Silu << DType::Int64 << DType::Int64 << std::vector<double>{}
            << QString("\"silu_cpu\" not implemented for 'Long'");
        QTest::newRow("Silu/Float16")
            << UnaryOp::Silu << DType::Float16 << DType::Float16
            << std::vector<double>{-0.189697265625, -0.188720703125, 0,
                                   0.17236328125,   1.2265625,       3.927734375}
            << QString();
        QTest::newRow("Silu/BFloat16") << UnaryOp::Silu << DType::BFloat16 << DType::BFloat16
                                       << std::vector<double>{-0.189453125, -0.1884765625, 0,
                                                              0.1728515625, 1.2265625,     3.921875}
                                       << QString();
        QTest::newRow("Silu/Float32")
            << UnaryOp::Silu << DType::Float32 << DType::Float32
            << std::vector<double>{-0.189645454287529, -0.1887703388929367, 0,
                                   0.172332763671875,  1.226361632347107,   3.9280550479888916}
            << QString();
        QTest::newRow("Silu/Float64")
            << UnaryOp::Silu << DType::Float64 << DType::Float64
            << std::vector<double>{-0.18964545005310887, -0.1887703343990727, 0,
                                   0.1723327550434977,   1.2263617142904655,  3.928055160151634}
            << QString();
        QTest::newRow("Gelu/Bool")
            << UnaryOp::Gelu << DType::Bool << DType::Bool << std::vector<double>{}
            << QString("\"GeluKernelImpl\" not implemented for 'Bool'");
        QTest::newRow("Gelu/Int32")
            << UnaryOp::Gelu << DType::Int32 << DType::Int32 << std::vector<double>{}
            << QString("\"GeluKernelImpl\" not implemented for 'Int'");
        QTest::newRow("Gelu/Int64")
            << UnaryOp::Gelu << DType::Int64 << DType::Int64 << std::vector<double>{}
            << QString("\"GeluKernelImpl\" not implemented for 'Long'");
        QTest::newRow("Gelu/Float16") << UnaryOp::Gelu << DType::Float16 << DType::Float16
                                      << std::vector<double>{-0.01552581787109375, -0.154296875, 0,
                                                             0.1854248046875,      1.3994140625, 4}
                                      << QString();
        QTest::newRow("Gelu/BFloat16")
            << UnaryOp::Gelu << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{-0.0155029296875, -0.154296875, 0, 0.185546875, 1.3984375, 4}
            << QString();
        QTest::newRow("Gelu/Float32")
            << UnaryOp::Gelu << DType::Float32 << DType::Float32
            << std::vector<double>{-0.015524178743362427, -0.1542687714099884, 0,
                                   0.1853734403848648,    1.3997890949249268,  3.999873638153076}
            << QString();
        QTest::newRow("Gelu/Float64")
            << UnaryOp::Gelu << DType::Float64 << DType::Float64
            << std::vector<double>{-0.015524163314440398, -0.15426876936299344, 0,
                                   0.1853734266566858,    1.399789198096713,    3.9998733150326675}
            << QString();
        QTest::newRow("GeluTanh/Bool")
            << UnaryOp::GeluTanh << DType::Bool << DType::Bool << std::vector<double>{}
            << QString("\"GeluKernelImpl\" not implemented for 'Bool'");
        QTest::newRow("GeluTanh/Int32")
            << UnaryOp::GeluTanh << DType::Int32 << DType::Int32 << std::vector<double>{}
            << QString("\"GeluKernelImpl\" not implemented for 'Int'");
        QTest::newRow("GeluTanh/Int64")
            << UnaryOp::GeluTanh << DType::Int64 << DType::Int64 << std::vector<double>{}
            << QString("\"GeluKernelImpl\" not implemented for 'Long'");
        QTest::newRow("GeluTanh/Float16")
            << UnaryOp::GeluTanh << DType::Float16 << DType::Float16
            << std::vector<double>{-0.01508331298828125, -0.154296875, 0,
                                   0.1854248046875,      1.3994140625, 4}
            << QString();
        QTest::newRow("GeluTanh/BFloat16")
            << UnaryOp::GeluTanh << DType::BFloat16 << DType::BFloat16
            << std::vector<double>{-0.01507568359375, -0.154296875, 0, 0.185546875, 1.3984375, 4}
            << QString();
        QTest::newRow("GeluTanh/Float32")
            << UnaryOp::GeluTanh << DType::Float32 << DType::Float32
            << std::vector<double>{-0.015084296464920044, -0.1542859971523285, 0,
                                   0.18537093698978424,   1.3995715379714966,  3.999929904937744}
            << QString();
        QTest::newRow("GeluTanh/Float64")
            << UnaryOp::GeluTanh << DType::Float64 << DType::Float64
            << std::vector<double>{-0.015084266089998577, -0.15428599017485606, 0,
                                   0.18537092354275922,   1.3995715769802328,   3.9999297540518075}
            << QString();
        QTest::newRow("LogicalNot/Bool") << UnaryOp::LogicalNot << DType::Bool << DType::Bool
                                         << std::vector<double>{0, 1, 0, 1, 0, 0} << QString();
        QTest::newRow("LogicalNot/Int32") << UnaryOp::LogicalNot << DType::Int32 << DType::Bool
                                          << std::vector<double>{0, 0, 1, 0, 0, 0} << QString();
        QTest::newRow("LogicalNot/Int64") << UnaryOp::LogicalNot << DType::Int64 << DType::Bool
                                          << std::vector<double>{0, 0, 1, 0, 0, 0} << QString();
        QTest::newRow("LogicalNot/Float16") << UnaryOp::LogicalNot << DType::Float16 << DType::Bool
                                            << std::vector<double>{0, 0, 1, 0, 0, 0} << QString();
        QTest::newRow("LogicalNot/BFloat16")
            << UnaryOp::LogicalNot << DType::BFloat16 << DType::Bool
            << std::vector<double>{0, 0, 1, 0, 0, 0} << QString();
        QTest::newRow("LogicalNot/Float32") << UnaryOp::LogicalNot << DType::Float32 << DType::Bool
                                            << std::vector<double>{0, 0, 1, 0, 0, 0} << QString();
        QTest::newRow("LogicalNot/Float64") << UnaryOp::LogicalNot << DType::Float64 << DType::Bool
                                            << std::vector<double>{0, 0, 1, 0, 0, 0} << QString();
        QTest::newRow("BitwiseNot/Bool") << UnaryOp::BitwiseNot << DType::Bool << DType::Bool
                                         << std::vector<double>{0, 1, 0, 1, 0, 0} << QString();
        QTest::newRow("BitwiseNot/Int32") << UnaryOp::BitwiseNot << DType::Int32 << DType::Int32
                                          << std::vector<double>{2, 0, -1, -2, -3, -6} << QString();
        QTest::newRow("BitwiseNot/Int64") << UnaryOp::BitwiseNot << DType::Int64 << DType::Int64
                                          << std::vector<double>{2, 0, -1, -2, -3, -6} << QString();
        QTest::newRow("BitwiseNot/Float16")
            << UnaryOp::BitwiseNot << DType::Float16 << DType::Float16 << std::vector<double>{}
            << QString("\"bitwise_not_cpu\" not implemented for 'Half'");
        QTest::newRow("BitwiseNot/BFloat16")
            << UnaryOp::BitwiseNot << DType::BFloat16 << DType::BFloat16 << std::vector<double>{}
            << QString("\"bitwise_not_cpu\" not implemented for 'BFloat16'");
        QTest::newRow("BitwiseNot/Float32")
            << UnaryOp::BitwiseNot << DType::Float32 << DType::Float32 << std::vector<double>{}
            << QString("\"bitwise_not_cpu\" not implemented for 'Float'");
        QTest::newRow("BitwiseNot/Float64")
            << UnaryOp::BitwiseNot << DType::Float64 << DType::Float64 << std::vector<double>{}
            << QString("\"bitwise_not_cpu\" not implemented for 'Double'");
        QTest::newRow("IsNan/Bool") << UnaryOp::IsNan << DType::Bool << DType::Bool
                                    << std::vector<double>{0, 0, 0, 0, 0, 0} << QString();
        QTest::newRow("IsNan/Int32") << UnaryOp::IsNan << DType::Int32 << DType::Bool
                                     << std::vector<double>{0, 0, 0, 0, 0, 0} << QString();
        QTest::newRow("IsNan/Int64") << UnaryOp::IsNan << DType::Int64 << DType::Bool
                                     << std::vector<double>{0, 0, 0, 0, 0, 0} << QString();
        QTest::newRow("IsNan/Float16") << UnaryOp::IsNan << DType::Float16 << DType::Bool
                                       << std::vector<double>{0, 0, 0, 0, 0, 0} << QString();
        QTest::newRow("IsNan/BFloat16") << UnaryOp::IsNan << DType::BFloat16 << DType::Bool
                                        << std::vector<double>{0, 0, 0, 0, 0, 0} << QString();
        QTest::newRow("IsNan/Float32") << UnaryOp::IsNan << DType::Float32 << DType::Bool
                                       << std::vector<double>{0, 0, 0, 0, 0, 0} << QString();
        QTest::newRow("IsNan/Float64") << UnaryOp::IsNan << DType::Float64 << DType::Bool
                                       << std::vector<double>{0, 0, 0, 0, 0, 0} << QString();
        QTest::newRow("IsInf/Bool") << UnaryOp::IsInf << DType::Bool << DType::Bool
                                    << std::vector<double>{0, 0, 0, 0, 0, 0} << QString();
        QTest::newRow("IsInf/Int32") << UnaryOp::IsInf << DType::Int32 << DType::Bool
                                     << std::vector<double>{0, 0, 0, 0, 0, 0} << QString();
        QTest::newRow("IsInf/Int64") << UnaryOp::IsInf << DType::Int64 << DType::Bool
                                     << std::vector<double>{0, 0, 0, 0, 0, 0} << QString();
        QTest::newRow("IsInf/Float16") << UnaryOp::IsInf << DType::Float16 << DType::Bool
                                       << std::vector<double>{0, 0, 0, 0, 0, 0} << QString();
        QTest::newRow("IsInf/BFloat16") << UnaryOp::IsInf << DType::BFloat16 << DType::Bool
                                        << std::vector<double>{0, 0, 0, 0, 0, 0} << QString();
        QTest::newRow("IsInf/Float32") << UnaryOp::IsInf << DType::Float32 << DType::Bool
                                       << std::vector<double>{0, 0, 0, 0, 0, 0} << QString();
        QTest::newRow("IsInf/Float64") << UnaryOp::IsInf << DType::Float64 << DType::Bool
                                       << std::vector<double>{0, 0, 0, 0, 0, 0} << QString();
        QTest::newRow("IsFinite/Bool") << UnaryOp::IsFinite << DType::Bool << DType::Bool
                                       << std::vector<double>{1, 1, 1, 1, 1, 1} << QString();
        QTest::newRow("IsFinite/Int32") << UnaryOp::IsFinite << DType::Int32 << DType::Bool
                                        << std::vector<double>{1, 1, 1, 1, 1, 1} << QString();
        QTest::newRow("IsFinite/Int64") << UnaryOp::IsFinite << DType::Int64 << DType::Bool
                                        << std::vector<double>{1, 1, 1, 1, 1, 1} << QString();
        QTest::newRow("IsFinite/Float16") << UnaryOp::IsFinite << DType::Float16 << DType::Bool
                                          << std::vector<double>{1, 1, 1, 1, 1, 1} << QString();
        QTest::newRow("IsFinite/BFloat16") << UnaryOp::IsFinite << DType::BFloat16 << DType::Bool
                                           << std::vector<double>{1, 1, 1, 1, 1, 1} << QString();
        QTest::newRow("IsFinite/Float32") << UnaryOp::IsFinite << DType::Float32 << DType::Bool
                                          << std::vector<double>{1, 1, 1, 1, 1, 1} << QString();
        QTest::newRow("IsFinite/Float64") << UnaryOp::IsFinite << DType::Float64 << DType::Bool
                                          << std::vector<double>{1, 1, 1, 1, 1, 1} << QString();
    }

    void unaryMatchesPyTorch() {
        QFETCH(UnaryOp, op);
        QFETCH(DType, dtype);
        QFETCH(DType, resultDType);
        QFETCH(std::vector<double>, expected);
        QFETCH(QString, error);
        Tensor a = tableInput(dtype);
        if (!error.isEmpty()) {
            ErrorKind kind = ErrorKind::RuntimeError;
            QCOMPARE(errorOf([&] { unary(op, a); }, &kind), error);
            QCOMPARE(kind, ErrorKind::NotImplementedError);
            return;
        }
        Tensor out = unary(op, a);
        QCOMPARE(out.dtype(), resultDType);
        KILN_CHECK(compareTensor(out, expected, DimVector{6}));
    }

    void roundsHalfToEvenAndKeepsSignedZero() {
        Tensor r = unary(UnaryOp::Round, vector({0.5, 1.5, 2.5, -0.5, -2.5}));
        KILN_CHECK(compareTensor(r, {0, 2, 2, 0, -2}, DimVector{5}));
        QVERIFY(std::signbit(values(r)[3]));
        QVERIFY(std::signbit(values(unary(UnaryOp::Neg, vector({0.0})))[0]));
        QVERIFY(!std::signbit(values(unary(UnaryOp::Neg, vector({-0.0}, DType::Float16)))[0]));
        Tensor relu = unary(UnaryOp::Relu, vector({-0.0, kNan, -1}));
        QVERIFY(std::signbit(values(relu)[0]));
        QVERIFY(std::isnan(values(relu)[1]));
        KILN_CHECK(
            compareTensor(unary(UnaryOp::Sign, vector({kNan, -0.0, 2})), {0, 0, 1}, DimVector{3}));
        KILN_CHECK(compareTensor(unary(UnaryOp::Frac, vector({kInf, -kInf, kNan, 2.5})),
                                 {kNan, kNan, kNan, 0.5}, DimVector{4}));
        const double int64Min = -9223372036854775808.0;
        QCOMPARE(item(unary(UnaryOp::Abs, vector({int64Min}, DType::Int64))).toInt(),
                 std::numeric_limits<int64_t>::min());
    }

    void readsStridedInputs() {
        Tensor x = makeTensor({0.5, 1, 2, 3}, DimVector{2, 2});
        KILN_CHECK(compareTensor(
            unary(UnaryOp::Exp, transposed(x)),
            {1.6487212181091309, 7.389056205749512, 2.7182817459106445, 20.08553695678711},
            DimVector{2, 2}));
        // Every other element of a 6-element buffer, starting at offset 1.
        Tensor odd = strided(vector({0, -1, 0, 4, 0, -9}), 1, DimVector{3}, DimVector{2});
        KILN_CHECK(compareTensor(unary(UnaryOp::Abs, odd), {1, 4, 9}, DimVector{3}));
        Tensor expanded = strided(vector({4}, DType::Int64), 0, DimVector{2, 3}, DimVector{0, 0});
        Tensor root = unary(UnaryOp::Sqrt, expanded);
        QCOMPARE(root.dtype(), DType::Float32);
        KILN_CHECK(compareTensor(root, {2, 2, 2, 2, 2, 2}, DimVector{2, 3}));
    }

    void integerInputsUseTheDefaultFloat() {
        setDefaultFloatDType(DType::Float64);
        Tensor root = unary(UnaryOp::Sqrt, vector({4, 2}, DType::Int32));
        setDefaultFloatDType(DType::Float32);
        QCOMPARE(root.dtype(), DType::Float64);
        KILN_CHECK(compareTensor(root, {2, 1.4142135623730951}, DimVector{2}));
        Tensor squared = unary(UnaryOp::Square, vector({1, 0}, DType::Bool));
        QCOMPARE(squared.dtype(), DType::Int64);
        KILN_CHECK(compareTensor(squared, {1, 0}, DimVector{2}));
    }

    void boolInputsReportPyTorchMessages() {
        Tensor mask = vector({1, 0}, DType::Bool);
        QCOMPARE(errorOf([&] { unary(UnaryOp::Neg, mask); }),
                 QString("Negation, the `-` operator, on a bool tensor is not supported. If you "
                         "are trying to invert a mask, use the `~` or `logical_not()` operator "
                         "instead."));
        QCOMPARE(errorOf([&] { unary(UnaryOp::Relu, mask); }),
                 QString("Boolean inputs not supported for relu"));
        KILN_CHECK(compareTensor(unary(UnaryOp::BitwiseNot, mask), {0, 1}, DimVector{2}));
    }

    void recordsPyTorchGradFnNames_data() {
        QTest::addColumn<UnaryOp>("op");
        QTest::addColumn<QString>("gradFn");
        // Generated with type(op(x).grad_fn).__name__ for x requiring grad.
        QTest::newRow("Abs") << UnaryOp::Abs << QString("AbsBackward0");
        QTest::newRow("Neg") << UnaryOp::Neg << QString("NegBackward0");
        QTest::newRow("Exp") << UnaryOp::Exp << QString("ExpBackward0");
        QTest::newRow("Exp2") << UnaryOp::Exp2 << QString("Exp2Backward0");
        QTest::newRow("Expm1") << UnaryOp::Expm1 << QString("Expm1Backward0");
        QTest::newRow("Log") << UnaryOp::Log << QString("LogBackward0");
        QTest::newRow("Log2") << UnaryOp::Log2 << QString("Log2Backward0");
        QTest::newRow("Log10") << UnaryOp::Log10 << QString("Log10Backward0");
        QTest::newRow("Log1p") << UnaryOp::Log1p << QString("Log1PBackward0");
        QTest::newRow("Sqrt") << UnaryOp::Sqrt << QString("SqrtBackward0");
        QTest::newRow("Rsqrt") << UnaryOp::Rsqrt << QString("RsqrtBackward0");
        QTest::newRow("Sin") << UnaryOp::Sin << QString("SinBackward0");
        QTest::newRow("Cos") << UnaryOp::Cos << QString("CosBackward0");
        QTest::newRow("Tan") << UnaryOp::Tan << QString("TanBackward0");
        QTest::newRow("Asin") << UnaryOp::Asin << QString("AsinBackward0");
        QTest::newRow("Acos") << UnaryOp::Acos << QString("AcosBackward0");
        QTest::newRow("Atan") << UnaryOp::Atan << QString("AtanBackward0");
        QTest::newRow("Sinh") << UnaryOp::Sinh << QString("SinhBackward0");
        QTest::newRow("Cosh") << UnaryOp::Cosh << QString("CoshBackward0");
        QTest::newRow("Tanh") << UnaryOp::Tanh << QString("TanhBackward0");
        QTest::newRow("Sigmoid") << UnaryOp::Sigmoid << QString("SigmoidBackward0");
        QTest::newRow("Erf") << UnaryOp::Erf << QString("ErfBackward0");
        QTest::newRow("Erfc") << UnaryOp::Erfc << QString("ErfcBackward0");
        QTest::newRow("Floor") << UnaryOp::Floor << QString("FloorBackward0");
        QTest::newRow("Ceil") << UnaryOp::Ceil << QString("CeilBackward0");
        QTest::newRow("Round") << UnaryOp::Round << QString("RoundBackward0");
        QTest::newRow("Trunc") << UnaryOp::Trunc << QString("TruncBackward0");
        QTest::newRow("Frac") << UnaryOp::Frac << QString("FracBackward0");
        QTest::newRow("Sign") << UnaryOp::Sign << QString("SignBackward0");
        QTest::newRow("Reciprocal") << UnaryOp::Reciprocal << QString("ReciprocalBackward0");
        QTest::newRow("Square") << UnaryOp::Square << QString("PowBackward0");
        QTest::newRow("Relu") << UnaryOp::Relu << QString("ReluBackward0");
        QTest::newRow("Silu") << UnaryOp::Silu << QString("SiluBackward0");
        QTest::newRow("Gelu") << UnaryOp::Gelu << QString("GeluBackward0");
        QTest::newRow("GeluTanh") << UnaryOp::GeluTanh << QString("GeluBackward0");
        QTest::newRow("LogicalNot") << UnaryOp::LogicalNot << QString("");
        QTest::newRow("IsNan") << UnaryOp::IsNan << QString("");
        QTest::newRow("IsInf") << UnaryOp::IsInf << QString("");
        QTest::newRow("IsFinite") << UnaryOp::IsFinite << QString("");
    }

    void recordsPyTorchGradFnNames() {
        QFETCH(UnaryOp, op);
        QFETCH(QString, gradFn);
        Tensor x = leaf({0.5, 1.5});
        Tensor out = unary(op, x);
        QCOMPARE(QString::fromUtf8(out.gradFn().data(), qsizetype(out.gradFn().size())), gradFn);
        QCOMPARE(out.requiresGrad(), !gradFn.isEmpty());
    }

    void inPlaceRecordsGradFnOnNonLeaves() {
        Tensor x = leaf({0.5, 1.5});
        Tensor y = binary(BinaryOp::Mul, x, wrapNumber(Scalar(2.0)));
        unaryInPlace(UnaryOp::Exp, y);
        QCOMPARE(y.gradFn(), "ExpBackward0");
        KILN_CHECK(compareTensor(y, {2.718281828459045, 20.085536923187668}, DimVector{2}));
    }
};

QTEST_APPLESS_MAIN(PointwiseUnaryTest)
#include "tst_pointwise_unary.moc"
