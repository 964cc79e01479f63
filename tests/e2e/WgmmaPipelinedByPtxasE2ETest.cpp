// ptxas keeps the wgmma of the sm_90a kernels pipelined, under NVRTC (what tilec and the IDE run)
// and under nvcc with the exported project's flags (app/cli/ProjectExport.cpp: -O3 -std=c++17
// -lineinfo). ptxas serializes every wgmma of a kernel -- each one waited to completion, the
// main loop's in-flight group gone -- when it sees "non wgmma instructions reading accumulator
// registers between start and end of the pipeline stage" and says so only as an info line,
// "(C7514) Potential Performance Loss", under -v. Found 2026-12-04: the staged epilogue of
// samples/gemm.py (128x256x64, 4 stages) wrote each fp16 pair as one aggregate copy, which NVVM
// split into two 16-bit shared stores where it could not prove the alignment; nvcc's ptxas then
// serialized the whole main loop (SASS: WARPGROUP.DEPBAR.LE gsb0, 0x0 after every HGMMA) while
// NVRTC's did not. Vector accesses are now one integer access (the codegen prelude's ts_vec_store).
// Also: no spills (ptxas -v "0 bytes spill stores") in any of these kernels.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"

namespace fs = std::filesystem;

namespace {

struct Case {
    std::string label, file, kernel;
    std::map<std::string, std::string> params;
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.label; }

const Case kCases[] = {
    {"gemm_fp16_128x256_staged", "samples/gemm.py", "",
     {{"M", "4096"}, {"N", "4096"}, {"K", "4096"}, {"block_M", "128"}, {"block_N", "256"}, {"block_K", "64"},
      {"num_stages", "4"}, {"threads", "256"}}},
    {"gemm_bf16_128x256_staged", "samples/gemm.py", "",
     {{"M", "4096"}, {"N", "4096"}, {"K", "4096"}, {"block_M", "128"}, {"block_N", "256"}, {"block_K", "64"},
      {"num_stages", "3"}, {"threads", "256"}, {"dtype", "bfloat16"}}},
    {"gemm_defaults", "samples/gemm.py", "", {{"M", "4096"}, {"N", "4096"}, {"K", "4096"}}},
    {"flash_attn_fwd_128x64", "samples/flash_attn_fwd.py", "",
     {{"batch", "1"}, {"heads", "16"}, {"seq_len", "4096"}, {"dim", "128"}, {"block_M", "128"}, {"block_N", "64"},
      {"num_stages", "2"}, {"threads", "256"}}},
    {"mha_bwd_main", "samples/mha_bwd.py", "mha_bwd_main",
     {{"batch", "8"}, {"heads", "32"}, {"seq_len", "1024"}, {"dim", "64"}}},
    {"swiglu_bf16", "samples/swiglu.py", "", {{"M", "4096"}, {"K", "4096"}, {"N", "11008"}, {"dtype", "bfloat16"}}},
};

ts::CompileResult compileCase(const Case& c) {
    ts::CompileOptions o;
    o.target = "cuda:sm_90a";
    o.params = c.params;
    o.kernel = c.kernel;
    o.recordSnapshots = false;
    return ts::compile(c.file, ts::e2e::readRepoFile(c.file), o);
}

std::string findNvcc() {
    std::string out;
    if (ts::e2e::shell("command -v nvcc", &out) == 0 && !out.empty()) return out.substr(0, out.find('\n'));
    return fs::exists("/usr/local/cuda/bin/nvcc") ? "/usr/local/cuda/bin/nvcc" : "";
}

void expectPipelined(const std::string& who, const std::string& log) {
    EXPECT_EQ(log.find("C7514"), std::string::npos) << who << ": ptxas serialized the wgmma\n" << log;
    EXPECT_EQ(log.find("C7515"), std::string::npos) << who << "\n" << log;
    EXPECT_NE(log.find("0 bytes spill stores"), std::string::npos) << who << ": spills\n" << log;
}

class WgmmaPipelinedByPtxas : public ::testing::TestWithParam<Case> {};

TEST_P(WgmmaPipelinedByPtxas, UnderNvrtc) {
    const Case& c = GetParam();
    ts::CompileResult r = compileCase(c);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    ASSERT_NE(r.cuda.find("wgmma"), std::string::npos) << "not a wgmma kernel: " << c.label;
    if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
    auto nv = ts::rt::compileCuda(r.cuda, "sm_90a", {}, /*useCache=*/false);
    ASSERT_TRUE(nv.ok) << nv.log;
    // compileCuda passes --ptxas-options=-v itself and parses the lines (NvrtcResult::ptxas).
    ASSERT_EQ(nv.ptxas.kernels.size(), 1u) << nv.log;
    const ts::rt::PtxasKernelInfo& k = nv.ptxas.kernels[0];
    EXPECT_EQ(k.name, r.kernel.name);
    EXPECT_GT(k.registers, 0);
    EXPECT_LE(k.registers, 255);
    EXPECT_FALSE(k.wgmmaSerialized) << ts::rt::ptxasSummary(k);
    EXPECT_TRUE(k.remarks.empty()) << k.remarks[0];
    EXPECT_EQ(k.spillStoreBytes, 0) << ts::rt::ptxasSummary(k);
    EXPECT_EQ(k.spillLoadBytes, 0);
}

TEST_P(WgmmaPipelinedByPtxas, UnderNvccWithTheExportedProjectsFlags) {
    const Case& c = GetParam();
    const std::string nvcc = findNvcc();
    if (nvcc.empty()) GTEST_SKIP() << "nvcc not installed";
    ts::CompileResult r = compileCase(c);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    const fs::path dir = fs::temp_directory_path() / ("ts_wgmma_ptxas_" + c.label + "_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "kernel.cu") << r.cuda;
    const fs::path resources = fs::path(TS_SOURCE_DIR) / "resources";
    std::string log;
    const int rc = ts::e2e::shell(nvcc + " -O3 -std=c++17 -lineinfo -arch=sm_90a -cubin -Xptxas -v -I" + resources.string() + " -o " +
                          (dir / "kernel.cubin").string() + " " + (dir / "kernel.cu").string(),
                      &log);
    fs::remove_all(dir);
    ASSERT_EQ(rc, 0) << log;
    expectPipelined("nvcc", log);
}

INSTANTIATE_TEST_SUITE_P(Sm90a, WgmmaPipelinedByPtxas, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.label; });

}  // namespace
