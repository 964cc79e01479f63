// TVM's math library and the IEEE operations with a rounding mode (ir/MathLib.h,
// frontend/ElaborateMathLib.cpp; tests/e2e/programs/math_library.py): both interpreters against
// the float64 reference, the device function each call becomes, the directed roundings against
// float32 values derived by hand, and the errors for a bad mode.
#include <cmath>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/ir/MathLib.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/InlineProgram.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

const char* kProg = "tests/e2e/programs/math_library.py";

TEST(MathLibrary, EveryFunctionMatchesFloat64OnBothInterpreters) {
    ts::CompileResult r = ts::e2e::compileRepoFile(kProg, {}, "cuda:sm_90a", "math_library");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    for (const char* fn : {"erff(", "tanf(", "atanf(", "asinf(", "acosf(", "powf(", "fmodf(", "nearbyintf(", "roundf(", "truncf(",
                           "__expf(", "__logf(", "__sinf(", "__cosf(", "atan2f(", "__fadd_rz(", "__fmul_ru(", "__fsub_rd(", "__fmaf_rd(",
                           "__fdiv_rn(", "__fsqrt_ru(", "__frcp_rz(", "__frsqrt_rn(", "log10f(", "exp10f(", "sinhf(", "coshf(", "hypotf(",
                           "copysignf(", "log1pf(", "expm1f(", "asinhf(", "acoshf(", "atanhf(", "__exp10f(", "__log2f(", "__log10f(", "__tanf("})
        EXPECT_NE(r.cuda.find(fn), std::string::npos) << fn;
    ts::e2e::expectInterpretersMatchReference(r, "math_library");
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kProg, {}, "math_library");
    // float64: the double functions (no fast-math forms), the double IEEE intrinsics.
    ts::CompileResult d = ts::e2e::compileRepoFile(kProg, {{"dtype", "float64"}}, "cuda:sm_80", "math_library");
    ASSERT_TRUE(d.ok) << ts::e2e::diagText(d);
    for (const char* fn : {"erf(", "__dadd_rz(", "__dmul_ru(", "__fma_rd(", "__drcp_rz(", "__dsqrt_ru(", "__frsqrt_rn("})
        EXPECT_NE(d.cuda.find(fn), std::string::npos) << fn;
    EXPECT_EQ(d.cuda.find("__expf("), std::string::npos);
    ts::e2e::expectInterpretersMatchReference(d, "math_library float64");
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kProg, {{"dtype", "float64"}}, "math_library");
}

TEST(MathLibrary, DirectedRoundingsGiveTheHandDerivedFloat32Values) {
    ts::CompileResult r = ts::e2e::compileRepoFile(kProg, {}, "cuda:sm_90a", "ieee_modes");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    // Columns: 1 + 2^-30, 1/3, sqrt(2), -1 - 2^-30; rows rn, rz, ru, rd. 1/3 lies between
    // 0x1.555554p-2 and 0x1.555556p-2 (nearer the upper), sqrt(2) between 0x1.6a09e6p+0 (nearer)
    // and 0x1.6a09e8p+0, 1 + 2^-30 between 1 and 1 + 2^-23 (nearer 1).
    const double up1 = 0x1.000002p+0, lo3 = 0x1.555554p-2, hi3 = 0x1.555556p-2, lo2 = 0x1.6a09e6p+0, hi2 = 0x1.6a09e8p+0;
    const double want[4][4] = {{1.0, hi3, lo2, -1.0}, {1.0, lo3, lo2, -1.0}, {up1, hi3, hi2, -1.0}, {1.0, lo3, lo2, -up1}};
    for (bool lowered : {false, true}) {
        ts::HostTensor x{ts::ir::DType::Float32, {4}, {1.0, 0x1p-30, 3.0, 2.0}};
        ts::HostTensor y{ts::ir::DType::Float32, {4, 4}, std::vector<double>(16, -7.0)};
        std::vector<ts::HostTensor> args{x, y};
        const std::string err = ts::e2e::runInterpreter(r, args, lowered);
        ASSERT_TRUE(err.empty()) << err;
        for (int m = 0; m < 4; ++m)
            for (int j = 0; j < 4; ++j) EXPECT_EQ(args[1].data[size_t(m * 4 + j)], want[m][j]) << (lowered ? "lowered " : "tile ") << m << "," << j;
    }
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kProg, {}, "ieee_modes");
}

