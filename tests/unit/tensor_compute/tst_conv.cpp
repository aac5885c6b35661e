// SPDX-License-Identifier: MIT
// conv2d's two ways (image-to-columns with a product, oneDNN's convolution) against a direct
// float64 loop on random inputs: strides, padding (also where the output size's floor drops
// a partial window), dilation, groups, bias, one image, batches whose planes take either
// product layout. Whichever way Auto picks on this CPU is one of the two checked here.
#include "compute_testing.h"
#include "tensor/conv.h"
#include "tensor/conv_backend.h"
#include "tensor/convert.h"
#include "tensor/ops.h"
#include "tensor/random.h"

#include <QtTest>

using namespace kiln::tensor;
using namespace kiln::testing;

namespace {

struct Case {
    const char* name;
    DimVector input;  ///< (N, C, H, W) or (C, H, W)
    DimVector weight; ///< (O, C / groups, kH, kW)
    ConvParams params;
    bool bias;
};

/// The convolution by its definition, in float64.
Tensor directConv(const Tensor& input, const Tensor& weight, const Tensor* bias,
                  const ConvParams& p) {
    Tensor x = contiguous(toDType(input.dim() == 3 ? unsqueeze(input, 0) : input, DType::Float64));
    Tensor w = contiguous(toDType(weight, DType::Float64));
    const int64_t n = x.size(0), c = x.size(1), h = x.size(2), wd = x.size(3);
    const int64_t o = w.size(0), cg = w.size(1), kh = w.size(2), kw = w.size(3);
    const int64_t oh = (h + 2 * p.padding[0] - p.dilation[0] * (kh - 1) - 1) / p.stride[0] + 1;
    const int64_t ow = (wd + 2 * p.padding[1] - p.dilation[1] * (kw - 1) - 1) / p.stride[1] + 1;
    Tensor out = Tensor::empty(DimVector{n, o, oh, ow}, DType::Float64);
    const double* xs = x.data<double>();
    const double* ws = w.data<double>();
    double* ys = out.data<double>();
    Tensor b = bias ? contiguous(toDType(*bias, DType::Float64)) : Tensor();
    const int64_t og = o / p.groups;
    for (int64_t bi = 0; bi < n; ++bi)
        for (int64_t oc = 0; oc < o; ++oc)
            for (int64_t y = 0; y < oh; ++y)
                for (int64_t xo = 0; xo < ow; ++xo) {
                    double sum = bias ? b.data<double>()[oc] : 0.0;
                    const int64_t g = oc / og;
                    for (int64_t ic = 0; ic < cg; ++ic)
                        for (int64_t i = 0; i < kh; ++i)
                            for (int64_t j = 0; j < kw; ++j) {
                                int64_t hi = y * p.stride[0] - p.padding[0] + i * p.dilation[0];
                                int64_t wi = xo * p.stride[1] - p.padding[1] + j * p.dilation[1];
                                if (hi < 0 || hi >= h || wi < 0 || wi >= wd) continue;
                                sum += xs[((bi * c + g * cg + ic) * h + hi) * wd + wi] *
                                       ws[((oc * cg + ic) * kh + i) * kw + j];
                            }
                    ys[((bi * o + oc) * oh + y) * ow + xo] = sum;
                }
    return input.dim() == 3 ? squeeze(out, std::array<int64_t, 1>{0}) : out;
}

struct AlgorithmScope {
    ConvAlgorithm previous = convAlgorithm();
    explicit AlgorithmScope(ConvAlgorithm a) { setConvAlgorithm(a); }
    ~AlgorithmScope() { setConvAlgorithm(previous); }
};

} // namespace

class ConvTest : public QObject {
    Q_OBJECT

private slots:
    void bothWaysMatchTheDefinition_data() {
        QTest::addColumn<int>("index");
        for (int i = 0; i < static_cast<int>(cases().size()); ++i)
            QTest::newRow(cases()[static_cast<size_t>(i)].name) << i;
    }

