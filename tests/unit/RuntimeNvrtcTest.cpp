// NVRTC without a GPU: cubins for both codegen targets (sm_80, sm_90a), the embedded device
// header, compile errors with their log, and the cubin cache (hit, corruption, opt-out).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <unistd.h>

#include "compiler/support/Resources.h"
#include "profiler/cuda/CubinCache.h"
#include "profiler/cuda/Nvrtc.h"

using namespace ts::rt;

namespace {
const char* kAxpy = R"(
extern "C" __global__ void axpy(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i] + y[i];
}
)";

bool isElf(const std::vector<char>& b) {
    return b.size() > 4 && b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F';
}

/// Points the cubin cache at a fresh directory for the lifetime of a test.
class ScopedCacheDir {
public:
    ScopedCacheDir() {
        if (const char* old = std::getenv("TILESCOPE_CACHE_DIR")) m_old = old;
        m_dir = std::filesystem::temp_directory_path() /
                ("ts_nvrtc_test_" + std::to_string(::getpid()));
        std::filesystem::remove_all(m_dir);
        setenv("TILESCOPE_CACHE_DIR", m_dir.c_str(), 1);
    }
    ~ScopedCacheDir() {
        std::error_code ec;
        std::filesystem::remove_all(m_dir, ec);
        if (m_old)
            setenv("TILESCOPE_CACHE_DIR", m_old->c_str(), 1);
        else
            unsetenv("TILESCOPE_CACHE_DIR");
    }
    std::filesystem::path cubinDir() const { return m_dir / "cubin"; }

private:
    std::filesystem::path m_dir;
    std::optional<std::string> m_old;
};

#define REQUIRE_NVRTC()                                 \
    do {                                                \
        std::string why;                                \
        if (!nvrtcAvailable(&why)) GTEST_SKIP() << why; \
    } while (0)
}  // namespace

TEST(RuntimeNvrtc, CompilesForBothTargets) {
    REQUIRE_NVRTC();
    for (const std::string arch : {"sm_80", "sm_90a"}) {
        NvrtcResult r = compileCuda(kAxpy, arch, {}, /*useCache=*/false);
        EXPECT_TRUE(r.ok) << arch << ": " << r.log;
        EXPECT_TRUE(isElf(r.cubin)) << arch;
        EXPECT_FALSE(r.cacheHit);
        EXPECT_EQ(r.arch, arch);
        EXPECT_GT(r.compileMs, 0.0);
    }
}

TEST(RuntimeNvrtc, EmbeddedDeviceHeaderIsIncludable) {
    REQUIRE_NVRTC();
    if (ts::resources::find("ts_device.cuh").empty()) GTEST_SKIP() << "no ts_device.cuh embedded";
    const std::string src = std::string("#include \"ts_device.cuh\"\n") + kAxpy;
    for (const std::string arch : {"sm_80", "sm_90a"}) {
        NvrtcResult r = compileCuda(src, arch, {}, false);
        EXPECT_TRUE(r.ok) << arch << ": " << r.log;
    }
}

TEST(RuntimeNvrtc, CompileErrorCarriesTheLog) {
    REQUIRE_NVRTC();
    NvrtcResult r = compileCuda("extern \"C\" __global__ void k() {\n  undeclared_thing = 1;\n}\n",
                                "sm_80", {}, false);
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(r.cubin.empty());
    EXPECT_NE(r.log.find("tilescope_kernel.cu(2)"), std::string::npos) << r.log;
    EXPECT_NE(r.log.find("undeclared_thing"), std::string::npos) << r.log;
}

