// SPDX-License-Identifier: MIT
// The vectorised elementary functions (vec_math.h): their error against a more precise
// reference stays within each function's ULP budget (docs/compiler.md lists them), special
// values behave as in libm, the AVX2 and AVX-512 code paths compute the same bits, and an
// element's value depends neither on its position nor on the layout it is read from.
#include "support/cpu_info.h"
#include "tensor/vec_math.h"

#include <QtTest>
#include <bit>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <vector>

using kiln::CpuIsa;
using kiln::tensor::BFloat16;
using kiln::tensor::Half;
using kiln::tensor::detail::VecMath;
using kiln::tensor::detail::vecMathKernels;

namespace {

struct Function {
    const char* name;
    VecMath op;
    std::function<long double(long double)> exact; ///< the reference, in extended precision
    double floatBudget;                            ///< ulp of float results
    double doubleBudget;                           ///< ulp of double results
    float lo, hi;                                  ///< inputs swept in float
    /// The formula computes x * (1 + f(x)) in the input's precision, as PyTorch does: where
    /// 1 + f(x) cancels (large negative x), the error is bounded by one ulp of x instead.
    bool cancelsNearMinusInfinity = false;
};

long double geluOf(long double x) {
    return x * 0.5L * (1.0L + std::erf(x * 0.70710678118654752440L));
}
long double geluTanhOf(long double x) {
    const long double beta = 0.79788456080286535588L, kappa = 0.044715L;
    return 0.5L * x * (1.0L + std::tanh(beta * (x + kappa * x * x * x)));
}

// Budgets: SLEEF's documented bound for its u10 functions (1.0 ulp) and u15 (erfc, 1.5 ulp);
// Kiln's float exp is within 1 ulp (tst_fast_math). The compositions (sigmoid, SiLU, GELU) are
// evaluated in the input's precision as PyTorch does, so they carry a few roundings on top;
// their budgets are what the formula can lose, with the measured worst case below it.
const std::vector<Function>& functions() {
    static const std::vector<Function> f = {
        {"exp", VecMath::Exp, [](long double x) { return std::exp(x); }, 1.0, 1.0, -104, 89},
        {"sin", VecMath::Sin, [](long double x) { return std::sin(x); }, 1.0, 1.0, -1e4f, 1e4f},
        {"cos", VecMath::Cos, [](long double x) { return std::cos(x); }, 1.0, 1.0, -1e4f, 1e4f},
        {"tan", VecMath::Tan, [](long double x) { return std::tan(x); }, 1.0, 1.0, -1e3f, 1e3f},
        {"tanh", VecMath::Tanh, [](long double x) { return std::tanh(x); }, 1.0, 1.0, -20, 20},
        {"erf", VecMath::Erf, [](long double x) { return std::erf(x); }, 1.0, 1.0, -6, 6},
        {"erfc", VecMath::Erfc, [](long double x) { return std::erfc(x); }, 1.5, 1.5, -6, 9},
        {"log", VecMath::Log, [](long double x) { return std::log(x); }, 1.0, 1.0, 1e-30f, 1e30f},
        {"log2", VecMath::Log2, [](long double x) { return std::log2(x); }, 1.0, 1.0, 1e-30f,
         1e30f},
        {"log10", VecMath::Log10, [](long double x) { return std::log10(x); }, 1.0, 1.0, 1e-30f,
         1e30f},
        {"log1p", VecMath::Log1p, [](long double x) { return std::log1p(x); }, 1.0, 1.0, -0.99f,
         1e20f},
        {"expm1", VecMath::Expm1, [](long double x) { return std::expm1(x); }, 1.0, 1.0, -80, 80},
        {"exp2", VecMath::Exp2, [](long double x) { return std::exp2(x); }, 1.0, 1.0, -120, 120},
        {"asin", VecMath::Asin, [](long double x) { return std::asin(x); }, 1.0, 1.0, -1, 1},
        {"acos", VecMath::Acos, [](long double x) { return std::acos(x); }, 1.0, 1.0, -1, 1},
        {"atan", VecMath::Atan, [](long double x) { return std::atan(x); }, 1.0, 1.0, -1e4f, 1e4f},
        {"sinh", VecMath::Sinh, [](long double x) { return std::sinh(x); }, 1.0, 1.0, -80, 80},
        {"cosh", VecMath::Cosh, [](long double x) { return std::cosh(x); }, 1.0, 1.0, -80, 80},
        {"sigmoid", VecMath::Sigmoid, [](long double x) { return 1.0L / (1.0L + std::exp(-x)); },
         3.0, 3.0, -80, 80},
        {"silu", VecMath::Silu, [](long double x) { return x / (1.0L + std::exp(-x)); }, 4.0, 4.0,
         -80, 80},
        {"gelu", VecMath::Gelu, geluOf, 4.0, 4.0, -8, 8, true},
        {"gelu_tanh", VecMath::GeluTanh, geluTanhOf, 4.0, 4.0, -8, 8, true},
    };
    return f;
}

/// |got - exact| in units of the last place of T at exact.
template <typename T>
double ulpError(T got, long double exact) {
    const T rounded = T(exact);
    if (std::isinf(rounded) || rounded == 0) return got == rounded ? 0.0 : INFINITY;
    const T up = std::nextafter(std::abs(rounded), std::numeric_limits<T>::infinity());
    const long double ulp = (long double)up - (long double)std::abs(rounded);
    return double(std::abs((long double)got - exact) / ulp);
}

template <typename T>
std::vector<T> apply(CpuIsa isa, VecMath op, const std::vector<T>& in, int64_t stride = 1) {
    std::vector<T> out((in.size() + size_t(stride) - 1) / size_t(stride));
    auto kernel = vecMathKernels(isa).forType<T>();
    kernel(op, reinterpret_cast<const char*>(in.data()), int64_t(sizeof(T)) * stride,
           reinterpret_cast<char*>(out.data()), int64_t(sizeof(T)), int64_t(out.size()));
    return out;
}

/// Inputs spread over [lo, hi] (uniform and log-spaced) plus the edges.
template <typename T>
std::vector<T> inputs(float lo, float hi, size_t count) {
    std::mt19937_64 gen(42);
    std::uniform_real_distribution<double> uniform(lo, hi);
    std::vector<T> v;
    for (size_t i = 0; i < count / 2; ++i)
        v.push_back(T(uniform(gen)));
    std::uniform_real_distribution<double> exponent(
        -20, std::log2(std::max(std::abs(lo), std::abs(hi))));
    for (size_t i = 0; i < count / 2; ++i) {
        double x = std::exp2(exponent(gen)) * (i % 2 ? 1 : -1);
        if (x >= lo && x <= hi) v.push_back(T(x));
    }
    v.push_back(T(lo));
    v.push_back(T(hi));
    v.push_back(T(0));
    return v;
}

std::vector<CpuIsa> supportedIsas() {
    std::vector<CpuIsa> out = {CpuIsa::Baseline};
    if (kiln::supportedIsa() >= CpuIsa::Avx2) out.push_back(CpuIsa::Avx2);
    if (kiln::supportedIsa() >= CpuIsa::Avx512) out.push_back(CpuIsa::Avx512);
    return out;
}

template <typename T>
void checkBudget(const Function& f, CpuIsa isa, double budget) {
    std::vector<T> x = inputs<T>(f.lo, f.hi, 20000);
    std::vector<T> y = apply(isa, f.op, x);
    double worst = 0;
    T worstAt = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        const long double exact = f.exact((long double)x[i]);
        if (std::isnan(double(exact))) {
            QVERIFY2(std::isnan(y[i]), f.name);
            continue;
        }
        double e = ulpError(y[i], exact);
        if (f.cancelsNearMinusInfinity && x[i] < 0) {
            const T ulpOfX =
                std::nextafter(std::abs(x[i]), std::numeric_limits<T>::infinity()) - std::abs(x[i]);
            if (std::abs((long double)y[i] - exact) <= (long double)ulpOfX) e = 0;
        }
        if (e > worst) {
            worst = e;
            worstAt = x[i];
        }
    }
    // The measured worst case, for docs/compiler.md's table of budgets.
    qInfo("%s %s %s: worst %.3f ulp", f.name, kiln::isaName(isa),
          sizeof(T) == 4 ? "float" : "double", worst);
    QVERIFY2(worst <= budget, qPrintable(QString("%1 (%2, %3): %4 ulp at %5, budget %6")
                                             .arg(f.name)
                                             .arg(kiln::isaName(isa))
                                             .arg(sizeof(T) == 4 ? "float" : "double")
                                             .arg(worst)
                                             .arg(double(worstAt), 0, 'g', 17)
                                             .arg(budget)));
}

} // namespace

