// Every kernel the test suite compiles is also compiled by NVRTC (issue 14: kernels that pass
// on both interpreters once gave CUDA that NVRTC rejected, and only the samples were checked).
// A global test environment installs a compile observer (compiler/Compile.h) in ts_unit_tests:
// after any successful compile() in any test (e2e, passes, errors that compile, unit fixtures,
// the in-process tilec commands), the CUDA of the target it was compiled for is NVRTC-compiled
// for that target's architecture, and the same source is compiled for the other target
// (cuda:sm_80 <-> cuda:sm_90a) and NVRTC-compiled too. A rejection fails the running test with
// NVRTC's log. A kernel compiled for hip:gfx90a is compiled by hiprtc for gfx90a instead (when
// hiprtc is installed), and the same program for cuda:sm_80 by NVRTC. Identical sources are
// compiled once per process and cubins go through the disk cache (profiler/cuda/CubinCache.h),
// so repeated kernels cost a lookup.
//   TS_TEST_NVRTC=0   turns the check off (quick local runs; CI leaves it on).
#include <cstdlib>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_set>

#include <gtest/gtest.h>

#include "compiler/CompileObserver.h"
#include "profiler/DeviceCompile.h"
#include "profiler/cuda/Nvrtc.h"

namespace {

thread_local bool t_inObserver = false;  // the observer's own compile() calls are not observed

std::string archOf(const std::string& target) {
    return target == "cuda:sm_90a" ? "sm_90a" : target == "hip:gfx90a" ? "gfx90a" : "sm_80";
}

/// NVRTC-compiles `cuda` for `arch` (hiprtc for "gfx90a") once per process; a rejection fails
/// the current test. A missing hiprtc skips the HIP check (NVRTC is checked at SetUp).
void expectNvrtcAccepts(const std::string& cuda, const std::string& arch, const std::string& path) {
    static std::mutex mu;
    static std::unordered_set<size_t> done;
    const size_t key = std::hash<std::string>{}(arch + '\n' + cuda);
    {
        std::lock_guard<std::mutex> lock(mu);
        if (!done.insert(key).second) return;
    }
    auto res = ts::rt::compileDeviceSource(cuda, arch);
    if (!res.available) return;
    if (!res.ok) {
        std::lock_guard<std::mutex> lock(mu);
        done.erase(key);  // report it again in the next test that compiles it
        ADD_FAILURE() << res.compiler << " rejected the code generated for " << path << " (" << arch << "):\n"
                      << res.log.substr(0, 4000);
    }
}

void nvrtcEveryKernel(const std::string& path, const std::string& text, const ts::CompileOptions& opts,
                      const ts::CompileResult& r) {
    if (t_inObserver) return;
    t_inObserver = true;
    expectNvrtcAccepts(r.cuda, archOf(opts.target), path);
    ts::CompileOptions other = opts;
    other.target = opts.target == "cuda:sm_90a" || opts.target.rfind("hip:", 0) == 0 ? "cuda:sm_80" : "cuda:sm_90a";
    other.recordSnapshots = false;
    other.cancel = nullptr;
    auto r2 = ts::compile(path, text, other);
    if (r2.ok) {
        expectNvrtcAccepts(r2.cuda, archOf(other.target), path);
    } else {
        // A diagnostic the other target gives on purpose (a limit it lacks) is fine; a compiler
        // bug is not.
        for (auto& d : r2.diagnostics)
            if (d.message.find("internal compiler error") != std::string::npos)
                ADD_FAILURE() << path << " compiles for " << opts.target << " but gives an internal error for "
                              << other.target << ": " << d.message;
    }
    t_inObserver = false;
}

class NvrtcEveryKernelEnv : public ::testing::Environment {
public:
    void SetUp() override {
        const char* env = std::getenv("TS_TEST_NVRTC");
        if (env && std::string(env) == "0") return;
        if (!ts::rt::nvrtcAvailable()) return;
        ts::setCompileObserver(&nvrtcEveryKernel);
    }
    void TearDown() override { ts::setCompileObserver(nullptr); }
};

[[maybe_unused]] ::testing::Environment* const g_env = ::testing::AddGlobalTestEnvironment(new NvrtcEveryKernelEnv);

}  // namespace

// The observer itself: a kernel compiled here is NVRTC-compiled for both targets, and a
// rejection would be reported (checked by compiling a sample through the observer path).
TEST(NvrtcEveryKernel, ObserverIsInstalledWhenNvrtcIsAvailable) {
    if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
    const char* env = std::getenv("TS_TEST_NVRTC");
    if (env && std::string(env) == "0") GTEST_SKIP() << "TS_TEST_NVRTC=0";
    auto prev = ts::setCompileObserver(nullptr);
    EXPECT_EQ(prev, &nvrtcEveryKernel);
    ts::setCompileObserver(prev);
}