// Errors only ptxas finds (bad inline PTX, too much shared memory): its lines are the whole log,
// and they must reach the user; the ptxas -v lines still go to r.ptxas. No NUL in the log (NVRTC
// puts one after each part of it).
TEST(RuntimeNvrtc, PtxasErrorsStayInTheLog) {
    REQUIRE_NVRTC();
    NvrtcResult r = compileCuda("extern \"C\" __global__ void k() { asm volatile(\"bogus.instr;\"); }\n", "sm_90a", {}, false);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.log.find("ptxas application ptx input, line"), std::string::npos) << r.log;
    EXPECT_NE(r.log.find("Unknown modifier '.instr'"), std::string::npos) << r.log;
    EXPECT_NE(r.log.find("ptxas fatal"), std::string::npos) << r.log;
    EXPECT_EQ(r.log.find('\0'), std::string::npos);
    r = compileCuda("extern \"C\" __global__ void k(float* o) {\n  __shared__ float s[100000];\n"
                    "  s[threadIdx.x] = 1; __syncthreads(); o[threadIdx.x] = s[threadIdx.x * 7 % 100000];\n}\n",
                    "sm_90a", {}, false);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.log.find("ptxas error   : Entry function 'k' uses too much shared data"), std::string::npos) << r.log;
    EXPECT_EQ(r.log.find("ptxas info"), std::string::npos) << r.log;
    EXPECT_EQ(r.log.find('\0'), std::string::npos);
    ASSERT_EQ(r.ptxas.kernels.size(), 1u);
    EXPECT_EQ(r.ptxas.kernels[0].staticSmemBytes, 400000);
}

TEST(RuntimeNvrtc, RejectsBadArchitectures) {
    NvrtcResult r = compileCuda(kAxpy, "compute_80", {}, false);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.log.find("expected a real architecture"), std::string::npos) << r.log;
    EXPECT_TRUE(isRealArch("sm_90a"));
    EXPECT_TRUE(isRealArch("sm_100f"));
    EXPECT_FALSE(isRealArch("sm90"));
    REQUIRE_NVRTC();
    r = compileCuda(kAxpy, "sm_10", {}, false);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.log.find("cannot compile for sm_10 (supported: sm_"), std::string::npos) << r.log;
    // The user's choice of target, not a codegen bug: tilec says so (exit 1, not 3).
    EXPECT_TRUE(r.archUnsupported);
    r = compileCuda(kAxpy, "sm_99", {}, false);
    EXPECT_TRUE(r.archUnsupported) << r.log;
    r = compileCuda(kAxpy, "sm_80", {}, false);
    EXPECT_TRUE(r.ok) << r.log;
    EXPECT_FALSE(r.archUnsupported);
}

TEST(RuntimeNvrtc, OptionsAreFixedAndIeee) {
    auto o = nvrtcOptions("sm_90a", {"-DFOO=1"});
    ASSERT_GE(o.size(), 5u);
    EXPECT_EQ(o[0], "--std=c++17");
    EXPECT_EQ(o[1], "--gpu-architecture=sm_90a");
    EXPECT_EQ(o.back(), "-DFOO=1");
    for (const auto& opt : o) EXPECT_EQ(opt.find("fast"), std::string::npos) << opt;
}

// $TILESCOPE_PTXAS_OPTIONS reaches ptxas (and, being an option, the cubin cache key): -O1 still
// compiles, and its cubin is not the -O3 one from the cache.
TEST(RuntimeNvrtc, PtxasOptionsFromTheEnvironment) {
    ASSERT_EQ(setenv("TILESCOPE_PTXAS_OPTIONS", "-O1", 1), 0);
    auto o = nvrtcOptions("sm_90a", {"-DFOO=1"});
    EXPECT_NE(std::find(o.begin(), o.end(), "--ptxas-options=-O1"), o.end());
    EXPECT_EQ(o.back(), "-DFOO=1");
    if (nvrtcAvailable()) {
        ScopedCacheDir scoped;
        NvrtcResult low = compileCuda(kAxpy, "sm_80");
        EXPECT_TRUE(low.ok) << low.log;
        unsetenv("TILESCOPE_PTXAS_OPTIONS");
        NvrtcResult dflt = compileCuda(kAxpy, "sm_80");
        EXPECT_TRUE(dflt.ok) << dflt.log;
        EXPECT_FALSE(dflt.cacheHit);
    }
    unsetenv("TILESCOPE_PTXAS_OPTIONS");
    o = nvrtcOptions("sm_90a", {});
    for (const auto& opt : o) EXPECT_EQ(opt.find("-O1"), std::string::npos) << opt;
}

