// SPDX-License-Identifier: MIT
// nn functions: layer_norm, gelu, dropout, embedding, scaled_dot_product_attention and one_hot,
// against values from PyTorch 2.x (inputs are pasted as literals), with their grad_fn names and
// PyTorch's exact messages. The losses are in tst_loss.cpp.
#include "structure_testing.h"
#include "tensor/random.h"

#include <cmath>

using namespace kiln::tensor;
using kiln::testing::dims;
using kiln::testing::gradFnOf;
using kiln::testing::iota;
using kiln::testing::makeTensor;
using kiln::testing::requiringGrad;
using kiln::testing::sameTensor;

namespace {

Tensor ar(std::vector<int64_t> sizes, double off = 0, double scale = 1,
          DType dtype = DType::Float32) {
    DimVector s(sizes);
    std::vector<double> v(static_cast<size_t>(checkedNumel(s)));
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = (static_cast<double>(i) - off) * scale;
    return makeTensor(v, s, dtype);
}

/// x = a * sin(a) for a = (arange(24) - 7) * 0.37, shape (2, 3, 4).
Tensor lnInput(DType dtype = DType::Float32) {
    return makeTensor(
        {1.3572748899459839,  1.7683753967285156,  1.7783591747283936,  1.4739036560058594,
         0.9942255616188049,  0.4989730715751648,  0.13379772007465363, 0.0,
         0.13379772007465363, 0.4989730715751648,  0.9942255616188049,  1.4739036560058594,
         1.7783591747283936,  1.7683753967285156,  1.3572748899459839,  0.5345648527145386,
         -0.6236909627914429, -1.9603939056396484, -3.258714199066162,  -4.276301383972168,
         -4.787103652954102,  -4.623915195465088,  -3.714280366897583,  -2.1031007766723633},
        DimVector{2, 3, 4}, dtype);
}

/// q = sin((arange(24) - 5) * 0.2), k = cos((arange(40) - 3) * 0.3), v = (arange(60) - 20) / 10.
Tensor query(DType dtype = DType::Float32) {
    return makeTensor({-0.8414709568023682,  -0.7173560857772827,  -0.5646424889564514,
                       -0.389418363571167,   -0.19866932928562164, 0.0,
                       0.19866932928562164,  0.389418363571167,    0.5646424889564514,
                       0.7173560857772827,   0.8414709568023682,   0.9320390820503235,
                       0.9854497313499451,   0.9995735883712769,   0.9738476276397705,
                       0.9092974066734314,   0.808496356010437,    0.675463080406189,
                       0.5155014395713806,   0.33498820662498474,  0.14112000167369843,
                       -0.05837419256567955, -0.25554120540618896, -0.4425203502178192},
                      DimVector{2, 3, 4}, dtype);
}

Tensor key(DType dtype = DType::Float32) {
    return makeTensor(
        {0.6216099858283997,  0.8253356218338013,   0.9553365111351013,   1.0,
         0.9553365111351013,  0.8253356218338013,   0.6216099858283997,   0.3623577058315277,
         0.07073719799518585, -0.22720204293727875, -0.5048460364341736,  -0.7373937964439392,
         -0.9040721654891968, -0.9899924993515015,  -0.9874798059463501,  -0.8967584371566772,
         -0.725932240486145,  -0.4902609884738922,  -0.2107958048582077,  0.08749917149543762,
         0.3779776692390442,  0.6346929669380188,   0.8347126841545105,   0.9601702690124512,
         0.9998586177825928,  0.9502326250076294,   0.8157250285148621,   0.608351469039917,
         0.3466353118419647,  0.05395523086190224,  -0.24354451894760132, -0.5192883014678955,
         -0.7486464977264404, -0.9111302495002747,  -0.9922253489494324,  -0.9846878051757812,
         -0.8891913294792175, -0.714265763759613,   -0.47553694248199463, -0.19432972371578217},
        DimVector{2, 5, 4}, dtype);
}

Tensor value(DType dtype = DType::Float32) {
    return ar({2, 5, 6}, 20, 0.1, dtype);
}

Tensor labels(std::vector<double> v) {
    return makeTensor(v, DimVector{static_cast<int64_t>(v.size())}, DType::Int64);
}

using Values = std::vector<double>;

} // namespace

