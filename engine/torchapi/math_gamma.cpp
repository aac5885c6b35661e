// SPDX-License-Identifier: MIT
// math.gamma and math.lgamma exactly as CPython computes them (Modules/mathmodule.c: Lanczos
// approximation with g = 6.02468, N = 13), so results agree with CPython to the last bit
// rather than with the C library's tgamma/lgamma.
#include "torchapi/math_gamma.h"

#include <cmath>

namespace kiln::torchapi {

namespace {

constexpr int kLanczosN = 13;
constexpr double kLanczosG = 6.024680040776729583740234375;
constexpr double kLanczosGMinusHalf = 5.524680040776729583740234375;
constexpr double kLanczosNum[kLanczosN] = {23531376880.410759688572007674451636754734846804940,
                                           42919803642.649098768957899047001988850926355848959,
                                           35711959237.355668049440185451547166705960488635843,
                                           17921034426.037209699919755754458931112671403265390,
                                           6039542586.3520280050642916443072979210699388420708,
                                           1439720407.3117216736632230727949123939715485786772,
                                           248874557.86205415651146038641322942321632125127801,
                                           31426415.585400194380614231628318205362874684987640,
                                           2876370.6289353724412254090516208496135991145378768,
                                           186056.26539522349504029498971604569928220784236328,
                                           8071.6720023658162106380029022722506138218516325024,
                                           210.82427775157934587250973392071336271166969580291,
                                           2.5066282746310002701649081771338373386264310793408};
// The denominator is x * (x + 1) * ... * (x + N - 2).
constexpr double kLanczosDen[kLanczosN] = {
    0.0,       39916800.0, 120543840.0, 150917976.0, 105258076.0, 45995730.0, 13339535.0,
    2637558.0, 357423.0,   32670.0,     1925.0,      66.0,        1.0};
constexpr int kGammaIntegral = 23;
constexpr double kGammaOfInt[kGammaIntegral] = {
    1.0,
    1.0,
    2.0,
    6.0,
    24.0,
    120.0,
    720.0,
    5040.0,
    40320.0,
    362880.0,
    3628800.0,
    39916800.0,
    479001600.0,
    6227020800.0,
    87178291200.0,
    1307674368000.0,
    20922789888000.0,
    355687428096000.0,
    6402373705728000.0,
    121645100408832000.0,
    2432902008176640000.0,
    51090942171709440000.0,
    1124000727777607680000.0,
};

double lanczosSum(double x) {
    double num = 0.0, den = 0.0;
    // For large x the rational function is evaluated in 1/x to avoid overflow.
    if (x < 5.0) {
        for (int i = kLanczosN; --i >= 0;) {
            num = num * x + kLanczosNum[i];
            den = den * x + kLanczosDen[i];
        }
    } else {
        for (int i = 0; i < kLanczosN; i++) {
            num = num / x + kLanczosNum[i];
            den = den / x + kLanczosDen[i];
        }
    }
    return num / den;
}

double sinPi(double x) {
    double y = std::fmod(std::fabs(x), 2.0);
    int n = static_cast<int>(std::round(2.0 * y));
    double r = 0.0;
    switch (n) {
    case 0:
        r = std::sin(M_PI * y);
        break;
    case 1:
        r = std::cos(M_PI * (y - 0.5));
        break;
    case 2:
        r = std::sin(M_PI * (1.0 - y));
        break;
    case 3:
        r = -std::cos(M_PI * (y - 1.5));
        break;
    default:
        r = std::sin(M_PI * (y - 2.0));
        break;
    }
    return std::copysign(1.0, x) * r;
}

/// The product with y^(absx - 0.5), split in two for large absx to avoid overflow.
double scaleByPower(double r, double y, double absx, bool divide) {
    if (absx < 140.0) {
        double p = std::pow(y, absx - 0.5);
        return divide ? r / p : r * p;
    }
    double sqrtpow = std::pow(y, absx / 2.0 - 0.25);
    return divide ? r / sqrtpow / sqrtpow : r * sqrtpow * sqrtpow;
}

} // namespace

MathResult pythonGamma(double x) {
    if (!std::isfinite(x))
        return std::isnan(x) || x > 0.0 ? MathResult{x} : MathResult{NAN, MathError::Domain};
    if (x == 0.0) return {std::copysign(HUGE_VAL, x), MathError::Domain};
    if (x == std::floor(x)) {
        if (x < 0.0) return {NAN, MathError::Domain};
        if (x <= kGammaIntegral) return {kGammaOfInt[static_cast<int>(x) - 1]};
    }
    double absx = std::fabs(x);
    if (absx < 1e-20) {
        double r = 1.0 / x;
        return {r, std::isinf(r) ? MathError::Range : MathError::None};
    }
    if (absx > 200.0)
        return x < 0.0 ? MathResult{0.0 / sinPi(x)} : MathResult{HUGE_VAL, MathError::Range};
    double y = absx + kLanczosGMinusHalf;
    // The rounding error of y, folded back into the result.
    double z = absx > kLanczosGMinusHalf ? (y - absx) - kLanczosGMinusHalf
                                         : (y - kLanczosGMinusHalf) - absx;
    z = z * kLanczosG / y;
    double r;
    if (x < 0.0) {
        r = -M_PI / sinPi(absx) / absx * std::exp(y) / lanczosSum(absx);
        r -= z * r;
        r = scaleByPower(r, y, absx, true);
    } else {
        r = lanczosSum(absx) / std::exp(y);
        r += z * r;
        r = scaleByPower(r, y, absx, false);
    }
    return {r, std::isinf(r) ? MathError::Range : MathError::None};
}

MathResult pythonLgamma(double x) {
    if (!std::isfinite(x)) return {std::isnan(x) ? x : HUGE_VAL};
    if (x == std::floor(x) && x <= 2.0)
        return x <= 0.0 ? MathResult{HUGE_VAL, MathError::Domain} : MathResult{0.0};
    double absx = std::fabs(x);
    if (absx < 1e-20) return {-std::log(absx)};
    double r = std::log(lanczosSum(absx)) - kLanczosG;
    r += (absx - 0.5) * (std::log(absx + kLanczosG - 0.5) - 1);
    if (x < 0.0) r = std::log(M_PI) - std::log(std::fabs(sinPi(absx))) - std::log(absx) - r;
    return {r, std::isinf(r) ? MathError::Range : MathError::None};
}

} // namespace kiln::torchapi
