// SPDX-License-Identifier: MIT
// The torch.dtype objects as scripts see them, where Kiln's behaviour cannot be a golden
// recording of PyTorch's: the dtypes Kiln has no tensors of (complex, float8, uint16,
// quantised) exist and compare as torch's, and asking for a tensor of one is Kiln's
// NotImplementedError; uint8 masks warn through the warnings module, once per line, as
// PyTorch 2.3 does.
#include "snippet_runner.h"

#include <QtTest>

using namespace kiln;

namespace {

const QString kNotSupported =
    " is not supported by Kiln yet: tensors can be torch.bool, uint8, int8, int16, int32, "
    "int64, float16, bfloat16, float32 or float64";

} // namespace

class TstDTypeObjects : public QObject {
    Q_OBJECT

private slots:
    void unsupportedDTypesAreObjects() {
        testing::TorchSnippets s;
        QCOMPARE(s.print("torch.cfloat, torch.complex128, torch.bit, torch.quint4x2"),
                 QString("torch.complex64 torch.complex128 torch.uint1 torch.quint4x2"));
        QCOMPARE(s.print("torch.cfloat is torch.complex64, torch.chalf == torch.complex32"),
                 QString("True True"));
        QCOMPARE(s.print("type(torch.cdouble) is torch.dtype, torch.cfloat != torch.float32"),
                 QString("True True"));
        QCOMPARE(s.print("torch.complex64.itemsize, torch.complex64.is_complex, "
                         "torch.float8_e5m2.is_floating_point, torch.uint64.itemsize"),
                 QString("8 True True 8"));
        QCOMPARE(s.print("{torch.complex64: 'c'}[torch.cfloat]"), QString("c"));
        QCOMPARE(s.print("torch.uint16.is_signed"), QString("RuntimeError: Unknown ScalarType"));
        QCOMPARE(s.print("torch.qint8.is_signed"),
                 QString("RuntimeError: isSignedType not supported for quantized types"));
    }

    void tensorsOfThemAreNotImplemented() {
        testing::TorchSnippets s;
        QCOMPARE(s.print("torch.zeros(2, dtype=torch.complex64)"),
                 "NotImplementedError: torch.complex64" + kNotSupported);
        QCOMPARE(s.print("torch.ones(2).to(torch.cdouble)"),
                 "NotImplementedError: torch.complex128" + kNotSupported);
        QCOMPARE(s.print("torch.tensor([1], dtype=torch.qint8)"),
                 "NotImplementedError: torch.qint8" + kNotSupported);
        QCOMPARE(s.print("torch.promote_types(torch.float8_e4m3fn, torch.float32)"),
                 "NotImplementedError: torch.float8_e4m3fn" + kNotSupported);
        QCOMPARE(s.print("torch.iinfo(torch.uint32)"),
                 "NotImplementedError: torch.uint32" + kNotSupported);
        // A NotImplementedError is a RuntimeError: `except RuntimeError` catches it.
        QCOMPARE(s.run("try:\n    torch.empty(1, dtype=torch.uint16)\nexcept RuntimeError:\n"
                       "    pass\n"),
                 std::string());
    }

    void byteMasksWarnOncePerLine() {
        testing::TorchSnippets s;
        QCOMPARE(s.run("x = torch.arange(4)\n"
                       "m = torch.tensor([1, 0, 1, 0], dtype=torch.uint8)\n"
                       "for i in range(3):\n"
                       "    y = x[m]\n"
                       "z = torch.where(m, x, 0)\n"
                       "print(y, z)\n"),
                 std::string());
        QCOMPARE(s.sink.out, std::string("tensor([0, 2]) tensor([0, 0, 2, 0])\n"));
        QStringList lines = QString::fromStdString(s.sink.err).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4); // each warning and its source line, the loop's once
        QVERIFY2(lines[0].endsWith(":5: UserWarning: indexing with dtype torch.uint8 is now "
                                   "deprecated, please use a dtype torch.bool instead. "
                                   "(Triggered internally at "
                                   "../aten/src/ATen/native/IndexingUtils.h:27.)"),
                 qPrintable(lines[0]));
        QCOMPARE(lines[1].trimmed(), QString("y = x[m]"));
        QVERIFY2(lines[2].contains(":6: UserWarning: where received a uint8 condition tensor."),
                 qPrintable(lines[2]));
    }
};

QTEST_GUILESS_MAIN(TstDTypeObjects)
#include "tst_dtype_objects.moc"
