// `tilec profile FILE`: one checked run in the GPU worker with CUDA-event timing, the CUPTI
// Activity durations of the same launches, and the Range Profiler's default counter set
// (profiler/Profile.h); registers, local (spill) bytes and shared memory from the kernel.
// Stored in the results store; --json writes the figures.
#include <cstdio>
#include <iostream>

#include "app/cli/Commands.h"
#include "app/cli/GpuWorker.h"
#include "app/cli/Record.h"
#include "app/cli/RunSupport.h"
#include "profiler/Profile.h"
#include "profiler/check/Compare.h"

namespace ts::cli {

namespace {

std::string formatValue(double v, const std::string& unit) {
    char buf[64];
    if (unit == "%")
        std::snprintf(buf, sizeof buf, "%.1f %%", v);
    else if (unit == "B")
        std::snprintf(buf, sizeof buf, "%.3f MB", v / 1e6);
    else if (unit == "ns")
        std::snprintf(buf, sizeof buf, "%.4f ms", v * 1e-6);
    else
        std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
}

}  // namespace

std::string checkOutputsQuiet(const CompileResult& r, const std::vector<HostTensor>& outs,
                              const std::vector<HostTensor>& refs, bool exact, double rtol,
                              std::string& reason) {
    std::vector<ir::DType> argTypes;
    for (auto& a : r.kernel.args) argTypes.push_back(a.dtype);
    std::vector<std::string> names;
    for (auto& a : r.kernel.args)
        if (a.isOutput) names.push_back(a.name);
    if (outs.size() != refs.size() || outs.size() != names.size()) {
        reason = "the reference returns " + std::to_string(refs.size()) + " outputs, the kernel " +
                 std::to_string(outs.size());
        return "fail";
    }
    for (size_t k = 0; k < outs.size(); ++k) {
        if (outs[k].shape != refs[k].shape) {
            reason = names[k] + " has shape " + formatShape(outs[k].shape) + ", the reference " +
                     formatShape(refs[k].shape);
            return "fail";
        }
        rt::CompareOptions opt;
        if (rtol > 0)
            opt.relL2Tolerance = rtol;
        else if (exact)
            opt = rt::referenceOptions(outs[k].dtype, argTypes);
        auto c = rt::compare(outs[k], refs[k], opt);
        if (!c.pass) {
            reason = names[k] + ": " + rt::describe(c, &outs[k], &refs[k]);
            return "fail";
        }
    }
    return "pass";
}

int runProfile(const ProfileCommand& c) {
    auto compiled = compileForGpu(c.flags, "profile");
    if (!compiled) return 1;
    CompileResult* r = &compiled->r;
    const std::optional<rt::DeviceInfo> gpu = compiled->gpu;
    for (const auto& m : c.metrics)
        if (!rt::findMetric(m) && m.find("__") == std::string::npos) {
            std::cerr << "tilec: error: unknown metric '" << m
                      << "'\n  hint: use a key of the default set (";
            for (const auto& s : rt::defaultMetrics()) std::cerr << " " << s.key;
            std::cerr << " ) or a CUPTI metric name such as dram__bytes_read.sum\n";
            return 1;
        }
    auto sig = signatureOf(*r);
    rt::InputOptions io;
    io.fresh = true;
    rt::InputSet set;
    if (!makeInputsOrReport(sig, io, set)) return 1;
    zeroAtomicOutputs(*r, set);
    rt::RunRequest req = requestFor(*r, set, c.flags, rt::archFor(*gpu));
    rt::ProfileOptions po;
    po.metrics = c.metrics;
    po.eventReps = c.reps;
    po.activityReps = c.reps;
    po.counters = !c.noCounters;
    nlohmann::json profile;
    nlohmann::json record = baseRecord("profile", *r, c.flags, gpu, req.arch);
    auto res = runInWorker(req, &po, &profile);
    if (!res.ok) {
        std::cerr << "tilec: error: " << rt::stageName(res.failedStage) << " failed: " << res.error
                  << "\n";
        record["status"] = runFailureStatus(res);
        record["reason"] = res.error;
        storeRecord(record);
        return 1;
    }
    // Correctness of the profiled kernel (a fast wrong kernel is not a result).
    std::vector<HostTensor> outs;
    for (auto& o : res.outputs) outs.push_back(std::move(o.tensor));
    const std::string refName = referenceName(*r, c.ref);
    std::string checkWhy, reason;
    std::string check = "skipped";
    // Against the interpreter as against a float64 ref_program: the tolerance rule over the
    // argument dtypes (the GPU's float32 arithmetic differs in the last bits; CmdRun.cpp
    // tolerancesByArgDtypes says why).
    auto ref = referenceOutputs(*r, set.tensors, checkWhy, refName);
    if (!ref && checkWhy.empty()) ref = runInterp(*r, set.tensors, checkWhy);
    if (ref) check = checkOutputsQuiet(*r, outs, *ref, true, 0, reason);

    const double eventMs = profile.contains("event") ? profile["event"].value("median_ms", 0.0) : 0;
    const bool haveActivity =
        profile.contains("activity") && profile["activity"].contains("median_ms");
    const double actMs = haveActivity ? profile["activity"]["median_ms"].get<double>() : 0;
    std::printf("%s on %s (%s): grid (%u, %u, %u), %u threads\n", r->kernel.name.c_str(),
                gpu->name.c_str(), req.arch.c_str(), r->kernel.grid[0], r->kernel.grid[1],
                r->kernel.grid[2], r->kernel.block[0] * r->kernel.block[1] * r->kernel.block[2]);
    if (haveActivity)
        std::printf("  duration (CUPTI activity)  %.4f ms  median of %d\n", actMs,
                    profile["activity"].value("kernels", 0));
    else
        std::printf("  duration (CUPTI activity)  unavailable: %s\n",
                    profile["activity"].value("error", std::string("?")).c_str());
    std::printf("  duration (CUDA events)     %.4f ms  median of %d", eventMs, c.reps);
    if (haveActivity && eventMs > 0) std::printf("  (activity / events = %.3f)", actMs / eventMs);
    std::printf("\n");
    const auto& rs = profile["resources"];
    std::printf("  %d registers/thread, %d B local (spills) per thread, %zu B dynamic + %d B static "
                "shared memory\n",
                rs.value("registers", 0), rs.value("local_bytes", 0), r->kernel.dynamicSmemBytes,
                rs.value("static_smem", 0));
    nlohmann::json metrics = staticMetrics(*r);
    metrics["event_ms"] = eventMs;
    if (haveActivity) metrics["activity_ms"] = actMs;
    const nlohmann::json& cs = profile.contains("counters") ? profile["counters"] : nlohmann::json();
    if (cs.is_object()) {
        if (!cs.value("ok", false))
            std::printf("  counters unavailable: %s\n", cs.value("error", std::string("?")).c_str());
        else
            std::printf("  counters (%s, %zu range):\n", cs.value("chip", std::string()).c_str(),
                        cs.value("ranges", size_t{0}));
        for (auto it = cs["values"].begin(); cs.contains("values") && it != cs["values"].end(); ++it) {
            const rt::MetricSpec* spec = rt::findMetric(it.key());
            const std::string unit = spec ? spec->unit : "";
            std::printf("    %-22s %16s   %s\n", spec ? spec->label.c_str() : it.key().c_str(),
                        formatValue(it->get<double>(), unit).c_str(),
                        cs["names"].value(it.key(), std::string()).c_str());
            metrics[it.key()] = *it;
        }
        if (cs.contains("dropped") && !cs["dropped"].empty())
            std::printf("    not on this chip: %s\n", cs["dropped"].dump().c_str());
    }
    if (r->flops && eventMs > 0) metrics["tflops"] = *r->flops / (eventMs * 1e-3) / 1e12;
    if (r->bytes && eventMs > 0) metrics["gbps"] = *r->bytes / (eventMs * 1e-3) / 1e9;
    if (check == "skipped")
        std::printf("  check: no reference (%s)\n", checkWhy.c_str());
    else
        std::printf("  check: %s%s\n", check == "pass" ? "PASS" : "FAIL",
                    reason.empty() ? "" : (" (" + reason + ")").c_str());

    record["status"] = check == "fail" ? "wrong_result" : "ok";
    record["check"] = check;
    if (!reason.empty()) record["reason"] = reason;
    record["time_ms"] = haveActivity ? actMs : eventMs;
    record["metrics"] = metrics;
    record["resources"] = {{"registers", rs.value("registers", 0)},
                           {"local_bytes", rs.value("local_bytes", 0)},
                           {"static_smem", rs.value("static_smem", 0)},
                           {"dynamic_smem", r->kernel.dynamicSmemBytes}};
    if (cs.is_object() && cs.contains("error")) record["counters_error"] = cs["error"];
    storeRecord(record);
    if (!c.json.empty()) {
        nlohmann::json j = record;
        j["profile"] = profile;
        if (!writeJson(j, c.json)) return 1;
    }
    return check == "fail" ? 2 : 0;
}

}  // namespace ts::cli
