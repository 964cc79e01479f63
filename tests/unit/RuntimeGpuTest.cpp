// End-to-end runs on a real GPU through GpuRuntime::run: compile, upload, poison, launch,
// download, compare, time. Every test skips without a device (ctest label `gpu`). The kernels are
// plain CUDA so these tests do not depend on the code generator or the device header.
#include <cmath>

#include <gtest/gtest.h>

#include "profiler/Runtime.h"
#include "profiler/check/Compare.h"
#include "profiler/check/Inputs.h"

using namespace ts::rt;
using ts::HostTensor;
using ts::ir::DType;

namespace {

#define REQUIRE_GPU(rt)                          \
    std::string whyNoGpu;                        \
    GpuRuntime* rt = GpuRuntime::get(&whyNoGpu); \
    if (!rt) GTEST_SKIP() << "no GPU: " << whyNoGpu

constexpr int kN = 1000;

const char* kAxpy = R"(
extern "C" __global__ void axpy(const float* x, const float* y, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < 1000) out[i] = 2.0f * x[i] + y[i];
}
)";

RunRequest axpyRequest() {
    RunRequest req;
    req.source = kAxpy;
    req.kernel = "axpy";
    req.signature = {{"x", DType::Float32, {kN}, false},
                     {"y", DType::Float32, {kN}, false},
                     {"out", DType::Float32, {kN}, true}};
    req.config = LaunchConfig{{4, 1, 1}, {256, 1, 1}, 0};
    req.tensors = makeInputs(req.signature).tensors;
    req.useCache = false;
    return req;
}

HostTensor axpyReference(const RunRequest& req) {
    HostTensor ref{DType::Float32, {kN}, std::vector<double>(kN)};
    for (int i = 0; i < kN; ++i)
        ref.data[i] = 2.0 * req.tensors[0].data[i] + req.tensors[1].data[i];
    return ref;
}

}  // namespace

TEST(RuntimeGpu, DeviceIsDescribed) {
    REQUIRE_GPU(rt);
    const DeviceInfo& d = rt->device();
    EXPECT_FALSE(d.name.empty());
    EXPECT_GT(d.smCount, 0);
    EXPECT_GT(d.globalMemBytes, size_t{1} << 30);
    EXPECT_GE(d.maxSmemPerBlockOptin, 48 * 1024);
    EXPECT_GT(d.l2Bytes, 0);
    EXPECT_EQ(d.maxThreadsPerBlock, 1024);
    EXPECT_EQ(rt->arch(), archFor(d));
    std::string why;
    EXPECT_FALSE(listDevices(&why).empty()) << why;
}

TEST(RuntimeGpu, AxpyMatchesReference) {
    REQUIRE_GPU(rt);
    RunRequest req = axpyRequest();
    RunResult r = rt->run(req);
    ASSERT_TRUE(r.ok) << stageName(r.failedStage) << ": " << r.error;
    ASSERT_EQ(r.outputs.size(), 1u);
    EXPECT_EQ(r.outputs[0].name, "out");
    EXPECT_EQ(r.outputs[0].paramIndex, 2u);
    HostTensor ref = axpyReference(req);
    Comparison c = compare(r.outputs[0].tensor, ref);
    EXPECT_TRUE(c.pass) << describe(c, &r.outputs[0].tensor, &ref);
    EXPECT_GT(r.attributes.numRegs, 0);
    EXPECT_FALSE(r.timing.has_value());
    EXPECT_TRUE(r.compile.ok);
    EXPECT_TRUE(r.compile.cubin.empty());  // dropped after loading
}

TEST(RuntimeGpu, UnwrittenOutputsAreNaN) {
    REQUIRE_GPU(rt);
    RunRequest req = axpyRequest();
    req.source = R"(
extern "C" __global__ void axpy(const float* x, const float* y, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < 1000 && i % 2 == 0) out[i] = 2.0f * x[i] + y[i];
}
)";
    RunResult r = rt->run(req);
    ASSERT_TRUE(r.ok) << r.error;
    HostTensor ref = axpyReference(req);
    Comparison c = compare(r.outputs[0].tensor, ref);
    EXPECT_FALSE(c.pass);
    EXPECT_EQ(c.nanCount, kN / 2);
    EXPECT_EQ(c.firstBadIndex, 1);
}