// T.ieee_fmaf(f32, f64, f32): every operand takes the widest dtype (a float64 fma), as
// T.ieee_add(f32, f64) is a float64 add; y was narrowed to float32 (helper-134 #1).
TEST(MathLibrary, MixedDtypeOperandsTakeTheWidest) {
    const std::string src =
        "import tilelang.language as T\n\n\n"
        "@T.prim_func\n"
        "def main(X: T.Tensor((4,), \"float32\"), Y: T.Tensor((4,), \"float64\"), Z: T.Tensor((4,), \"float64\")):\n"
        "    with T.Kernel(1, threads=32) as bx:\n"
        "        for i in T.Parallel(4):\n"
        "            Z[i] = T.ieee_fmaf(X[i], Y[i], X[i] * 0.0, \"rz\")\n";
    ts::CompileResult r = ts::e2e::compileInline("fma.py", src);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_NE(r.cuda.find("__fma_rz("), std::string::npos) << r.cuda;
    for (bool lowered : {false, true}) {
        std::vector<ts::HostTensor> args{{ts::ir::DType::Float32, {4}, {1, 1, 1, 1}},
                                         {ts::ir::DType::Float64, {4}, {1.0000001, 1.0000001, 1.0000001, 1.0000001}},
                                         {ts::ir::DType::Float64, {4}, {0, 0, 0, 0}}};
        const std::string err = ts::e2e::runInterpreter(r, args, lowered);
        ASSERT_TRUE(err.empty()) << err;
        EXPECT_EQ(args[2].data[0], 1.0000001) << (lowered ? "lowered" : "tile");  // not float32's 1 (rz of 1.0000001f)
    }
}

// TVM's parameter names bind (helper-134 #3: T.erf(x=v) was "takes 1 positional argument"):
// erf(x), atan2(x1, x2), pow(x, y); the values are those of the positional calls.
TEST(MathLibrary, KeywordArgumentsTakeTvmsNames) {
    const std::string src =
        "import tilelang.language as T\n\n\n"
        "@T.prim_func\n"
        "def main(X: T.Tensor((4,), \"float32\"), Y: T.Tensor((4,), \"float32\"), Z: T.Tensor((4,), \"float32\")):\n"
        "    with T.Kernel(1, threads=32) as bx:\n"
        "        for i in T.Parallel(4):\n"
        "            Z[i] = T.erf(x=X[i]) + T.atan2(x2=Y[i], x1=X[i]) + T.pow(X[i], y=2.0)\n";
    ts::CompileResult r = ts::e2e::compileInline("kw.py", src);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    const double x[4] = {0.5, -1.0, 2.0, 0.25}, y[4] = {1.0, 1.0, -3.0, -0.5};
    for (bool lowered : {false, true}) {
        std::vector<ts::HostTensor> args{{ts::ir::DType::Float32, {4}, {x[0], x[1], x[2], x[3]}},
                                         {ts::ir::DType::Float32, {4}, {y[0], y[1], y[2], y[3]}},
                                         {ts::ir::DType::Float32, {4}, {0, 0, 0, 0}}};
        const std::string err = ts::e2e::runInterpreter(r, args, lowered);
        ASSERT_TRUE(err.empty()) << err;
        for (int i = 0; i < 4; ++i)
            EXPECT_NEAR(args[2].data[size_t(i)], std::erf(x[i]) + std::atan2(x[i], y[i]) + x[i] * x[i], 1e-5)
                << (lowered ? "lowered " : "tile ") << i;
    }
    auto bad = ts::e2e::compileInline("kw.py", std::string(src).replace(src.find("T.erf(x="), 8, "T.erf(y="));
    ASSERT_FALSE(bad.ok);
    EXPECT_NE(ts::e2e::diagText(bad).find("T.erf() got an unexpected keyword argument 'y'"), std::string::npos) << ts::e2e::diagText(bad);
}

