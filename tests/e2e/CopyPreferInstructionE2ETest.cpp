// T.copy(..., prefer_instruction=...) (TileLang's copy_op.py; its tma_copy and cute tests: before
// the tenth session, 2026-12-07: "unexpected keyword argument") and T.Tensor subscripts without a dtype
// (`T.Tensor[(M, N)]`, float32 as TileLang's BaseTensorProxy.__getitem__ reads it; TileLang's
// issue_1728 test). tests/e2e/programs/copy_prefer_instruction.py: on sm_90a "tma" is one TMA
// load of the 32x64 box and "sync"/"cp_async" plain loads, with a note naming the argument; any
// other value is an error at it. Every variant matches C = A + 2B in float64 on both
// interpreters at M = 1000 (the last block is partial) and compiles with NVRTC.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

const char* kFile = "tests/e2e/programs/copy_prefer_instruction.py";

size_t count(const std::string& s, const std::string& what) {
    size_t n = 0;
    for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
    return n;
}

}  // namespace

TEST(CopyPreferInstruction, TmaOnlyWhereAskedAndAllVariantsMatchTheReference) {
    struct Case {
        const char* first;
        const char* second;
        size_t tmaLoads;
    } cases[] = {{"tma", "sync", 1u}, {"tma", "tma", 2u}, {"cp_async", "sync", 0u}};
    for (const Case& c : cases) {
        std::map<std::string, std::string> p{{"first", std::string("'") + c.first + "'"},
                                             {"second", std::string("'") + c.second + "'"}};
        ts::CompileResult r = ts::e2e::compileRepoFile(kFile, p, "cuda:sm_90a");
        ASSERT_TRUE(r.ok) << c.first << "/" << c.second << "\n" << ts::e2e::diagText(r);
        EXPECT_EQ(count(r.cuda, "tma_load_tile<"), c.tmaLoads) << c.first << "/" << c.second << "\n" << r.cuda;
        // The parameters are float32 without a dtype in the source.
        ASSERT_EQ(r.kernel.args.size(), 3u);
        for (const auto& a : r.kernel.args) {
            EXPECT_EQ(a.dtype, ts::ir::DType::Float32) << a.name;
            EXPECT_EQ(a.shape, (std::vector<int64_t>{1000, 64})) << a.name;
        }
        if (std::string(c.second) == "sync")
            EXPECT_TRUE(ts::e2e::hasNote(r, "T.copy into 'b_shared' does not use TMA: prefer_instruction=\"sync\""))
                << ts::e2e::diagText(r);
        ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, std::string(c.first) + "/" + c.second));
        for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
            ts::CompileResult t = ts::e2e::compileRepoFile(kFile, p, target);
            ASSERT_TRUE(t.ok) << target << "\n" << ts::e2e::diagText(t);
            if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
            auto nv = ts::rt::compileCuda(t.cuda, ts::parseTarget(target)->arch(), {}, true);
            EXPECT_TRUE(nv.ok) << c.first << "/" << c.second << " " << target << "\n" << nv.log;
        }
    }
}

TEST(CopyPreferInstruction, UnknownValueIsAnErrorAtTheArgument) {
    ts::CompileResult r = ts::e2e::compileRepoFile(kFile, {{"first", "'fast'"}}, "cuda:sm_90a");
    ASSERT_FALSE(r.ok);
    const std::string d = ts::e2e::diagText(r);
    EXPECT_NE(d.find("T.copy: prefer_instruction must be \"tma\", \"cp_async\" or \"sync\", got 'fast'"), std::string::npos) << d;
    EXPECT_NE(d.find(":16:"), std::string::npos) << d;  // the T.copy's line
}
