// T.gemm beyond fp16/bf16 -> f32, end to end: tests/e2e/programs/gemm_trans.py with each dtype
// combination (fp16 -> fp16 accumulator, fp8 e4m3 / e5m2 -> fp32, int8 -> int32, float32 as tf32)
// and every transpose_A/transpose_B combination, at a divisible and a ragged size: it compiles,
// runs on the tile interpreter AND on the thread-level interpreter of the lowered IR against the
// float64 ref_program, the two interpreters agree exactly (one accumulation model,
// compiler/interp/MmaModel.h), and the CUDA compiles with NVRTC for sm_80 and sm_90a (fp8: the
// f16-widening path and the native m16n8k32 e4m3/e5m2 mma). bench/gemm_dtypes_check.sh runs the
// same combinations at 2048^3 on the GPU.
#include <cmath>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/frontend/Module.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/interp/ThreadInterpreter.h"
#include "profiler/check/Compare.h"
#include "profiler/check/Inputs.h"
#include "profiler/check/Reference.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

struct Case {
    std::string combo;  ///< dtype combination, for the test name
    std::map<std::string, std::string> params;
    /// rel-L2 tolerance when the dtype default is not the computation's precision: tf32
    /// operands keep 10 mantissa bits (unit roundoff 2^-11), so a float32 output of a tf32
    /// gemm is ~3e-4 from float64, far above float32's 1e-5.
    double relL2 = 0;
};

std::string label(const Case& c) {
    std::string s = c.combo;
    for (const char* k : {"transpose_a", "transpose_b", "M", "k_pack"})
        if (auto it = c.params.find(k); it != c.params.end()) s += std::string("_") + k + "_" + it->second;
    return s;
}

class GemmDtypes : public ::testing::TestWithParam<Case> {};

TEST_P(GemmDtypes, BothInterpretersMatchFloat64AndEachOther) {
    const Case& c = GetParam();
    const std::string path = "tests/e2e/programs/gemm_trans.py";
    std::string text = ts::e2e::readRepoFile(path);
    ASSERT_FALSE(text.empty()) << path;
    ts::CompileOptions opts;
    opts.params = c.params;
    opts.target = "cuda:sm_80";
    opts.recordSnapshots = false;
    ts::CompileResult r = ts::compile(path, text, opts);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);

    auto ci = ts::e2e::makeCheckedInputs(r);
    const auto& ref = ci.ref;
    ASSERT_TRUE(ref.ok) << (ref.diagnostics.empty() ? "" : ref.diagnostics[0].message);
    ts::rt::CompareOptions co;
    if (c.relL2 > 0) co.relL2Tolerance = c.relL2;

    std::vector<ts::HostTensor> results[2];
    ts::e2e::expectBothInterpretersMatchReference(r, ci, co, label(c), results);
    for (size_t k = 0; k < results[0].size(); ++k)
        EXPECT_EQ(results[0][k].data, results[1][k].data)
            << label(c) << ": the interpreters model the same mma rounding, so they must agree";

    if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        opts.target = target;
        ts::CompileResult rt = ts::compile(path, text, opts);
        ASSERT_TRUE(rt.ok) << ts::e2e::diagText(rt);
        auto nv = ts::rt::compileCuda(rt.cuda, ts::parseTarget(target)->arch(), {}, true);
        EXPECT_TRUE(nv.ok) << label(c) << " " << target << "\n" << nv.log;
    }
}

std::vector<Case> cases() {
    struct Combo {
        const char* name;
        std::map<std::string, std::string> params;
        double relL2;
    };
    const Combo combos[] = {
        {"f16acc", {{"dtype", "float16"}, {"accum_dtype", "float16"}, {"out_dtype", "float16"}}, 0},
        {"e4m3", {{"dtype", "float8_e4m3"}, {"out_dtype", "float32"}, {"block_K", "64"}}, 0},
        {"e5m2", {{"dtype", "float8_e5m2"}, {"out_dtype", "float32"}, {"block_K", "64"}}, 0},
        {"int8",
         {{"dtype", "int8"}, {"accum_dtype", "int32"}, {"out_dtype", "int32"}, {"block_K", "64"}},
         0},
        {"tf32", {{"dtype", "float32"}, {"out_dtype", "float32"}}, 2e-3},
    };
    std::vector<Case> out;
    for (const Combo& c : combos)
        for (int t = 0; t < 4; ++t) {
            auto params = c.params;
            params.insert({{"transpose_a", t & 1 ? "True" : "False"},
                           {"transpose_b", t & 2 ? "True" : "False"},
                           {"M", "128"},
                           {"N", "128"},
                           {"K", "128"},
                           {"block_M", "64"},
                           {"block_N", "64"},
                           {"num_stages", "2"}});
            out.push_back({c.name, params, c.relL2});
            // Ragged: partial tiles in M, N and K (zero-filled operand lanes).
            params["M"] = "80", params["N"] = "72", params["K"] = "96";
            out.push_back({c.name, params, c.relL2});
        }
    // k_pack only shapes AMD MFMA fragments in TileLang; on CUDA it is accepted and inert.
    auto kp = combos[0].params;
    kp.insert({{"k_pack", "2"}, {"transpose_b", "True"}, {"M", "64"}, {"N", "64"}, {"K", "64"}});
    out.push_back({"f16acc", kp, 0});
    return out;
}

INSTANTIATE_TEST_SUITE_P(All, GemmDtypes, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& i) { return label(i.param); });

}  // namespace
