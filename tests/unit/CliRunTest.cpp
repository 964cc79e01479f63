// `tilec run` (app/cli/CmdRun.cpp) on the CPU interpreter: unreadable inputs are errors, a
// ref_program whose results do not fit the outputs is a clear error (exit 1) instead of an
// uncaught std::invalid_argument (exit 134) or a silent pass, and a program without ref_program
// is never reported as PASS by comparing the tile interpreter with itself.
#include "CliTestUtil.h"
#include "tests/support/SourceDir.h"

using namespace ts::cli;
using namespace ts::cli::test;

namespace {
// add.py at 64x256 (block 32x128: a 2x2 grid) so each run takes milliseconds.
RunCommand interpRun(const std::string& file, const std::string& interp = "tile") {
    RunCommand c;
    c.flags.file = file;
    c.flags.params = {"M=64", "N=256"};
    c.flags.target = "cuda:sm_80";
    c.interp = interp;
    c.seed = 7;
    return c;
}

std::string addWithRef(const std::string& name, const std::string& ret) {
    return writeScratch(name, replaced(sampleText("add.py"), "    return A + B\n", ret));
}
}  // namespace

TEST(CliRun, DevZeroIsRefusedNotRead) {
    auto o = captureCli([] { return runRun(interpRun("/dev/zero")); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "/dev/zero: error: is not a regular file (device, FIFO or socket)"))
        << o.err;
}

TEST(CliRun, RefSliceOfWrongShapeIsAnError) {
    auto f = addWithRef("ref_slice.py", "    return (A + B)[0:3]\n");
    auto o = captureCli([&] { return runRun(interpRun(f)); });
    EXPECT_EQ(o.rc, 1);
    // C is (64, 256); the first 3 rows of A + B are (3, 256).
    EXPECT_TRUE(contains(o.err,
                         "ref_program's value for output C has shape (3, 256), but C has "
                         "shape (64, 256)"))
        << o.err;
    EXPECT_FALSE(contains(o.out, "PASS"));
}

TEST(CliRun, RefScalarIsAnError) {
    auto f = addWithRef("ref_scalar.py", "    return 3.0\n");
    auto o = captureCli([&] { return runRun(interpRun(f)); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "has shape (), but C has shape (64, 256)")) << o.err;
}

TEST(CliRun, RefReturningTwoValuesForOneOutputIsAnError) {
    // Used to pass silently: only the first value was compared.
    auto f = addWithRef("ref_tuple.py", "    return A + B, A\n");
    auto o = captureCli([&] { return runRun(interpRun(f)); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "ref_program returned 2 values for 1 output (C)")) << o.err;
    EXPECT_FALSE(contains(o.out, "PASS"));
}

TEST(CliRun, CorrectRefStillPasses) {
    auto o = captureCli(
        [] { return runRun(interpRun(std::string(TS_SOURCE_DIR) + "/samples/add.py")); });
    EXPECT_EQ(o.rc, 0) << o.err;
    EXPECT_TRUE(contains(o.out, "check against ref_program")) << o.out;
    EXPECT_TRUE(contains(o.out, "\nPASS\n")) << o.out;
}

TEST(CliRun, NoRefProgramOnTileInterpreterIsNotChecked) {
    std::string text = sampleText("add.py");
    text = replaced(text, "def ref_program(A, B):\n    return A + B\n", "");
    auto f = writeScratch("no_ref.py", text);
    auto o = captureCli([&] { return runRun(interpRun(f)); });
    EXPECT_EQ(o.rc, 0) << o.err;
    EXPECT_TRUE(contains(o.out,
                         "no ref_program: nothing to check against (the tile-level "
                         "interpreter is the reference)"))
        << o.out;
    EXPECT_TRUE(contains(o.out, "NOT CHECKED")) << o.out;
    EXPECT_FALSE(contains(o.out, "PASS")) << o.out;
}

TEST(CliRun, NoRefProgramLoweredSaysWhatItCheckedAgainst) {
    std::string text = sampleText("add.py");
    text = replaced(text, "def ref_program(A, B):\n    return A + B\n", "");
    auto f = writeScratch("no_ref_lowered.py", text);
    auto o = captureCli([&] { return runRun(interpRun(f, "lowered")); });
    EXPECT_EQ(o.rc, 0) << o.err;
    auto note = o.out.find("no ref_program: checked against the tile-level interpreter");
    auto verdict = o.out.find("\nPASS\n");
    ASSERT_NE(note, std::string::npos) << o.out;
    ASSERT_NE(verdict, std::string::npos) << o.out;
    EXPECT_LT(note, verdict);
}

