// Integer reductions: T.reduce_max/min on integer fragments start from the dtype's lowest/highest
// value (not -inf/+inf, which an int cannot hold), padded fragment slots are never read, and the
// tile-level and lowered interpreters agree bit for bit; T.infinity of an integer dtype is an
// elaboration error.
#include <string>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/interp/ThreadInterpreter.h"
#include "compiler/support/HostTensor.h"

namespace {

using namespace ts;

// One block of 128 threads reduces each of the 2 rows of a 2 x 20 int32 tile (padded: 20 is not
// a multiple of the fragment's row width) into a row maximum and a row minimum.
const char* kMaxMin = R"(import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-2, -1])
def rowmaxmin(M=2, N=20, dtype="int32"):

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), Mx: T.Tensor((M,), dtype), Mn: T.Tensor((M,), dtype)):
        with T.Kernel(1, threads=128) as (bx,):
            x = T.alloc_fragment((M, N), dtype)
            hi = T.alloc_fragment((M,), dtype)
            lo = T.alloc_fragment((M,), dtype)
            T.copy(X[0, 0], x)
            T.reduce_max(x, hi, dim=1)
            T.reduce_min(x, lo, dim=1)
            T.copy(hi, Mx[0])
            T.copy(lo, Mn[0])

    return main
)";

struct Outputs {
    std::vector<double> tile, lowered;
};

// Runs `r` on both interpreters with the same inputs; output `out` of each.
Outputs runBoth(const CompileResult& r, const std::vector<HostTensor>& inputs, size_t out) {
    Outputs o;
    for (int lowered = 0; lowered < 2; ++lowered) {
        std::vector<HostTensor> args = inputs;
        auto res = lowered ? interp::runLowered(r.lowered, args) : interp::run(r.elaborated, args);
        EXPECT_TRUE(res.ok) << (lowered ? "lowered: " : "tile: ")
                            << (res.error ? res.error->message : "");
        (lowered ? o.lowered : o.tile) = args[out].data;
    }
    return o;
}

TEST(IntReduce, MaxAndMinStartFromTheTypeLimits) {
    CompileOptions opts;
    CompileResult r = compile("k.py", kMaxMin, opts);
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.cuda.find("__int_as_float"), std::string::npos) << "float infinity in int code";
    EXPECT_NE(r.cuda.find("= (-2147483647 - 1);"), std::string::npos);  // max identity: INT32_MIN (no C literal)
    EXPECT_NE(r.cuda.find("= 2147483647;"), std::string::npos);   // min identity: INT32_MAX
    // Row 0 all negative (a -inf-as-0 or uninitialised start would give 0 or garbage as max),
    // row 1 all positive (a +inf start would break min): x[0][j] = -1000 - 7j, x[1][j] = 5 + 3j.
    std::vector<double> x;
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 20; ++j) x.push_back(i == 0 ? -1000 - 7 * j : 5 + 3 * j);
    std::vector<HostTensor> in{makeHostTensor(ir::DType::Int32, {2, 20}, x),
                               HostTensor{ir::DType::Int32, {2}, {}},
                               HostTensor{ir::DType::Int32, {2}, {}}};
    Outputs mx = runBoth(r, in, 1), mn = runBoth(r, in, 2);
    EXPECT_EQ(mx.tile, (std::vector<double>{-1000, 5 + 3 * 19}));
    EXPECT_EQ(mx.lowered, mx.tile);
    EXPECT_EQ(mn.tile, (std::vector<double>{-1000 - 7 * 19, 5}));
    EXPECT_EQ(mn.lowered, mn.tile);
}

TEST(IntReduce, Int64AndUnsignedIdentities) {
    CompileOptions opts;
    opts.params["dtype"] = "int64";
    CompileResult r = compile("k.py", kMaxMin, opts);
    ASSERT_TRUE(r.ok);
    // 9223372036854775808LL is not a valid literal: the lowest int64 is spelled as an expression.
    EXPECT_NE(r.cuda.find("(-9223372036854775807LL - 1)"), std::string::npos);
    EXPECT_NE(r.cuda.find("9223372036854775807LL;"), std::string::npos);
    opts.params["dtype"] = "uint8";
    r = compile("k.py", kMaxMin, opts);
    ASSERT_TRUE(r.ok);
    EXPECT_NE(r.cuda.find("= 255;"), std::string::npos);
}

TEST(IntReduce, SoftmaxOnIntegersAgreesBetweenInterpreters) {
    // samples/softmax.py with dtype=int32: exp2 of an int is computed in float32 and converted
    // back, the same way in both interpreters (and in CUDA: exp2f then static_cast<int>).
    std::string text = R"(import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def softmax(M=4, N=64, block_M=1, dtype="int32", threads=256):
    log2e = 1.4426950408889634

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), Y: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=threads) as (bx,):
            x = T.alloc_fragment((block_M, N), dtype)
            row_max = T.alloc_fragment((block_M,), dtype)
            row_sum = T.alloc_fragment((block_M,), dtype)
            T.copy(X[bx * block_M, 0], x)
            T.reduce_max(x, row_max, dim=1)
            for i, j in T.Parallel(block_M, N):
                x[i, j] = T.exp2((x[i, j] - row_max[i]) * log2e)
            T.reduce_sum(x, row_sum, dim=1)
            for i, j in T.Parallel(block_M, N):
                x[i, j] = x[i, j] * 100 // row_sum[i]
            T.copy(x, Y[bx * block_M, 0])

    return main
)";
    CompileResult r = compile("k.py", text, {});
    ASSERT_TRUE(r.ok);
    // Row i: all -50 except x[i][i] = -50 + i, so the max is -50 + i and only that element
    // gives exp2(0) = 1 (others exp2(-i * log2e) < 1 truncate to 0; row 0 has 64 ones).
    std::vector<double> x(4 * 64, -50);
    for (int i = 0; i < 4; ++i) x[i * 64 + i] = -50 + i;
    std::vector<HostTensor> in{makeHostTensor(ir::DType::Int32, {4, 64}, x),
                               HostTensor{ir::DType::Int32, {4, 64}, {}}};
    Outputs y = runBoth(r, in, 1);
    std::vector<double> want(4 * 64, 0);
    for (int j = 0; j < 64; ++j) want[j] = 100 / 64;  // row 0: every element is the max
    for (int i = 1; i < 4; ++i) want[i * 64 + i] = 100;
    EXPECT_EQ(y.tile, want);
    EXPECT_EQ(y.lowered, y.tile);
}

TEST(IntReduce, InfinityOfAnIntegerDtypeIsAnError) {
    std::string text = std::string(kMaxMin);
    text.replace(text.find("T.copy(X[0, 0], x)"), 18, "T.fill(x, -T.infinity(dtype))");
    CompileResult r = compile("k.py", text, {});
    EXPECT_FALSE(r.ok);
    bool found = false;
    for (const auto& d : r.diagnostics)
        if (d.severity == Severity::Error &&
            d.message.find("T.infinity needs a floating-point dtype, got int32") !=
                std::string::npos)
            found = d.span.line == 14;
    EXPECT_TRUE(found);
}

}  // namespace