class NnTest : public QObject {
    Q_OBJECT

private slots:
    void layerNormLastDim() {
        Tensor w = requiringGrad(makeTensor({0.5, 1, 1.5, 2}, DimVector{4}));
        Tensor out = layerNorm(lnInput(), DimVector{4}, w, ar({4}, 0, 0.1), 1e-5);
        QCOMPARE(gradFnOf(out), QString("NativeLayerNormBackward0"));
        KILN_CHECK(sameTensor(out,
                              {-0.6458348, 1.04694,   1.701959,   -1.013157,  0.762493,  0.3393973,
                               -0.8628007, -1.811698, -0.6338977, -0.4460181, 0.8492894, 3.061908,
                               0.4139444,  0.9081488, 0.1929749,  -2.962708,  0.6941964, 0.5147377,
                               -0.5964395, -2.244342, -0.4599455, -0.6667125, 0.330689,  3.498954},
                              {2, 3, 4}, 1e-5));
    }

    void layerNormShapesAndDtypes() {
        KILN_CHECK(
            sameTensor(layerNorm(lnInput(), DimVector{3, 4}, std::nullopt, std::nullopt, 1e-3),
                       {0.6883977,  1.343809,  1.359726,  0.8743373,  0.1095934,  -0.6799805,
                        -1.262174,  -1.475486, -1.262174, -0.6799805, 0.1095934,  0.8743373,
                        1.412647,   1.408544,  1.239598,  0.9014977,  0.4255017,  -0.1238289,
                        -0.6573857, -1.075573, -1.285492, -1.218428,  -0.8446048, -0.1824756},
                       {2, 3, 4}, 1e-5));
        Tensor strided =
            layerNorm(transpose(lnInput(), 1, 2), DimVector{3}, std::nullopt, std::nullopt, 1e-5);
        KILN_CHECK(sameTensor(strided, {1.030749,   0.3231414,  -1.353891, 1.414194,   -0.7070969,
                                        -0.7070969, 1.20536,    -1.243225, 0.03786475, 0.7070994,
                                        -1.414199,  0.7070994,  1.102079,  0.2164659,  -1.318545,
                                        1.286834,   -0.1354401, -1.151394, 1.409544,   -0.6053444,
                                        -0.8041999, 1.262198,   -1.183492, -0.07870635},
                              {2, 4, 3}, 1e-5));
        const Values lastDim{-1.291669,  0.9469406, 1.001306,     -0.6565779, 1.524986,   0.2393973,
                             -0.7085338, -1.055849, -1.267796,    -0.5460182, 0.4328596,  1.380954,
                             0.8278889,  0.8081489, -0.004683396, -1.631354,  1.388393,   0.4147376,
                             -0.5309597, -1.272171, -0.9198909,   -0.7667123, 0.08712614, 1.599477};
        Tensor f64 =
            layerNorm(lnInput(DType::Float64), DimVector{4}, std::nullopt, std::nullopt, 1e-5);
        QCOMPARE(f64.dtype(), DType::Float64);
        KILN_CHECK(sameTensor(f64, lastDim, {2, 3, 4}, 1e-6));
        Tensor half =
            layerNorm(lnInput(DType::Float16), DimVector{4}, std::nullopt, std::nullopt, 1e-5);
        QCOMPARE(half.dtype(), DType::Float16);
        KILN_CHECK(sameTensor(half, lastDim, {2, 3, 4}));
        Tensor w = makeTensor({0.5, 1, 1.5, 2}, DimVector{4}); // float32 weight, bf16 input
        Tensor bf = layerNorm(lnInput(DType::BFloat16), DimVector{4}, w, std::nullopt, 1e-5);
        QCOMPARE(bf.dtype(), DType::BFloat16);
        KILN_CHECK(sameTensor(bf,
                              {-0.6484375, 0.9296875, 1.523438,    -1.304688,  0.7617188, 0.2363281,
                               -1.0625,    -2.109375, -0.6328125,  -0.546875,  0.6523438, 2.765625,
                               0.4160156,  0.8007812, -0.00289917, -3.265625,  0.6953125, 0.4160156,
                               -0.8007812, -2.546875, -0.4589844,  -0.7695312, 0.1269531, 3.203125},
                              {2, 3, 4}));
    }

