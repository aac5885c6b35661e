// SPDX-License-Identifier: MIT
// The flow network behind AOT autograd's choice of saved tensors: maximum flows and the
// source side of a minimum cut on networks whose answers are known by hand.
#include "support/min_cut.h"

#include <QtTest>

using kiln::FlowNetwork;

class TestMinCut : public QObject {
    Q_OBJECT

private slots:
    void maxFlowOfTheTextbookNetwork() {
        // CLRS figure 26.1: s=0, v1..v4 = 1..4, t=5; its maximum flow is 23, and the minimum
        // cut separates {s, v1, v2, v4} from {v3, t} (edges v1-v3 12, v4-v3 7, v4-t 4).
        FlowNetwork net(6);
        net.addEdge(0, 1, 16);
        net.addEdge(0, 2, 13);
        net.addEdge(2, 1, 4);
        net.addEdge(1, 3, 12);
        net.addEdge(3, 2, 9);
        net.addEdge(2, 4, 14);
        net.addEdge(4, 3, 7);
        net.addEdge(3, 5, 20);
        net.addEdge(4, 5, 4);
        QCOMPARE(net.maxFlow(0, 5), int64_t(23));
        QCOMPARE(net.sourceSide(0), (std::vector<bool>{true, true, true, false, true, false}));
    }

    void infiniteEdgesAreNeverCut() {
        // s -inf-> a -5-> b -inf-> t and s -inf-> a -inf-> c -2-> t: the cut is a-b and c-t.
        FlowNetwork net(5);
        const int s = 0, a = 1, b = 2, c = 3, t = 4;
        net.addEdge(s, a, FlowNetwork::kInfinite);
        net.addEdge(a, b, 5);
        net.addEdge(b, t, FlowNetwork::kInfinite);
        net.addEdge(a, c, FlowNetwork::kInfinite);
        net.addEdge(c, t, 2);
        QCOMPARE(net.maxFlow(s, t), int64_t(7));
        QCOMPARE(net.sourceSide(s), (std::vector<bool>{true, true, false, true, false}));
    }

    void aNetworkWithOnlyInfiniteCutsSaysSo() {
        FlowNetwork net(3);
        net.addEdge(0, 1, FlowNetwork::kInfinite);
        net.addEdge(1, 2, FlowNetwork::kInfinite);
        QVERIFY(net.maxFlow(0, 2) >= FlowNetwork::kInfinite);
    }

    void anUnreachableSinkHasNoFlow() {
        FlowNetwork net(3);
        net.addEdge(0, 1, 9);
        QCOMPARE(net.maxFlow(0, 2), int64_t(0));
        QCOMPARE(net.sourceSide(0), (std::vector<bool>{true, true, false}));
    }
};

QTEST_GUILESS_MAIN(TestMinCut)
#include "tst_min_cut.moc"
