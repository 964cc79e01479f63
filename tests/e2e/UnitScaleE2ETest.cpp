// The opt-in guard around an online softmax's rescale (codegen/UnitScale.h,
// TILESCOPE_UNIT_SCALE_SKIP=1; measured slower on the H100, so off by default): the loop
// `acc_o[r] = acc_o[r] * alpha[..]` of samples/flash_attn_fwd.py gets `if (alpha[0] != 1.0f ||
// alpha[1] != 1.0f)` before its #pragma unroll, and the code still compiles with NVRTC for both
// CUDA targets; without the switch the generated code has no guard.
#include <cstdlib>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

struct ScopedEnv {
    explicit ScopedEnv(const char* v) { setenv("TILESCOPE_UNIT_SCALE_SKIP", v, 1); }
    ~ScopedEnv() { unsetenv("TILESCOPE_UNIT_SCALE_SKIP"); }
};

ts::CompileResult compileAttention(const char* target) {
    ts::CompileOptions opts;
    opts.target = target;
    opts.params = {{"seq_len", "256"}, {"dim", "64"}};
    return ts::compile("samples/flash_attn_fwd.py", ts::e2e::readRepoFile("samples/flash_attn_fwd.py"), opts);
}

TEST(UnitScale, TheSwitchGuardsTheRescaleAndTheCodeCompiles) {
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileResult plain = compileAttention(target);
        ASSERT_TRUE(plain.ok) << ts::e2e::diagText(plain);
        EXPECT_EQ(plain.cuda.find("!= 1.0f) {"), std::string::npos) << target;
        ScopedEnv on("1");
        ts::CompileResult guarded = compileAttention(target);
        ASSERT_TRUE(guarded.ok) << ts::e2e::diagText(guarded);
        const size_t at = guarded.cuda.find("if (alpha[0] != 1.0f || alpha[1] != 1.0f) {\n");
        ASSERT_NE(at, std::string::npos) << target << "\n" << guarded.cuda;
        // The pragma belongs to the loop inside the guard, and that loop is the rescale.
        const size_t pragma = guarded.cuda.find("#pragma unroll", at), loop = guarded.cuda.find("acc_o[", at);
        EXPECT_LT(pragma, loop) << target;
        EXPECT_NE(guarded.cuda.find("* alpha[", at), std::string::npos) << target;
        if (!ts::rt::nvrtcAvailable()) continue;
        auto nv = ts::rt::compileCuda(guarded.cuda, ts::parseTarget(target)->arch(), {}, true);
        EXPECT_TRUE(nv.ok) << target << "\n" << nv.log;
    }
}

}  // namespace