    void layerNormErrors() {
        Tensor x = lnInput();
        KILN_CHECK_ERROR(layerNorm(x, DimVector{3}, std::nullopt, std::nullopt, 1e-5),
                         ErrorKind::RuntimeError,
                         "Given normalized_shape=[3], expected input with shape [*, 3], but got "
                         "input of size[2, 3, 4]");
        KILN_CHECK_ERROR(layerNorm(x, DimVector{2, 3, 4, 5}, std::nullopt, std::nullopt, 1e-5),
                         ErrorKind::RuntimeError,
                         "Given normalized_shape=[2, 3, 4, 5], expected input with shape [*, 2, "
                         "3, 4, 5], but got input of size[2, 3, 4]");
        KILN_CHECK_ERROR(layerNorm(x, DimVector{4}, ar({3}), std::nullopt, 1e-5),
                         ErrorKind::RuntimeError,
                         "Expected weight to be of same shape as normalized_shape, but got weight "
                         "of shape [3] and normalized_shape = [4]");
        KILN_CHECK_ERROR(layerNorm(x, DimVector{4}, ar({4}), ar({3}), 1e-5),
                         ErrorKind::RuntimeError,
                         "Expected bias to be of same shape as normalized_shape, but got bias of "
                         "shape [3] and normalized_shape = [4]");
        KILN_CHECK_ERROR(layerNorm(x, {}, std::nullopt, std::nullopt, 1e-5),
                         ErrorKind::RuntimeError,
                         "Expected normalized_shape to be at least 1-dimensional, i.e., containing "
                         "at least one element, but got normalized_shape = []");
        KILN_CHECK_ERROR(layerNorm(iota(DimVector{2, 4}, DType::Int64), DimVector{4}, std::nullopt,
                                   std::nullopt, 1e-5),
                         ErrorKind::NotImplementedError,
                         "\"LayerNormKernelImpl\" not implemented for 'Long'");
        KILN_CHECK_ERROR(
            layerNorm(ar({2, 4}), DimVector{4}, ar({4}, 0, 1, DType::Float64), std::nullopt, 1e-5),
            ErrorKind::RuntimeError,
            "mixed dtype (CPU): expect parameter to have scalar type of Float");
    }

    void geluExactAndTanh() {
        Tensor x = requiringGrad(select(lnInput(), 0, 0));
        Tensor exact = gelu(x, "none");
        QCOMPARE(gradFnOf(exact), QString("GeluBackward0"));
        KILN_CHECK(sameTensor(exact,
                              {1.238721, 1.700294, 1.711364, 1.370356, 0.8350933, 0.3448407,
                               0.0740194, 0.0, 0.0740194, 0.3448407, 0.8350933, 1.370356},
                              {3, 4}));
        KILN_CHECK(sameTensor(gelu(x, "tanh"),
                              {1.238487, 1.700206, 1.711282, 1.370133, 0.8349426, 0.3448236,
                               0.0740193, 0.0, 0.0740193, 0.3448236, 0.8349426, 1.370133},
                              {3, 4}));
        KILN_CHECK_ERROR(gelu(x, "foo"), ErrorKind::RuntimeError,
                         "approximate argument must be either none or tanh.");
    }

    void dropoutMasksAndScales() {
        Generator gen(1234);
        Tensor x = requiringGrad(makeTensor(std::vector<double>(4000, 2.0), DimVector{40, 100}));
        Tensor out = dropout(x, 0.25, true, gen);
        QCOMPARE(gradFnOf(out), QString("MulBackward0"));
        int kept = 0;
        for (double v : kiln::testing::values(out)) {
            QVERIFY2(v == 0.0 || std::abs(v - 2.0 / 0.75) < 1e-6, qPrintable(QString::number(v)));
            kept += v != 0.0;
        }
        // 4000 Bernoulli(0.75) draws: mean 3000, standard deviation ~27.
        QVERIFY2(kept > 2850 && kept < 3150, qPrintable(QString::number(kept)));
        Generator again(1234);
        KILN_CHECK(
            sameTensor(dropout(x, 0.25, true, again), kiln::testing::values(out), {40, 100}));
    }

    void dropoutIdentityAndEdges() {
        Generator gen;
        Tensor x = makeTensor({1.5, -2, 3}, DimVector{3});
        QVERIFY(dropout(x, 0.5, false, gen).sameImpl(x));
        QVERIFY(dropout(x, 0.0, true, gen).sameImpl(x));
        Tensor zero = dropout(x, 1.0, true, gen);
        KILN_CHECK(sameTensor(zero, {0, 0, 0}, {3}));
        QVERIFY(std::signbit(kiln::testing::values(zero)[1])); // x * 0 keeps the sign, as torch
        KILN_CHECK_ERROR(dropout(x, 1.5, true, gen), ErrorKind::ValueError,
                         "dropout probability has to be between 0 and 1, but got 1.5");
        KILN_CHECK_ERROR(dropout(x, -0.1, false, gen), ErrorKind::ValueError,
                         "dropout probability has to be between 0 and 1, but got -0.1");
        KILN_CHECK_ERROR(dropout(iota(DimVector{3}, DType::Int64), 0.5, true, gen),
                         ErrorKind::RuntimeError,
                         "result type Float can't be cast to the desired output type Long");
    }

