// A float immediate has its expression's dtype on both interpreters, as in the CUDA
// (`ts::cast<ts::bfloat16>(0.0883883476f)`) and TileLang: `q * sm_scale` on a bfloat16 tile
// multiplies by bfloat16(dim**-0.5) = 0.08837890625. The interpreters used the unrounded double,
// which rounded about one product in 40 to the other neighbour: the H200 conformance run's
// dsa_sparse_finetune indexer kernels (top-k order, dIndexQ/dIndexK) differed from the
// interpreter there. tests/e2e/programs/float_imm_dtype.py; values hand-derived; NVRTC sm_80/sm_90a.
#include <cmath>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/support/HostTensor.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

using ts::e2e::diagText;
using ts::ir::DType;

const char* kProg = "tests/e2e/programs/float_imm_dtype.py";

TEST(FloatImmDtype, ConstantIsRoundedToTheOperandDtypeOnBothInterpreters) {
    ts::CompileOptions opts;
    opts.target = "cuda:sm_90a";
    ts::CompileResult r = ts::compile(kProg, ts::e2e::readRepoFile(kProg), opts);
    ASSERT_TRUE(r.ok) << diagText(r);
    // bf16 and fp16 both round 0.0883883476 to 0.08837890625 (181 / 2048).
    const double sb = 181.0 / 2048.0;
    std::vector<double> a(32), h(32);
    for (size_t i = 0; i < 32; ++i) {
        a[i] = 0.5 + double(i) / 32.0;   // exact in bfloat16 (6 fraction bits)
        h[i] = 0.5 + double(i) / 256.0;  // exact in float16
    }
    // Hand-derived: 1.046875 * 181/2048 = 12127/131072 = 0.092521667..., below the midpoint
    // 379/4096 = 0.092529296875 of its bfloat16 neighbours 189/2048 and 190/2048, so
    // 189/2048 = 0.09228515625 (the unrounded constant gives 0.0925315... -> 190/2048).
    a[0] = 1.046875;
    // 1.2734375 * 181/2048 = 0.112545013...: bfloat16 0.1123046875 (unrounded: 0.11279296875).
    a[1] = 1.2734375;
    // float16: 0.50048828125 * 181/2048 = 0.044233...: 0.044219970703125 (unrounded: 0.04425048828125).
    h[0] = 0.50048828125;
    for (bool lowered : {false, true}) {
        std::vector<ts::HostTensor> args{ts::makeHostTensor(DType::BFloat16, {32}, a),
                                         ts::makeHostTensor(DType::Float16, {32}, h)};
        for (DType t : {DType::BFloat16, DType::Float16}) {
            ts::HostTensor y;
            y.dtype = t;
            y.shape = {32};
            y.data.assign(32, std::nan(""));
            args.push_back(y);
        }
        auto run = lowered ? ts::interp::runLowered(r.lowered, args) : ts::interp::run(r.elaborated, args);
        ASSERT_TRUE(run.ok) << (run.error ? ts::formatDiagnostic(*run.error, r.source.get()) : "");
        EXPECT_EQ(args[2].data[0], 0.09228515625) << "lowered=" << lowered;
        EXPECT_EQ(args[2].data[1], 0.1123046875) << "lowered=" << lowered;
        EXPECT_EQ(args[3].data[0], 0.044219970703125) << "lowered=" << lowered;
        for (size_t i = 0; i < 32; ++i) {  // a * sb is exact in double: one rounding, as on the GPU
            EXPECT_EQ(args[2].data[i], ts::roundTo(DType::BFloat16, a[i] * sb)) << i << " lowered=" << lowered;
            EXPECT_EQ(args[3].data[i], ts::roundTo(DType::Float16, h[i] * sb)) << i << " lowered=" << lowered;
        }
    }
}

TEST(FloatImmDtype, CompilesWithNvrtcForSm80AndSm90a) { ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kProg, {}); }

}  // namespace
