// Export (app/cli/ProjectExport.h, issue 15): the folder has the kernel, the device header, a
// launcher that checks its outputs against the CPU reference in data/ (exit status 1 on a
// mismatch), and build files for the target's architecture. nvcc builds the exports of the gemm
// and softmax samples for sm_80 and sm_90a here, through the Makefile and through CMake (whose
// nvcc command line must carry the target's architecture, not CMake's default); skipped where no
// nvcc is installed. No GPU is needed to build; bench/h200_export.sh runs them on the H200.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <cstring>

#include <QFloat16>

#include "app/cli/ProjectExport.h"
#include "compiler/Compile.h"
#include "tests/gui/GuiTestUtil.h"
#include "tests/support/SourceDir.h"

using namespace ts;
using namespace ts::cli;

namespace {

// The test GEMM without its ref_program: the export's reference is then the interpreter.
const std::string kGemm = [] {
    std::string s = ts::gui::test::kGemmProgram;
    return s.substr(0, s.find("\n\ndef ref_program"));
}();

/// Text of the repository file `rel` (the samples).
QString sourceFile(const QString& rel) {
    QFile f((QString::fromUtf8(TS_SOURCE_DIR) + QStringLiteral("/")) + rel);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

/// Runs `program args` in `dir`; returns exit code, output in *log.
int runIn(const QString& dir, const QString& program, const QStringList& args, QString* log,
          const QStringList& env = {}) {
    QProcess p;
    p.setWorkingDirectory(dir);
    p.setProcessChannelMode(QProcess::MergedChannels);
    if (!env.isEmpty()) {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        for (const QString& kv : env) e.insert(kv.section('=', 0, 0), kv.section('=', 1));
        p.setProcessEnvironment(e);
    }
    p.start(program, args);
    if (!p.waitForFinished(400000)) return -1;
    *log = QString::fromUtf8(p.readAll());
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

QString readText(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

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
        for (const char* f : {"kernel.cu", "ts_device.cuh", "main.cu", "CMakeLists.txt", "Makefile",
                              "README.md", "data/A.bin", "data/B.bin", "data/C.ref.f32"})
            QVERIFY2(QFile::exists(dir.filePath(f)), f);
        QVERIFY(!QFile::exists(dir.filePath("data/C.bin")));  // outputs are poisoned, not loaded
        // 256x256 float16 inputs as device bytes; the reference as float32.
        QCOMPARE(QFileInfo(dir.filePath("data/A.bin")).size(), qint64(256 * 256 * 2));
        QCOMPARE(QFileInfo(dir.filePath("data/C.ref.f32")).size(), qint64(256 * 256 * 4));
        QString launcher = readText(dir.filePath("main.cu"));
        QVERIFY(launcher.contains(QString::fromStdString(m_result.kernel.name)));
        for (const auto& a : m_result.kernel.args)
            QVERIFY(launcher.contains("d_" + QString::fromStdString(a.name)));
        // The check: the output against its reference file, exit status 1 on a mismatch; the
        // usage line names the binary the build files make.
        QVERIFY(launcher.contains("checkOutput(\"C\", h_C, \"C.ref.f32\", 0.01)"));
        QVERIFY(launcher.contains("return 1;"));
        QVERIFY(launcher.contains("Usage: ./gemm "));
        QVERIFY(launcher.contains("ref_program") == false);  // kGemm has no ref_program
        QVERIFY(launcher.contains("the tile-level interpreter"));
    }

    void theReferenceIsRight() {
        // C = A @ B from the exported files, recomputed here in float64 from the exported
        // inputs: the reference file holds the product (interpreter reference, rel 1e-6).
        QTemporaryDir dir;
        std::string error;
        QVERIFY2(
            !exportProject(m_result, {dir.path().toStdString(), "gemm", "gemm.py", "sm_80"}, &error)
                 .empty(),
            error.c_str());
        auto readF16 = [&](const QString& f) {
            QFile file(dir.filePath(f));
            file.open(QIODevice::ReadOnly);
            QByteArray b = file.readAll();
            std::vector<double> v(size_t(b.size() / 2));
            for (size_t i = 0; i < v.size(); ++i) {
                qfloat16 q;  // IEEE binary16, little-endian on the x86 host
                std::memcpy(&q, b.constData() + 2 * i, 2);
                v[i] = double(float(q));
            }
            return v;
        };
        std::vector<double> a = readF16("data/A.bin"), b = readF16("data/B.bin");
        QFile rf(dir.filePath("data/C.ref.f32"));
        QVERIFY(rf.open(QIODevice::ReadOnly));
        QByteArray rb = rf.readAll();
        const float* ref = reinterpret_cast<const float*>(rb.constData());
        double num = 0, den = 0;
        for (int i = 0; i < 256; i += 17)
            for (int j = 0; j < 256; j += 13) {
                double c = 0;
                for (int k = 0; k < 256; ++k) c += a[size_t(i * 256 + k)] * b[size_t(k * 256 + j)];
                double d = double(ref[i * 256 + j]) - c;
                num += d * d;
                den += c * c;
            }
        QVERIFY2(std::sqrt(num / den) < 1e-3, qPrintable(QString::number(std::sqrt(num / den))));
    }

    void refusesWithoutCode() {
        CompileResult empty;
        std::string error;
        QVERIFY(exportProject(empty, {"/tmp/never", "", "", ""}, &error).empty());
        QVERIFY(!error.empty());
    }

    void cmakeSetsTheArchitectureBeforeProject() {
        QTemporaryDir dir;
        std::string error;
        QVERIFY(!exportProject(m_result, {dir.path().toStdString(), "gemm", "gemm.py", "sm_90a"},
                               &error)
                     .empty());
        QString cmake = readText(dir.filePath("CMakeLists.txt"));
        const int arch = cmake.indexOf("set(CMAKE_CUDA_ARCHITECTURES 90a)");
        const int project = cmake.indexOf("project(gemm");
        QVERIFY2(arch >= 0 && project > arch, qPrintable(cmake));
        QVERIFY(readText(dir.filePath("Makefile")).contains("ARCH ?= sm_90a"));
    QVERIFY(readText(dir.filePath("Makefile")).contains("NVCCFLAGS ?="));
    }

    // The acceptance builds: gemm and softmax, sm_80 and sm_90a, each compiled for that target
    // and built with nvcc through the Makefile; the sm_90a gemm also through CMake.
    void nvccBuildsGemmAndSoftmaxForSm80AndSm90a() {
        QString nvcc = findNvcc();
        if (nvcc.isEmpty()) QSKIP("nvcc not installed");
        const QString nvccDir = QFileInfo(nvcc).absolutePath();
        const QStringList env{"PATH=" + nvccDir + ":" + qEnvironmentVariable("PATH")};
        for (const char* sample : {"gemm", "softmax"}) {
            const QString text = sourceFile(QString("samples/%1.py").arg(sample));
            QVERIFY2(!text.isEmpty(), sample);
            for (const char* arch : {"sm_80", "sm_90a"}) {
                CompileOptions opts;
                opts.target = std::string("cuda:") + arch;
                opts.recordSnapshots = false;
                CompileResult r = compile(std::string(sample) + ".py", text.toStdString(), opts);
                QVERIFY2(r.ok, sample);
                QTemporaryDir dir;
                std::string error;
                QVERIFY2(!exportProject(r, {dir.path().toStdString(), sample, sample, arch}, &error)
                              .empty(),
                         error.c_str());
                QVERIFY(readText(dir.filePath("main.cu")).contains("ref_program (float64)"));
                QString log;
                // NVCCFLAGS reaches nvcc: ptxas -v reports the kernel, and never a serialized wgmma
                // (C7514: nvcc's ptxas serialized the staged gemm's main loop before ts_vec_store).
                int rc = runIn(dir.path(), "make", {"NVCC=" + nvcc, "NVCCFLAGS=-Xptxas -v"}, &log, env);
                QVERIFY2(rc == 0, qPrintable(QString("%1 %2: %3").arg(sample, arch, log)));
                QVERIFY2(log.contains(QString("-arch=%1").arg(arch)), qPrintable(log));
                QVERIFY2(log.contains("ptxas info") && log.contains("registers"), qPrintable(log));
                QVERIFY2(!log.contains("C7514"), qPrintable(log));
                QVERIFY(QFile::exists(dir.filePath(sample)));
                if (QString(sample) == "gemm" && QString(arch) == "sm_90a") {
                    // CMake: configure + verbose build; the nvcc line names compute_90a/sm_90a.
                    rc = runIn(dir.path(), "cmake",
                               {"-S", ".", "-B", "build", "-DCMAKE_CUDA_COMPILER=" + nvcc}, &log,
                               env);
                    QVERIFY2(rc == 0, qPrintable(log));
                    rc = runIn(dir.path(), "cmake", {"--build", "build", "-v"}, &log, env);
                    QVERIFY2(rc == 0, qPrintable(log));
                    QVERIFY2(
                        log.contains("sm_90a") && !log.contains("sm_75") && !log.contains("sm_52"),
                        qPrintable(log));
                    QVERIFY(QFile::exists(dir.filePath("build/gemm")));
                }
            }
        }
    }
};

QTEST_MAIN(ExportTest)
#include "ExportTest.moc"
