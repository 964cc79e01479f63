// The GPU runtime's front door for tilec, the worker process and the IDE: "is there a GPU?" and
// "run this generated kernel on these tensors", in one call that compiles (NVRTC, cached), loads,
// allocates, uploads inputs, poisons outputs, launches, synchronises, downloads the outputs and
// optionally times further launches (DESIGN.md §3). No exception escapes run(): every failure is
// a RunResult with the stage that failed and a message in the user's terms.
//
// A kernel fault (illegal address, trap, timeout) leaves the CUDA context unusable for the rest
// of the process; run() reports it, marks the runtime broken, and every later call says so. That
// is why kernels run in a worker child process that the IDE restarts (DESIGN.md §3).
#pragma once
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "compiler/support/HostTensor.h"
#include "profiler/cuda/Devices.h"
#include "profiler/cuda/Launch.h"
#include "profiler/cuda/Nvrtc.h"
#include "profiler/cuda/TensorMap.h"
#include "profiler/cuda/Timing.h"

namespace ts::rt {

/// A pointer table (TileLang's T.ptr; compiler/ir/PointerTensors.h): tensor `table` (uint64, one
/// entry per pointee) is filled before every launch with the device addresses of the tensors
/// `pointees` (indices into RunRequest::tensors), in order.
struct PointerFill {
    int table = -1;
    std::vector<int> pointees;
};

/// Everything needed for one checked (and optionally timed) kernel run.
struct RunRequest {
    std::string source;       ///< generated CUDA C++ (ignored when `cubin` is given)
    std::vector<char> cubin;  ///< a cubin compiled earlier; skips NVRTC when non-empty
    std::string kernel;       ///< extern "C" kernel name
    std::vector<TensorParam> signature;
    LaunchConfig config;
    /// One tensor per signature entry, dtype and shape matching it. Inputs must carry data.
    /// Outputs without data are poisoned on the device (poisonByte); outputs with data are
    /// uploaded as initial values (for kernels that accumulate into their output).
    std::vector<HostTensor> tensors;
    /// Scalar arguments after the tensors (KernelInfo::scalars, values from resolveLaunch).
    std::vector<ScalarValue> scalars;
    /// TMA tensor maps after the scalars (KernelInfo::tensorMaps of an sm_90a kernel), encoded
    /// over each buffer set's device tensors before launch.
    std::vector<TensorMapParam> tensorMaps;
    /// Pointer tables to fill with device addresses (see PointerFill).
    std::vector<PointerFill> pointerFills;
    /// How many tensors (the first ones) are kernel arguments; -1 = all. The others are memory
    /// that only pointer tables point to (allocated, uploaded/poisoned and downloaded alike).
    int kernelTensors = -1;
    std::string arch;                       ///< empty: archFor(device())
    std::vector<std::string> nvrtcOptions;  ///< extra NVRTC options (after the fixed ones)
    bool useCache = true;                   ///< use the on-disk cubin cache
    /// Timed launches after the checked one; 0 = no timing. Timing runs after the outputs have
    /// been downloaded, so outputs always reflect exactly one launch.
    int timingReps = 0;
    int timingWarmup = 3;
    /// Copies of all buffers that timed launches rotate through (>= 1), so inputs that fit in L2
    /// are not re-read from L2 every repetition. Costs rotateSets x the memory of one run.
    int rotateSets = 1;
    bool flushL2 = false;  ///< also write 2x L2 size between timed launches (TimingOptions)
};

/// Where a run stopped.
enum class RunStage { None, Request, Compile, Load, Allocate, Launch, Download, Timing };

/// "request", "compile", ... for messages.
const char* stageName(RunStage s);

/// One downloaded output tensor.
struct OutputTensor {
    std::string name;       ///< parameter name
    size_t paramIndex = 0;  ///< position in the signature
    HostTensor tensor;      ///< decoded values (poison shows up as NaN / 0x7F7F...)
};

/// Result of GpuRuntime::run.
struct RunResult {
    bool ok = false;
    RunStage failedStage = RunStage::None;  ///< None when ok
    std::string error;                   ///< message (NVRTC log for compile errors); empty when ok
    NvrtcResult compile;                 ///< compile outcome (cubin dropped to save memory)
    FunctionAttributes attributes;       ///< registers, static smem, ... of the kernel
    std::vector<OutputTensor> outputs;   ///< every isOutput parameter, in signature order
    std::optional<TimingResult> timing;  ///< when timingReps > 0 and all went well
    double launchMs = 0;                 ///< host wall time of the checked launch + sync, ms
};

/// The process's GPU: one device, its primary context, and the run pipeline. Obtain it with get().
/// run() calls are serialised (one at a time); each makes the context current on its thread.
class GpuRuntime {
public:
    /// The runtime for device $TILESCOPE_DEVICE (an ordinal; default 0), created on first call.
    /// Returns nullptr and fills *whyNot when there is no driver, no device, or the context cannot
    /// be created; the answer is cached for the process. Never throws.
    static GpuRuntime* get(std::string* whyNot = nullptr);

    const DeviceInfo& device() const { return m_device; }
    /// The architecture run() compiles for when the request names none (archFor(device())).
    std::string arch() const { return archFor(m_device); }
    /// Makes the device's primary context current on the calling thread. Throws CudaError.
    void makeCurrent() const;
    /// Compiles for this device (compileCuda with arch()). Never throws.
    NvrtcResult compile(const std::string& source,
                        const std::vector<std::string>& extraOptions = {},
                        bool useCache = true) const;
    /// The whole pipeline; see RunRequest. Never throws.
    RunResult run(const RunRequest& request);
    /// Non-empty once a kernel fault has made the context unusable: the reason.
    std::string brokenReason() const;

private:
    GpuRuntime(DeviceInfo device, cu::Context ctx) : m_device(std::move(device)), m_ctx(ctx) {}
    /// The pipeline; throws, with `stage` telling run() where it stopped.
    void execute(const RunRequest& request, RunResult& r, RunStage& stage);

    DeviceInfo m_device;
    cu::Context m_ctx = nullptr;  ///< primary context; retained for the life of the process
    mutable std::mutex m_mutex;
    std::string m_broken;
};

/// Pure validation of a request against a device (no GPU calls): tensor count, dtypes, shapes,
/// data presence, launch limits. Returns nullopt when the request can be attempted. GpuRuntime::run
/// calls it first; tilec and tests can call it anywhere.
std::optional<std::string> checkRequest(const RunRequest& request, const DeviceInfo& device);

}  // namespace ts::rt
