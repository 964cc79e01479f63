// hiprtc and hipcc without an AMD GPU (profiler/hip): code objects for gfx90a from a kernel that
// issues MFMA through the embedded resources/ts_hip.h, compile errors with their log, the cache,
// and the refusal of architectures hiprtc 5.2 cannot take. The packages come from scripts/setup
// (hipcc libamdhip64-dev libhiprtc-builtins5 rocm-device-libs); the tests skip, saying so, only
// on a machine where they are missing.
#include <cstdlib>
#include <filesystem>

#include <gtest/gtest.h>
#include <unistd.h>

#include "compiler/support/Resources.h"
#include "profiler/hip/Hipcc.h"
#include "profiler/hip/Hiprtc.h"

using namespace ts::rt;

namespace {
// A one-wave 16x16x16 MFMA through the header's atom and a wave reduction.
const char* kMfmaKernel = R"(#include "ts_hip.h"
extern "C" __global__ void __launch_bounds__(64) mfma_probe(const ts::half* a, const ts::half* b,
                                                          float* c) {
    const int lane = threadIdx.x;
    ts::half av[4], bv[4];
    for (int i = 0; i < 4; ++i) {
        av[i] = a[ts::mfma16::aRow(lane, i) * 16 + ts::mfma16::aCol(lane, i)];
        bv[i] = b[ts::mfma16::bRow(lane, i) * 16 + ts::mfma16::bCol(lane, i)];
    }
    float d[4] = {0, 0, 0, 0};
    ts::mfma_16x16x16_f32<ts::half>(d, av, bv);
    for (int i = 0; i < 4; ++i)
        c[ts::mfma16::cRow(lane, i) * 16 + ts::mfma16::cCol(lane, i)] =
            d[i] + ts::warp_allreduce<ts::SumOp, 64>(d[i]) * 0.0f;
}
)";

#define REQUIRE_HIPRTC()                                 \
    do {                                                 \
        std::string why;                                 \
        if (!hiprtcAvailable(&why)) GTEST_SKIP() << why; \
    } while (0)

/// Points the code-object cache at a fresh directory for the lifetime of a test.
struct ScopedCache {
    std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                ("ts_hiprtc_test_" + std::to_string(::getpid()));
    ScopedCache() {
        std::filesystem::remove_all(dir);
        setenv("TILESCOPE_CACHE_DIR", dir.c_str(), 1);
    }
    ~ScopedCache() {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
        unsetenv("TILESCOPE_CACHE_DIR");
    }
};
}  // namespace

TEST(RuntimeHiprtc, CompilesMfmaKernelForGfx90a) {
    REQUIRE_HIPRTC();
    ASSERT_FALSE(ts::resources::find("ts_hip.h").empty());
    HiprtcResult r = compileHip(kMfmaKernel, "gfx90a", {}, /*useCache=*/false);
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_TRUE(isAmdgpuElf(r.code));
    EXPECT_EQ(r.arch, "gfx90a");
    EXPECT_FALSE(r.cacheHit);
    // The kernel symbol is in the code object (hipModuleGetFunction looks it up by name).
    const std::string bytes(r.code.begin(), r.code.end());
    EXPECT_NE(bytes.find("mfma_probe"), std::string::npos);
    EXPECT_FALSE(hiprtcVersion().empty());
}

TEST(RuntimeHiprtc, ErrorsCarryTheLog) {
    REQUIRE_HIPRTC();
    HiprtcResult r =
        compileHip("extern \"C\" __global__ void k() { undeclared_thing(); }\n", "gfx90a", {}, false);
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(r.code.empty());
    EXPECT_NE(r.log.find("undeclared_thing"), std::string::npos) << r.log;
    EXPECT_NE(r.log.find("tilescope_kernel.hip"), std::string::npos) << r.log;
}

TEST(RuntimeHiprtc, RefusesArchitecturesItCannotCompile) {
    // gfx942 is unknown to ROCm 5.2's LLVM and hiprtc 5.2 aborts the process for gfx940/942;
    // compileHip must refuse before hiprtc runs (works with or without hiprtc installed).
    for (const std::string arch : {"gfx942", "gfx940", "sm_80", ""}) {
        HiprtcResult r = compileHip(kMfmaKernel, arch, {}, false);
        EXPECT_FALSE(r.ok) << arch;
        EXPECT_FALSE(r.log.empty()) << arch;
    }
}

TEST(RuntimeHiprtc, CacheHitReturnsTheSameCodeObject) {
    REQUIRE_HIPRTC();
    ScopedCache cache;
    HiprtcResult first = compileHip(kMfmaKernel, "gfx90a");
    ASSERT_TRUE(first.ok) << first.log;
    EXPECT_FALSE(first.cacheHit);
    HiprtcResult second = compileHip(kMfmaKernel, "gfx90a");
    ASSERT_TRUE(second.ok);
    EXPECT_TRUE(second.cacheHit);
    EXPECT_EQ(second.code, first.code);
}

TEST(RuntimeHipcc, CompilesTheSameKernelOffline) {
    if (hipccPath().empty()) GTEST_SKIP() << "hipcc not installed (scripts/setup installs it)";
    HipccResult r = compileHipcc(kMfmaKernel, "gfx90a");
    ASSERT_TRUE(r.ok) << r.log;
    // hipcc --genco writes a clang offload bundle holding the gfx90a code object.
    const std::string bytes(r.code.begin(), r.code.end());
    EXPECT_EQ(bytes.rfind("__CLANG_OFFLOAD_BUNDLE__", 0), 0u);
    EXPECT_NE(bytes.find("gfx90a"), std::string::npos);
    HipccResult bad = compileHipcc("__global__ void k() { nope(); }\n", "gfx90a");
    EXPECT_FALSE(bad.ok);
    EXPECT_NE(bad.log.find("nope"), std::string::npos) << bad.log;
}
