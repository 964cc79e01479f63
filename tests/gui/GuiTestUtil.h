// Helpers shared by the QtTest programs in tests/gui/: reading repository files through
// TS_SOURCE_DIR, waiting, with the event loop running, for a session's background compile, a
// real GEMM program, and stand-in scripts for tilec.
#pragma once
#include <QElapsedTimer>
#include <QFile>
#include <QString>
#include <QtTest>

#include "app/gui/Session.h"
#include "tests/support/SourceDir.h"

namespace ts::gui::test {

/// Text of `rel` (relative to the repository root); empty when missing.
inline QString readFile(const QString& rel) {
    QFile f(QString::fromUtf8(TS_SOURCE_DIR) + "/" + rel);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll());
}

/// True once `s` holds a result and no compile is running; false after `ms` milliseconds.
/// TileLang's canonical GEMM (the shape of samples/gemm.py: 256^3 fp16, 64x64x32 tiles, a
/// 2-stage pipeline) with its ref_program.
inline constexpr const char* kGemmProgram = R"(import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def matmul(M=256, N=256, K=256, block_M=64, block_N=64, block_K=32, dtype="float16",
           accum_dtype="float"):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


def ref_program(A, B):
    return A @ B
)";
;

/// Writes an executable shell script `name` with `body` into folder `dir` (a stand-in for tilec:
/// no GPU and no real run needed); returns its path.
inline QString writeScript(const QString& dir, const QString& name, const QString& body) {
    const QString p = dir + "/" + name;
    QFile f(p);
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(("#!/bin/sh\n" + body + "\n").toUtf8());
    f.close();
    f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return p;
}

inline bool waitCompiled(Session& s, int ms = 20000) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms) {
        QTest::qWait(5);
        if (s.result() && !s.compiling()) return true;
    }
    return false;
}

}  // namespace ts::gui::test
