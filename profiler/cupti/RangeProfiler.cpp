// CUPTI Range Profiler through dlopen (RangeProfiler.h). The call sequence follows CUPTI's
// range_profiling sample (CUDA 13): host object for the chip -> config image with the metrics ->
// counter data image -> enable on the context -> set config (auto range, kernel replay) -> start
// -> run the kernels -> stop -> decode -> evaluate every range.
#include "profiler/cupti/RangeProfiler.h"

#include <dlfcn.h>

#include <mutex>

#if defined(__has_include)
#if __has_include(<cupti_range_profiler.h>) && __has_include(<cupti_profiler_host.h>) && __has_include(<cupti_target.h>)
#define TS_CUPTI_HEADERS 1
#endif
#endif

#ifdef TS_CUPTI_HEADERS
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#endif

namespace ts::rt::cupti {

const std::vector<std::string>& bankMetricNames() {
    static const std::vector<std::string> k = {
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum",
        "smsp__inst_executed_op_shared_ld.sum",
        "smsp__inst_executed_op_shared_st.sum",
        "smsp__inst_executed_op_ldsm.sum",
        "smsp__inst_executed_op_ldgsts.sum",
    };
    return k;
}

#ifndef TS_CUPTI_HEADERS
Measurement measureKernels(int, const std::vector<std::string>&, const std::function<void()>&) {
    Measurement m;
    m.error = "built without the CUPTI headers (cupti_range_profiler.h, CUDA 12.6+)";
    return m;
}
std::vector<std::string> listMetrics(int, const std::string&, std::string* why) {
    if (why) *why = "built without the CUPTI headers";
    return {};
}
#else

namespace {

struct Api {
    bool ok = false;
    std::string why;
#define TS_CUPTI_FN(name) decltype(&::name) name = nullptr;
    TS_CUPTI_FN(cuptiProfilerInitialize)
    TS_CUPTI_FN(cuptiDeviceGetChipName)
    TS_CUPTI_FN(cuptiProfilerGetCounterAvailability)
    TS_CUPTI_FN(cuptiProfilerHostInitialize)
    TS_CUPTI_FN(cuptiProfilerHostDeinitialize)
    TS_CUPTI_FN(cuptiProfilerHostConfigAddMetrics)
    TS_CUPTI_FN(cuptiProfilerHostGetConfigImageSize)
    TS_CUPTI_FN(cuptiProfilerHostGetConfigImage)
    TS_CUPTI_FN(cuptiProfilerHostGetBaseMetrics)
    TS_CUPTI_FN(cuptiProfilerHostEvaluateToGpuValues)
    TS_CUPTI_FN(cuptiRangeProfilerEnable)
    TS_CUPTI_FN(cuptiRangeProfilerDisable)
    TS_CUPTI_FN(cuptiRangeProfilerGetCounterDataSize)
    TS_CUPTI_FN(cuptiRangeProfilerCounterDataImageInitialize)
    TS_CUPTI_FN(cuptiRangeProfilerSetConfig)
    TS_CUPTI_FN(cuptiRangeProfilerStart)
    TS_CUPTI_FN(cuptiRangeProfilerStop)
    TS_CUPTI_FN(cuptiRangeProfilerDecodeData)
    TS_CUPTI_FN(cuptiRangeProfilerGetCounterDataInfo)
#undef TS_CUPTI_FN
    using CtxGetCurrent = int (*)(CUcontext*);
    CtxGetCurrent cuCtxGetCurrent = nullptr;
};

Api& api() {
    static Api a;
    static std::once_flag once;
    std::call_once(once, [] {
        void* h = nullptr;
        for (const char* n : {"libcupti.so", "libcupti.so.13", "libcupti.so.12", "/usr/local/cuda/lib64/libcupti.so",
                              "/usr/local/cuda/lib/libcupti.so", "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so"})
            if ((h = dlopen(n, RTLD_NOW | RTLD_GLOBAL))) break;
        if (!h) {
            a.why = "libcupti.so not found (install the CUDA toolkit's CUPTI or set LD_LIBRARY_PATH)";
            return;
        }
        bool all = true;
#define TS_CUPTI_LOAD(name)                                                   \
    a.name = reinterpret_cast<decltype(a.name)>(dlsym(h, #name));             \
    if (!a.name) all = false, a.why += std::string(a.why.empty() ? "" : ", ") + #name;
        TS_CUPTI_LOAD(cuptiProfilerInitialize)
        TS_CUPTI_LOAD(cuptiDeviceGetChipName)
        TS_CUPTI_LOAD(cuptiProfilerGetCounterAvailability)
        TS_CUPTI_LOAD(cuptiProfilerHostInitialize)
        TS_CUPTI_LOAD(cuptiProfilerHostDeinitialize)
        TS_CUPTI_LOAD(cuptiProfilerHostConfigAddMetrics)
        TS_CUPTI_LOAD(cuptiProfilerHostGetConfigImageSize)
        TS_CUPTI_LOAD(cuptiProfilerHostGetConfigImage)
        TS_CUPTI_LOAD(cuptiProfilerHostGetBaseMetrics)
        TS_CUPTI_LOAD(cuptiProfilerHostEvaluateToGpuValues)
        TS_CUPTI_LOAD(cuptiRangeProfilerEnable)
        TS_CUPTI_LOAD(cuptiRangeProfilerDisable)
        TS_CUPTI_LOAD(cuptiRangeProfilerGetCounterDataSize)
        TS_CUPTI_LOAD(cuptiRangeProfilerCounterDataImageInitialize)
        TS_CUPTI_LOAD(cuptiRangeProfilerSetConfig)
        TS_CUPTI_LOAD(cuptiRangeProfilerStart)
        TS_CUPTI_LOAD(cuptiRangeProfilerStop)
        TS_CUPTI_LOAD(cuptiRangeProfilerDecodeData)
        TS_CUPTI_LOAD(cuptiRangeProfilerGetCounterDataInfo)
#undef TS_CUPTI_LOAD
        if (!all) {
            a.why = "libcupti lacks the Range Profiler API (CUDA 12.6+ needed): missing " + a.why;
            return;
        }
        void* cu = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
        a.cuCtxGetCurrent = cu ? reinterpret_cast<Api::CtxGetCurrent>(dlsym(cu, "cuCtxGetCurrent")) : nullptr;
        if (!a.cuCtxGetCurrent) {
            a.why = "libcuda.so.1 not found";
            return;
        }
        CUpti_Profiler_Initialize_Params ip{CUpti_Profiler_Initialize_Params_STRUCT_SIZE, nullptr};
        if (auto r = a.cuptiProfilerInitialize(&ip); r != CUPTI_SUCCESS) {
            a.why = int(r) == 35 ? "cuptiProfilerInitialize: GPU performance counters are not permitted for this user "
                                   "(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES); run as root, or load the nvidia module with "
                                   "NVreg_RestrictProfilingToAdminUsers=0 (https://developer.nvidia.com/ERR_NVGPUCTRPERM)"
                                 : "cuptiProfilerInitialize failed (CUPTI error " + std::to_string(int(r)) +
                                       "; is another profiler attached?)";
            return;
        }
        a.ok = true;
    });
    return a;
}

std::string err(const char* what, CUptiResult r) {
    // CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: the driver restricts counters to admin users by
    // default (NVreg_RestrictProfilingToAdminUsers=1); say what to do, not just the number.
    if (int(r) == 35)
        return std::string(what) +
               ": GPU performance counters are not permitted for this user "
               "(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES); run as root, or load the nvidia module "
               "with NVreg_RestrictProfilingToAdminUsers=0 "
               "(https://developer.nvidia.com/ERR_NVGPUCTRPERM)";
    return std::string(what) + " failed (CUPTI error " + std::to_string(int(r)) + ")";
}

/// Chip name + counter availability image + host object for `metrics` (or none when empty).
struct Host {
    CUpti_Profiler_Host_Object* obj = nullptr;
    std::string chip;
    std::vector<uint8_t> avail;
    ~Host() {
        if (obj) {
            CUpti_Profiler_Host_Deinitialize_Params p{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE, nullptr, obj};
            api().cuptiProfilerHostDeinitialize(&p);
        }
    }
    std::string init(int device, CUcontext ctx) {
        Api& a = api();
        CUpti_Device_GetChipName_Params cp{CUpti_Device_GetChipName_Params_STRUCT_SIZE, nullptr, size_t(device), nullptr};
        if (auto r = a.cuptiDeviceGetChipName(&cp); r != CUPTI_SUCCESS) return err("cuptiDeviceGetChipName", r);
        chip = cp.pChipName;
        CUpti_Profiler_GetCounterAvailability_Params ap{CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE, nullptr, ctx, 0, nullptr};
        if (auto r = a.cuptiProfilerGetCounterAvailability(&ap); r != CUPTI_SUCCESS) return err("cuptiProfilerGetCounterAvailability", r);
        avail.resize(ap.counterAvailabilityImageSize);
        ap.pCounterAvailabilityImage = avail.data();
        if (auto r = a.cuptiProfilerGetCounterAvailability(&ap); r != CUPTI_SUCCESS) return err("cuptiProfilerGetCounterAvailability", r);
        CUpti_Profiler_Host_Initialize_Params hp{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE, nullptr,
                                                 CUPTI_PROFILER_TYPE_RANGE_PROFILER, chip.c_str(), avail.data(), nullptr};
        if (auto r = a.cuptiProfilerHostInitialize(&hp); r != CUPTI_SUCCESS) return err("cuptiProfilerHostInitialize", r);
        obj = hp.pHostObject;
        return {};
    }
};

}  // namespace

std::vector<std::string> listMetrics(int device, const std::string& filter, std::string* why) {
    Api& a = api();
    if (!a.ok) return (why ? *why = a.why : a.why), std::vector<std::string>{};
    CUcontext ctx = nullptr;
    a.cuCtxGetCurrent(&ctx);
    Host h;
    if (auto e = h.init(device, ctx); !e.empty()) return (why ? *why = e : e), std::vector<std::string>{};
    std::vector<std::string> out;
    for (auto type : {CUPTI_METRIC_TYPE_COUNTER, CUPTI_METRIC_TYPE_RATIO, CUPTI_METRIC_TYPE_THROUGHPUT}) {
        CUpti_Profiler_Host_GetBaseMetrics_Params p{CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE, nullptr, h.obj, type, nullptr, 0};
        if (a.cuptiProfilerHostGetBaseMetrics(&p) != CUPTI_SUCCESS) continue;
        for (size_t i = 0; i < p.numMetrics; ++i)
            if (filter.empty() || std::string(p.ppMetricNames[i]).find(filter) != std::string::npos) out.push_back(p.ppMetricNames[i]);
    }
    return out;
}

Measurement measureKernels(int device, const std::vector<std::string>& metrics, const std::function<void()>& work) {
    Measurement m;
    Api& a = api();
    if (!a.ok) return m.error = a.why, m;
    CUcontext ctx = nullptr;
    if (a.cuCtxGetCurrent(&ctx) != 0 || !ctx) return m.error = "no current CUDA context (make the device current first)", m;
    Host h;
    if (auto e = h.init(device, ctx); !e.empty()) return m.error = e, m;
    m.chip = h.chip;
    // Keep only metrics the chip accepts (names changed across Nsight Compute versions).
    std::vector<const char*> names;
    for (auto& n : metrics) {
        const char* one[] = {n.c_str()};
        Host probe;
        if (!probe.init(device, ctx).empty()) break;
        CUpti_Profiler_Host_ConfigAddMetrics_Params p{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE, nullptr, probe.obj, one, 1};
        if (a.cuptiProfilerHostConfigAddMetrics(&p) == CUPTI_SUCCESS) names.push_back(n.c_str());
        else m.dropped.push_back(n);
    }
    if (names.empty()) return m.error = "none of the requested metrics exists on " + h.chip, m;
    CUpti_Profiler_Host_ConfigAddMetrics_Params addp{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE, nullptr, h.obj, names.data(), names.size()};
    if (auto r = a.cuptiProfilerHostConfigAddMetrics(&addp); r != CUPTI_SUCCESS) return m.error = err("cuptiProfilerHostConfigAddMetrics", r), m;
    CUpti_Profiler_Host_GetConfigImageSize_Params szp{CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE, nullptr, h.obj, 0};
    if (auto r = a.cuptiProfilerHostGetConfigImageSize(&szp); r != CUPTI_SUCCESS) return m.error = err("GetConfigImageSize", r), m;
    std::vector<uint8_t> config(szp.configImageSize);
    CUpti_Profiler_Host_GetConfigImage_Params cip{CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE, nullptr, h.obj, config.size(), config.data()};
    if (auto r = a.cuptiProfilerHostGetConfigImage(&cip); r != CUPTI_SUCCESS) return m.error = err("GetConfigImage", r), m;

    CUpti_RangeProfiler_Enable_Params en{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE, nullptr, ctx, nullptr};
    if (auto r = a.cuptiRangeProfilerEnable(&en); r != CUPTI_SUCCESS) return m.error = err("cuptiRangeProfilerEnable", r), m;
    CUpti_RangeProfiler_Object* obj = en.pRangeProfilerObject;
    auto disable = [&] {
        CUpti_RangeProfiler_Disable_Params d{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE, nullptr, obj};
        a.cuptiRangeProfilerDisable(&d);
    };
    const size_t kMaxRanges = 64;
    CUpti_RangeProfiler_GetCounterDataSize_Params cds{CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE, nullptr, obj,
                                                       names.data(), names.size(), kMaxRanges, uint32_t(kMaxRanges), 0};
    if (auto r = a.cuptiRangeProfilerGetCounterDataSize(&cds); r != CUPTI_SUCCESS) return disable(), m.error = err("GetCounterDataSize", r), m;
    std::vector<uint8_t> data(cds.counterDataSize);
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params cdi{CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE, nullptr,
                                                                obj, data.size(), data.data()};
    if (auto r = a.cuptiRangeProfilerCounterDataImageInitialize(&cdi); r != CUPTI_SUCCESS)
        return disable(), m.error = err("CounterDataImageInitialize", r), m;
    CUpti_RangeProfiler_SetConfig_Params sc{};
    sc.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE;
    sc.pRangeProfilerObject = obj;
    sc.configSize = config.size(), sc.pConfig = config.data();
    sc.counterDataImageSize = data.size(), sc.pCounterDataImage = data.data();
    sc.range = CUPTI_AutoRange, sc.replayMode = CUPTI_KernelReplay;
    sc.maxRangesPerPass = kMaxRanges, sc.numNestingLevels = 1, sc.minNestingLevel = 1, sc.passIndex = 0, sc.targetNestingLevel = 1;
    if (auto r = a.cuptiRangeProfilerSetConfig(&sc); r != CUPTI_SUCCESS) return disable(), m.error = err("cuptiRangeProfilerSetConfig", r), m;
    CUpti_RangeProfiler_Start_Params st{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE, nullptr, obj};
    if (auto r = a.cuptiRangeProfilerStart(&st); r != CUPTI_SUCCESS) return disable(), m.error = err("cuptiRangeProfilerStart", r), m;
    work();  // kernel replay: CUPTI replays each launch for all passes inside the launch call
    CUpti_RangeProfiler_Stop_Params sp{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE, nullptr, obj, 0, 0, 0};
    if (auto r = a.cuptiRangeProfilerStop(&sp); r != CUPTI_SUCCESS) return disable(), m.error = err("cuptiRangeProfilerStop", r), m;
    CUpti_RangeProfiler_DecodeData_Params dd{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE, nullptr, obj, 0};
    if (auto r = a.cuptiRangeProfilerDecodeData(&dd); r != CUPTI_SUCCESS) return disable(), m.error = err("cuptiRangeProfilerDecodeData", r), m;
    disable();
    CUpti_RangeProfiler_GetCounterDataInfo_Params info{CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE, nullptr, data.data(), data.size(), 0};
    if (auto r = a.cuptiRangeProfilerGetCounterDataInfo(&info); r != CUPTI_SUCCESS) return m.error = err("GetCounterDataInfo", r), m;
    m.ranges = info.numTotalRanges;
    std::vector<double> vals(names.size());
    for (size_t i = 0; i < info.numTotalRanges; ++i) {
        CUpti_Profiler_Host_EvaluateToGpuValues_Params ev{CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE, nullptr, h.obj,
                                                          data.data(), data.size(), i, names.data(), names.size(), vals.data()};
        if (auto r = a.cuptiProfilerHostEvaluateToGpuValues(&ev); r != CUPTI_SUCCESS) return m.error = err("EvaluateToGpuValues", r), m;
        for (size_t k = 0; k < names.size(); ++k) m.values[names[k]] += vals[k];
    }
    if (dd.numOfRangeDropped) m.error = std::to_string(dd.numOfRangeDropped) + " ranges dropped";
    m.ok = m.ranges > 0;
    if (!m.ok && m.error.empty()) m.error = "no kernel was profiled";
    return m;
}

#endif

}  // namespace ts::rt::cupti
