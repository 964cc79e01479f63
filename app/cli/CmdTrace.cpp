// `tilec trace` (CmdTrace.h): compiles the kernel twice -- as a normal compile (its static plan,
// compiler/analysis/HopperTimeline.h, and the timing baseline) and with the instrument-trace pass
// (compiler/transforms/InstrumentTrace.h) -- runs the instrumented one once on the GPU worker with
// one more output tensor, the int32 stamp buffer (compiler/analysis/TraceFormat.h), decodes it
// (profiler/trace/TraceDecode.h), checks thread 0's measured order against the plan, and writes
// the Chrome trace. With --reps N both kernels are timed in the worker (median of N) and the
// overhead is reported. Exit 0 when the measured order matches the plan, 3 when it does not.
#include "app/cli/CmdTrace.h"

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "app/cli/GpuWorker.h"
#include "app/cli/RunSupport.h"
#include "compiler/analysis/HopperTimeline.h"
#include "compiler/analysis/TraceFormat.h"
#include "compiler/transforms/InstrumentTrace.h"
#include "profiler/trace/TraceDecode.h"

namespace ts::cli {

namespace {

/// Median launch time of `req` over `reps` timed launches; nullopt after an error on stderr.
std::optional<double> medianMs(rt::RunRequest req, int reps, const char* what) {
    req.timingReps = reps;
    req.timingWarmup = 5;
    auto res = runInWorker(req);
    if (!res.ok || !res.timing) {
        std::cerr << "tilec: error: timing the " << what << " kernel: " << rt::stageName(res.failedStage) << " failed: " << res.error
                  << "\n";
        return std::nullopt;
    }
    return res.timing->medianMs;
}

}  // namespace

int runTrace(const TraceCommand& c) {
    if (c.blocks.empty()) {
        std::cerr << "tilec: error: --blocks needs at least one block id\n";
        return 1;
    }
    auto compiled = compileForGpu(c.flags, "trace");
    if (!compiled) return 1;
    CompileResult& plain = compiled->r;
    const rt::DeviceInfo gpu = compiled->gpu;
    const unsigned* g = plain.kernel.grid;
    const int64_t nblocks = int64_t(g[0]) * g[1] * g[2];
    for (int64_t b : c.blocks)
        if (b < 0 || b >= nblocks) {
            std::cerr << "tilec: error: --blocks " << b << " is outside the grid (" << g[0] << " x " << g[1] << " x " << g[2] << " = "
                      << nblocks << " blocks, linear ids 0.." << nblocks - 1 << ")\n";
            return 1;
        }

    // The static plan of the first traced block.
    analysis::HopperTimelineOptions ho;
    const int64_t b0 = c.blocks.front();
    ho.block = {b0 % g[0], (b0 / g[0]) % g[1], b0 / (int64_t(g[0]) * g[1])};
    {
        CompileOptions po;
        po.stopAfter = "plan-pipelines";
        po.recordSnapshots = false;
        if (auto p = compileFile(c.flags, po); p && p->lowered) ho.planned = analysis::plannedLoopOf(p->lowered);
    }
    auto plan = plain.lowered ? analysis::buildHopperTimeline(plain.lowered, ho) : analysis::TimelineResult{};
    const analysis::PipelineTimeline* planLoop = plan.loops.empty() ? nullptr : &plan.loops.front();
    if (!planLoop && !quiet())
        std::cerr << "tilec: note: " << c.flags.file
                  << " has no sm_90a TMA + mbarrier schedule (target " << (c.flags.target.empty() ? defaultTarget() : c.flags.target)
                  << "): only the loop is stamped and there is no plan to compare with\n";

    // Room for every stamp of the run: at most two per planned event of a role (a wait or a wgmma
    // is stamped before and after), plus the loop's; a ring past that would drop the first ones.
    int64_t cap = c.capacity;
    if (cap <= 0) {
        cap = trace::kDefaultCapacity;
        if (planLoop)
            for (auto& role : planLoop->roles) cap = std::max<int64_t>(cap, 2 * int64_t(role.events.size()) + 16);
    }
    std::optional<CompileResult> instr;
    {
        xform::ScopedTraceRequest request({c.blocks, cap});
        CompileOptions o;
        o.recordSnapshots = false;
        instr = compileFile(c.flags, o);
    }
    if (!instr) return 1;
    if (printDiagnostics(*instr) || !instr->ok || !applyLaunchValues(*instr)) return 1;
    const int64_t warps = (int64_t(instr->kernel.block[0]) * instr->kernel.block[1] * instr->kernel.block[2] + 31) / 32;

    auto sig = signatureOf(plain);
    rt::InputOptions io;
    rt::InputSet set;
    if (!makeInputsOrReport(sig, io, set, c.flags.inputRules)) return 1;
    zeroAtomicOutputs(plain, set);
    rt::RunRequest req = requestFor(*instr, set, c.flags, rt::archFor(gpu));
    const int64_t words = int64_t(c.blocks.size()) * warps * trace::regionWords(cap);
    req.signature.push_back({"ts_trace", ir::DType::Int32, {words}, true});
    HostTensor buf;
    buf.dtype = ir::DType::Int32;
    buf.shape = {words};
    buf.data.assign(size_t(words), 0.0);  // counts start at 0 (uploaded as the initial value)
    req.tensors.push_back(std::move(buf));
    auto res = runInWorker(req);
    if (!res.ok) {
        std::cerr << "tilec: error: the instrumented kernel: " << rt::stageName(res.failedStage) << " failed: " << res.error << "\n";
        return 1;
    }
    const HostTensor* stamps = nullptr;
    for (auto& o : res.outputs)
        if (o.name == "ts_trace") stamps = &o.tensor;
    if (!stamps) {
        std::cerr << "tilec: error: the worker returned no trace buffer\n";
        return 1;
    }
    auto decoded = rt::trace::decodeTrace(stamps->data, c.blocks, warps, cap);
    if (!decoded.error.empty()) {
        std::cerr << "tilec: error: " << decoded.error << "\n";
        return 1;
    }
    rt::trace::OrderCheck order;
    if (planLoop) order = rt::trace::compareWithPlan(decoded, *planLoop);

    nlohmann::json other{{"blocks", c.blocks}, {"capacity", cap}, {"warps", warps}, {"device", gpu.name}};
    other["order_check"] = {{"match", order.match}, {"compared", order.compared}, {"detail", order.detail}, {"expected", order.expected},
                            {"measured", order.measured}};
    if (c.reps > 0) {
        auto tPlain = medianMs(requestFor(plain, set, c.flags, rt::archFor(gpu)), c.reps, "plain");
        auto tInstr = medianMs(req, c.reps, "instrumented");
        if (!tPlain || !tInstr) return 1;
        other["overhead"] = {{"plain_ms", *tPlain}, {"instrumented_ms", *tInstr}, {"ratio", *tInstr / *tPlain}, {"reps", c.reps}};
        std::printf("overhead: plain %.4f ms, instrumented %.4f ms (median of %d): %+.2f%%\n", *tPlain, *tInstr, c.reps,
                    (*tInstr / *tPlain - 1) * 100);
    }
    rt::trace::ChromeTraceInfo info{c.flags.file, instr->kernel.name, req.arch, other};
    if (!writeJson(rt::trace::chromeTrace(decoded, planLoop, info), c.out)) return 1;
    size_t n = 0;
    for (auto& w : decoded.warps) n += w.stamps.size();
    std::printf("%s: %zu stamps from %zu warps of %zu block(s) -> %s\n", c.flags.file.c_str(), n, decoded.warps.size(), c.blocks.size(),
                c.out.c_str());
    if (planLoop) std::printf("measured order vs static plan (thread 0, %lld events): %s\n", (long long)order.compared, order.detail.c_str());
    return !planLoop || order.match ? 0 : 3;
}

}  // namespace ts::cli
