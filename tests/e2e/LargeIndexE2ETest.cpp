// 64-bit offsets for tensors of more than 2^31-1 elements (issue 8: the corpus'
// example_conv_analyze.py has a 4294967296-element input). tests/e2e/programs/large_index.py at
// 65536 x 65536 float16: lower-to-threads computes that tensor's offsets in int64 (the
// generated CUDA widens the row index before multiplying by the row length), NVRTC compiles it
// for sm_80 and sm_90a; at small sizes the kernel keeps 32-bit arithmetic and matches its
// float64 reference on both interpreters. A single dimension of 2^31 elements stays an error
// (tests/errors/tensor_too_large.py).
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

using ts::e2e::diagText;
const char* kLarge = "tests/e2e/programs/large_index.py";

ts::CompileResult compileAt(const std::string& target, const std::map<std::string, std::string>& p) {
    ts::CompileOptions opts;
    opts.target = target;
    opts.params = p;
    return ts::compile(kLarge, ts::e2e::readRepoFile(kLarge), opts);
}

TEST(LargeIndex, TensorAboveTwoToThe31GetsInt64OffsetsAndCompilesWithNvrtc) {
    const std::map<std::string, std::string> big = {{"M", "65536"}, {"N", "65536"}};
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileResult r = compileAt(target, big);
        ASSERT_TRUE(r.ok) << diagText(r);
        // Row by * 65536 + column, the row widened first: by * 65536 overflows int at by = 32768.
        EXPECT_NE(r.cuda.find("static_cast<long long>(by) * 65536LL"), std::string::npos) << r.cuda;
        EXPECT_EQ(r.cuda.find("(by * 65536)"), std::string::npos) << r.cuda;
        if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
        auto nv = ts::rt::compileCuda(r.cuda, ts::parseTarget(target)->arch(), {}, true);
        EXPECT_TRUE(nv.ok) << target << "\n" << nv.log;
    }
}

TEST(LargeIndex, OrdinaryTensorsKeep32BitOffsetsAndMatchFloat64) {
    ts::CompileResult r = compileAt("cuda:sm_80", {{"M", "64"}, {"N", "256"}});
    ASSERT_TRUE(r.ok) << diagText(r);
    EXPECT_EQ(r.cuda.find("long long", r.cuda.find("__global__")), std::string::npos) << r.cuda;  // the kernel, not the prelude's 64-bit helpers
    ts::e2e::expectInterpretersMatchReference(r, "large_index_small");
    // 46341 rows of 46341: 2147488281 elements, just above 2^31-1, odd extents.
    ts::CompileResult edge = compileAt("cuda:sm_90a", {{"M", "46341"}, {"N", "46341"}});
    ASSERT_TRUE(edge.ok) << diagText(edge);
    EXPECT_NE(edge.cuda.find("static_cast<long long>(by) * 46341LL"), std::string::npos);
}


// Simplify folds (x * c1) * c2 into x * (c1 * c2) and (x + c1) + c2 into x + (c1 + c2); when the
// constant would overflow int64 it keeps the expression as written (the fold was undefined
// behaviour and wrapped 2^62 * 4 to 0, silently dropping the term; fuzz_pipeline under UBSan).
TEST(LargeIndex, ConstantFoldThatWouldOverflowInt64IsLeftUnfolded) {
    ts::CompileResult r = ts::e2e::compileRepoFile("tests/e2e/programs/index_fold_overflow.py", {}, "cuda:sm_90a");
    ASSERT_TRUE(r.ok) << diagText(r);
    EXPECT_NE(r.cuda.find("(static_cast<long long>(bx) * 4611686018427387904LL) * 4LL)"), std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find("(bx * 12)"), std::string::npos) << r.cuda;  // small constants still fold
    ts::e2e::expectInterpretersMatchReference(r, "index_fold_overflow");
}


// tests/e2e/programs/int64_index_arith.py (helper-111: each column was right on the interpreters
// and wrong or rejected in the generated CUDA). The interpreters match the reference; the CUDA
// does each column in the type that holds it (NVRTC compiles it for both targets through the
// observer; bench/gpu_check_* runs it on the GPU against the interpreter).
TEST(LargeIndex, Int64DivisionsAndLiteralsPastInt32StayInLongLong) {
    ts::CompileResult r = ts::e2e::compileRepoFile("tests/e2e/programs/int64_index_arith.py", {}, "cuda:sm_80");
    ASSERT_TRUE(r.ok) << diagText(r);
    auto has = [&](const std::string& s) { return r.cuda.find(s) != std::string::npos; };
    // int64 floor division/modulo: the 64-bit helpers (the int ones truncated 2^32 * r - 1).
    EXPECT_TRUE(has("ts_floordiv64(((static_cast<long long>(((bx * 64) + tx)) * 4294967296LL) - 1LL), 3LL)")) << r.cuda;
    EXPECT_TRUE(has("ts::max(static_cast<long long>(((bx * 64) + tx)), ts_floormod64(")) << r.cuda;
    // A literal past int32 makes the product int64 (it was an int32 multiply by 2^30 after simplify).
    EXPECT_TRUE(has("(static_cast<long long>(((bx * 64) + tx)) * 1073741824LL)")) << r.cuda;
    // 65536 * 65536 does not fit int32: the two divisions stay.
    EXPECT_TRUE(has("ts_floordiv(ts_floordiv((((bx * 64) + tx) - 2), 65536), 65536)")) << r.cuda;
    ts::e2e::expectInterpretersMatchReference(r, "int64_index_arith");
}

}  // namespace
