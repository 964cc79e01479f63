// The dlopen'ed driver layer without a GPU: the ABI constants agree with cuda.h, every entry
// point resolves (against the toolkit's stub libcuda where present), and a missing driver is a
// clear "no" rather than a crash. Also device-independent helpers (arch choice).
#include <filesystem>

#include <gtest/gtest.h>

#include "profiler/cuda/Devices.h"
#include "profiler/cuda/Driver.h"

#if __has_include(<cuda.h>)
#include <cuda.h>
#define TS_TEST_HAVE_CUDA_H 1
#endif

using namespace ts::rt;

#ifdef TS_TEST_HAVE_CUDA_H
TEST(RuntimeDriver, ConstantsMatchCudaHeader) {
    static_assert(cu::kAttrMaxThreadsPerBlock == CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    static_assert(cu::kAttrMultiprocessorCount == CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    static_assert(cu::kAttrL2CacheSize == CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
    static_assert(cu::kAttrComputeCapabilityMajor == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    static_assert(cu::kAttrComputeCapabilityMinor == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    static_assert(cu::kAttrMaxSharedMemoryPerMultiprocessor ==
                  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
    static_assert(cu::kAttrMaxSharedMemoryPerBlockOptin ==
                  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    static_assert(cu::kFuncAttrMaxThreadsPerBlock == CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    static_assert(cu::kFuncAttrSharedSizeBytes == CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
    static_assert(cu::kFuncAttrLocalSizeBytes == CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
    static_assert(cu::kFuncAttrNumRegs == CU_FUNC_ATTRIBUTE_NUM_REGS);
    static_assert(cu::kFuncAttrMaxDynamicSharedSizeBytes ==
                  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
    static_assert(cu::kErrorNotReady == CUDA_ERROR_NOT_READY);
    static_assert(sizeof(cu::DevicePtr) == sizeof(CUdeviceptr));
    static_assert(sizeof(cu::Device) == sizeof(CUdevice));
    SUCCEED();
}
#endif

TEST(RuntimeDriver, AvailabilityIsAnsweredWithAReason) {
    std::string why;
    const bool ok = available(&why);
    if (ok) {
        EXPECT_NE(Driver::get(), nullptr);
    } else {
        EXPECT_FALSE(why.empty());
        EXPECT_EQ(Driver::get(), nullptr);
        std::string whyDevices;
        EXPECT_TRUE(listDevices(&whyDevices).empty());
        EXPECT_EQ(whyDevices, why);
        EXPECT_THROW(Driver::require(), std::runtime_error);
    }
}

TEST(RuntimeDriver, MissingLibraryIsReported) {
    const std::string err = detail::tryLoad("/nonexistent/libcuda.so.1");
    EXPECT_NE(err.find("/nonexistent/libcuda.so.1"), std::string::npos) << err;
}

TEST(RuntimeDriver, StubLibraryResolvesEveryEntryPoint) {
    // Loading the stub into a process that also uses the real driver could shadow it (same
    // soname), so only where the real driver is absent.
    if (available()) GTEST_SKIP() << "a real driver is loaded";
    const char* candidates[] = {"/usr/local/cuda/lib64/stubs/libcuda.so",
                                "/usr/local/cuda/targets/x86_64-linux/lib/stubs/libcuda.so"};
    for (const char* p : candidates) {
        if (!std::filesystem::exists(p)) continue;
        const std::string err = detail::tryLoad(p);
        // All symbols resolved (else the error would say "lacks ..."); cuInit fails in the stub.
        EXPECT_EQ(err.find("lacks"), std::string::npos) << err;
        EXPECT_NE(err.find("cuInit: CUDA_ERROR_STUB_LIBRARY"), std::string::npos) << err;
        return;
    }
    GTEST_SKIP() << "no CUDA stub library installed";
}

TEST(RuntimeDriver, CudaErrorNamesTheCall) {
    CudaError e("cuMemAlloc_v2", 2, "CUDA_ERROR_OUT_OF_MEMORY (out of memory)");
    EXPECT_STREQ(e.what(), "cuMemAlloc_v2: CUDA_ERROR_OUT_OF_MEMORY (out of memory)");
    EXPECT_EQ(e.call(), "cuMemAlloc_v2");
    EXPECT_EQ(e.code(), 2);
    EXPECT_STREQ(detail::symbolOf("memAlloc"), "cuMemAlloc_v2");
    EXPECT_STREQ(detail::symbolOf("launchKernel"), "cuLaunchKernel");
}

// The sm_80 path must run on an H200 (cubins load only on their own major): compiled for the
// device's arch there; a same-major or newer target keeps its own arch (sm_90a on an sm_80 GPU
// stays sm_90a and fails to load, as it should).
TEST(RuntimeDevices, LoadableArch) {
    EXPECT_EQ(loadableArch("sm_80", "sm_90a"), "sm_90a");
    EXPECT_EQ(loadableArch("sm_80", "sm_100"), "sm_100");
    EXPECT_EQ(loadableArch("sm_90a", "sm_90a"), "sm_90a");
    EXPECT_EQ(loadableArch("sm_80", "sm_80"), "sm_80");
    EXPECT_EQ(loadableArch("sm_90a", "sm_80"), "sm_90a");
    EXPECT_EQ(loadableArch("sm_90a", "sm_100a"), "sm_90a");  // wgmma has no sm_100 form
    EXPECT_EQ(loadableArch("gfx942", "sm_90a"), "gfx942");
}

TEST(RuntimeDevices, ArchForCapability) {
    EXPECT_EQ(archForCapability(8, 0), "sm_80");
    EXPECT_EQ(archForCapability(8, 6), "sm_80");
    EXPECT_EQ(archForCapability(8, 9), "sm_80");
    EXPECT_EQ(archForCapability(9, 0), "sm_90a");
    EXPECT_EQ(archForCapability(10, 0), "sm_100");
    EXPECT_EQ(archForCapability(7, 5), "sm_75");
    DeviceInfo d;
    d.name = "NVIDIA H200";
    d.ccMajor = 9;
    d.smCount = 132;
    d.globalMemBytes = size_t{150} << 30;
    EXPECT_EQ(archFor(d), "sm_90a");
    EXPECT_EQ(describe(d), "NVIDIA H200 (sm_90a, 132 SMs, 150.0 GiB)");
}
