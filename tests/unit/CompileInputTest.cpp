// compile() on input that is not a tile program at all: binary bytes get one error at the first
// offending byte (not hundreds of lexer errors), and any flood of errors is cut after 50 with a
// note saying how many were dropped.
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "tests/support/SourceDir.h"

using namespace ts;

namespace {
int errorsIn(const CompileResult& r) {
    int n = 0;
    for (auto& d : r.diagnostics) n += d.severity == Severity::Error;
    return n;
}
}  // namespace

TEST(CompileInput, NulByteIsOneErrorAtItsPosition) {
    std::string text = "import tilelang\nx = 1";
    text += '\0';
    text += "\n";
    auto r = compile("nul.py", text, {});
    EXPECT_FALSE(r.ok);
    ASSERT_EQ(errorsIn(r), 1);
    EXPECT_EQ(r.diagnostics[0].span.line, 2u);
    EXPECT_EQ(r.diagnostics[0].span.col, 6u);  // after "x = 1"
    EXPECT_NE(r.diagnostics[0].message.find("a binary file, not a tile program (a NUL byte at "
                                            "line 2, column 6, byte offset 21)"),
              std::string::npos)
        << r.diagnostics[0].message;
}

TEST(CompileInput, InvalidUtf8IsOneError) {
    // 0xC3 starts a 2-byte sequence; 0x28 is not a continuation byte.
    auto r = compile("bad.py", "a = 1\nb = '\xC3\x28'\n", {});
    ASSERT_EQ(errorsIn(r), 1);
    EXPECT_EQ(r.diagnostics[0].span.line, 2u);
    EXPECT_EQ(r.diagnostics[0].span.col, 6u);
    EXPECT_NE(r.diagnostics[0].message.find("not UTF-8 text (byte 0xC3 at line 2, column 6"),
              std::string::npos)
        << r.diagnostics[0].message;
}

// Well-formed UTF-8 only (helper-109): an overlong '/', a surrogate and a code point past U+10FFFF
// were accepted by the 2-/3-/4-byte shape check alone.
TEST(CompileInput, OverlongSurrogateAndOutOfRangeSequencesAreNotText) {
    for (const char* bad : {"\xC0\xAF", "\xE0\x80\xAF", "\xED\xA0\x80", "\xF0\x80\x80\xAF", "\xF4\x90\x80\x80", "\xF5\x80\x80\x80"}) {
        auto r = compile("bad.py", std::string("a = 1\nb = '") + bad + "'\n", {});
        ASSERT_EQ(errorsIn(r), 1) << bad;
        EXPECT_NE(r.diagnostics[0].message.find("not UTF-8 text (byte 0x"), std::string::npos) << r.diagnostics[0].message;
    }
    for (const char* good : {"\xC2\xA0", "\xE0\xA0\x80", "\xED\x9F\xBF", "\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF"}) {
        auto r = compile("ok.py", std::string("a = 1\nb = '") + good + "'\n", {});
        for (auto& d : r.diagnostics) EXPECT_EQ(d.message.find("not UTF-8"), std::string::npos) << d.message;
    }
}

// New-user trial: `tilec compile /bin/ls` printed the ELF header's raw bytes as the excerpt.
// The diagnostic names the file and the position; no byte of a non-text line reaches the text.
TEST(CompileInput, BinaryFileDiagnosticQuotesNoRawBytes) {
    static const char kElf[] = "\x7f" "ELF\x02\x01\x01\0\0\0\xff\xfe\x1b[2J\n";
    std::string elf(kElf, sizeof kElf - 1);
    auto r = compile("/bin/tool", elf, {});
    ASSERT_EQ(errorsIn(r), 1);
    std::string text = formatDiagnostic(r.diagnostics[0], r.source.get());
    EXPECT_EQ(text.rfind("/bin/tool:1:8: error: this is a binary file, not a tile program", 0), 0u)
        << text;
    for (unsigned char c : text)
        EXPECT_TRUE(c == '\n' || (c >= 0x20 && c < 0x7F)) << "raw byte " << int(c) << " in:\n" << text;
    EXPECT_EQ(text.find("ELF"), std::string::npos) << text;
    // Invalid UTF-8 (Latin-1 text): the position and the byte's value, not the byte.
    auto l1 = compile("latin1.py", "# caf\xe9\nimport tilelang\n", {});
    ASSERT_EQ(errorsIn(l1), 1);
    std::string t1 = formatDiagnostic(l1.diagnostics[0], l1.source.get());
    EXPECT_NE(t1.find("latin1.py:1:6: error: this file is not UTF-8 text (byte 0xE9"), std::string::npos) << t1;
    EXPECT_EQ(t1.find('\xe9'), std::string::npos) << t1;
}