class VecMathTest : public QObject {
    Q_OBJECT

private slots:
    void everyFunctionIsWithinItsUlpBudget() {
        for (CpuIsa isa : supportedIsas())
            for (const Function& f : functions()) {
                checkBudget<float>(f, isa, f.floatBudget);
                checkBudget<double>(f, isa, f.doubleBudget);
            }
    }

    void floatExpIsCorrectlyRoundedOnEveryPath() {
        // PyTorch prints exp(4) as 54.5981 (its scalar exp is glibc's, correctly rounded).
        for (CpuIsa isa : supportedIsas()) {
            QCOMPARE(apply<float>(isa, VecMath::Exp, {4.0f})[0], float(std::exp(4.0)));
            std::vector<float> x;
            for (uint64_t bits = 0; bits <= 0xFFFFFFFFu; bits += 1009) {
                const float v = std::bit_cast<float>(uint32_t(bits));
                if (!std::isnan(v)) x.push_back(v);
            }
            std::vector<float> y = apply(isa, VecMath::Exp, x);
            int64_t mismatches = 0;
            for (size_t i = 0; i < x.size(); ++i)
                mismatches += y[i] != float(std::exp(double(x[i])));
            QVERIFY2(mismatches == 0, qPrintable(QString("%1: %2 of %3 not correctly rounded")
                                                     .arg(kiln::isaName(isa))
                                                     .arg(mismatches)
                                                     .arg(x.size())));
        }
    }

