// SPDX-License-Identifier: MIT
// The matrix-multiply kernel under every operand layout it treats differently: row-major,
// column-major (transposed), padded rows (sliced columns), non-unit strides in both dims (which
// need a copy), stride-0 broadcast batches, and odd sizes, for every dtype; alpha and beta; the
// bias and activation epilogues the libraries fuse (oneDNN's post-ops); products big enough
// for the libraries' blocked, threaded kernels. The reference is a float64 triple loop.
#include "structure_testing.h"
#include "tensor/gemm.h"

#include <array>
#include <cmath>
#include <limits>

using namespace kiln::tensor;
using kiln::testing::makeTensor;
using kiln::testing::sameTensor;
using kiln::testing::values;

namespace {

/// Deterministic values in [-2, 2) with a few digits, exact in every float dtype for ints.
Tensor filled(IntList sizes, DType dtype, int seed) {
    std::vector<double> v(static_cast<size_t>(checkedNumel(sizes)));
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = static_cast<double>(static_cast<int>((i * 37 + seed * 11) % 17) - 8) / 4.0;
    if (!isFloating(dtype))
        for (double& x : v)
            x = std::round(x * 4);
    return makeTensor(v, sizes, dtype);
}

/// An (rows x cols) matrix of `dtype` laid out as requested, holding filled() values.
Tensor laidOut(int64_t rows, int64_t cols, DType dtype, int layout, int seed) {
    switch (layout) {
    case 0: // row-major
        return filled(DimVector{rows, cols}, dtype, seed);
    case 1: // column-major: the transpose of a row-major (cols x rows)
        return t(contiguous(t(filled(DimVector{rows, cols}, dtype, seed))));
    case 2: { // padded rows: a column slice of a wider matrix
        Tensor wide = Tensor::empty(DimVector{rows, cols + 3}, dtype);
        Tensor view = slice(wide, 1, 1, cols + 1, 1);
        copyInto(view, filled(DimVector{rows, cols}, dtype, seed));
        return view;
    }
    default: { // stride 2 in both dims: no BLAS layout fits, the kernel must copy
        Tensor big = Tensor::empty(DimVector{rows * 2, cols * 2}, dtype);
        Tensor view = slice(slice(big, 0, 0, std::nullopt, 2), 1, 0, std::nullopt, 2);
        copyInto(view, filled(DimVector{rows, cols}, dtype, seed));
        return view;
    }
    }
}

std::vector<double> referenceProduct(const Tensor& a, const Tensor& b) {
    const int64_t n = a.sizes()[0], m = a.sizes()[1], p = b.sizes()[1];
    std::vector<double> va = values(a), vb = values(b), out(static_cast<size_t>(n * p), 0.0);
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < p; ++j)
            for (int64_t k = 0; k < m; ++k)
                out[i * p + j] += va[i * m + k] * vb[k * p + j];
    return out;
}

} // namespace

class GemmTest : public QObject {
    Q_OBJECT

private slots:
    void layouts_data() {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<int>("layoutA");
        QTest::addColumn<int>("layoutB");
        for (DType d : {DType::Float32, DType::Float64, DType::Float16, DType::BFloat16,
                        DType::Int32, DType::Int64})
            for (int la = 0; la < 4; ++la)
                for (int lb = 0; lb < 4; ++lb)
                    QTest::addRow("%s-%d-%d", dtypeName(d).data(), la, lb)
                        << static_cast<int>(d) << la << lb;
    }

    void layouts() {
        QFETCH(int, dtype);
        QFETCH(int, layoutA);
        QFETCH(int, layoutB);
        const DType d = static_cast<DType>(dtype);
        for (auto [n, m, p] : {std::array<int64_t, 3>{7, 13, 5}, std::array<int64_t, 3>{1, 9, 1},
                               std::array<int64_t, 3>{6, 1, 4}}) {
            Tensor a = laidOut(n, m, d, layoutA, 1);
            Tensor b = laidOut(m, p, d, layoutB, 2);
            Tensor out = mm(a, b);
            QCOMPARE(out.dtype(), d);
            // 16-bit results are the float32 product rounded once: relative 2^-8 at worst.
            double tol = d == DType::BFloat16 ? 8e-3 : d == DType::Float16 ? 1e-3 : 1e-6;
            KILN_CHECK(sameTensor(out, referenceProduct(a, b), {n, p}, tol));
        }
    }

    void broadcastBatches() {
        Tensor a = filled(DimVector{3, 4, 5}, DType::Float32, 3);
        Tensor shared = filled(DimVector{5, 2}, DType::Float32, 4);
        Tensor b = expand(unsqueeze(shared, 0), DimVector{3, 5, 2}); // batch stride 0
        Tensor out = bmm(a, b);
        for (int64_t i = 0; i < 3; ++i)
            KILN_CHECK(sameTensor(select(out, 0, i), referenceProduct(select(a, 0, i), shared),
                                  {4, 2}, 1e-6));
    }

    void largeProductMatchesReference_data() {
        QTest::addColumn<int>("dtype");
        for (DType d : {DType::Float64, DType::Float32, DType::BFloat16})
            QTest::addRow("%s", dtypeName(d).data()) << static_cast<int>(d);
    }

    void largeProductMatchesReference() {
        // Big enough for the libraries' blocked kernels and threads.
        QFETCH(int, dtype);
        const DType d = static_cast<DType>(dtype);
        Tensor a = t(filled(DimVector{150, 130}, d, 5)); // 130 x 150, column-major
        Tensor b = filled(DimVector{150, 120}, d, 6);
        double tol = d == DType::Float64 ? 1e-12 : d == DType::Float32 ? 1e-6 : 8e-3;
        KILN_CHECK(sameTensor(mm(a, b), referenceProduct(a, b), {130, 120}, tol));
    }