// Fresh-user trial 2026-12-02: `--ref FILE::NAME` (a reference of one's own beside a TileLang file
// that checks inline in main()) worked only with --chain; a single run searched the program's
// own file for a function named "FILE::NAME", after running the kernel.
TEST(CliRun, RefOfAnotherFileChecksTheKernel) {
    std::string text = sampleText("add.py");
    auto f = writeScratch("other_ref_kernel.py",
                          replaced(text, "def ref_program(A, B):\n    return A + B\n", ""));
    auto refFile = writeScratch("other_ref_mine.py", "def my_ref(A, B):\n    return A + B\n");
    RunCommand c = interpRun(f);
    c.ref = refFile + "::my_ref";
    auto o = captureCli([&] { return runRun(c); });
    EXPECT_EQ(o.rc, 0) << o.out << o.err;
    EXPECT_TRUE(contains(o.out, "check against " + refFile + "::my_ref (float64")) << o.out;
    EXPECT_TRUE(contains(o.out, "\nPASS\n")) << o.out;

    // A wrong reference of that file fails the check (it is really evaluated).
    auto wrong = writeScratch("other_ref_wrong.py", "def my_ref(A, B):\n    return A - B\n");
    c.ref = wrong + "::my_ref";
    o = captureCli([&] { return runRun(c); });
    EXPECT_EQ(o.rc, 2) << o.out << o.err;
    EXPECT_TRUE(contains(o.out, "\nFAIL\n")) << o.out;
}

TEST(CliRun, UnknownRefIsReportedBeforeTheKernelRuns) {
    auto refFile = writeScratch("other_ref_known.py", "def my_ref(A, B):\n    return A + B\n");
    RunCommand c = interpRun(std::string(TS_SOURCE_DIR) + "/samples/add.py", "lowered");
    c.ref = refFile + "::my_reff";
    auto o = captureCli([&] { return runRun(c); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "no function 'my_reff' in " + refFile + " (did you mean 'my_ref'?)"))
        << o.err;
    EXPECT_FALSE(contains(o.out, "ran on the CPU interpreter")) << o.out;

    c.ref = refFile + ".missing::my_ref";
    o = captureCli([&] { return runRun(c); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, ".missing: no such file")) << o.err;

    c.ref = "ref_programm";
    o = captureCli([&] { return runRun(c); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "(did you mean 'ref_program'?)")) << o.err;
    EXPECT_FALSE(contains(o.out, "ran on the CPU interpreter")) << o.out;
}

TEST(CliRun, ReferenceOfTheWrongShapeNamesWhereToFixIt) {
    auto f = addWithRef("ref_rows.py", "    return (A + B)[0:3]\n");
    auto o = captureCli([&] { return runRun(interpRun(f)); });
    EXPECT_EQ(o.rc, 1);
    // The def line of ref_program in add.py, located.
    EXPECT_TRUE(contains(o.err, "hint: " + f + ":")) << o.err;
    EXPECT_TRUE(contains(o.err, "'ref_program' must return the kernel's outputs in order"))
        << o.err;
}

TEST(CliRun, ReferenceErrorIsOneDiagnosticNotErrorInError) {
    auto f = addWithRef("ref_typo.py", "    return torch.addd(A, B)\n");
    auto o = captureCli([&] { return runRun(interpRun(f)); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, f + ":")) << o.err;
    EXPECT_TRUE(contains(o.err, "torch.addd")) << o.err;
    EXPECT_FALSE(contains(o.err, "tilec: error: no reference: " + f)) << o.err;
}