    void embeddingLooksUpRows() {
        Tensor w = requiringGrad(ar({5, 3}, 4, 0.25));
        Tensor out = embedding(w, makeTensor({0, 4, 2, 2}, DimVector{2, 2}, DType::Int64), {});
        QCOMPARE(gradFnOf(out), QString("EmbeddingBackward0"));
        KILN_CHECK(sameTensor(out, {-1, -0.75, -0.5, 2, 2.25, 2.5, 0.5, 0.75, 1, 0.5, 0.75, 1},
                              {2, 2, 3}));
        KILN_CHECK(sameTensor(embedding(w, scalarTensor(Scalar(int64_t(1)), DType::Int32), 1),
                              {-0.25, 0, 0.25}, {3}));
        KILN_CHECK_ERROR(embedding(w, labels({5}), {}), ErrorKind::IndexError,
                         "index out of range in self");
        KILN_CHECK_ERROR(embedding(w, labels({-1}), {}), ErrorKind::IndexError,
                         "index out of range in self");
        KILN_CHECK_ERROR(embedding(w, makeTensor({1}, DimVector{1}), {}), ErrorKind::RuntimeError,
                         "Expected tensor for argument #1 'indices' to have one of the following "
                         "scalar types: Long, Int; but got torch.FloatTensor instead (while "
                         "checking arguments for embedding)");
        KILN_CHECK_ERROR(embedding(ar({5}), labels({1}), {}), ErrorKind::RuntimeError,
                         "'weight' must be 2-D");
    }