TEST(CompileInput, ValidUtf8PassesTheTextCheck) {
    // A comment with non-ASCII text is fine; the program then fails for its own reason.
    auto r = compile("ok.py", "# größe — ok\nimport tilelang\n", {});
    for (auto& d : r.diagnostics)
        EXPECT_NE(d.origin, "read") << d.message;
}

TEST(CompileInput, ErrorFloodIsCappedWithANote) {
    // 60 errors with a warning at position 10 and one at 55: the first 3 errors and the warning
    // before the cut stay, the 57 dropped errors are counted in a note, later warnings go too.
    std::vector<Diagnostic> all;
    for (int i = 0; i < 62; ++i) {
        Diagnostic d;
        d.severity = (i == 2 || i == 57) ? Severity::Warning : Severity::Error;
        d.message = "e" + std::to_string(i);
        all.push_back(d);
    }
    auto out = capErrors(all, 3);
    ASSERT_EQ(out.size(), 5u);  // e0 e1 (w2) e3 + note
    EXPECT_EQ(out[2].severity, Severity::Warning);
    EXPECT_EQ(out[3].message, "e3");
    EXPECT_EQ(out[4].severity, Severity::Note);
    EXPECT_EQ(out[4].message, "57 more error(s) not shown");
    EXPECT_EQ(capErrors(all, 60).size(), all.size());
}

// A per-thread fragment past the register file gets a warning naming it: (1, 100000) fp32 over
// 128 threads in 4-wide vectors is ceil(100000 / 512) * 4 = 784 registers per thread; N = 37
// needs 4 and gets none.
TEST(CompileInput, RegisterFileOverflowIsAWarning) {
    std::ifstream in(std::string(TS_SOURCE_DIR) + "/tests/e2e/programs/affine_row.py");
    std::stringstream ss;
    ss << in.rdbuf();
    auto count = [&](const std::string& n, std::string* msg) {
        CompileOptions o;
        o.params["N"] = n;
        auto r = compile("affine_row.py", ss.str(), o);
        EXPECT_TRUE(r.ok);
        int k = 0;
        for (auto& d : r.diagnostics)
            if (d.severity == Severity::Warning &&
                d.message.find("registers per thread") != std::string::npos)
                ++k, *msg = d.message;
        return k;
    };
    std::string msg;
    EXPECT_EQ(count("100000", &msg), 1);
    EXPECT_NE(msg.find("784 32-bit registers"), std::string::npos) << msg;
    EXPECT_NE(msg.find("'x'"), std::string::npos) << msg;
    EXPECT_EQ(count("37", &msg), 0);
}

// Targets past sm_80 without wgmma compile, and say what their gemms become (they used to take
// the sm_80 path silently: a user writing cuda:sm_90 for an H200 got mma.sync without a word).
TEST(CompileTarget, Sm90WithoutTheASuffixAndNewerChipsSayGemmsTakeMmaSync) {
    std::ifstream in(std::string(TS_SOURCE_DIR) + "/samples/gemm.py");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string gemm = ss.str();
    ASSERT_FALSE(gemm.empty());
    auto noteOf = [](const CompileResult& r) -> std::string {
        for (auto& d : r.diagnostics)
            if (d.severity == Severity::Note && d.origin == "target") return d.message + " | " + d.hint;
        return "";
    };
    for (const char* t : {"cuda:sm_90", "cuda:sm_100a"}) {
        CompileOptions o;
        o.target = t;
        auto r = compile("samples/gemm.py", gemm, o);
        ASSERT_TRUE(r.ok) << t;
        // The consequence leads (the IDE's Problems column shows only the start of a message).
        EXPECT_EQ(noteOf(r).rfind(std::string(t) + ": every T.gemm takes mma.sync and no copy takes TMA", 0), 0u)
            << t << ": " << noteOf(r);
        EXPECT_NE(noteOf(r).find("cuda:sm_90a"), std::string::npos) << t;
        EXPECT_EQ(r.cuda.find("wgmma"), std::string::npos) << t;
        // The note said "has TMA" / "copies take TMA where legal" while every TMA path is sm_90a's
        // alone: gemm.py's loads and its C store, TMA on sm_90a (below), are cp.async and plain here.
        EXPECT_EQ(r.cuda.find("tma_"), std::string::npos) << t;
        EXPECT_NE(r.cuda.find("cp_async"), std::string::npos) << t;
    }
    for (const char* t : {"cuda:sm_80", "cuda:sm_90a"}) {
        CompileOptions o;
        o.target = t;
        auto r = compile("samples/gemm.py", gemm, o);
        EXPECT_EQ(noteOf(r), "") << t;
        EXPECT_EQ(r.cuda.find("tma_load_tile") != std::string::npos, std::string(t) == "cuda:sm_90a") << t;
    }
}

