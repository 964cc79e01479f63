// Loops whose start is below zero (fresh-user trial, 2026-12-04): their variables were taken as
// non-negative by form (compiler/ir/NonNegative.h), so the CUDA printed k // 3 as C's truncating
// `/`, dropped the `>= 0` half of the guard of a zero-padded stencil's row -1 (the lowered
// interpreter then reported the user's T.copy out of bounds) and chose a TMA store for a tile at
// column -64, which faults on the H200. Now a loop variable is as signed as its start
// (signedScalars in compiler/ir/Functor.cpp). tests/e2e/programs/negative_loop_start.py: both
// interpreters against float64 at lo = -4 and lo = 2 on sm_80 and sm_90a code, the CUDA's floor
// operations and guard, the store's note, NVRTC for both targets.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

const char* kProgram = "tests/e2e/programs/negative_loop_start.py";

ts::CompileResult compileAt(const std::map<std::string, std::string>& p, const char* target) {
    ts::CompileOptions opts;
    opts.params = p;
    opts.target = target;
    opts.recordSnapshots = false;
    return ts::compile(kProgram, ts::e2e::readRepoFile(kProgram), opts);
}

TEST(NegativeLoopStart, InterpretersMatchFloat64OnBothTargets) {
    for (const char* lo : {"-4", "2"})
        for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
            ts::CompileResult r = compileAt({{"lo", lo}}, target);
            ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
            ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, std::string("lo=") + lo + " " + target));
        }
}

TEST(NegativeLoopStart, FloorOperationsGuardAndNoTmaStoreBeforeTheTensor) {
    ts::CompileResult r = compileAt({{"lo", "-4"}}, "cuda:sm_90a");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    // k runs over -4..3: floor division and modulo, not C's truncating operators.
    EXPECT_NE(r.cuda.find("ts_floordiv(k, 3)"), std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find("ts_floormod(k, 3)"), std::string::npos) << r.cuda;
    EXPECT_EQ(r.cuda.find("(k / 3)"), std::string::npos) << r.cuda;
    EXPECT_EQ(r.cuda.find("(k % 3)"), std::string::npos) << r.cuda;
    // The stencil's row by*32 + d (d = -1..1) keeps both halves of its guard (sm_80: plain loads;
    // on sm_90a the tile comes by TMA, whose out-of-bounds box elements read 0).
    ts::CompileResult r80 = compileAt({{"lo", "-4"}}, "cuda:sm_80");
    ASSERT_TRUE(r80.ok) << ts::e2e::diagText(r80);
    EXPECT_NE(r80.cuda.find("((((by * 32) + d) + (((v_1 * 128) + tx) / 24)) >= 0)"), std::string::npos) << r80.cuda;
    // B's tile k = -1 starts at column -64: plain stores, with the note saying why.
    EXPECT_EQ(r.cuda.find("ts::tma_store_tile<"), std::string::npos) << r.cuda;
    bool noted = false;
    for (auto& d : r.diagnostics)
        noted |= d.message == "T.copy from 'C' into 'B' does not use a TMA store: the region of 'B' may start before the tensor in "
                              "dimension 1 (start k * 64): a TMA store whose box starts at a negative coordinate faults on the H200";
    EXPECT_TRUE(noted) << ts::e2e::diagText(r);
    // A loop starting at 0 keeps its variable non-negative: the same copy loop from 0 is a TMA store.
    ts::CompileResult from0 = compileAt({{"lo", "0"}}, "cuda:sm_90a");
    ASSERT_TRUE(from0.ok);
    EXPECT_NE(from0.cuda.find("(k / 3)"), std::string::npos) << "k >= 0: C's division is the floor one";
}

TEST(NegativeLoopStart, NvrtcCompilesBothTargets) {
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kProgram, {{"lo", "-4"}});
}

}  // namespace
