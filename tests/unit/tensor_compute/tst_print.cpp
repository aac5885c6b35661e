// SPDX-License-Identifier: MIT
// Tensor printing against the exact strings PyTorch 2.15 prints (repr(t)): number modes and
// widths, line wrapping, summarisation, nested layout, suffixes, print options, and the
// Parameter form.
#include "compute_testing.h"
#include "tensor/ops.h"
#include "tensor/print.h"
#include "tensor/storage.h"

#include <QtTest>
#include <cstdlib>
#include <cstring>

using namespace kiln::tensor;
using namespace kiln::testing;

Q_DECLARE_METATYPE(kiln::tensor::DimVector)

namespace {

/// Host memory that claims to be CUDA memory: enough to check the device suffix.
/// Host memory that says cuda:0; its bytes move only through the copy functions, as a real
/// device's (Tensor::rawData refuses device storage).
class FakeCudaAllocator : public Allocator {
public:
    void* allocate(int64_t bytes) override {
        return std::malloc(size_t(std::max<int64_t>(bytes, 1)));
    }
    void deallocate(void* ptr, int64_t) override { std::free(ptr); }
    Device device() const override { return Device{DeviceType::CUDA, 0}; }
    void copyToHost(void* dst, const void* src, int64_t bytes) const override {
        std::memcpy(dst, src, size_t(bytes));
    }
    void copyFromHost(void* dst, const void* src, int64_t bytes) const override {
        std::memcpy(dst, src, size_t(bytes));
    }
};

/// Restores the default print options when a test ends, even when it fails.
struct PrintOptionsReset {
    ~PrintOptionsReset() { printOptions() = PrintOptions{}; }
};

QString printed(const Tensor& t) {
    return QString::fromStdString(formatTensor(t));
}

} // namespace

