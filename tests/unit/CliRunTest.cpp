// `tilec run` (app/cli/CmdRun.cpp) on the CPU interpreter: unreadable inputs are errors, a
// ref_program whose results do not fit the outputs is a clear error (exit 1) instead of an
// uncaught std::invalid_argument (exit 134) or a silent pass, and a program without ref_program
// is never reported as PASS by comparing the tile interpreter with itself.
#include "CliTestUtil.h"

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