    void broadcastBatchOnTheLeft() {
        Tensor shared = filled(DimVector{4, 5}, DType::Float32, 7);
        Tensor a = expand(unsqueeze(shared, 0), DimVector{3, 4, 5}); // batch stride 0
        Tensor b = filled(DimVector{3, 5, 2}, DType::Float32, 8);
        Tensor out = bmm(a, b);
        for (int64_t i = 0; i < 3; ++i)
            KILN_CHECK(sameTensor(select(out, 0, i), referenceProduct(shared, select(b, 0, i)),
                                  {4, 2}, 1e-6));
    }

    void alphaAndBetaScaleTheProductAndTheOutput_data() {
        QTest::addColumn<int>("dtype");
        for (DType d : {DType::Float32, DType::Float64, DType::BFloat16})
            QTest::addRow("%s", dtypeName(d).data()) << static_cast<int>(d);
    }

    void alphaAndBetaScaleTheProductAndTheOutput() {
        QFETCH(int, dtype);
        const DType d = static_cast<DType>(dtype);
        Tensor a = filled(DimVector{6, 9}, d, 1), b = filled(DimVector{9, 4}, d, 2);
        Tensor c = filled(DimVector{6, 4}, d, 3);
        std::vector<double> ab = referenceProduct(a, b), vc = values(c), want(ab.size());
        for (size_t i = 0; i < want.size(); ++i)
            want[i] = 0.5 * vc[i] + 2.0 * ab[i];
        double tol = d == DType::BFloat16 ? 2e-2 : 1e-6;
        KILN_CHECK(sameTensor(addmm(c, a, b, Scalar(0.5), Scalar(2.0)), want, {6, 4}, tol));
        // beta = 0 ignores the bias, NaN included, as BLAS does.
        Tensor nan = full(DimVector{6, 4}, Scalar(std::numeric_limits<double>::quiet_NaN()), {d});
        KILN_CHECK(
            sameTensor(addmm(nan, a, b, Scalar(int64_t(0)), Scalar(int64_t(1))), ab, {6, 4}, tol));
    }

    void aRowBiasIsAddedByTheProduct_data() {
        QTest::addColumn<int>("dtype");
        for (DType d : {DType::Float32, DType::Float64, DType::BFloat16, DType::Float16})
            QTest::addRow("%s", dtypeName(d).data()) << static_cast<int>(d);
    }

    void aRowBiasIsAddedByTheProduct() {
        // linear(x, w, bias): the bias is one value per output column.
        QFETCH(int, dtype);
        const DType d = static_cast<DType>(dtype);
        Tensor x = filled(DimVector{33, 20}, d, 1), w = filled(DimVector{17, 20}, d, 2);
        Tensor bias = filled(DimVector{17}, d, 3);
        std::vector<double> want = referenceProduct(x, t(w)), vb = values(bias);
        for (size_t i = 0; i < want.size(); ++i)
            want[i] += vb[i % 17];
        double tol = d == DType::BFloat16 ? 2e-2 : d == DType::Float16 ? 2e-3 : 1e-6;
        KILN_CHECK(sameTensor(linear(x, w, bias), want, {33, 17}, tol));
        KILN_CHECK(
            sameTensor(addmm(unsqueeze(bias, 0), x, t(w), Scalar(int64_t(1)), Scalar(int64_t(1))),
                       want, {33, 17}, tol));
    }

    void fusedEpiloguesApplyTheirFunction_data() {
        QTest::addColumn<int>("epilogue");
        QTest::addColumn<int>("dtype");
        for (auto e : {detail::GemmEpilogue::Relu, detail::GemmEpilogue::Gelu,
                       detail::GemmEpilogue::GeluTanh})
            for (DType d : {DType::Float32, DType::Float64})
                QTest::addRow("%d-%s", static_cast<int>(e), dtypeName(d).data())
                    << static_cast<int>(e) << static_cast<int>(d);
    }

    void fusedEpiloguesApplyTheirFunction() {
        QFETCH(int, epilogue);
        QFETCH(int, dtype);
        const auto e = static_cast<detail::GemmEpilogue>(epilogue);
        const DType d = static_cast<DType>(dtype);
        Tensor a = filled(DimVector{40, 24}, d, 4), b = filled(DimVector{24, 36}, d, 5);
        Tensor bias = filled(DimVector{36}, d, 6);
        Tensor out = Tensor::empty(DimVector{40, 36}, d);
        detail::gemmBiasEpilogue(a, b, &bias, e, out);
        std::vector<double> want = referenceProduct(a, b), vb = values(bias);
        for (size_t i = 0; i < want.size(); ++i) {
            double x = want[i] + vb[i % 36];
            if (e == detail::GemmEpilogue::Relu)
                want[i] = x > 0 ? x : 0;
            else if (e == detail::GemmEpilogue::Gelu)
                want[i] = 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
            else
                want[i] =
                    0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
        }
        KILN_CHECK(sameTensor(out, want, {40, 36}, d == DType::Float64 ? 1e-9 : 1e-5));
    }

    void theLibrariesSayWhatTheyRun() {
        const MatmulLibraries& l = matmulLibraries();
        QVERIFY2(l.float32.rfind("oneDNN ", 0) == 0, l.float32.c_str());
        QVERIFY2(l.float32.find('(') != std::string::npos, l.float32.c_str()); // its code path
        QVERIFY2(l.bfloat16.find("native") != std::string::npos ||
                     l.bfloat16.find("through float32") != std::string::npos,
                 l.bfloat16.c_str());
        QVERIFY2(l.float64.rfind("BLIS ", 0) == 0, l.float64.c_str());
    }
};

QTEST_APPLESS_MAIN(GemmTest)
#include "tst_gemm.moc"
