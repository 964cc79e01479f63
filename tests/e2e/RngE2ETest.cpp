// T.rng_init / T.rng_rand / T.rng_rand_float end to end (programs of our own under
// tests/e2e/programs/rng_*.py): both interpreters produce exactly the cuRAND Philox stream the
// unit tests pin down (tests/unit/PhiloxTest.cpp), computed here independently of the compiler,
// and the generated CUDA compiles for sm_80 and sm_90a. The GPU's bits are compared with the
// interpreter's by bench/h200_lang_dtype.sh.
#include <gtest/gtest.h>

#include <cmath>

#include "compiler/Compile.h"
#include "compiler/interp/Random.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

namespace rng = ts::interp::rng;
using ts::e2e::diagText;

ts::CompileResult compileProgram(const std::string& path, const std::map<std::string, std::string>& params) {
    ts::CompileOptions opts;
    opts.params = params;
    opts.target = "cuda:sm_90a";
    return ts::compile(path, ts::e2e::readRepoFile(path), opts);
}

TEST(RngE2E, ParallelDrawsAreTheSeedsStreamOnBothInterpreters) {
    auto r = compileProgram("tests/e2e/programs/rng_parallel.py", {});
    ASSERT_TRUE(r.ok) << diagText(r);
    auto ci = ts::e2e::makeCheckedInputs(r);
    rng::PhiloxState s{};
    rng::rng_init(s, 7, 0, 0);
    std::vector<double> want;
    for (int i = 0; i < 300; ++i) want.push_back(rng::rng_next(s));
    for (bool lowered : {false, true}) {
        std::string err;
        auto outs = ts::e2e::runOutputs(r, ci, lowered, &err);
        ASSERT_EQ(outs.size(), 1u) << err;
        ASSERT_EQ(outs[0].data.size(), want.size());
        for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(outs[0].data[i], want[i]) << "element " << i << " lowered " << lowered;
    }
}

TEST(RngE2E, ThreadLevelDrawsUseTheDefaultSubsequence) {
    auto r = compileProgram("tests/e2e/programs/rng_threads.py", {});
    ASSERT_TRUE(r.ok) << diagText(r);
    auto ci = ts::e2e::makeCheckedInputs(r);
    const int blocks = 2, threads = 64, draws = 3;
    std::vector<double> wantR, wantX, wantU;
    for (int t = 0; t < blocks * threads; ++t) {
        rng::PhiloxState s{};
        rng::rng_init(s, 1234567890123ull, static_cast<unsigned long long>(t), 0);
        std::vector<double> row;
        for (int k = 0; k < draws; ++k) {
            const unsigned x = rng::rng_next(s);
            wantR.push_back(x);
            wantX.push_back(x ^ 0xFFFFu);
            const unsigned y = rng::rng_next(s);
            wantU.push_back(std::ldexp(static_cast<float>(y), -32) + std::ldexp(1.0f, -33));
        }
    }
    for (bool lowered : {false, true}) {
        std::string err;
        auto outs = ts::e2e::runOutputs(r, ci, lowered, &err);
        ASSERT_EQ(outs.size(), 3u) << err;
        const std::vector<double>* want[] = {&wantR, &wantX, &wantU};
        for (size_t o = 0; o < 3; ++o)
            for (size_t i = 0; i < want[o]->size(); ++i)
                ASSERT_EQ(outs[o].data[i], (*want[o])[i]) << "output " << o << " element " << i << " lowered " << lowered;
    }
}

TEST(RngE2E, GeneratedCudaCompilesForSm80AndSm90a) {
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a("tests/e2e/programs/rng_parallel.py", {});
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a("tests/e2e/programs/rng_threads.py", {});
}

}  // namespace