// An out-of-bounds access on random integer inputs (cu_seqlens, indices) says how to give valid
// ones instead of leaving the user with an index of -5.
TEST(CliRun, OutOfBoundsOnRandomIntegerInputsSuggestsInputRules) {
    auto f = writeScratch("gather_rows.py", R"(import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def gather(M=64, N=32, R=16):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), idx: T.Tensor((R,), "int32"),
             C: T.Tensor((R, N), "float32")):
        with T.Kernel(R, threads=32) as bx:
            for j in T.Parallel(N):
                C[bx, j] = A[idx[bx], j]

    return main
)");
    RunCommand c;
    c.flags.file = f;
    c.flags.target = "cuda:sm_80";
    c.interp = "tile";
    c.seed = 7;  // its random idx has negative values
    auto o = captureCli([&] { return runRun(c); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "out-of-bounds load A[")) << o.err;
    EXPECT_TRUE(contains(o.err, "hint: the integer input(s) idx were filled with random values"))
        << o.err;
    EXPECT_TRUE(contains(o.err, "--input NAME=RULE")) << o.err;

    c.flags.inputRules = {"idx=int:-1000:-900"};  // certainly out of bounds
    o = captureCli([&] { return runRun(c); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "out-of-bounds")) << o.err;
    // The rule was given: no hint about random values.
    EXPECT_FALSE(contains(o.err, "were filled with random values")) << o.err;
}

TEST(CliRun, SummaryCountsEveryThreadOfATwoDimensionalBlock) {
    // helper-129 #1: threads=(32, 4) was summarised as "32 threads".
    auto f = writeScratch("threads_2d.py",
                          "import tilelang\nimport tilelang.language as T\n\n\n"
                          "@tilelang.jit(out_idx=[1])\ndef twice(M=4, N=32):\n    @T.prim_func\n"
                          "    def main(A: T.Tensor((M, N), \"float32\"), B: T.Tensor((M, N), \"float32\")):\n"
                          "        with T.Kernel(1, threads=(32, 4)) as bx:\n"
                          "            tx = T.get_thread_binding(0)\n            ty = T.get_thread_binding(1)\n"
                          "            B[ty, tx] = A[ty, tx] * 2.0\n\n    return main\n");
    RunCommand c;
    c.flags.file = f;
    c.flags.target = "cuda:sm_80";
    c.interp = "tile";
    c.seed = 7;
    auto o = captureCli([&] { return runRun(c); });
    EXPECT_EQ(o.rc, 0) << o.err;
    EXPECT_TRUE(contains(o.out + o.err, "grid (1, 1, 1), 128 threads (32, 4), 0 B shared")) << o.out << o.err;
}

// T.print's lines reach stdout on both interpreters (they were kept in the run's result and never
// shown: helper-130): the tile-level interpreter prints a statement outside T.Parallel once per
// block, the thread-level one once per thread, as the GPU's printf does.
TEST(CliRun, TPrintLinesAreShownOnBothInterpreters) {
    auto f = writeScratch("tprint.py", R"(import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def k(N=8):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(2, threads=4) as bx:
            T.print(bx * 10 + 3, msg="tag")
            for i in T.Parallel(4):
                B[bx * 4 + i] = A[bx * 4 + i] * 2.0

    return main
)");
    RunCommand c;
    c.flags.file = f;
    c.flags.target = "cuda:sm_80";
    c.seed = 7;
    c.interp = "tile";
    auto tile = captureCli([&] { return runRun(c); });
    EXPECT_TRUE(contains(tile.out, "block [0]: tag 3\n")) << tile.out << tile.err;
    EXPECT_TRUE(contains(tile.out, "block [1]: tag 13\n")) << tile.out;
    c.interp = "lowered";
    auto thread = captureCli([&] { return runRun(c); });
    EXPECT_TRUE(contains(thread.out, "block [0] thread 0: tag 3\n")) << thread.out << thread.err;
    EXPECT_TRUE(contains(thread.out, "block [1] thread 3: tag 13\n")) << thread.out;
}

// `--ref FILE::NAME` with an empty side: a clear error, not ": error: no such file" (helper-132 #5).
TEST(CliRun, RefFileNameNeedsBothSides) {
    for (const char* ref : {"::ref_program", "samples/add.py::"}) {
        RunCommand c = interpRun(std::string(TS_SOURCE_DIR) + "/samples/add.py");
        c.ref = ref;
        auto o = captureCli([&] { return runRun(c); });
        EXPECT_NE(o.rc, 0) << ref;
        EXPECT_TRUE(contains(o.err, "FILE::NAME needs both a file and a function name")) << ref << "\n" << o.err;
        EXPECT_FALSE(contains(o.out, "PASS")) << ref;
    }
}
