// SPDX-License-Identifier: MIT
// SHA-256 against the FIPS 180-2 / NIST example vectors, plus the padding edges where the length
// field does or does not fit in the last block.
#include "support/sha256.h"

#include <QtTest>
#include <string>

class Sha256Test : public QObject {
    Q_OBJECT

private slots:
    void emptyString() {
        QCOMPARE(kiln::sha256Hex(""),
                 std::string("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
    }

    void abc() {
        QCOMPARE(kiln::sha256Hex("abc"),
                 std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    }

    void twoBlockMessage448Bits() {
        QCOMPARE(kiln::sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
                 std::string("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
    }

    void fourBlockMessage896Bits() {
        QCOMPARE(kiln::sha256Hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                                 "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"),
                 std::string("cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"));
    }

    void millionAs() {
        QCOMPARE(kiln::sha256Hex(std::string(1'000'000, 'a')),
                 std::string("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
    }

    void paddingEdges() {
        // 55 bytes: the length still fits in the first block; 56 and 64 need a second one.
        QCOMPARE(kiln::sha256Hex(std::string(55, 'a')),
                 std::string("9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"));
        QCOMPARE(kiln::sha256Hex(std::string(56, 'a')),
                 std::string("b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"));
        QCOMPARE(kiln::sha256Hex(std::string(64, 'a')),
                 std::string("ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"));
    }

    void bytesAboveAsciiAndNul() {
        std::string bytes("\x00\xff\x80 caf\xc3\xa9", 9);
        QCOMPARE(kiln::sha256Hex(bytes),
                 std::string("2f3ac2fcf94be7dc95148e9ae992ad730e39b898add1c5d931486933acddacd6"));
    }
};

QTEST_APPLESS_MAIN(Sha256Test)
#include "tst_sha256.moc"