    void attentionVariants_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QList<double>>("expected");
        QTest::newRow("plain") << 0
                               << QList<double>{-0.3323687, -0.2323687, -0.1323687, -0.03236872,
                                                0.06763128, 0.1676313,  -0.868893,  -0.7688931,
                                                -0.668893,  -0.568893,  -0.4688931, -0.368893,
                                                -1.464264,  -1.364264,  -1.264264,  -1.164264,
                                                -1.064264,  -0.9642643, 1.50391,    1.603909,
                                                1.70391,    1.80391,    1.903909,   2.00391,
                                                1.691286,   1.791286,   1.891286,   1.991286,
                                                2.091286,   2.191286,   2.340811,   2.440812,
                                                2.540812,   2.640811,   2.740811,   2.840811};
        QTest::newRow("causal") << 1 << QList<double>{-2.0,      -1.9,      -1.8,      -1.7,
                                                      -1.6,      -1.5,      -1.728482, -1.628482,
                                                      -1.528482, -1.428483, -1.328482, -1.228482,
                                                      -1.678405, -1.578405, -1.478405, -1.378406,
                                                      -1.278406, -1.178406, 1.0,       1.1,
                                                      1.2,       1.3,       1.4,       1.5,
                                                      1.343806,  1.443806,  1.543806,  1.643806,
                                                      1.743806,  1.843806,  1.69886,   1.79886,
                                                      1.89886,   1.99886,   2.09886,   2.19886};
        QTest::newRow("bool-mask-with-empty-row")
            << 2 << QList<double>{-0.4951231,  -0.3951232, -0.2951232, -0.1951232, -0.09512317,
                                  0.004876837, 0.0,        0.0,        0.0,        0.0,
                                  0.0,         0.0,        -1.464264,  -1.364264,  -1.264264,
                                  -1.164264,   -1.064264,  -0.9642643, 1.274449,   1.374449,
                                  1.474449,    1.574449,   1.674449,   1.774449,   0.0,
                                  0.0,         0.0,        0.0,        0.0,        0.0,
                                  2.340811,    2.440812,   2.540812,   2.640811,   2.740811,
                                  2.840811};
        QTest::newRow("float-mask")
            << 3 << QList<double>{-0.1677216,  -0.06772159, 0.03227843, 0.1322784,  0.2322784,
                                  0.3322784,   -0.4773016,  -0.3773015, -0.2773015, -0.1773016,
                                  -0.07730156, 0.02269846,  -1.14204,   -1.04204,   -0.9420402,
                                  -0.8420402,  -0.7420402,  -0.6420402, 1.679107,   1.779107,
                                  1.879107,    1.979107,    2.079107,   2.179107,   1.963312,
                                  2.063312,    2.163312,    2.263312,   2.363312,   2.463312,
                                  2.632714,    2.732714,    2.832714,   2.932714,   3.032714,
                                  3.132714};
        QTest::newRow("scale") << 4
                               << QList<double>{-0.5187361, -0.4187361,  -0.3187361, -0.2187361,
                                                -0.1187361, -0.01873609, -0.8334455, -0.7334455,
                                                -0.6334454, -0.5334455,  -0.4334455, -0.3334455,
                                                -1.168224,  -1.068223,   -0.9682233, -0.8682234,
                                                -0.7682234, -0.6682234,  1.747768,   1.847768,
                                                1.947768,   2.047768,    2.147768,   2.247768,
                                                1.91067,    2.01067,     2.11067,    2.21067,
                                                2.31067,    2.41067,     2.273209,   2.373209,
                                                2.473209,   2.573209,    2.673209,   2.773209};
    }

    void attentionVariants() {
        QFETCH(int, which);
        QFETCH(QList<double>, expected);
        Generator gen;
        std::optional<Tensor> mask;
        if (which == 2)
            mask = makeTensor({1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1}, DimVector{3, 5},
                              DType::Bool);
        if (which == 3) mask = ar({3, 5}, 7, 0.3);
        std::optional<double> scale;
        if (which == 4) scale = 0.25;
        Tensor q = requiringGrad(query());
        Tensor out =
            scaledDotProductAttention(q, key(), value(), mask, 0.0, which == 1, scale, gen);
        QCOMPARE(gradFnOf(out), QString("SqueezeBackward1"));
        KILN_CHECK(sameTensor(out, Values(expected.begin(), expected.end()), {2, 3, 6}));
    }

    void attentionShapesAndDtypes() {
        Generator gen;
        Tensor half = scaledDotProductAttention(query(DType::Float16), key(DType::Float16),
                                                value(DType::Float16), {}, 0.0, false, {}, gen);
        QCOMPARE(half.dtype(), DType::Float16);
        KILN_CHECK(
            sameTensor(select(half, 0, 0),
                       {-0.3322754, -0.2324219, -0.1324463, -0.03234863, 0.06756592, 0.1676025,
                        -0.8691406, -0.769043, -0.6689453, -0.5688477, -0.46875, -0.3688965,
                        -1.464844, -1.364258, -1.264648, -1.164062, -1.064453, -0.9643555},
                       {3, 6}));
        // More queries than keys: the causal mask is aligned top-left (tril of ones(L, S)).
        Tensor tall = scaledDotProductAttention(ar({1, 4, 2}, 3, 0.3), ar({1, 2, 2}, 1, 0.5),
                                                ar({1, 2, 3}), {}, 0.0, true, {}, gen);
        KILN_CHECK(sameTensor(tall,
                              {0, 1, 2, 1.341495, 2.341495, 3.341495, 1.961815, 2.961815, 3.961815,
                               2.445946, 3.445946, 4.445946},
                              {1, 4, 3}));
        Tensor q4 = requiringGrad(unsqueeze(query(), 1));
        Tensor four = scaledDotProductAttention(q4, unsqueeze(key(), 1), unsqueeze(value(), 1), {},
                                                0.0, false, {}, gen);
        QCOMPARE(gradFnOf(four), QString("ScaledDotProductFlashAttentionForCpuBackward0"));
        QCOMPARE(dims(four.sizes()), QList<qint64>({2, 1, 3, 6}));
        Tensor q2 = requiringGrad(select(query(), 0, 0));
        Tensor two = scaledDotProductAttention(q2, select(key(), 0, 0), select(value(), 0, 0), {},
                                               0.0, false, {}, gen);
        QCOMPARE(gradFnOf(two), QString("MmBackward0"));
        KILN_CHECK(sameTensor(
            select(two, 0, 0),
            {-0.3323687, -0.2323687, -0.1323687, -0.03236872, 0.06763128, 0.1676313}, {6}));
    }

    void attentionErrors() {
        Generator gen;
        Tensor q = query(), k = key(), v = value();
        KILN_CHECK_ERROR(scaledDotProductAttention(q, k, v, ar({3, 5}), 0.0, true, {}, gen),
                         ErrorKind::RuntimeError,
                         "_scaled_dot_product_attention: Explicit attn_mask should not be set when "
                         "is_causal=True");
        KILN_CHECK_ERROR(
            scaledDotProductAttention(q, key(DType::Float64), v, {}, 0.0, false, {}, gen),
            ErrorKind::RuntimeError,
            "Expected query, key, and value to have the same dtype, but got query.dtype: float "
            "key.dtype: double and value.dtype: float instead.");
        KILN_CHECK_ERROR(
            scaledDotProductAttention(ar({4}), ar({4}), ar({4}), {}, 0.0, false, {}, gen),
            ErrorKind::RuntimeError,
            "Expected query, key, and value to all be  at least 2 dimensional, but "
            "got query.dim: 1 key.dim: 1 and value.dim: 1 instead.");
        KILN_CHECK_ERROR(scaledDotProductAttention(q, k, v, iota(DimVector{3, 5}, DType::Int64),
                                                   0.0, false, {}, gen),
                         ErrorKind::RuntimeError,
                         "Expected attn_mask dtype to be bool or float or to match query dtype, "
                         "but got attn_mask.dtype: long int and  query.dtype: float instead.");
        KILN_CHECK_ERROR(scaledDotProductAttention(q, k, v, ar({4, 5}), 0.0, false, {}, gen),
                         ErrorKind::RuntimeError,
                         "The size of tensor a (3) must match the size of tensor b (4) at "
                         "non-singleton dimension 2");
        KILN_CHECK_ERROR(scaledDotProductAttention(q, ar({2, 5, 3}), v, {}, 0.0, false, {}, gen),
                         ErrorKind::RuntimeError,
                         "Expected size for first two dimensions of batch2 tensor to be: [2, 4] "
                         "but got: [2, 3].");
    }

    void attentionDropoutKeepsRowsScaled() {
        Generator gen(7);
        Tensor q = makeTensor(std::vector<double>(64 * 4, 0.0), DimVector{64, 4});
        Tensor k = makeTensor(std::vector<double>(8 * 4, 0.0), DimVector{8, 4});
        Tensor v = makeTensor(std::vector<double>(8, 1.0), DimVector{8, 1});
        // Uniform attention (1/8 each) over ones: every output is kept_count / 8 / (1 - p).
        Tensor out = scaledDotProductAttention(q, k, v, {}, 0.5, false, {}, gen);
        double total = 0;
        for (double x : kiln::testing::values(out)) {
            double kept = x * 8 * 0.5;
            QVERIFY2(std::abs(kept - std::round(kept)) < 1e-5, qPrintable(QString::number(x)));
            total += kept;
        }
        QVERIFY2(total > 64 * 8 * 0.5 - 60 && total < 64 * 8 * 0.5 + 60,
                 qPrintable(QString::number(total)));
    }

    void oneHotEncodes() {
        KILN_CHECK(sameTensor(oneHot(labels({0, 2, 1}), -1), {1, 0, 0, 0, 0, 1, 0, 1, 0}, {3, 3}));
        Tensor two = oneHot(makeTensor({0, 2, 1, 1}, DimVector{2, 2}, DType::Int64), 4);
        QCOMPARE(two.dtype(), DType::Int64);
        KILN_CHECK(sameTensor(two, {1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0}, {2, 2, 4}));
        KILN_CHECK(
            sameTensor(oneHot(scalarTensor(Scalar(int64_t(2)), DType::Int64), 3), {0, 0, 1}, {3}));
        QCOMPARE(dims(oneHot(Tensor::empty(DimVector{0}, DType::Int64), 3).sizes()),
                 QList<qint64>({0, 3}));
        KILN_CHECK_ERROR(oneHot(labels({0, -1}), -1), ErrorKind::RuntimeError,
                         "Class values must be non-negative.");
        KILN_CHECK_ERROR(oneHot(labels({0, 3}), 3), ErrorKind::RuntimeError,
                         "Class values must be smaller than num_classes.");
        KILN_CHECK_ERROR(oneHot(makeTensor({0}, DimVector{1}, DType::Int32), -1),
                         ErrorKind::RuntimeError,
                         "one_hot is only applicable to index tensor of type LongTensor.");
        KILN_CHECK_ERROR(oneHot(Tensor::empty(DimVector{0}, DType::Int64), -1),
                         ErrorKind::RuntimeError,
                         "Can not infer total number of classes from empty tensor.");
    }
};

QTEST_APPLESS_MAIN(NnTest)
#include "tst_nn.moc"
