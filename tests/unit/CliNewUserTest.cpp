// Defects a new user hit in `tilec` (new-user trial, closing notes 2026-12-03b), one test each:
// the default target is named with its reason and how to pick another; a Hopper-sized kernel
// under the no-GPU default gets a hint naming --target cuda:sm_90a (which then runs); an unknown
// --emit kind lists the kinds (exit 1); a binary input is named as such without echoing its
// bytes; an endless T.serial under `run --interp` stops at the time limit with an error at the
// loop's file:line:col, and shows progress inside the long block.
#include <cstdlib>

#include "CliTestUtil.h"
#include "app/cli/InterpProgress.h"
#include "tests/support/SourceDir.h"

using namespace ts::cli;
using namespace ts::cli::test;

namespace {
std::string sample(const std::string& name) { return std::string(TS_SOURCE_DIR) + "/samples/" + name; }

/// Every byte printable ASCII or a newline: nothing raw from a binary file reached the terminal.
bool printableAscii(const std::string& s) {
    for (unsigned char c : s)
        if (c != '\n' && (c < 0x20 || c >= 0x7F)) return false;
    return true;
}

// A 64-element kernel whose T.serial never ends in practice (2^40 iterations) around a
// T.Parallel: the error must name the serial loop (line 10), not the inner loop ticking.
const char* kEndless = R"(import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=64) as (bx,):
        acc = T.alloc_fragment((64,), "float32")
        T.clear(acc)
        for k in T.serial(1 << 40):
            for i in T.Parallel(64):
                acc[i] += A[i]
        T.copy(acc, B)
)";
}  // namespace

TEST(CliNewUser, RunWithoutGpuNamesTheDefaultTargetAndHowToPickAnother) {
    RunCommand c;
    c.flags.file = sample("add.py");
    c.flags.params = {"M=64", "N=256"};
    c.interp = "tile";
    c.seed = 3;
    auto o = captureCli([&] { return runRun(c); });
    if (lastDefaultedTarget().fromGpu) GTEST_SKIP() << "a GPU is attached: its arch is the default";
    EXPECT_EQ(o.rc, 0) << o.err;
    EXPECT_TRUE(contains(o.out, "target cuda:sm_80 (tilec's default: no GPU found")) << o.out;
    EXPECT_TRUE(contains(o.out, "--target cuda:sm_90a (Hopper: H100/H200)")) << o.out;
    // A target the user gave is theirs: no note.
    c.flags.target = "cuda:sm_80";
    auto given = captureCli([&] { return runRun(c); });
    EXPECT_EQ(given.rc, 0) << given.err;
    EXPECT_FALSE(contains(given.out, "tilec's default")) << given.out;
}

TEST(CliNewUser, HopperSizedKernelUnderTheDefaultTargetSuggestsSm90a) {
    // 6 stages of 128x64 + 64x128 fp16 tiles: 196608 B of shared memory, more than sm_80's
    // 166912 B, less than sm_90a's 232448 B.
    RunCommand c;
    c.flags.file = sample("gemm.py");
    c.flags.params = {"M=128", "N=128", "K=128", "num_stages=6", "block_K=64"};
    c.interp = "tile";
    c.seed = 5;
    auto o = captureCli([&] { return runRun(c); });
    if (lastDefaultedTarget().fromGpu) GTEST_SKIP() << "a GPU is attached: its arch is the default";
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "the kernel needs 196608 bytes, more than the 166912-byte "
                                "per-block limit of sm_80"))
        << o.err;
    EXPECT_TRUE(contains(o.err, "it fits cuda:sm_90a (232448 bytes per block; --target "
                                "cuda:sm_90a)"))
        << o.err;
    EXPECT_TRUE(contains(o.err, "tilec: note: compiled for target cuda:sm_80 (tilec's default: "
                                "no GPU found"))
        << o.err;
    // The hint is true: the same kernel for sm_90a compiles and passes against ref_program.
    c.flags.target = "cuda:sm_90a";
    auto h = captureCli([&] { return runRun(c); });
    EXPECT_EQ(h.rc, 0) << h.err;
    EXPECT_TRUE(contains(h.out, "197632 B shared")) << h.out;  // + the sm_90a pipeline's mbarriers
    EXPECT_TRUE(contains(h.out, "\nPASS\n")) << h.out;
}

