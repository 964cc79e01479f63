// T.pdl_trigger / T.pdl_sync (programmatic dependent launch; tests/e2e/programs/pdl_two_kernels.py):
// two kernels of one prim_func, the calls where the user put them (ts::pdl_* in ts_device.cuh:
// griddepcontrol on sm_90, nothing below), both interpreters against float64, NVRTC on both targets.
#include <gtest/gtest.h>

#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

const char* kProg = "tests/e2e/programs/pdl_two_kernels.py";

TEST(Pdl, TriggerAndSyncCompileInPlaceAndTheChainMatchesFloat64) {
    ts::CompileResult r = ts::e2e::compileRepoFile(kProg);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    const size_t k0 = r.cuda.find("pdl_two_kernels_0_kernel("), k1 = r.cuda.find("pdl_two_kernels_1_kernel(");
    const size_t trig = r.cuda.find("ts::pdl_trigger();"), sync = r.cuda.find("ts::pdl_sync();");
    ASSERT_NE(k0, std::string::npos);
    ASSERT_NE(k1, std::string::npos);
    EXPECT_TRUE(trig > k0 && trig < k1) << r.cuda;  // the first kernel's, after its stores
    EXPECT_GT(sync, k1);
    EXPECT_LT(sync, r.cuda.find("C[", k1)) << r.cuda;  // the second kernel waits before it reads B
    ts::e2e::expectInterpretersMatchReference(r, "pdl");
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kProg, {});
    EXPECT_NE(ts::e2e::readRepoFile("resources/ts_device.cuh").find("griddepcontrol.wait;"), std::string::npos);
}

}  // namespace