// T.fast_rcp (TileLang's approximate reciprocal, helper-134 #5): rcp.approx.ftz.f32 on CUDA
// (ts::fast_rcp), 1/x on the interpreters (exact, as the other fast-math forms; compare a GPU run
// with a tolerance), NVRTC for sm_80 and sm_90a, float64 the exact division.
TEST(MathLibrary, FastReciprocal) {
    for (const char* dtype : {"float32", "float64"}) {
        const std::string src = std::string("import tilelang.language as T\n\n\n@T.prim_func\n") +
                                "def main(X: T.Tensor((4,), \"" + dtype + "\"), Y: T.Tensor((4,), \"" + dtype + "\")):\n"
                                "    with T.Kernel(1, threads=32) as bx:\n"
                                "        for i in T.Parallel(4):\n"
                                "            Y[i] = T.fast_rcp(X[i])\n";
        ts::CompileResult r = ts::e2e::compileInline("rcp.py", src);
        ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
        EXPECT_NE(r.cuda.find("ts::fast_rcp("), std::string::npos) << r.cuda;
        for (bool lowered : {false, true}) {
            const ts::ir::DType t = std::string(dtype) == "float32" ? ts::ir::DType::Float32 : ts::ir::DType::Float64;
            std::vector<ts::HostTensor> args{{t, {4}, {2, -4, 0.5, 3}}, {t, {4}, {0, 0, 0, 0}}};
            const std::string err = ts::e2e::runInterpreter(r, args, lowered);
            ASSERT_TRUE(err.empty()) << err;
            EXPECT_EQ(args[1].data[0], 0.5);
            EXPECT_EQ(args[1].data[1], -0.25);
            EXPECT_EQ(args[1].data[2], 2.0);
            EXPECT_NEAR(args[1].data[3], 1.0 / 3.0, 1e-7) << dtype;
        }
        if (!ts::rt::nvrtcAvailable()) continue;
        for (const char* arch : {"sm_80", "sm_90a"}) {
            ts::CompileResult c = ts::e2e::compileInline("rcp.py", src, std::string("cuda:") + arch);
            ASSERT_TRUE(c.ok) << ts::e2e::diagText(c);
            auto nv = ts::rt::compileCuda(c.cuda, arch, {}, true);
            EXPECT_TRUE(nv.ok) << dtype << " " << arch << ":\n" << nv.log;
        }
    }
}

TEST(MathLibrary, HostEvaluationRoundsInTheMode) {
    const ts::ir::IeeeOp* add = ts::ir::findIeeeOp("ieee_add");
    ASSERT_NE(add, nullptr);
    const double a[2] = {1.0, 0x1p-60};
    EXPECT_EQ(ts::ir::evalIeee(*add, "ru", 64, a), 0x1.0000000000001p+0);  // 1 + 2^-52
    EXPECT_EQ(ts::ir::evalIeee(*add, "rn", 64, a), 1.0);
    EXPECT_EQ(ts::ir::evalIeee(*add, "ru", 32, a), 0x1.000002p+0);
    std::string mode;
    EXPECT_EQ(ts::ir::parseIeeeCall("ieee_fmaf.rd", &mode), ts::ir::findIeeeOp("ieee_fmaf"));
    EXPECT_EQ(mode, "rd");
    EXPECT_EQ(ts::ir::parseIeeeCall("ieee_fmaf.rx", &mode), nullptr);
}

}  // namespace