TEST(RuntimeGpu, IntegerTensorsAndInitialOutput) {
    REQUIRE_GPU(rt);
    RunRequest req;
    req.source = R"(
extern "C" __global__ void mac(const signed char* a, const signed char* b, int* acc) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < 300) acc[i] += int(a[i]) * int(b[i]);
}
)";
    req.kernel = "mac";
    req.signature = {{"a", DType::Int8, {300}, false},
                     {"b", DType::Int8, {300}, false},
                     {"acc", DType::Int32, {3, 100}, true}};
    req.config = LaunchConfig{{3, 1, 1}, {128, 1, 1}, 0};
    req.tensors = makeInputs(req.signature).tensors;
    std::vector<double> init(300);
    for (int i = 0; i < 300; ++i) init[i] = i - 150;
    req.tensors[2] = ts::makeHostTensor(DType::Int32, {3, 100}, init);  // uploaded, not poisoned
    req.useCache = false;
    RunResult r = rt->run(req);
    ASSERT_TRUE(r.ok) << r.error;
    HostTensor ref{DType::Int32, {3, 100}, std::vector<double>(300)};
    for (int i = 0; i < 300; ++i)
        ref.data[i] = init[i] + req.tensors[0].data[i] * req.tensors[1].data[i];
    Comparison c = compare(r.outputs[0].tensor, ref);
    EXPECT_TRUE(c.pass) << describe(c, &r.outputs[0].tensor, &ref);
}

TEST(RuntimeGpu, LargeDynamicSharedMemoryIsOptedIn) {
    REQUIRE_GPU(rt);
    RunRequest req = axpyRequest();
    // 100 KiB of dynamic shared memory: above the 48 KiB default, below every sm_80+ opt-in limit.
    req.source = R"(
extern "C" __global__ void axpy(const float* x, const float* y, float* out) {
    extern __shared__ float s[];
    const int words = 100 * 1024 / 4;
    for (int j = threadIdx.x; j < words; j += blockDim.x) s[j] = float(j);
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < 1000) out[i] = 2.0f * x[i] + y[i] + (s[words - 1] - float(words - 1));
}
)";
    req.config.dynamicSmemBytes = 100 * 1024;
    RunResult r = rt->run(req);
    ASSERT_TRUE(r.ok) << r.error;
    HostTensor ref = axpyReference(req);
    EXPECT_TRUE(compare(r.outputs[0].tensor, ref).pass);
}

TEST(RuntimeGpu, BadArgumentsAreRejectedBeforeLaunch) {
    REQUIRE_GPU(rt);
    RunRequest req = axpyRequest();
    req.tensors[0] = ts::makeHostTensor(DType::Float16, {kN}, std::vector<double>(kN, 1.0));
    RunResult r = rt->run(req);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.failedStage, RunStage::Request);
    EXPECT_EQ(r.error, "argument 'x' (#0): expected dtype float32, got float16");
    // The runtime is still usable.
    EXPECT_TRUE(rt->run(axpyRequest()).ok);
}

TEST(RuntimeGpu, CompileAndLookupErrors) {
    REQUIRE_GPU(rt);
    RunRequest req = axpyRequest();
    req.source =
        "extern \"C\" __global__ void axpy(const float* x, const float* y, float* out) { oops; }";
    RunResult r = rt->run(req);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.failedStage, RunStage::Compile);
    EXPECT_NE(r.error.find("oops"), std::string::npos) << r.error;

    req = axpyRequest();
    req.kernel = "no_such_kernel";
    r = rt->run(req);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.failedStage, RunStage::Load);
    EXPECT_NE(r.error.find("no_such_kernel"), std::string::npos) << r.error;
    EXPECT_TRUE(rt->brokenReason().empty());
}

TEST(RuntimeGpu, PrecompiledCubin) {
    REQUIRE_GPU(rt);
    NvrtcResult c = rt->compile(kAxpy, {}, false);
    ASSERT_TRUE(c.ok) << c.log;
    RunRequest req = axpyRequest();
    req.source.clear();
    req.cubin = c.cubin;
    RunResult r = rt->run(req);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(compare(r.outputs[0].tensor, axpyReference(req)).pass);
}

TEST(RuntimeGpu, TimingWithRotationAndFlush) {
    REQUIRE_GPU(rt);
    RunRequest req = axpyRequest();
    req.timingReps = 10;
    req.timingWarmup = 2;
    req.rotateSets = 3;
    req.flushL2 = true;
    RunResult r = rt->run(req);
    ASSERT_TRUE(r.ok) << stageName(r.failedStage) << ": " << r.error;
    ASSERT_TRUE(r.timing.has_value());
    EXPECT_EQ(r.timing->reps, 10);
    EXPECT_EQ(r.timing->samplesMs.size(), 10u);
    EXPECT_GT(r.timing->minMs, 0.0);
    EXPECT_LE(r.timing->minMs, r.timing->medianMs);
    EXPECT_LE(r.timing->medianMs, r.timing->maxMs);
    EXPECT_LT(r.timing->medianMs, 10.0);  // a 1000-element axpy is microseconds
    EXPECT_TRUE(compare(r.outputs[0].tensor, axpyReference(req)).pass);
}