// The note speaks only of what the kernel has (fresh-user finding: "every T.gemm takes mma.sync and
// no copy takes TMA" on an element-wise kernel with neither): the gemm part for a T.gemm, the
// TMA part for a T.copy between global memory and a shared tile; nothing for neither.
TEST(CompileTarget, Sm90NoteNamesOnlyWhatTheKernelHas) {
    auto notesOf = [](const std::string& body, const char* target) {
        const std::string text =
            "import tilelang.language as T\n\n\n@T.prim_func\n"
            "def main(A: T.Tensor((64, 64), \"float16\"), B: T.Tensor((64, 64), \"float16\"), C: T.Tensor((64, 64), \"float32\")):\n"
            "    with T.Kernel(1, threads=128) as bx:\n" + body;
        CompileOptions o;
        o.target = target;
        auto r = compile("k.py", text, o);
        EXPECT_TRUE(r.ok) << target << "\n" << body;
        std::string out;
        for (auto& d : r.diagnostics)
            if (d.severity == Severity::Note && d.origin == "target") out += d.message + "\n";
        return out;
    };
    const std::string elementwise = "        for i, j in T.Parallel(64, 64):\n            C[i, j] = A[i, j] * 2.0\n";
    const std::string copyOnly = "        s = T.alloc_shared((64, 64), \"float16\")\n        T.copy(A, s)\n"
                                 "        for i, j in T.Parallel(64, 64):\n            C[i, j] = s[i, j]\n";
    const std::string vectorCopy = "        v = T.alloc_shared((64,), \"float16\")\n        T.copy(A[0, :], v)\n"
                                   "        for i, j in T.Parallel(64, 64):\n            C[i, j] = v[j]\n";
    const std::string gemmOnly = "        a = T.alloc_shared((64, 64), \"float16\")\n        b = T.alloc_shared((64, 64), \"float16\")\n"
                                 "        c = T.alloc_fragment((64, 64), \"float32\")\n"
                                 "        for i, j in T.Parallel(64, 64):\n            a[i, j] = A[i, j]\n            b[i, j] = B[i, j]\n"
                                 "        T.clear(c)\n        T.gemm(a, b, c)\n"
                                 "        for i, j in T.Parallel(64, 64):\n            C[i, j] = c[i, j]\n";
    for (const char* t : {"cuda:sm_90", "cuda:sm_100a"}) {
        const std::string name = t;
        EXPECT_EQ(notesOf(elementwise, t), "") << t;
        const std::string copy = notesOf(copyOnly, t);
        EXPECT_EQ(copy.rfind(name + ": no copy takes TMA (cp.async and plain loads and stores, as on cuda:sm_80): TileScope ", 0), 0u)
            << copy;
        EXPECT_EQ(copy.find("T.gemm"), std::string::npos) << copy;
        // Only what this kernel would gain on sm_90a: TMA, not wgmma/setmaxnreg (helper-95), and
        // where: the copy at line 8 is a TMA load on sm_90a.
        EXPECT_EQ(copy.find("wgmma"), std::string::npos) << copy;
        EXPECT_EQ(copy.find("setmaxnreg"), std::string::npos) << copy;
        EXPECT_NE(copy.find("; on cuda:sm_90a its copy (line 8) would take TMA\n"), std::string::npos) << copy;
        // A copy that would not take TMA on sm_90a either (a vector: not a 2-D tile): nothing to
        // gain there, no note (it cited wgmma and setmaxnreg and suggested cuda:sm_90a).
        EXPECT_EQ(notesOf(vectorCopy, t), "") << t;
        const std::string gemm = notesOf(gemmOnly, t);
        EXPECT_EQ(gemm.rfind(name + ": every T.gemm takes mma.sync (as on cuda:sm_80): TileScope ", 0), 0u) << gemm;
        EXPECT_EQ(gemm.find("no copy takes TMA"), std::string::npos) << gemm;
    }
    // sm_90a and sm_80 have nothing to say.
    for (const char* t : {"cuda:sm_80", "cuda:sm_90a"}) EXPECT_EQ(notesOf(copyOnly, t), "") << t;
}