class PrintTest : public QObject {
    Q_OBJECT

private slots:
    void printsLikePyTorch_data() {
        QTest::addColumn<std::vector<double>>("values");
        QTest::addColumn<DimVector>("sizes");
        QTest::addColumn<DType>("dtype");
        QTest::addColumn<int64_t>("arangeCount");
        QTest::addColumn<bool>("transpose");
        QTest::addColumn<QString>("gradFn");
        QTest::addColumn<QString>("expected");
        // Generated with repr(t) in PyTorch 2.15 (random values from torch.manual_seed(0)).
        QTest::newRow("int-valued floats")
            << std::vector<double>{1, 2} << DimVector{2} << DType::Float32 << int64_t(0) << false
            << QString("") << QString("tensor([1., 2.])");
        QTest::newRow("random") << std::vector<double>{1.5409960746765137, -0.293428897857666,
                                                       -2.1787893772125244, 0.5684312582015991,
                                                       -1.0845223665237427}
                                << DimVector{5} << DType::Float32 << int64_t(0) << false
                                << QString("")
                                << QString("tensor([ 1.5410, -0.2934, -2.1788,  0.5684, -1.0845])");
        QTest::newRow("fixed") << std::vector<double>{1.5, -2.25, 3} << DimVector{3}
                               << DType::Float32 << int64_t(0) << false << QString("")
                               << QString("tensor([ 1.5000, -2.2500,  3.0000])");
        QTest::newRow("ints") << std::vector<double>{1, -20, 300} << DimVector{3} << DType::Int64
                              << int64_t(0) << false << QString("")
                              << QString("tensor([  1, -20, 300])");
        QTest::newRow("int32 suffix")
            << std::vector<double>{1, 2, 3} << DimVector{3} << DType::Int32 << int64_t(0) << false
            << QString("") << QString("tensor([1, 2, 3], dtype=torch.int32)");
        QTest::newRow("sci small")
            << std::vector<double>{9.999999747378752e-06, 1, 1000} << DimVector{3} << DType::Float32
            << int64_t(0) << false << QString("")
            << QString("tensor([1.0000e-05, 1.0000e+00, 1.0000e+03])");
        QTest::newRow("sci large")
            << std::vector<double>{1000000000, 1} << DimVector{2} << DType::Float32 << int64_t(0)
            << false << QString("") << QString("tensor([1.0000e+09, 1.0000e+00])");
        QTest::newRow("sci single")
            << std::vector<double>{9.999999747378752e-06} << DimVector{1} << DType::Float32
            << int64_t(0) << false << QString("") << QString("tensor([1.0000e-05])");
        QTest::newRow("int sci") << std::vector<double>{10000000000, 1} << DimVector{2}
                                 << DType::Float32 << int64_t(0) << false << QString("")
                                 << QString("tensor([1.0000e+10, 1.0000e+00])");
        QTest::newRow("ratio 1000")
            << std::vector<double>{1, 1000} << DimVector{2} << DType::Float32 << int64_t(0) << false
            << QString("") << QString("tensor([   1., 1000.])");
        QTest::newRow("ratio 1001")
            << std::vector<double>{1, 1001} << DimVector{2} << DType::Float32 << int64_t(0) << false
            << QString("") << QString("tensor([1.0000e+00, 1.0010e+03])");
        QTest::newRow("big fixed")
            << std::vector<double>{12345678, 10000} << DimVector{2} << DType::Float32 << int64_t(0)
            << false << QString("") << QString("tensor([1.2346e+07, 1.0000e+04])");
        QTest::newRow("negative") << std::vector<double>{-1.5, 0, 2} << DimVector{3}
                                  << DType::Float32 << int64_t(0) << false << QString("")
                                  << QString("tensor([-1.5000,  0.0000,  2.0000])");
        QTest::newRow("nan inf") << std::vector<double>{kNan, kInf, -kInf, 1.5} << DimVector{4}
                                 << DType::Float32 << int64_t(0) << false << QString("")
                                 << QString("tensor([   nan,    inf,   -inf, 1.5000])");
        QTest::newRow("nan int") << std::vector<double>{kNan, 1} << DimVector{2} << DType::Float32
                                 << int64_t(0) << false << QString("")
                                 << QString("tensor([nan, 1.])");
        QTest::newRow("all nan") << std::vector<double>{kNan, kNan} << DimVector{2}
                                 << DType::Float32 << int64_t(0) << false << QString("")
                                 << QString("tensor([nan, nan])");
        QTest::newRow("zero nan") << std::vector<double>{0, kNan} << DimVector{2} << DType::Float32
                                  << int64_t(0) << false << QString("")
                                  << QString("tensor([0., nan])");
        QTest::newRow("negative zero")
            << std::vector<double>{-0.0, 1} << DimVector{2} << DType::Float32 << int64_t(0) << false
            << QString("") << QString("tensor([-0., 1.])");
        QTest::newRow("all zero") << std::vector<double>{0, 0} << DimVector{2} << DType::Float32
                                  << int64_t(0) << false << QString("")
                                  << QString("tensor([0., 0.])");
        QTest::newRow("bfloat16") << std::vector<double>{1.1015625, 2.203125} << DimVector{2}
                                  << DType::BFloat16 << int64_t(0) << false << QString("")
                                  << QString("tensor([1.1016, 2.2031], dtype=torch.bfloat16)");
        QTest::newRow("float16")
            << std::vector<double>{1.099609375, -2.19921875, 0.0010004043579101562} << DimVector{3}
            << DType::Float16 << int64_t(0) << false << QString("")
            << QString("tensor([ 1.0996e+00, -2.1992e+00,  1.0004e-03], dtype=torch.float16)");
        QTest::newRow("float16 int")
            << std::vector<double>{65504, 1} << DimVector{2} << DType::Float16 << int64_t(0)
            << false << QString("")
            << QString("tensor([6.5504e+04, 1.0000e+00], dtype=torch.float16)");
        QTest::newRow("float64") << std::vector<double>{0.1, 0.2} << DimVector{2} << DType::Float64
                                 << int64_t(0) << false << QString("")
                                 << QString("tensor([0.1000, 0.2000], dtype=torch.float64)");
        QTest::newRow("bool") << std::vector<double>{1, 0, 1} << DimVector{3} << DType::Bool
                              << int64_t(0) << false << QString("")
                              << QString("tensor([ True, False,  True])");
        QTest::newRow("bool 2d") << std::vector<double>{1, 0, 0, 1} << DimVector{2, 2}
                                 << DType::Bool << int64_t(0) << false << QString("")
                                 << QString("tensor([[ True, False],\n        [False,  True]])");
        QTest::newRow("empty") << std::vector<double>{} << DimVector{0} << DType::Float32
                               << int64_t(0) << false << QString("") << QString("tensor([])");
        QTest::newRow("empty 2d") << std::vector<double>{} << DimVector{0, 3} << DType::Float32
                                  << int64_t(0) << false << QString("")
                                  << QString("tensor([], size=(0, 3))");
        QTest::newRow("empty int64")
            << std::vector<double>{} << DimVector{0} << DType::Int64 << int64_t(0) << false
            << QString("") << QString("tensor([], dtype=torch.int64)");
        QTest::newRow("empty bool 2d")
            << std::vector<double>{} << DimVector{2, 0} << DType::Bool << int64_t(0) << false
            << QString("") << QString("tensor([], size=(2, 0), dtype=torch.bool)");
        QTest::newRow("scalar float")
            << std::vector<double>{3} << DimVector{} << DType::Float32 << int64_t(0) << false
            << QString("") << QString("tensor(3.)");
        QTest::newRow("scalar int") << std::vector<double>{3} << DimVector{} << DType::Int64
                                    << int64_t(0) << false << QString("") << QString("tensor(3)");
        QTest::newRow("scalar bool")
            << std::vector<double>{1} << DimVector{} << DType::Bool << int64_t(0) << false
            << QString("") << QString("tensor(True)");
        QTest::newRow("scalar negative")
            << std::vector<double>{-0.5} << DimVector{} << DType::Float32 << int64_t(0) << false
            << QString("") << QString("tensor(-0.5000)");
        QTest::newRow("scalar small")
            << std::vector<double>{9.999999747378752e-06} << DimVector{} << DType::Float32
            << int64_t(0) << false << QString("") << QString("tensor(1.0000e-05)");
        QTest::newRow("scalar half")
            << std::vector<double>{3} << DimVector{} << DType::Float16 << int64_t(0) << false
            << QString("") << QString("tensor(3., dtype=torch.float16)");
        QTest::newRow("scalar int32")
            << std::vector<double>{7} << DimVector{} << DType::Int32 << int64_t(0) << false
            << QString("") << QString("tensor(7, dtype=torch.int32)");
        QTest::newRow("requires grad")
            << std::vector<double>{1, 2} << DimVector{2} << DType::Float32 << int64_t(0) << false
            << QString("<leaf>") << QString("tensor([1., 2.], requires_grad=True)");
        QTest::newRow("grad fn") << std::vector<double>{1, 2} << DimVector{2} << DType::Float32
                                 << int64_t(0) << false << QString("AddBackward0")
                                 << QString("tensor([1., 2.], grad_fn=<AddBackward0>)");
        QTest::newRow("row 1x30")
            << std::vector<double>{-0.08853142708539963, 0.5238832831382751,
                                   -0.6658713221549988,  0.8503773808479309,
                                   -1.3526537418365479,  -1.6959311962127686,
                                   0.5666506290435791,   0.7935083508491516,
                                   -0.193183034658432,   -0.30896252393722534,
                                   0.5025728344917297,   -0.8594456315040588,
                                   0.750189483165741,    -0.5854975581169128,
                                   0.5627213716506958,   0.25962740182876587,
                                   -0.17396099865436554, -0.678746223449707,
                                   0.9382607340812683,   0.4888698160648346,
                                   -0.6730899214744568,  0.8728312253952026,
                                   -1.2001394033432007,  -0.004785737954080105,
                                   -0.5180748105049133,  -0.30670419335365295,
                                   -1.580993890762329,   1.7066433429718018,
                                   -0.4462171792984009,  0.7440207004547119}
            << DimVector{1, 30} << DType::Float32 << int64_t(0) << false << QString("")
            << QString("tensor([[-0.0885,  0.5239, -0.6659,  0.8504, -1.3527, -1.6959,  0.5667,  "
                       "0.7935,\n         -0.1932, -0.3090,  0.5026, -0.8594,  0.7502, -0.5855,  "
                       "0.5627,  0.2596,\n         -0.1740, -0.6787,  0.9383,  0.4889, -0.6731,  "
                       "0.8728, -1.2001, -0.0048,\n         -0.5181, -0.3067, -1.5810,  1.7066, "
                       "-0.4462,  0.7440]])");
        QTest::newRow("arange 30")
            << std::vector<double>{} << DimVector{30} << DType::Float32 << int64_t(30) << false
            << QString("")
            << QString("tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., "
                       "13.,\n        14., 15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25., "
                       "26., 27.,\n        28., 29.])");
        QTest::newRow("4x30")
            << std::vector<
                   double>{-0.5730770826339722,  -0.5553584098815918,   0.5943230390548706,
                           1.5419425964355469,   0.5073344111442566,    -0.5910331606864929,
                           -0.5692480802536011,  0.9199714064598083,    -0.06907268613576889,
                           -0.4949253499507904,  -1.4959149360656738,   -0.19383712112903595,
                           0.44551217555999756,  1.3252748250961304,    -1.6293259859085083,
                           -0.54974365234375,    1.7067116498947144,    2.3803675174713135,
                           -1.1256016492843628,  -0.31699809432029724,  -1.09246826171875,
                           -0.08519429713487625, -0.09334823489189148,  0.6870502233505249,
                           -1.5990819931030273,  0.018486667424440384,  -0.7504268288612366,
                           0.18540798127651215,  0.621138334274292,     0.6381815671920776,
                           -0.24600094556808472, 2.302516460418701,     1.1686878204345703,
                           0.39450275897979736,  1.9414620399475098,    0.791498064994812,
                           -0.02025182731449604, -0.43716955184936523,  1.6458669900894165,
                           -1.3601689338684082,  0.966303288936615,     1.6247831583023071,
                           -0.3656187951564789,  -1.3024404048919678,   0.09940346330404282,
                           0.44182202219963074,  0.24692639708518982,   0.07688700407743454,
                           0.2822672426700592,   0.4342256486415863,    -0.8024929165840149,
                           -1.295186161994934,   -0.7501814961433411,   -1.3119657039642334,
                           -0.21883368492126465, -2.435065269470215,    -0.42882999777793884,
                           0.23291829228401184,  0.7968871593475342,    -0.18484163284301758,
                           -0.3701472580432892,  -1.210281491279602,    -0.6226984858512878,
                           -0.4637221693992615,  -0.6036701202392578,   -1.2787652015686035,
                           0.0929502323269844,   -0.6660997271537781,   0.6080471873283386,
                           -0.7300198674201965,  -0.8833757638931274,   -0.41891348361968994,
                           0.4765571057796478,   -1.0163074731826782,   0.18036697804927826,
                           0.10833186656236649,  -0.7548232674598694,   0.24431852996349335,
                           -0.07732575386762619, 0.1163986474275589,    0.7297962307929993,
                           -1.8453190326690674,  -0.025019939988851547, 1.3693809509277344,
                           2.6570231914520264,   0.9851194024085999,    -0.2596415579319,
                           0.11833705008029938,  -1.1427778005599976,   0.03758539631962776,
                           2.6962764263153076,   1.235763669013977,     0.5428298115730286,
                           0.5255303382873535,   0.19219905138015747,   -0.7721568942070007,
                           1.6268466711044312,   0.1722732037305832,    -1.6115024089813232,
                           -0.47944778203964233, -0.14335104823112488,  -0.3172946274280548,
                           0.9671456813812256,   -0.9910827279090881,   -1.5615617036819458,
                           -0.3546432852745056,  1.0810725688934326,    0.13147805631160736,
                           1.5735383033752441,   0.7814299464225769,    0.9874365925788879,
                           -1.4878075122833252,  1.4707926511764526,    0.2756350040435791,
                           0.6667810678482056,   -0.9943896532058716,   -1.189363956451416,
                           -1.1959494352340698,  1.311892032623291,     -0.20983894169330597}
            << DimVector{4, 30} << DType::Float32 << int64_t(0) << false << QString("")
            << QString("tensor([[-0.5731, -0.5554,  0.5943,  1.5419,  0.5073, -0.5910, -0.5692,  "
                       "0.9200,\n         -0.0691, -0.4949, -1.4959, -0.1938,  0.4455,  1.3253, "
                       "-1.6293, -0.5497,\n          1.7067,  2.3804, -1.1256, -0.3170, -1.0925, "
                       "-0.0852, -0.0933,  0.6871,\n         -1.5991,  0.0185, -0.7504,  0.1854,  "
                       "0.6211,  0.6382],\n        [-0.2460,  2.3025,  1.1687,  0.3945,  1.9415,  "
                       "0.7915, -0.0203, -0.4372,\n          1.6459, -1.3602,  0.9663,  1.6248, "
                       "-0.3656, -1.3024,  0.0994,  0.4418,\n          0.2469,  0.0769,  0.2823,  "
                       "0.4342, -0.8025, -1.2952, -0.7502, -1.3120,\n         -0.2188, -2.4351, "
                       "-0.4288,  0.2329,  0.7969, -0.1848],\n        [-0.3701, -1.2103, -0.6227, "
                       "-0.4637, -0.6037, -1.2788,  0.0930, -0.6661,\n          0.6080, -0.7300, "
                       "-0.8834, -0.4189,  0.4766, -1.0163,  0.1804,  0.1083,\n         -0.7548,  "
                       "0.2443, -0.0773,  0.1164,  0.7298, -1.8453, -0.0250,  1.3694,\n          "
                       "2.6570,  0.9851, -0.2596,  0.1183, -1.1428,  0.0376],\n        [ 2.6963,  "
                       "1.2358,  0.5428,  0.5255,  0.1922, -0.7722,  1.6268,  0.1723,\n         "
                       "-1.6115, -0.4794, -0.1434, -0.3173,  0.9671, -0.9911, -1.5616, -0.3546,\n  "
                       "        1.0811,  0.1315,  1.5735,  0.7814,  0.9874, -1.4878,  1.4708,  "
                       "0.2756,\n          0.6668, -0.9944, -1.1894, -1.1959,  1.3119, -0.2098]])");
        QTest::newRow("3x4 scaled")
            << std::vector<double>{-139.8595428466797,  63.10730743408203,   134.6884307861328,
                                   -45.19350051879883,  -40.52853775024414,  148.75096130371094,
                                   -22.296688079833984, -100.56912994384766, -41.39097595214844,
                                   115.99800872802734,  -21.95857810974121,  199.30343627929688}
            << DimVector{3, 4} << DType::Float32 << int64_t(0) << false << QString("")
            << QString("tensor([[-139.8595,   63.1073,  134.6884,  -45.1935],\n        [ -40.5285, "
                       " 148.7510,  -22.2967, -100.5691],\n        [ -41.3910,  115.9980,  "
                       "-21.9586,  199.3034]])");
        QTest::newRow("big ints") << std::vector<double>{123456789012, 1} << DimVector{2}
                                  << DType::Int64 << int64_t(0) << false << QString("")
                                  << QString("tensor([123456789012,            1])");
        QTest::newRow("arange 2000")
            << std::vector<double>{} << DimVector{2000} << DType::Int64 << int64_t(2000) << false
            << QString("") << QString("tensor([   0,    1,    2,  ..., 1997, 1998, 1999])");
        QTest::newRow("arange 1001 float")
            << std::vector<double>{} << DimVector{1001} << DType::Float32 << int64_t(1001) << false
            << QString("") << QString("tensor([   0.,    1.,    2.,  ...,  998.,  999., 1000.])");
        QTest::newRow("3d small")
            << std::vector<double>{} << DimVector{2, 3, 4} << DType::Float32 << int64_t(24) << false
            << QString("")
            << QString("tensor([[[ 0.,  1.,  2.,  3.],\n         [ 4.,  5.,  6.,  7.],\n         [ "
                       "8.,  9., 10., 11.]],\n\n        [[12., 13., 14., 15.],\n         [16., "
                       "17., 18., 19.],\n         [20., 21., 22., 23.]]])");
        QTest::newRow("3d 20x20x20")
            << std::vector<double>{} << DimVector{20, 20, 20} << DType::Float32 << int64_t(8000)
            << false << QString("")
            << QString("tensor([[[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.7000e+01,\n          "
                       "1.8000e+01, 1.9000e+01],\n         [2.0000e+01, 2.1000e+01, 2.2000e+01,  "
                       "..., 3.7000e+01,\n          3.8000e+01, 3.9000e+01],\n         "
                       "[4.0000e+01, 4.1000e+01, 4.2000e+01,  ..., 5.7000e+01,\n          "
                       "5.8000e+01, 5.9000e+01],\n         ...,\n         [3.4000e+02, 3.4100e+02, "
                       "3.4200e+02,  ..., 3.5700e+02,\n          3.5800e+02, 3.5900e+02],\n        "
                       " [3.6000e+02, 3.6100e+02, 3.6200e+02,  ..., 3.7700e+02,\n          "
                       "3.7800e+02, 3.7900e+02],\n         [3.8000e+02, 3.8100e+02, 3.8200e+02,  "
                       "..., 3.9700e+02,\n          3.9800e+02, 3.9900e+02]],\n\n        "
                       "[[4.0000e+02, 4.0100e+02, 4.0200e+02,  ..., 4.1700e+02,\n          "
                       "4.1800e+02, 4.1900e+02],\n         [4.2000e+02, 4.2100e+02, 4.2200e+02,  "
                       "..., 4.3700e+02,\n          4.3800e+02, 4.3900e+02],\n         "
                       "[4.4000e+02, 4.4100e+02, 4.4200e+02,  ..., 4.5700e+02,\n          "
                       "4.5800e+02, 4.5900e+02],\n         ...,\n         [7.4000e+02, 7.4100e+02, "
                       "7.4200e+02,  ..., 7.5700e+02,\n          7.5800e+02, 7.5900e+02],\n        "
                       " [7.6000e+02, 7.6100e+02, 7.6200e+02,  ..., 7.7700e+02,\n          "
                       "7.7800e+02, 7.7900e+02],\n         [7.8000e+02, 7.8100e+02, 7.8200e+02,  "
                       "..., 7.9700e+02,\n          7.9800e+02, 7.9900e+02]],\n\n        "
                       "[[8.0000e+02, 8.0100e+02, 8.0200e+02,  ..., 8.1700e+02,\n          "
                       "8.1800e+02, 8.1900e+02],\n         [8.2000e+02, 8.2100e+02, 8.2200e+02,  "
                       "..., 8.3700e+02,\n          8.3800e+02, 8.3900e+02],\n         "
                       "[8.4000e+02, 8.4100e+02, 8.4200e+02,  ..., 8.5700e+02,\n          "
                       "8.5800e+02, 8.5900e+02],\n         ...,\n         [1.1400e+03, 1.1410e+03, "
                       "1.1420e+03,  ..., 1.1570e+03,\n          1.1580e+03, 1.1590e+03],\n        "
                       " [1.1600e+03, 1.1610e+03, 1.1620e+03,  ..., 1.1770e+03,\n          "
                       "1.1780e+03, 1.1790e+03],\n         [1.1800e+03, 1.1810e+03, 1.1820e+03,  "
                       "..., 1.1970e+03,\n          1.1980e+03, 1.1990e+03]],\n\n        ...,\n\n  "
                       "      [[6.8000e+03, 6.8010e+03, 6.8020e+03,  ..., 6.8170e+03,\n          "
                       "6.8180e+03, 6.8190e+03],\n         [6.8200e+03, 6.8210e+03, 6.8220e+03,  "
                       "..., 6.8370e+03,\n          6.8380e+03, 6.8390e+03],\n         "
                       "[6.8400e+03, 6.8410e+03, 6.8420e+03,  ..., 6.8570e+03,\n          "
                       "6.8580e+03, 6.8590e+03],\n         ...,\n         [7.1400e+03, 7.1410e+03, "
                       "7.1420e+03,  ..., 7.1570e+03,\n          7.1580e+03, 7.1590e+03],\n        "
                       " [7.1600e+03, 7.1610e+03, 7.1620e+03,  ..., 7.1770e+03,\n          "
                       "7.1780e+03, 7.1790e+03],\n         [7.1800e+03, 7.1810e+03, 7.1820e+03,  "
                       "..., 7.1970e+03,\n          7.1980e+03, 7.1990e+03]],\n\n        "
                       "[[7.2000e+03, 7.2010e+03, 7.2020e+03,  ..., 7.2170e+03,\n          "
                       "7.2180e+03, 7.2190e+03],\n         [7.2200e+03, 7.2210e+03, 7.2220e+03,  "
                       "..., 7.2370e+03,\n          7.2380e+03, 7.2390e+03],\n         "
                       "[7.2400e+03, 7.2410e+03, 7.2420e+03,  ..., 7.2570e+03,\n          "
                       "7.2580e+03, 7.2590e+03],\n         ...,\n         [7.5400e+03, 7.5410e+03, "
                       "7.5420e+03,  ..., 7.5570e+03,\n          7.5580e+03, 7.5590e+03],\n        "
                       " [7.5600e+03, 7.5610e+03, 7.5620e+03,  ..., 7.5770e+03,\n          "
                       "7.5780e+03, 7.5790e+03],\n         [7.5800e+03, 7.5810e+03, 7.5820e+03,  "
                       "..., 7.5970e+03,\n          7.5980e+03, 7.5990e+03]],\n\n        "
                       "[[7.6000e+03, 7.6010e+03, 7.6020e+03,  ..., 7.6170e+03,\n          "
                       "7.6180e+03, 7.6190e+03],\n         [7.6200e+03, 7.6210e+03, 7.6220e+03,  "
                       "..., 7.6370e+03,\n          7.6380e+03, 7.6390e+03],\n         "
                       "[7.6400e+03, 7.6410e+03, 7.6420e+03,  ..., 7.6570e+03,\n          "
                       "7.6580e+03, 7.6590e+03],\n         ...,\n         [7.9400e+03, 7.9410e+03, "
                       "7.9420e+03,  ..., 7.9570e+03,\n          7.9580e+03, 7.9590e+03],\n        "
                       " [7.9600e+03, 7.9610e+03, 7.9620e+03,  ..., 7.9770e+03,\n          "
                       "7.9780e+03, 7.9790e+03],\n         [7.9800e+03, 7.9810e+03, 7.9820e+03,  "
                       "..., 7.9970e+03,\n          7.9980e+03, 7.9990e+03]]])");
        QTest::newRow("2d summarised")
            << std::vector<double>{} << DimVector{30, 40} << DType::Float32 << int64_t(1200)
            << false << QString("")
            << QString("tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 3.7000e+01, "
                       "3.8000e+01,\n         3.9000e+01],\n        [4.0000e+01, 4.1000e+01, "
                       "4.2000e+01,  ..., 7.7000e+01, 7.8000e+01,\n         7.9000e+01],\n        "
                       "[8.0000e+01, 8.1000e+01, 8.2000e+01,  ..., 1.1700e+02, 1.1800e+02,\n       "
                       "  1.1900e+02],\n        ...,\n        [1.0800e+03, 1.0810e+03, 1.0820e+03, "
                       " ..., 1.1170e+03, 1.1180e+03,\n         1.1190e+03],\n        [1.1200e+03, "
                       "1.1210e+03, 1.1220e+03,  ..., 1.1570e+03, 1.1580e+03,\n         "
                       "1.1590e+03],\n        [1.1600e+03, 1.1610e+03, 1.1620e+03,  ..., "
                       "1.1970e+03, 1.1980e+03,\n         1.1990e+03]])");
        QTest::newRow("2d wide summarised")
            << std::vector<double>{} << DimVector{2, 600} << DType::Int64 << int64_t(1200) << false
            << QString("")
            << QString("tensor([[   0,    1,    2,  ...,  597,  598,  599],\n        [ 600,  601,  "
                       "602,  ..., 1197, 1198, 1199]])");
        QTest::newRow("4d")
            << std::vector<double>{} << DimVector{2, 2, 2, 2} << DType::Float32 << int64_t(16)
            << false << QString("")
            << QString("tensor([[[[ 0.,  1.],\n          [ 2.,  3.]],\n\n         [[ 4.,  5.],\n   "
                       "       [ 6.,  7.]]],\n\n\n        [[[ 8.,  9.],\n          [10., "
                       "11.]],\n\n         [[12., 13.],\n          [14., 15.]]]])");
        QTest::newRow("transposed")
            << std::vector<double>{} << DimVector{2, 3} << DType::Float32 << int64_t(6) << true
            << QString("") << QString("tensor([[0., 3.],\n        [1., 4.],\n        [2., 5.]])");
        QTest::newRow("int32 wrap suffix")
            << std::vector<double>{} << DimVector{26} << DType::Int32 << int64_t(26) << false
            << QString("")
            << QString("tensor([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, "
                       "16, 17,\n        18, 19, 20, 21, 22, 23, 24, 25], dtype=torch.int32)");
        QTest::newRow("suffix wrap")
            << std::vector<double>{1.2345678, 1.2345678, 1.2345678, 1.2345678, 1.2345678,
                                   1.2345678, 1.2345678, 1.2345678, 1}
            << DimVector{9} << DType::Float64 << int64_t(0) << false << QString("")
            << QString("tensor([1.2346, 1.2346, 1.2346, 1.2346, 1.2346, 1.2346, 1.2346, 1.2346, "
                       "1.0000],\n       dtype=torch.float64)");
        QTest::newRow("grad fn wraps")
            << std::vector<double>{} << DimVector{12} << DType::Float32 << int64_t(12) << false
            << QString("AddBackward0")
            << QString("tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11.],\n     "
                       "  grad_fn=<AddBackward0>)");
        QTest::newRow("int 2d") << std::vector<double>{1, -2, 30, 4} << DimVector{2, 2}
                                << DType::Int64 << int64_t(0) << false << QString("")
                                << QString("tensor([[ 1, -2],\n        [30,  4]])");
    }