TEST(CliNewUser, UnknownEmitKindListsTheKindsAndExitsOne) {
    CompileCommand c;
    c.flags.file = "/nonexistent/never_read.py";  // checked before the file is read
    c.emit = "wat";
    auto o = captureCli([&] { return runCompile(c); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "tilec: error: --emit: unknown kind 'wat'; the kinds are:\n"
                                "    ir    the final IR, after every pass\n"
                                "    cuda  the generated CUDA C++"))
        << o.err;
    EXPECT_TRUE(contains(o.err, "    hip   the generated HIP C++ (hip:gfx90a)\n")) << o.err;
    EXPECT_TRUE(contains(o.err, "  hint: tilec compile FILE --emit cuda")) << o.err;
    EXPECT_FALSE(contains(o.err, "no such file")) << o.err;
    // Case and PTX get their own hints; the valid kinds pass.
    auto upper = captureCli([] { return validEmitKind("CUDA") ? 0 : 1; });
    EXPECT_EQ(upper.rc, 1);
    EXPECT_TRUE(contains(upper.err, "hint: kinds are lower case: --emit cuda")) << upper.err;
    auto ptx = captureCli([] { return validEmitKind("ptx") ? 0 : 1; });
    EXPECT_TRUE(contains(ptx.err, "tilec prints source, not ptx")) << ptx.err;
    for (const char* ok : {"", "ir", "cuda", "hip"}) EXPECT_TRUE(validEmitKind(ok)) << ok;
}

TEST(CliNewUser, BinaryFileIsNamedWithoutEchoingItsBytes) {
    // An ELF header with terminal escapes: what `tilec compile /bin/ls` printed raw before.
    static const char kElf[] = "\x7f" "ELF\x02\x01\x01\0\0\0\x1b[2J\x1b]0;pwned\x07\xff\xfe\n";
    std::string bin = writeScratch("tool.bin", std::string(kElf, sizeof kElf - 1));
    CompileCommand c;
    c.flags.file = bin;
    c.flags.target = "cuda:sm_80";
    c.noNvrtc = true;
    auto o = captureCli([&] { return runCompile(c); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, bin + ":1:8: error: this is a binary file, not a tile program (a "
                                      "NUL byte at line 1, column 8, byte offset 7)"))
        << o.err;
    EXPECT_TRUE(contains(o.err, "hint: tilec reads TileLang programs: Python source text")) << o.err;
    EXPECT_TRUE(printableAscii(o.err)) << o.err;
    EXPECT_TRUE(printableAscii(o.out)) << o.out;
    // Latin-1 text: the encoding is named, the byte given by value.
    std::string latin1 = writeScratch("latin1.py", "# caf\xe9\nimport tilelang\n");
    c.flags.file = latin1;
    auto l = captureCli([&] { return runCompile(c); });
    EXPECT_EQ(l.rc, 1);
    EXPECT_TRUE(contains(l.err, latin1 + ":1:6: error: this file is not UTF-8 text (byte 0xE9 at "
                                         "line 1, column 6, byte offset 5"))
        << l.err;
    EXPECT_TRUE(printableAscii(l.err)) << l.err;
}

TEST(CliNewUser, EndlessSerialLoopStopsAtTheTimeLimitWithItsLocation) {
    std::string f = writeScratch("endless.py", kEndless);
    for (const char* interp : {"tile", "lowered"}) {
        RunCommand c;
        c.flags.file = f;
        c.flags.target = "cuda:sm_80";
        c.interp = interp;
        c.seed = 1;
        c.timeLimitS = 1;
        auto t0 = std::chrono::steady_clock::now();
        auto o = captureCli([&] { return runRun(c); });
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        EXPECT_EQ(o.rc, 1) << interp;
        EXPECT_LT(s, 30) << interp << ": the limit did not stop the run";
        EXPECT_TRUE(contains(o.err, f + ":10:9: error: time limit of 1 s reached: the interpreter "
                                        "was still in this loop, at iteration "))
            << interp << "\n" << o.err;
        EXPECT_TRUE(contains(o.err, " of 1099511627776 (block 1 of 1)")) << interp << "\n" << o.err;
        EXPECT_TRUE(contains(o.err, "\n          for k in T.serial(1 << 40):\n          ^\n")) << o.err;
        EXPECT_TRUE(contains(o.err, "hint: an endless or enormous loop? check its extent")) << o.err;
        EXPECT_TRUE(contains(o.err, "--time-limit SECONDS raises the limit (0: none)")) << o.err;
        EXPECT_FALSE(contains(o.err, "internal")) << o.err;
    }
}

