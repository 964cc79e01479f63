// Regressions of issue 14's "tried as a new user would" findings, each on both interpreters and
// through NVRTC for sm_80 and sm_90a:
//  - T.reduce_max/min of fp8 fragments and T.max/min of 8/16-bit integers compile with NVRTC
//    (reduce_max_fp8.py, int_minmax.py) and match the float64 reference;
//  - a scalar T.atomic_add runs once per thread at kernel top level and once per iteration inside
//    T.Parallel, the same on the tile interpreter, the lowered interpreter and the GPU
//    (atomic_scalar_issuers.py, with values derived by hand);
//  - float32 -> float8_e5m2 keeps infinities and overflows to inf (cast_e5m2_special.py), as
//    LANGUAGE.md says; the device header's side is checked on the GPU by bench/h200_conversions.sh.
#include <cmath>
#include <limits>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/interp/ThreadInterpreter.h"
#include "compiler/support/HostTensor.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

using ts::HostTensor;
using ts::ir::DType;

ts::CompileResult compileProgram(const std::string& name, std::map<std::string, std::string> params = {},
                                 const char* target = "cuda:sm_80") {
    ts::CompileOptions opts;
    opts.params = std::move(params);
    opts.target = target;
    const std::string path = "tests/e2e/programs/" + name;
    return ts::compile(path, ts::e2e::readRepoFile(path), opts);
}

void expectNvrtcBothTargets(const std::string& name, const std::map<std::string, std::string>& params) {
    if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
    for (auto [target, arch] : {std::pair{"cuda:sm_80", "sm_80"}, std::pair{"cuda:sm_90a", "sm_90a"}}) {
        auto r = compileProgram(name, params, target);
        ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
        auto nv = ts::rt::compileCuda(r.cuda, arch);
        EXPECT_TRUE(nv.ok) << name << " " << arch << ":\n" << nv.log;
    }
}

/// Runs r on the tile (level 0) or lowered (level 1) interpreter; returns the arguments after.
std::vector<HostTensor> runLevel(const ts::CompileResult& r, std::vector<HostTensor> args, int level) {
    auto run = level == 0 ? ts::interp::run(r.elaborated, args) : ts::interp::runLowered(r.lowered, args);
    EXPECT_TRUE(run.ok) << (run.error ? run.error->message : "");
    return args;
}

class Fp8Reduce : public ::testing::TestWithParam<const char*> {};

TEST_P(Fp8Reduce, RowMaxMinusMinMatchesReferenceAndCompiles) {
    std::map<std::string, std::string> p{{"dtype", std::string("\"") + GetParam() + "\""}};
    auto r = compileProgram("reduce_max_fp8.py", p);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, GetParam()));
    expectNvrtcBothTargets("reduce_max_fp8.py", p);
}
INSTANTIATE_TEST_SUITE_P(Dtypes, Fp8Reduce, ::testing::Values("float8_e4m3", "float8_e5m2"));

class IntMinMax : public ::testing::TestWithParam<const char*> {};

TEST_P(IntMinMax, MatchesReferenceAndCompiles) {
    std::map<std::string, std::string> p{{"dtype", std::string("\"") + GetParam() + "\""}};
    auto r = compileProgram("int_minmax.py", p);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, GetParam()));
    expectNvrtcBothTargets("int_minmax.py", p);
}
INSTANTIATE_TEST_SUITE_P(Dtypes, IntMinMax, ::testing::Values("int8", "uint8", "int16", "uint16"));

class ScalarAtomic : public ::testing::TestWithParam<int> {};

TEST_P(ScalarAtomic, TopLevelRunsPerThreadParallelPerIteration) {
    const int threads = GetParam();
    std::map<std::string, std::string> p{{"threads", std::to_string(threads)}};
    auto r = compileProgram("atomic_scalar_issuers.py", p);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    // A[i] = i: integer sums are exact in float32 in any order, so both interpreters (and the
    // GPU) must give exactly S[b] = threads + sum_{i in block b's half} i.
    HostTensor A{DType::Float32, {256}, {}}, S{DType::Float32, {2}, {0.0, 0.0}};
    for (int i = 0; i < 256; ++i) A.data.push_back(i);
    const double half0 = 127.0 * 128 / 2, half1 = (255.0 * 256 / 2) - half0;
    for (int level = 0; level < 2; ++level) {
        auto out = runLevel(r, {A, S}, level);
        ASSERT_EQ(out.size(), 2u);
        EXPECT_EQ(out[1].data[0], threads + half0) << "interpreter level " << level;
        EXPECT_EQ(out[1].data[1], threads + half1) << "interpreter level " << level;
    }
    expectNvrtcBothTargets("atomic_scalar_issuers.py", p);
}
INSTANTIATE_TEST_SUITE_P(Threads, ScalarAtomic, ::testing::Values(64, 128, 256));

TEST(CastE5m2, InfinityAndOverflowStayInfiniteOnBothInterpreters) {
    auto r = compileProgram("cast_e5m2_special.py");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    const double inf = std::numeric_limits<double>::infinity();
    // input -> expected e5m2 value (OCP OFP8 E5M2: max finite 57344 = 1.75 * 2^15).
    const std::vector<std::pair<double, double>> cases = {
        {inf, inf},          {-inf, -inf},        {57344.0, 57344.0}, {61439.0, 57344.0},
        {61440.0, inf},      {-61440.0, -inf},    {1e6, inf},         {1.0, 1.0},
        {-0.0, -0.0},        {1.5, 1.5},          {1.625, 1.5},       {1.875, 2.0},
        {6.103515625e-05, 6.103515625e-05},  // smallest normal 2^-14
        {1.52587890625e-05, 1.52587890625e-05},  // smallest subnormal 2^-16
        {7.62939453125e-06, 0.0},  // 2^-17: a tie between 0 and 2^-16, to even = 0
    };
    HostTensor A{DType::Float32, {128}, std::vector<double>(128, 0.0)};
    for (size_t i = 0; i < cases.size(); ++i) A.data[i] = cases[i].first;
    A.data[cases.size()] = std::nan("");
    HostTensor B{DType::Float8E5M2, {128}, std::vector<double>(128, 0.0)};
    for (int level = 0; level < 2; ++level) {
        auto out = runLevel(r, {A, B}, level);
        ASSERT_EQ(out.size(), 2u);
        for (size_t i = 0; i < cases.size(); ++i) {
            EXPECT_EQ(out[1].data[i], cases[i].second) << "level " << level << " input " << cases[i].first;
            EXPECT_EQ(std::signbit(out[1].data[i]), std::signbit(cases[i].second)) << "input " << cases[i].first;
        }
        EXPECT_TRUE(std::isnan(out[1].data[cases.size()])) << "level " << level;
    }
    // The device header agrees by construction (ts::fp8_e5m2::fromFloat: no saturation); its
    // source must not saturate infinities any more.
    EXPECT_EQ(ts::roundTo(DType::Float8E5M2, inf), inf);
    expectNvrtcBothTargets("cast_e5m2_special.py", {});
}

}  // namespace