    void bothWaysMatchTheDefinition() {
        QFETCH(int, index);
        const Case& c = cases()[static_cast<size_t>(index)];
        Generator gen(1234 + static_cast<uint64_t>(index));
        Tensor x = randn(c.input, TensorOptions{}, gen);
        Tensor w = randn(c.weight, TensorOptions{}, gen);
        std::optional<Tensor> b;
        if (c.bias) b = randn(DimVector{c.weight[0]}, TensorOptions{}, gen);
        Tensor want = directConv(x, w, b ? &*b : nullptr, c.params);
        for (ConvAlgorithm a : {ConvAlgorithm::ImageToColumns, ConvAlgorithm::OneDnn}) {
            AlgorithmScope scope(a);
            Tensor got = conv2d(x, w, b, c.params);
            QCOMPARE(got.sizes(), want.sizes());
            QCOMPARE(got.dtype(), DType::Float32);
            QVERIFY2(allclose(toDType(got, DType::Float64), want, 1e-4, 1e-4, false),
                     a == ConvAlgorithm::OneDnn ? "oneDNN" : "image-to-columns");
        }
        // oneDNN itself, so a refusal (false: conv2d would fall back) fails here.
        Tensor batch = contiguous(x.dim() == 3 ? unsqueeze(x, 0) : x);
        Tensor wantBatch = want.dim() == 3 ? unsqueeze(want, 0) : want;
        Tensor out = Tensor::empty(wantBatch.sizes(), DType::Float32);
        QVERIFY(detail::onednnConv2d(batch, contiguous(w), b ? &*b : nullptr, c.params, out));
        QVERIFY(allclose(toDType(out, DType::Float64), wantBatch, 1e-4, 1e-4, false));
    }

    void sixteenBitFloatsComputeInFloat32() {
        // conv2d computes bfloat16 in float32 copies, whichever way is forced.
        AlgorithmScope scope(ConvAlgorithm::OneDnn);
        Generator gen(7);
        Tensor x = toDType(randn(DimVector{1, 2, 5, 5}, TensorOptions{}, gen), DType::BFloat16);
        Tensor w = toDType(randn(DimVector{3, 2, 3, 3}, TensorOptions{}, gen), DType::BFloat16);
        Tensor got = conv2d(x, w, std::nullopt, ConvParams{});
        QCOMPARE(got.dtype(), DType::BFloat16);
        QVERIFY(allclose(toDType(got, DType::Float64), directConv(x, w, nullptr, ConvParams{}),
                         2e-2, 5e-2, false));
    }

private:
    static const std::vector<Case>& cases() {
        static const std::vector<Case> all = {
            {"3x3 same", {2, 4, 9, 9}, {6, 4, 3, 3}, {{1, 1}, {1, 1}, {1, 1}, 1}, true},
            {"stem 7x7/2", {2, 3, 19, 17}, {8, 3, 7, 7}, {{2, 2}, {3, 3}, {1, 1}, 1}, false},
            {"floor drops a window",
             {1, 3, 10, 10},
             {4, 3, 3, 3},
             {{3, 3}, {1, 1}, {1, 1}, 1},
             true},
            {"dilated", {2, 3, 12, 11}, {5, 3, 3, 3}, {{1, 1}, {2, 2}, {2, 2}, 1}, false},
            {"grouped", {2, 6, 8, 8}, {9, 2, 3, 3}, {{1, 2}, {1, 0}, {1, 1}, 3}, true},
            {"depthwise", {1, 4, 7, 7}, {4, 1, 3, 3}, {{1, 1}, {1, 1}, {1, 1}, 4}, false},
            {"1x1 stride 2", {3, 8, 16, 16}, {16, 8, 1, 1}, {{2, 2}, {0, 0}, {1, 1}, 1}, false},
            {"large planes", {2, 8, 24, 24}, {8, 8, 3, 3}, {{1, 1}, {1, 1}, {1, 1}, 1}, true},
            {"one image", {3, 6, 6}, {2, 3, 2, 2}, {{1, 1}, {0, 0}, {1, 1}, 1}, true},
            {"asymmetric", {2, 2, 9, 5}, {3, 2, 3, 1}, {{2, 1}, {2, 0}, {1, 1}, 1}, true},
        };
        return all;
    }
};

QTEST_GUILESS_MAIN(ConvTest)
#include "tst_conv.moc"
