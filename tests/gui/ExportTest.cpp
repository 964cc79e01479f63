// Export (app/gui/ProjectExport.h): the folder has the kernel, the device header, a launcher and
// build files, and nvcc builds it (skipped where no nvcc is installed; no GPU is needed to build).
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "app/gui/ProjectExport.h"
#include "compiler/Compile.h"

using namespace ts;
using namespace ts::gui;

namespace {

const char* kGemm = R"(import tilelang
import tilelang.language as T


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
)";

QString findNvcc() {
    QString p = QStandardPaths::findExecutable("nvcc");
    if (p.isEmpty()) p = QStandardPaths::findExecutable("nvcc", {"/usr/local/cuda/bin"});
    return p;
}

}  // namespace

class ExportTest : public QObject {
    Q_OBJECT
    CompileResult m_result;

private slots:
    void initTestCase() {
        m_result = compile("gemm.py", kGemm);
        QVERIFY2(m_result.ok, m_result.diagnostics.empty()
                                  ? "compile failed"
                                  : m_result.diagnostics[0].message.c_str());
    }

    void writesTheFolder() {
        QTemporaryDir dir;
        std::string error;
        auto files =
            exportProject(m_result, {dir.path().toStdString(), "gemm", "gemm.py", "sm_80"}, &error);
        QVERIFY2(!files.empty(), error.c_str());
        for (const char* f :
             {"kernel.cu", "ts_device.cuh", "main.cu", "CMakeLists.txt", "Makefile", "README.md"})
            QVERIFY2(QFile::exists(dir.filePath(f)), f);
        QString launcher = QString::fromStdString(launcherSource(m_result, "kernel.cu"));
        QVERIFY(launcher.contains(QString::fromStdString(m_result.kernel.name)));
        for (const auto& a : m_result.kernel.args)
            QVERIFY(launcher.contains("d_" + QString::fromStdString(a.name)));
    }

    void refusesWithoutCode() {
        CompileResult empty;
        std::string error;
        QVERIFY(exportProject(empty, {"/tmp/never", "", "", ""}, &error).empty());
        QVERIFY(!error.empty());
    }

    void nvccBuildsIt() {
        QString nvcc = findNvcc();
        if (nvcc.isEmpty()) QSKIP("nvcc not installed");
        QTemporaryDir dir;
        std::string error;
        QVERIFY(
            !exportProject(m_result, {dir.path().toStdString(), "gemm", "gemm.py", "sm_80"}, &error)
                 .empty());
        QProcess p;
        p.setWorkingDirectory(dir.path());
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(nvcc, {"-O3", "-std=c++17", "-arch=sm_80", "-o", "gemm", "main.cu"});
        QVERIFY(p.waitForFinished(300000));
        QVERIFY2(p.exitCode() == 0, p.readAll().constData());
        QVERIFY(QFile::exists(dir.filePath("gemm")));
    }
};

QTEST_MAIN(ExportTest)
#include "ExportTest.moc"