    void specialValuesAreThoseOfLibm() {
        const float inf = std::numeric_limits<float>::infinity();
        const float nan = std::numeric_limits<float>::quiet_NaN();
        for (CpuIsa isa : supportedIsas()) {
            auto one = [&](VecMath op, float x) { return apply<float>(isa, op, {x})[0]; };
            QVERIFY(std::isnan(one(VecMath::Sin, nan)));
            QVERIFY(std::isnan(one(VecMath::Sin, inf)));
            QCOMPARE(one(VecMath::Exp, -inf), 0.0f);
            QCOMPARE(one(VecMath::Exp, inf), inf);
            QCOMPARE(one(VecMath::Tanh, inf), 1.0f);
            QCOMPARE(one(VecMath::Erf, -inf), -1.0f);
            QCOMPARE(one(VecMath::Log, 0.0f), -inf);
            QVERIFY(std::isnan(one(VecMath::Log, -1.0f)));
            QCOMPARE(one(VecMath::Sigmoid, -inf), 0.0f);
            QCOMPARE(one(VecMath::Gelu, 0.0f), 0.0f);
            QVERIFY(std::signbit(one(VecMath::Sin, -0.0f)));
        }
    }

    void avx2AndAvx512ComputeTheSameBits() {
        if (kiln::supportedIsa() < CpuIsa::Avx512) QSKIP("this CPU has no AVX-512");
        for (const Function& f : functions()) {
            std::vector<float> xf = inputs<float>(f.lo, f.hi, 4000);
            std::vector<double> xd = inputs<double>(f.lo, f.hi, 4000);
            auto a = apply(CpuIsa::Avx2, f.op, xf), b = apply(CpuIsa::Avx512, f.op, xf);
            auto c = apply(CpuIsa::Avx2, f.op, xd), d = apply(CpuIsa::Avx512, f.op, xd);
            for (size_t i = 0; i < xf.size(); ++i)
                QVERIFY2(std::bit_cast<uint32_t>(a[i]) == std::bit_cast<uint32_t>(b[i]),
                         qPrintable(QString("%1(%2)").arg(f.name).arg(double(xf[i]), 0, 'g', 9)));
            for (size_t i = 0; i < xd.size(); ++i)
                QVERIFY2(std::bit_cast<uint64_t>(c[i]) == std::bit_cast<uint64_t>(d[i]),
                         qPrintable(QString("%1(%2)").arg(f.name).arg(xd[i], 0, 'g', 17)));
        }
    }

    void aValueDoesNotDependOnItsPositionOrLayout() {
        for (CpuIsa isa : supportedIsas())
            for (const Function& f : functions()) {
                std::vector<float> x = inputs<float>(f.lo, f.hi, 101); // a tail after 6 vectors
                std::vector<float> dense = apply(isa, f.op, x);
                std::vector<float> strided(x.size() * 3);
                for (size_t i = 0; i < x.size(); ++i)
                    strided[i * 3] = x[i];
                std::vector<float> fromStrided = apply(isa, f.op, strided, 3);
                for (size_t i = 0; i < x.size(); ++i) {
                    QCOMPARE(std::bit_cast<uint32_t>(fromStrided[i]),
                             std::bit_cast<uint32_t>(dense[i]));
                    // One element alone, as a broadcast scalar reads it.
                    std::vector<float> single = apply<float>(isa, f.op, {x[i]});
                    QCOMPARE(std::bit_cast<uint32_t>(single[0]), std::bit_cast<uint32_t>(dense[i]));
                }
            }
    }

    void halfPrecisionComputesInFloatAndRoundsOnce() {
        for (CpuIsa isa : supportedIsas())
            for (const Function& f : functions()) {
                std::vector<float> x =
                    inputs<float>(std::max(f.lo, -60000.f), std::min(f.hi, 60000.f), 300);
                std::vector<BFloat16> xb(x.begin(), x.end());
                std::vector<Half> xh(x.begin(), x.end());
                std::vector<float> fb(xb.begin(), xb.end()), fh(xh.begin(), xh.end());
                auto yb = apply(isa, f.op, xb);
                auto yh = apply(isa, f.op, xh);
                auto rb = apply(isa, f.op, fb), rh = apply(isa, f.op, fh);
                for (size_t i = 0; i < x.size(); ++i) {
                    QCOMPARE(yb[i].bits, BFloat16(rb[i]).bits);
                    QCOMPARE(yh[i].bits, Half(rh[i]).bits);
                }
            }
    }
};

QTEST_GUILESS_MAIN(VecMathTest)
#include "tst_vec_math.moc"