TEST(RuntimeNvrtc, CacheHitAndRecovery) {
    REQUIRE_NVRTC();
    ScopedCacheDir scoped;
    const std::string src = std::string(kAxpy) + "// cache test\n";
    NvrtcResult first = compileCuda(src, "sm_80");
    ASSERT_TRUE(first.ok) << first.log;
    EXPECT_FALSE(first.cacheHit);
    NvrtcResult second = compileCuda(src, "sm_80");
    ASSERT_TRUE(second.ok);
    EXPECT_TRUE(second.cacheHit);
    EXPECT_EQ(second.cubin, first.cubin);
    // A different arch or option is a different entry.
    EXPECT_FALSE(compileCuda(src, "sm_90a").cacheHit);
    EXPECT_FALSE(compileCuda(src, "sm_80", {"-DX=1"}).cacheHit);
    // useCache=false neither reads nor trusts the cache.
    EXPECT_FALSE(compileCuda(src, "sm_80", {}, false).cacheHit);

    // Corrupt every entry: the next compile recompiles and repairs.
    for (auto& e : std::filesystem::directory_iterator(scoped.cubinDir()))
        std::ofstream(e.path(), std::ios::binary | std::ios::trunc) << "garbage";
    NvrtcResult third = compileCuda(src, "sm_80");
    ASSERT_TRUE(third.ok) << third.log;
    EXPECT_FALSE(third.cacheHit);
    EXPECT_EQ(third.cubin, first.cubin);
    EXPECT_TRUE(compileCuda(src, "sm_80").cacheHit);
}

// ptxas -v's figures come with every compile, cached or not, and its lines are not in the log.
// axpy: 2 loads, an FMA, a store, no shared memory, no barrier, no spills.
TEST(RuntimeNvrtc, PtxasFiguresWithEveryCompileAndCacheHit) {
    REQUIRE_NVRTC();
    ScopedCacheDir scoped;
    const std::string src = std::string(kAxpy) + "// ptxas test\n";
    NvrtcResult first = compileCuda(src, "sm_90a");
    ASSERT_TRUE(first.ok) << first.log;
    EXPECT_EQ(first.log.find("ptxas"), std::string::npos) << first.log;
    ASSERT_EQ(first.ptxas.kernels.size(), 1u);
    const PtxasKernelInfo& k = first.ptxas.kernels[0];
    EXPECT_EQ(k.name, "axpy");
    EXPECT_GT(k.registers, 0);
    EXPECT_LT(k.registers, 32);
    EXPECT_EQ(k.barriers, 0);
    EXPECT_EQ(k.spillStoreBytes + k.spillLoadBytes + k.stackBytes, 0);
    EXPECT_FALSE(k.wgmmaSerialized);
    NvrtcResult second = compileCuda(src, "sm_90a");
    ASSERT_TRUE(second.cacheHit);
    ASSERT_EQ(second.ptxas.kernels.size(), 1u);
    EXPECT_EQ(second.ptxas.kernels[0].registers, k.registers);
    EXPECT_EQ(ptxasSummary(second.ptxas.kernels[0]), ptxasSummary(k));
}

TEST(RuntimeNvrtc, UnwritableCacheIsIgnored) {
    REQUIRE_NVRTC();
    ScopedCacheDir scoped;
    // Make the cache path a regular file so no directory can be created under it.
    std::filesystem::create_directories(scoped.cubinDir().parent_path());
    std::ofstream(scoped.cubinDir()) << "file, not a directory";
    NvrtcResult r = compileCuda(kAxpy, "sm_80");
    EXPECT_TRUE(r.ok) << r.log;
    EXPECT_FALSE(r.cacheHit);
}