    void printsLikePyTorch() {
        QFETCH(std::vector<double>, values);
        QFETCH(DimVector, sizes);
        QFETCH(DType, dtype);
        QFETCH(int64_t, arangeCount);
        QFETCH(bool, transpose);
        QFETCH(QString, gradFn);
        QFETCH(QString, expected);
        Tensor t;
        if (arangeCount > 0) {
            Tensor flat =
                arange(Scalar(int64_t(0)), Scalar(arangeCount), Scalar(int64_t(1)), dtype);
            t = Tensor::view(flat.storage(), 0, sizes, contiguousStrides(sizes), dtype);
        } else {
            t = makeTensor(values, sizes, dtype);
        }
        if (transpose) t = transposed(t);
        if (!gradFn.isEmpty()) t.impl()->requiresGrad = true;
        if (gradFn == "AddBackward0") t = binary(BinaryOp::Add, t, wrapNumber(Scalar(int64_t(0))));
        QCOMPARE(printed(t), expected);
    }

    void printsTheDeviceOfCudaTensors() {
        FakeCudaAllocator allocator;
        auto storage = kiln::makeRef<Storage>(8, allocator);
        Tensor t = Tensor::view(storage, 0, DimVector{2}, DimVector{1}, DType::Float32);
        const float values[] = {1.0f, 2.5f};
        allocator.copyFromHost(storage->data(), values, sizeof values);
        QCOMPARE(printed(t), QString("tensor([1.0000, 2.5000], device='cuda:0')"));
    }

