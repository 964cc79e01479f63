// tilec run --inout (app/cli/CmdRun.cpp, CliReference.cpp): an output of an in-place kernel
// (tests/e2e/programs/inplace_mask.py) starts with random values like an input, keeps those the
// kernel does not write, and is the reference's input too. Checked on both interpreters against
// the float64 reference; without --inout the reference cannot be called with the kernel's
// inputs, and a name that is not an output is an error naming the outputs.
#include "tests/e2e/NvrtcBothTargets.h"
#include "tests/support/SourceDir.h"
#include "tests/unit/CliTestUtil.h"

using namespace ts::cli;
using namespace ts::cli::test;

namespace {
const char* kProg = "tests/e2e/programs/inplace_mask.py";

RunCommand inplaceRun(const std::string& interp, std::vector<std::string> inout) {
    RunCommand c;
    c.flags.file = std::string(TS_SOURCE_DIR) + "/" + kProg;
    c.flags.target = "cuda:sm_80";
    c.flags.inputRules = {"lengths=int:1:64"};
    c.flags.inout = std::move(inout);
    c.interp = interp;
    c.seed = 5;
    return c;
}
}  // namespace

TEST(InplaceOutput, InoutOutputKeepsItsValuesAndFeedsTheReference) {
    for (const char* interp : {"tile", "lowered"}) {
        auto o = captureCli([&] { return runRun(inplaceRun(interp, {"L"})); });
        EXPECT_EQ(o.rc, 0) << interp << "\n" << o.out << o.err;
        // rel-L2 0: the unwritten elements are the random initial values, bit for bit.
        EXPECT_TRUE(contains(o.out, "L: rel-L2 0.0e+00")) << o.out;
        EXPECT_TRUE(contains(o.out, "\nPASS\n")) << o.out;
    }
}

TEST(InplaceOutput, WithoutInoutOrWithAnInputNameItIsAnError) {
    // Without --inout, L is a fresh (NaN-poisoned) output: the reference lacks its first input.
    auto plain = captureCli([] { return runRun(inplaceRun("tile", {})); });
    EXPECT_EQ(plain.rc, 1) << plain.out;
    auto input = captureCli([] { return runRun(inplaceRun("tile", {"lengths"})); });
    EXPECT_EQ(input.rc, 1);
    EXPECT_TRUE(contains(input.err,
                         "--inout lengths: the kernel has no output tensor 'lengths' "
                         "(outputs: L)"))
        << input.err;
}

TEST(InplaceOutput, NvrtcCompilesForSm80AndSm90a) {
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kProg, {});
}

namespace {
// Both interpreters: without --inout B the run stops with `says` (and, when `inoutHint`, the
// --inout hint); with it, B = B + (A's broadcast) matches the float64 reference exactly.
void expectReadFirstThenInout(const char* prog, const char* says, bool inoutHint, uint64_t seed) {
    for (const char* interp : {"tile", "lowered"}) {
        RunCommand c;
        c.flags.file = std::string(TS_SOURCE_DIR) + "/" + prog;
        c.flags.target = "cuda:sm_80";
        c.interp = interp;
        c.seed = seed;
        auto plain = captureCli([&] { return runRun(c); });
        EXPECT_EQ(plain.rc, 1) << interp << plain.out;
        EXPECT_TRUE(contains(plain.out + plain.err, says)) << interp << plain.out << plain.err;
        if (inoutHint) {
            EXPECT_TRUE(contains(plain.out + plain.err, "run with --inout B (tilec run)")) << interp << plain.err;
        }
        c.flags.inout = {"B"};
        auto ok = captureCli([&] { return runRun(c); });
        EXPECT_EQ(ok.rc, 0) << interp << ok.out << ok.err;
        EXPECT_TRUE(contains(ok.out, "B: 0 mismatching, max-abs 0: PASS")) << ok.out;
    }
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(prog, {});
}
}  // namespace

// An integer output read before it is written (tests/e2e/programs/inplace_int_add.py, TileLang's
// issue-1374 test shape): without --inout both interpreters stop at the read and name --inout B
// (it said "non-finite value loaded as an integer"); with it, the float64 reference agrees.
TEST(InplaceOutput, AnIntegerOutputReadFirstNamesInout) {
    expectReadFirstThenInout("tests/e2e/programs/inplace_int_add.py",
                             "error: 'B' is read before it is written: it is an output", true, 3);
}

// Read through shared memory first (tests/e2e/programs/inplace_int_via_shared.py): the message
// names the shared tile and says where its value should have come from.
TEST(InplaceOutput, AnIntegerOutputCopiedToSharedFirstSaysSo) {
    expectReadFirstThenInout("tests/e2e/programs/inplace_int_via_shared.py",
                             "an element of 'S' is read with no value", false, 4);
}
