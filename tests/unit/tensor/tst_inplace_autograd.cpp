// SPDX-License-Identifier: MIT
// In-place unary ops in the autograd graph: the node keeps what the derivative needs without
// holding the tensor it is the grad_fn of (a cycle that kept every in-place ReLU's activation
// alive: 300 steps of a 4 MB relu_ grew to 1.29 GB), and reads the input as it was.
#include "tensor/autograd.h"
#include "tensor/ops.h"

#include <QtTest>
#include <cmath>

using namespace kiln::tensor;

class InPlaceAutogradTest : public QObject {
    Q_OBJECT

private slots:
    void anInPlaceResultIsFreedWithItsLastHandle() {
        for (UnaryOp op : {UnaryOp::Relu, UnaryOp::Sin}) {
            const int64_t shape[] = {4, 4};
            Tensor x = ones(shape, TensorOptions{DType::Float32, {}, true});
            Tensor y = binary(BinaryOp::Mul, x, wrapNumber(Scalar(2.0)));
            unaryInPlace(op, y);
            QVERIFY(y.gradNode());
            kiln::Ref<kiln::tensor::TensorImpl> observed = y.implRef();
            y = Tensor();
            // Only `observed` holds the tensor: its node does not.
            QCOMPARE(observed->refCount(), 1);
        }
    }

    void sinInPlaceDifferentiatesTheOldValues() {
        const int64_t shape[] = {3};
        Tensor x = full(shape, Scalar(0.5), TensorOptions{DType::Float64, {}, true});
        Tensor y = binary(BinaryOp::Mul, x, wrapNumber(Scalar(1.0)));
        unaryInPlace(UnaryOp::Sin, y);
        Tensor loss = sum(y, {}, false);
        backward({&loss, 1}, {}, false, false);
        Tensor g(x.impl()->grad);
        for (int64_t i = 0; i < 3; ++i)
            QCOMPARE(g.data<double>()[i], std::cos(0.5));
    }
};

QTEST_GUILESS_MAIN(InPlaceAutogradTest)
#include "tst_inplace_autograd.moc"