TEST(CliNewUser, LongBlockShowsLoopProgressWithProgressFlag) {
    std::string f = writeScratch("endless_progress.py", kEndless);
    RunCommand c;
    c.flags.file = f;
    c.flags.target = "cuda:sm_80";
    c.interp = "tile";
    c.seed = 1;
    c.timeLimitS = 2.5;
    c.progress = true;  // stderr is no terminal here
    auto o = captureCli([&] { return runRun(c); });
    setProgressForced(false);
    EXPECT_EQ(o.rc, 1);
    // One line after 1 s (not a terminal: at most every 10 s), inside the one block.
    EXPECT_TRUE(contains(o.err, "tilec: interpreter: block 0 of 1 (0%), 1.")) << o.err;
    EXPECT_TRUE(contains(o.err, ", line 10: iteration ")) << o.err;
    EXPECT_TRUE(contains(o.err, " of 1099511627776; smaller --param sizes run faster")) << o.err;
    EXPECT_TRUE(contains(o.err, "time limit of 2.5 s reached")) << o.err;
}

TEST(CliNewUser, MisspeltPassNameSuggestsTheClosestPass) {
    // New-user trial: `--stop-after infer-layout` named no pass and suggested nothing.
    CompileCommand c;
    c.flags.file = "/nonexistent/never_read.py";  // flags are checked before the file is read
    c.stopAfter = "infer-layout";
    auto o = captureCli([&] { return runCompile(c); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "tilec: error: --stop-after: no pass named 'infer-layout'; did you mean "
                                "'infer-layouts'? (see `tilec passes`)"))
        << o.err;
    c.stopAfter.clear();
    c.printAfter = "simplfy";
    o = captureCli([&] { return runCompile(c); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "no pass named 'simplfy'; did you mean 'simplify'?")) << o.err;
    c.printAfter = "zzzzzzzz";  // nothing close: no suggestion
    o = captureCli([&] { return runCompile(c); });
    EXPECT_FALSE(contains(o.err, "did you mean")) << o.err;
}

// Fresh-user finding (helper-101): `tilec passes` listed only sm_80's pipeline, and asking for
// an sm_90a-only pass on sm_80 said "no pass named" as if it were misspelt.
TEST(CliNewUser, PassesAreListedPerTargetAndAnotherTargetsPassIsNamedAsSuch) {
    auto o = captureCli([&] { return runPasses("cuda:sm_90a"); });
    EXPECT_EQ(o.rc, 0);
    EXPECT_TRUE(contains(o.out, "passes for cuda:sm_90a, in order:\n")) << o.out;
    EXPECT_TRUE(contains(o.out, "\ninsert-sync ")) << o.out;
    EXPECT_TRUE(contains(o.out, "\nsink-tma-waits     sm_90a: a plain TMA copy's mbarrier wait")) << o.out;
    EXPECT_LT(o.out.find("\ninsert-sync "), o.out.find("\nsink-tma-waits ")) << o.out;
    EXPECT_LT(o.out.find("\nsink-tma-waits "), o.out.find("\nplan-smem ")) << o.out;
    o = captureCli([&] { return runPasses("cuda:sm_80"); });
    EXPECT_TRUE(contains(o.out, "passes for cuda:sm_80, in order:\n")) << o.out;
    EXPECT_FALSE(contains(o.out, "sink-tma-waits")) << o.out;
    o = captureCli([&] { return runPasses("cuda:nonsense"); });
    EXPECT_EQ(o.rc, 2);
    EXPECT_TRUE(contains(o.err, "tilec: error: --target: unknown target 'cuda:nonsense'")) << o.err;

    CompileCommand c;
    c.flags.file = "/nonexistent/never_read.py";
    c.flags.target = "cuda:sm_80";
    c.printAfter = "sink-tma-waits";
    o = captureCli([&] { return runCompile(c); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "tilec: error: --print-after: pass 'sink-tma-waits' runs only on cuda:sm_90a; this compile is for "
                                "cuda:sm_80\n  hint: add --target cuda:sm_90a"))
        << o.err;
    c.printAfter.clear();
    c.stopAfter = "warp-specialize";
    o = captureCli([&] { return runCompile(c); });
    EXPECT_TRUE(contains(o.err, "tilec: error: --stop-after: pass 'warp-specialize' runs only on cuda:sm_90a")) << o.err;
}