    void followsPrintOptions() {
        PrintOptionsReset reset;
        printOptions().precision = 2;
        QCOMPARE(printed(vector({1.12345, 2.5})), QString("tensor([1.12, 2.50])"));
        printOptions() = PrintOptions{};
        printOptions().sciMode = false;
        QCOMPARE(printed(vector({1e-5, 1})), QString("tensor([0.0000, 1.0000])"));
        printOptions().sciMode = true;
        QCOMPARE(printed(vector({1.5, 2})), QString("tensor([1.5000e+00, 2.0000e+00])"));
        printOptions() = PrintOptions{};
        printOptions().threshold = 5;
        Tensor ten = arange(Scalar(int64_t(0)), Scalar(int64_t(10)), Scalar(int64_t(1)), {});
        QCOMPARE(printed(ten), QString("tensor([0, 1, 2,  ..., 7, 8, 9])"));
        printOptions().edgeItems = 2;
        QCOMPARE(printed(toDType(ten, DType::Float32)), QString("tensor([0., 1.,  ..., 8., 9.])"));
        printOptions().edgeItems = 0;
        QCOMPARE(printed(toDType(ten, DType::Float32)), QString("tensor([...], size=(10,))"));
        Tensor twelve =
            arange(Scalar(int64_t(0)), Scalar(int64_t(12)), Scalar(int64_t(1)), DType::Float32);
        QCOMPARE(printed(Tensor::view(twelve.storage(), 0, DimVector{3, 4}, DimVector{4, 1},
                                      DType::Float32)),
                 QString("tensor([...], size=(3, 4))"));
        printOptions() = PrintOptions{};
        printOptions().lineWidth = 40;
        Tensor twenty =
            arange(Scalar(int64_t(0)), Scalar(int64_t(20)), Scalar(int64_t(1)), DType::Float32);
        QCOMPARE(printed(twenty),
                 QString("tensor([ 0.,  1.,  2.,  3.,  4.,  5.,\n         6.,  7., "
                         " 8.,  9., 10., 11.,\n        12., 13., 14., 15., 16., "
                         "17.,\n        18., 19.])"));
    }

