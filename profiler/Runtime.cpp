#include "profiler/Runtime.h"

#include <chrono>
#include <cstdlib>
#include <stdexcept>

#include "profiler/check/Inputs.h"

namespace ts::rt {
namespace {

/// CUresult values after which the context is unusable (CUDA Driver API, "Error Handling":
/// "the context cannot be used ... must be destroyed"): illegal address, launch timeout, hardware
/// stack error, illegal instruction, misaligned address, invalid address space, invalid PC, launch
/// failed (traps and asserts).
bool isStickyFault(int code) {
    switch (code) {
        case 700:
        case 702:
        case 714:
        case 715:
        case 716:
        case 717:
        case 718:
        case 719:
            return true;
        default:
            return false;
    }
}

/// One copy of every kernel argument in device memory.
struct BufferSet {
    std::vector<DeviceBuffer> buffers;
    std::vector<cu::DevicePtr> ptrs;
    std::vector<TensorMapBits> maps;  ///< TMA tensor maps over these buffers (RunRequest::tensorMaps)
};

std::string kernelText(const RunRequest& req) { return "kernel '" + req.kernel + "'"; }

/// Checks the compiled kernel's own limits, which only the loaded module knows.
void checkKernelLimits(const RunRequest& req, const FunctionAttributes& a, const DeviceInfo& dev) {
    const auto& b = req.config.block;
    const unsigned long long threads = static_cast<unsigned long long>(b[0]) * b[1] * b[2];
    if (a.maxThreadsPerBlock > 0 && threads > static_cast<unsigned long long>(a.maxThreadsPerBlock))
        throw std::invalid_argument(
            kernelText(req) + " can run at most " + std::to_string(a.maxThreadsPerBlock) +
            " threads per block (it uses " + std::to_string(a.numRegs) +
            " registers per thread); the launch asks for " + std::to_string(threads));
    const size_t smem = static_cast<size_t>(a.staticSmemBytes) + req.config.dynamicSmemBytes;
    if (dev.maxSmemPerBlockOptin > 0 && smem > static_cast<size_t>(dev.maxSmemPerBlockOptin))
        throw std::invalid_argument(
            kernelText(req) + " needs " + std::to_string(a.staticSmemBytes) + " static + " +
            std::to_string(req.config.dynamicSmemBytes) + " dynamic bytes of shared memory; " +
            dev.name + " allows " + std::to_string(dev.maxSmemPerBlockOptin) + " per block");
}

/// Allocates one BufferSet and fills it: `bytes[i]` uploaded, or poison where it is empty.
BufferSet makeBufferSet(const RunRequest& req, const std::vector<std::vector<uint8_t>>& bytes) {
    BufferSet s;
    for (size_t i = 0; i < req.signature.size(); ++i) {
        const HostTensor& t = req.tensors[i];
        DeviceBuffer buf(encodedSize(t.dtype, t.numel()));
        if (bytes[i].empty())
            buf.fill(poisonByte(t.dtype));
        else
            buf.upload(bytes[i]);
        s.ptrs.push_back(buf.ptr());
        s.buffers.push_back(std::move(buf));
    }
    for (const PointerFill& f : req.pointerFills) {
        if (f.table < 0 || size_t(f.table) >= s.buffers.size() || s.buffers[size_t(f.table)].bytes() != f.pointees.size() * 8)
            throw std::invalid_argument("pointer table #" + std::to_string(f.table) + " does not hold " +
                                        std::to_string(f.pointees.size()) + " 64-bit entries");
        std::vector<uint8_t> addr;
        for (int p : f.pointees) {
            if (p < 0 || size_t(p) >= s.ptrs.size()) throw std::invalid_argument("pointer table entry names tensor #" + std::to_string(p) + ", which does not exist");
            const uint64_t a = static_cast<uint64_t>(s.ptrs[size_t(p)]);
            for (int b = 0; b < 8; ++b) addr.push_back(static_cast<uint8_t>(a >> (8 * b)));
        }
        s.buffers[size_t(f.table)].upload(addr);
    }
    for (const TensorMapParam& m : req.tensorMaps) {
        if (m.tensor < 0 || size_t(m.tensor) >= req.tensors.size())
            throw std::invalid_argument("TMA tensor map over argument #" + std::to_string(m.tensor) + ", which does not exist");
        const HostTensor& t = req.tensors[size_t(m.tensor)];
        s.maps.push_back(encodeTensorMap(m, t.dtype, t.shape, s.ptrs[size_t(m.tensor)]));
    }
    if (req.kernelTensors >= 0 && size_t(req.kernelTensors) < s.ptrs.size()) s.ptrs.resize(size_t(req.kernelTensors));
    return s;
}

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

const char* stageName(RunStage s) {
    switch (s) {
        case RunStage::None:
            return "none";
        case RunStage::Request:
            return "request";
        case RunStage::Compile:
            return "compile";
        case RunStage::Load:
            return "load";
        case RunStage::Allocate:
            return "allocate";
        case RunStage::Launch:
            return "launch";
        case RunStage::Download:
            return "download";
        case RunStage::Timing:
            return "timing";
    }
    return "?";
}

std::optional<std::string> checkRequest(const RunRequest& req, const DeviceInfo& device) {
    std::string errors;
    auto add = [&](const std::string& line) { errors += (errors.empty() ? "" : "\n") + line; };
    if (req.kernel.empty()) add("no kernel name given");
    if (req.source.empty() && req.cubin.empty()) add("neither CUDA source nor a cubin given");
    std::vector<ArgSpec> specs;
    for (const auto& t : req.tensors) specs.push_back({t.dtype, t.shape});
    if (auto bad = checkArguments(req.signature, specs)) add(*bad);
    for (size_t i = 0; i < std::min(req.tensors.size(), req.signature.size()); ++i) {
        const HostTensor& t = req.tensors[i];
        const TensorParam& p = req.signature[i];
        const std::string prefix = "argument '" + p.name + "' (#" + std::to_string(i) + "): ";
        for (int64_t d : t.shape)
            if (d < 0) add(prefix + "negative extent in shape " + formatShape(t.shape));
        if (!p.isOutput && !t.hasData())
            add(prefix + "input has " + std::to_string(t.data.size()) + " values, its shape " +
                formatShape(t.shape) + " needs " + std::to_string(t.numel()));
        if (p.isOutput && !t.data.empty() && !t.hasData())
            add(prefix + "initial output value has " + std::to_string(t.data.size()) +
                " values, its shape " + formatShape(t.shape) + " needs " +
                std::to_string(t.numel()));
    }
    const int maxThreads = device.maxThreadsPerBlock > 0 ? device.maxThreadsPerBlock : 1024;
    const size_t maxSmem = device.maxSmemPerBlockOptin > 0
                               ? static_cast<size_t>(device.maxSmemPerBlockOptin)
                               : SIZE_MAX;
    if (auto bad = checkLaunchConfig(req.config, maxThreads, maxSmem)) add(*bad);
    if (req.timingReps < 0) add("timingReps must not be negative");
    if (req.rotateSets < 1) add("rotateSets must be at least 1");
    if (errors.empty()) return std::nullopt;
    return errors;
}

GpuRuntime* GpuRuntime::get(std::string* whyNot) {
    struct Holder {
        GpuRuntime* rt = nullptr;  // never deleted: must outlive every static using the device
        std::string why;
    };
    static const Holder holder = [] {
        Holder h;
        try {
            std::string why;
            const Driver* d = Driver::get(&why);
            if (!d) {
                h.why = why;
                return h;
            }
            int ordinal = 0;
            if (const char* env = std::getenv("TILESCOPE_DEVICE"); env && *env) {
                char* end = nullptr;
                ordinal = static_cast<int>(std::strtol(env, &end, 10));
                if (*end != '\0' || ordinal < 0)
                    throw std::invalid_argument(std::string("TILESCOPE_DEVICE='") + env +
                                                "' is not a device ordinal");
            }
            int count = 0;
            TS_CU(*d, deviceGetCount, &count);
            if (count == 0) throw std::runtime_error("the NVIDIA driver reports no CUDA devices");
            if (ordinal >= count)
                throw std::invalid_argument("TILESCOPE_DEVICE=" + std::to_string(ordinal) +
                                            " but only " + std::to_string(count) +
                                            " device(s) are visible");
            DeviceInfo info = queryDevice(ordinal);
            cu::Device dev = 0;
            TS_CU(*d, deviceGet, &dev, ordinal);
            cu::Context ctx = nullptr;
            TS_CU(*d, primaryCtxRetain, &ctx, dev);
            h.rt = new GpuRuntime(std::move(info), ctx);
        } catch (const std::exception& e) {
            h.why = e.what();
        }
        return h;
    }();
    if (!holder.rt && whyNot) *whyNot = holder.why;
    return holder.rt;
}

void GpuRuntime::makeCurrent() const {
    const Driver& d = Driver::require();
    TS_CU(d, ctxSetCurrent, m_ctx);
}

NvrtcResult GpuRuntime::compile(const std::string& source,
                                const std::vector<std::string>& extraOptions, bool useCache) const {
    return compileCuda(source, arch(), extraOptions, useCache);
}

std::string GpuRuntime::brokenReason() const {
    std::lock_guard lock(m_mutex);
    return m_broken;
}

RunResult GpuRuntime::run(const RunRequest& req) {
    std::lock_guard lock(m_mutex);
    RunResult r;
    RunStage stage = RunStage::Request;
    try {
        if (!m_broken.empty())
            throw std::runtime_error("the GPU context is unusable after an earlier kernel fault (" +
                                     m_broken + "); restart the process");
        execute(req, r, stage);
        r.ok = true;
    } catch (const CudaError& e) {
        r.error = e.what();
        if (isStickyFault(e.code())) {
            m_broken = e.what();
            r.error +=
                "; the kernel faulted and the GPU context is now unusable (restart the process)";
        }
    } catch (const std::exception& e) {
        r.error = e.what();
    } catch (...) {
        r.error = "unknown internal error";
    }
    if (!r.ok) r.failedStage = stage;
    r.compile.cubin.clear();
    r.compile.cubin.shrink_to_fit();
    return r;
}

void GpuRuntime::execute(const RunRequest& req, RunResult& r, RunStage& stage) {
    stage = RunStage::Request;
    if (auto bad = checkRequest(req, m_device)) throw std::invalid_argument(*bad);

    stage = RunStage::Compile;
    if (req.cubin.empty()) {
        r.compile = compileCuda(req.source, req.arch.empty() ? arch() : req.arch, req.nvrtcOptions,
                                req.useCache);
        if (!r.compile.ok)
            throw std::runtime_error("NVRTC failed for " + r.compile.arch + ":\n" + r.compile.log);
    }
    if (!req.cubin.empty()) {  // precompiled: report it as a successful, instant compile
        r.compile.ok = true;
        r.compile.arch = req.arch.empty() ? arch() : req.arch;
    }
    const std::vector<char>& cubin = req.cubin.empty() ? r.compile.cubin : req.cubin;

    stage = RunStage::Load;
    makeCurrent();
    Module module(cubin);
    r.attributes = module.attributes(req.kernel);
    checkKernelLimits(req, r.attributes, m_device);
    const cu::Function fn = module.prepare(req.kernel, req.config.dynamicSmemBytes);

    stage = RunStage::Allocate;
    std::vector<std::vector<uint8_t>> bytes;
    for (const HostTensor& t : req.tensors)
        bytes.push_back(t.hasData() ? encode(t) : std::vector<uint8_t>{});
    const int sets = req.timingReps > 0 ? req.rotateSets : 1;
    std::vector<BufferSet> buffers;
    for (int s = 0; s < sets; ++s) buffers.push_back(makeBufferSet(req, bytes));

    stage = RunStage::Launch;
    const Driver& d = Driver::require();
    const auto t0 = std::chrono::steady_clock::now();
    launchRaw(fn, req.config, buffers[0].ptrs, nullptr, req.scalars, buffers[0].maps);
    TS_CU(d, ctxSynchronize);
    r.launchMs = msSince(t0);

    stage = RunStage::Download;
    for (size_t i = 0; i < req.signature.size(); ++i) {
        const TensorParam& p = req.signature[i];
        if (!p.isOutput) continue;
        const std::vector<uint8_t> raw = buffers[0].buffers[i].download();
        r.outputs.push_back({p.name, i, decode(p.dtype, req.tensors[i].shape, raw)});
    }

    stage = RunStage::Timing;
    if (req.timingReps > 0) {
        TimingOptions opt;
        opt.warmup = req.timingWarmup;
        opt.reps = req.timingReps;
        opt.flushBytes = req.flushL2 ? 2 * static_cast<size_t>(std::max(m_device.l2Bytes, 0)) : 0;
        r.timing = timeLaunches(
            [&](int it) {
                const BufferSet& set = buffers[static_cast<size_t>(it % sets)];
                launchRaw(fn, req.config, set.ptrs, nullptr, req.scalars, set.maps);
            },
            opt);
    }
    stage = RunStage::None;
}

}  // namespace ts::rt
