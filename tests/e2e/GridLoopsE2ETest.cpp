// T.grid(M, N) (tests/e2e/programs/grid_loops.py): nests of serial loops zeroing, accumulating and
// storing per-thread register tiles of a SIMT GEMM. Both interpreters against the float64 reference
// (float32 and float16, sizes that are and are not multiples of the 32 x 32 tile); the elaborated
// IR is the nest; NVRTC sm_80/sm_90a.
#include "tests/e2e/NvrtcBothTargets.h"
#include "tests/support/SourceDir.h"
#include "tests/unit/CliTestUtil.h"
#include "tests/unit/ElaborateTestUtil.h"

using namespace ts::cli;
using namespace ts::cli::test;

namespace {
const char* kProg = "tests/e2e/programs/grid_loops.py";
}

TEST(GridLoops, BothInterpretersMatchTheReference) {
    const std::vector<std::vector<std::string>> shapes = {{}, {"M=50", "N=70", "K=9", "dtype=float16"}};
    for (const auto& shape : shapes)
        for (const char* interp : {"tile", "lowered"}) {
            auto o = runOnInterp(std::string(TS_SOURCE_DIR) + "/" + kProg, interp, shape, 4);
            EXPECT_EQ(o.rc, 0) << interp << "\n" << o.out << o.err;
            EXPECT_TRUE(contains(o.out, "\nPASS\n")) << o.out;
        }
}

TEST(GridLoops, ElaboratesToANestOfSerialLoops) {
    const std::string ir = elab_test::irOf(ts::e2e::readRepoFile(kProg));
    EXPECT_NE(ir.find("        for i in T.serial(4):\n            for j in T.serial(2):\n                acc[i, j] = 0.0\n"),
              std::string::npos)
        << ir;
}

TEST(GridLoops, NvrtcCompilesForSm80AndSm90a) {
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kProg, {});
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kProg, {{"dtype", "float16"}, {"M", "50"}});
}