    void dtypeSuffixFollowsTheDefaultFloat() {
        setDefaultFloatDType(DType::Float64);
        const QString doubles = printed(vector({1, 2}, DType::Float64));
        const QString floats = printed(vector({1, 2}, DType::Float32));
        const QString empty = printed(zeros(DimVector{0}, TensorOptions{DType::Float32}));
        setDefaultFloatDType(DType::Float32);
        QCOMPARE(doubles, QString("tensor([1., 2.])"));
        QCOMPARE(floats, QString("tensor([1., 2.], dtype=torch.float32)"));
        QCOMPARE(empty, QString("tensor([], dtype=torch.float32)"));
    }

    void printsParameters() {
        Tensor p = vector({1, 2});
        p.impl()->requiresGrad = true;
        p.impl()->isParameter = true;
        QCOMPARE(QString::fromStdString(formatParameter(p)),
                 QString("Parameter containing:\ntensor([1., 2.], requires_grad=True)"));
        Tensor m = makeTensor({0, 1, 2, 3, 4, 5}, DimVector{2, 3});
        m.impl()->requiresGrad = true;
        QCOMPARE(QString::fromStdString(formatParameter(m)),
                 QString("Parameter containing:\ntensor([[0., 1., 2.],\n        [3., 4., 5.]], "
                         "requires_grad=True)"));
    }
};

QTEST_APPLESS_MAIN(PrintTest)
#include "tst_print.moc"
