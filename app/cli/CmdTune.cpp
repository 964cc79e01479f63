// `tilec tune FILE`: the variants of a kernel -- the configs of its `@autotune(configs=...)`
// decorator (a list of dicts, or a dict of value lists), or `--sweep name=v1,v2 ...` (the
// cartesian product) -- compiled on worker threads (front end, passes, codegen, NVRTC), then run
// one at a time in the GPU worker with a correctness check and timed; on `--interp` they run on
// the tile interpreter (correctness only). Every failure is kept with its reason: compile error,
// wrong result, fault, timeout, crash. A variant the results store already has for this device
// (same generated CUDA, launch and shapes) is taken from it unless --no-cache. The fastest
// correct variant is the best; every variant is stored (kind "tune", one session id).
// Progress (issue 15): with progressWanted() (a terminal, or TILEC_PROGRESS=1 as the IDE sets),
// a line on stderr as each variant starts and ends. SIGINT (Ctrl-C, the IDE's Stop) ends the
// sweep cleanly: the running interpreter variant is cancelled, the variants not yet run are kept
// as status "stopped", the finished ones keep their results, all are stored, exit status 130.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "app/cli/Baseline.h"
#include "app/cli/Commands.h"
#include "app/cli/GpuWorker.h"
#include "app/cli/InterpProgress.h"
#include "app/cli/Record.h"
#include "app/cli/RunSupport.h"
#include "compiler/frontend/Module.h"
#include "profiler/check/Reference.h"
#include "profiler/cuda/CubinCache.h"
#include "profiler/cuda/Driver.h"
#include "profiler/cuda/Nvrtc.h"
#include "profiler/store/ResultsStore.h"

namespace ts::cli {

namespace {

using Config = std::vector<std::pair<std::string, std::string>>;  // name -> value text

/// Why a variant that ran was not checked when the file has no reference at all.
constexpr const char* kNoReference = "no reference for this kernel";

struct Variant {
    size_t index = 0;
    Config config;
    std::optional<CompileResult> r;
    std::vector<char> cubin;
    std::string status = "pending", reason, check;
    double timeMs = 0;
    double compileMs = 0;
    bool cached = false;
    std::string key;  ///< cache key: generated CUDA + arch + launch + shapes + device
    std::optional<rt::DeviceInfo> device;  ///< the GPU it ran on (a pool's device), if it ran
    nlohmann::json metrics = nlohmann::json::object();
};

std::string configText(const Config& c) {
    std::string s;
    for (auto& [k, v] : c) s += (s.empty() ? "" : " ") + k + "=" + v;
    return s;
}

/// Cartesian product of --sweep name=v1,v2 lists, first name varying slowest.
std::optional<std::vector<Config>> sweepConfigs(const std::vector<std::string>& sweeps) {
    std::vector<std::pair<std::string, std::vector<std::string>>> axes;
    for (const auto& s : sweeps) {
        auto eq = s.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == s.size()) {
            std::cerr << "tilec: error: --sweep expects NAME=V1,V2,..., got '" << s << "'\n";
            return std::nullopt;
        }
        std::vector<std::string> vals;
        size_t pos = eq + 1;
        while (pos <= s.size()) {
            size_t comma = s.find(',', pos);
            if (comma == std::string::npos) comma = s.size();
            std::string v = s.substr(pos, comma - pos);
            const size_t a = v.find_first_not_of(" \t"), b = v.find_last_not_of(" \t");
            if (a == std::string::npos) {  // "32,,64" swept two values, not three: say so
                std::cerr << "tilec: error: --sweep " << s << ": an empty value in the list (a stray comma?)\n";
                return std::nullopt;
            }
            vals.push_back(v.substr(a, b - a + 1));
            pos = comma + 1;
        }
        std::string name = s.substr(0, eq);
        const size_t a = name.find_first_not_of(" \t"), b = name.find_last_not_of(" \t");
        name = a == std::string::npos ? std::string() : name.substr(a, b - a + 1);
        for (auto& [other, _] : axes)
            if (other == name) {  // the last list won, and "best:" printed both
                std::cerr << "tilec: error: --sweep " << name << " is given twice; give one list: --sweep " << name << "=V1,V2,...\n";
                return std::nullopt;
            }
        axes.push_back({name, vals});
    }
    std::vector<Config> out{{}};
    for (const auto& [name, vals] : axes) {
        std::vector<Config> next;
        for (const auto& c : out)
            for (const auto& v : vals) {
                Config n = c;
                n.push_back({name, v});
                next.push_back(std::move(n));
            }
        out = std::move(next);
    }
    return out;
}

std::optional<Config> dictConfig(const fe::Value& d, std::string& why) {
    Config c;
    for (auto& [k, v] : d.dictObj().entries) {
        if (!k.is(fe::ValueKind::Str)) {
            why = "a config key is not a string: " + fe::repr(k);
            return std::nullopt;
        }
        c.push_back({k.asStr(), fe::repr(v)});
    }
    return c;
}

/// The configs of the selected kernel's @autotune(configs=...).
std::optional<std::vector<Config>> autotuneConfigs(const CompileResult& r, std::string& why) {
    const ProgramKernel* k = r.selected();
    if (!r.module || !k) {
        why = "the file did not compile far enough to find its kernel";
        return std::nullopt;
    }
    const fe::KernelEntry* e = r.module->entry(k->name);
    if (!e || !e->configs) {
        why = "kernel '" + k->name +
              "' has no @autotune(configs=...); give the variants with --sweep NAME=V1,V2,...";
        return std::nullopt;
    }
    DiagnosticEngine diags;
    auto v = r.module->evalInGlobals(*e->configs, nullptr, diags);
    if (!v) {
        why = "cannot evaluate the configs= of @autotune";
        for (auto& d : diags.all()) why += "\n" + formatDiagnostic(d, r.source.get());
        return std::nullopt;
    }
    std::vector<Config> out;
    if (v->is(fe::ValueKind::Dict)) {  // {"block_M": [64, 128], ...}: the product
        std::vector<std::string> sweeps;
        for (auto& [key, vals] : v->dictObj().entries) {
            if (!key.is(fe::ValueKind::Str) || !vals.isSequence()) {
                why = "configs= as a dict needs string keys and lists of values";
                return std::nullopt;
            }
            std::string s = key.asStr() + "=";
            for (size_t i = 0; i < vals.items().size(); ++i)
                s += (i ? "," : "") + fe::repr(vals.items()[i]);
            sweeps.push_back(s);
        }
        auto p = sweepConfigs(sweeps);
        if (!p) return std::nullopt;
        return p;
    }
    if (!v->isSequence()) {
        why = "configs= is " + fe::repr(*v).substr(0, 60) + ", not a list of dicts";
        return std::nullopt;
    }
    for (const auto& item : v->items()) {
        if (!item.is(fe::ValueKind::Dict)) {
            why = "a config is " + fe::repr(item).substr(0, 60) + ", not a dict";
            return std::nullopt;
        }
        auto c = dictConfig(item, why);
        if (!c) return std::nullopt;
        out.push_back(*c);
    }
    return out;
}

std::string firstError(const CompileResult& r) {
    for (auto& d : r.diagnostics)
        if (d.severity == Severity::Error) {
            std::string s = formatDiagnostic(d, r.source.get());
            auto nl = s.find('\n');
            return nl == std::string::npos ? s : s.substr(0, nl);
        }
    return "compile failed";
}

std::string variantKey(const CompileResult& r, const std::string& arch, const std::string& device) {
    std::string k = r.cuda + "\n" + arch + "\n" + device + "\n" + r.kernel.name;
    for (int i = 0; i < 3; ++i)
        k += " " + std::to_string(r.kernel.grid[i]) + "x" + std::to_string(r.kernel.block[i]);
    for (auto& a : r.kernel.args) k += " " + a.name + formatShape(a.shape);
    return rt::sourceHashOf(k);
}

}  // namespace

int runTune(const TuneCommand& c) {
    const bool onGpu = c.interp.empty();
    std::string why;
    std::optional<rt::DeviceInfo> gpu;
    if (!onGpu && !c.baseline.empty()) {
        std::cerr << "tilec: error: --baseline " << c.baseline
                  << " times the library on a GPU; --interp runs no GPU (drop one of them)\n";
        return 1;
    }
    // One worker per GPU (WorkerPool.h): --devices, else $TILESCOPE_DEVICE, else every device.
    std::unique_ptr<rt::worker::WorkerPool> pool;
    std::vector<rt::DeviceInfo> slotDevice;
    if (onGpu) {
        auto ordinals = rt::available(&why) ? tuneDevices(c.devices, why) : std::nullopt;
        if (ordinals) {
            pool = std::make_unique<rt::worker::WorkerPool>(workerCommand(), *ordinals);
            for (size_t s = 0; s < pool->size() && ordinals; ++s) {
                auto d = clientDevice(pool->client(s), why);
                if (!d) {
                    why = "device " + std::to_string(pool->ordinal(s)) + ": " + why;
                    ordinals.reset();
                } else {
                    slotDevice.push_back(*d);
                }
            }
        }
        if (!ordinals) {
            std::cerr << "tilec: error: tune needs a GPU (" << why << ")"
                      << (c.baseline.empty() ? "" : "; the cuBLAS baseline runs only on a GPU")
                      << "; --interp checks the variants on the tile interpreter instead\n";
            return 1;
        }
        gpu = slotDevice.front();
        noteWorkerDriverVersion(pool->client(0));
        // One arch per tune: every variant is compiled once, for the first device's arch.
        for (const auto& d : slotDevice)
            if (rt::archFor(d) != rt::archFor(*gpu)) {
                std::cerr << "tilec: error: device " << d.ordinal << " is " << rt::describe(d)
                          << " but device " << gpu->ordinal << " is " << rt::describe(*gpu)
                          << ": tune compiles the variants for one architecture; choose devices "
                             "of one kind with --devices\n";
                return 1;
            }
    }
    CompileFlags base = c.flags;
    if (base.target.empty()) base.target = gpu ? "cuda:" + rt::archFor(*gpu) : "cuda:sm_80";
    const std::string arch = parseTarget(base.target) ? parseTarget(base.target)->arch() : "sm_80";
    CompileOptions opts;
    opts.recordSnapshots = false;
    auto r0 = compileFile(base, opts);
    if (!r0) return 1;
    if (!oneLaunchOrReport(*r0, "tune")) return 1;
    std::optional<rt::GemmShape> baselineGemm;
    if (onGpu && !c.baseline.empty()) {
        if (!applyLaunchValues(*r0)) return 1;
        if (!prepareBaseline(c.baseline, *r0, baselineGemm)) return 1;
    }
    base.pragmaNote = false;

    std::vector<Config> configs;
    if (!c.sweeps.empty()) {
        auto s = sweepConfigs(c.sweeps);
        if (!s) return 1;
        configs = *s;
    } else {
        auto a = autotuneConfigs(*r0, why);
        if (!a) {
            printDiagnostics(*r0);
            std::cerr << "tilec: error: " << why << "\n";
            return 1;
        }
        configs = *a;
    }
    if (c.maxConfigs > 0 && configs.size() > static_cast<size_t>(c.maxConfigs))
        configs.resize(static_cast<size_t>(c.maxConfigs));
    if (configs.empty()) {
        std::cerr << "tilec: error: no configurations to tune\n";
        return 1;
    }
    // A config key the kernel does not have is a mistake in the sweep, not a failed variant.
    if (const ProgramKernel* k = r0->selected())
        for (auto& [name, v] : configs.front())
            if (std::find(k->params.begin(), k->params.end(), name) == k->params.end()) {
                std::cerr << "tilec: error: kernel '" << k->name << "' has no parameter '" << name
                          << "' (its parameters:";
                for (auto& p : k->params) std::cerr << " " << p;
                std::cerr << ")\n";
                return 1;
            }

    std::vector<Variant> vs(configs.size());
    for (size_t i = 0; i < vs.size(); ++i) vs[i].index = i, vs[i].config = configs[i];
    // From here on Ctrl-C / the IDE's Stop stops the sweep (see the top of the file); the
    // interpreter polls the flag between blocks and inside long loops.
    InterruptGuard stopGuard;
    struct CancelScope {
        explicit CancelScope(const std::atomic<bool>* f) { setInterpCancel(f); }
        ~CancelScope() { setInterpCancel(nullptr); }
    } cancelScope(stopGuard.cancelFlag());
    const bool showProgress = progressWanted();
    auto progressLine = [&](const Variant& v, const std::string& what) {
        if (!showProgress) return;
        std::fprintf(stderr, "tune: variant %zu of %zu %s: %s\n", v.index + 1, vs.size(),
                     what.c_str(), configText(v.config).c_str());
        std::fflush(stderr);
    };
    auto outcome = [](const Variant& v) {
        std::string s = v.status;
        if (v.status == "ok" && v.check == "skipped") s = "unchecked";
        if (v.status == "ok") {
            char t[48];
            std::snprintf(t, sizeof t, " %.4f ms", v.timeMs);
            s += t;
        }
        if (v.cached) s += " (cached)";
        return s;
    };
    std::string where = gpu ? gpu->name : "the tile-level interpreter";
    if (pool && pool->size() > 1) {
        where = std::to_string(pool->size()) + " GPUs (devices";
        for (size_t s = 0; s < pool->size(); ++s)
            where += (s ? "," : " ") + std::to_string(pool->ordinal(s));
        where += ": " + gpu->name + "; one worker each)";
    }
    std::printf("tuning %s: %zu variants on %s (%s), %d compile threads\n", c.flags.file.c_str(),
                vs.size(), where.c_str(), arch.c_str(), std::max(1, c.jobs));
    std::fflush(stdout);  // before the progress lines on stderr (the IDE merges the two)

    // 1. Compile every variant on worker threads: front end + passes + codegen (+ NVRTC).
    std::atomic<size_t> next{0};
    auto compileOne = [&](Variant& v) {
        const auto t0 = std::chrono::steady_clock::now();
        CompileFlags f = base;
        for (auto& [k, val] : v.config) f.params.push_back(k + "=" + val);
        v.r = compileFile(f, opts);
        if (v.r && v.r->ok) v.metrics = staticMetrics(*v.r);
        if (!v.r || !v.r->ok) {
            v.status = "compile_error";
            v.reason = v.r ? firstError(*v.r) : "cannot read the file";
        } else if (onGpu) {
            auto nv = rt::compileCuda(v.r->cuda, arch, {}, !c.noCache);
            if (!nv.ok) {
                v.status = "compile_error";
                auto nl = nv.log.find('\n');
                v.reason = "NVRTC: " + (nl == std::string::npos ? nv.log : nv.log.substr(0, nl));
            } else {
                v.cubin = std::move(nv.cubin);
            }
        }
        v.compileMs =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    };
    std::vector<std::thread> compilers;
    for (int t = 0; t < std::max(1, c.jobs); ++t)
        compilers.emplace_back([&] {
            for (size_t i; (i = next++) < vs.size();) compileOne(vs[i]);
        });
    for (auto& t : compilers) t.join();

    // 2. Run each compiled variant: one at a time per GPU (timing needs the GPU to itself), the
    // GPUs of a pool in parallel. Host work (inputs, launch values, the reference and the check)
    // is serialised under hostMu -- applyLaunchValues keeps per-process state -- and only the
    // worker call runs unlocked, so two GPUs overlap their kernels.
    const std::string session = rt::newRecordId();
    std::vector<nlohmann::json> stored;
    if (!c.noCache) stored = rt::ResultsStore().load();
    std::map<std::string, std::vector<HostTensor>> refCache;  // by input shapes
    const std::string refName = referenceName(*r0, c.ref);
    std::set<std::string> refParamNames;  // the reference function's parameters
    {
        std::string rwhy;
        if (auto t = referenceTarget(*r0, refName, rwhy))
            if (auto* def = rt::findReferenceProgram(*t->ast, t->name.empty() ? "ref_program" : t->name))
                for (auto& p : def->params) refParamNames.insert(p.name);
    }
    std::mutex hostMu;
    auto runOne = [&](Variant& v, size_t slot) {
        std::unique_lock lock(hostMu);
        if (stopGuard.interrupted()) {
            v.status = "stopped", v.reason = "not run (stopped)";
            return;
        }
        progressLine(v, "running");
        CompileResult& r = *v.r;
        if (!applyLaunchValues(r)) {
            v.status = "error", v.reason = "scalar arguments";
            return;
        }
        v.key = variantKey(r, arch, gpu ? gpu->name : "cpu-interpreter");
        if (onGpu && !c.noCache)
            for (auto it = stored.rbegin(); it != stored.rend(); ++it)
                if (it->value("variant_key", "") == v.key && it->value("status", "") == "ok" &&
                    it->contains("time_ms")) {
                    v.status = "ok", v.check = "pass", v.cached = true;
                    v.timeMs = (*it)["time_ms"].get<double>();
                    if (it->contains("metrics")) v.metrics.update((*it)["metrics"]);
                    break;
                }
        if (v.cached) return;
        rt::InputOptions io;
        // The same inputs for every variant of the same shapes, unless --seed 0 (fresh inputs
        // per variant: a sweep that checks correctness rather than speed).
        io.seed = c.seed;
        io.fresh = c.seed == 0;
        rt::InputSet set;
        if (!makeInputsOrReport(signatureOf(r), io, set, c.flags.inputRules)) {
            v.status = "error", v.reason = "inputs do not fit in host memory";
            return;
        }
        zeroAtomicOutputs(r, set);
        std::vector<HostTensor> outs;
        if (onGpu) {
            rt::RunRequest req = requestFor(r, set, base, arch);
            req.cubin = v.cubin;
            req.timingReps = c.reps;
            req.timingWarmup = 3;
            lock.unlock();
            rt::worker::WorkerFailure failure;
            auto res = runInWorkerClient(pool->client(slot), req, failure);
            lock.lock();
            applyLaunchValues(r);  // again: another GPU's variant may have set its own meanwhile
            v.device = slotDevice[slot];
            if (!res.ok) {
                v.status = runFailureStatus(res, failure);
                if (v.status == "compile_error" || v.status == "error")
                    v.status = res.failedStage == rt::RunStage::Launch ? "fault" : v.status;
                v.reason = res.error;
                return;
            }
            v.timeMs = res.timing ? res.timing->medianMs : res.launchMs;
            v.metrics["event_ms"] = v.timeMs;
            v.metrics["registers"] = res.attributes.numRegs;
            if (r.flops && v.timeMs > 0) v.metrics["tflops"] = *r.flops / (v.timeMs * 1e-3) / 1e12;
            for (auto& o : res.outputs) outs.push_back(std::move(o.tensor));
        } else {
            const auto t0 = std::chrono::steady_clock::now();
            auto o = runInterp(r, set.tensors, why);
            if (!o && stopGuard.interrupted()) {
                v.status = "stopped", v.reason = "not run (stopped while running)";
                return;
            }
            if (!o) {
                v.status = "error", v.reason = why;
                return;
            }
            v.timeMs = std::chrono::duration<double, std::milli>(
                           std::chrono::steady_clock::now() - t0)
                           .count();
            outs = std::move(*o);
        }
        // The reference once per distinct input shapes (float64 ref_program, else the
        // tile-level interpreter of this variant: on --interp that checks nothing new).
        // Keyed by the input shapes and the values of the factory parameters the reference
        // takes by name (tma_sweep_gemm's `off`: same shapes, different reference); with fresh
        // inputs per variant there is nothing to share.
        std::string shapes = c.seed == 0 ? std::to_string(v.index) + ":" : std::string();
        for (auto& t : set.tensors) shapes += formatShape(t.shape);
        for (auto& p : r.params)
            if (refParamNames.count(p.name)) shapes += " " + p.name + "=" + p.value;
        auto it = refCache.find(shapes);
        if (it == refCache.end()) {
            std::string rwhy;
            auto ref = referenceOutputs(r, set.tensors, rwhy, refName);
            // GPU outputs against the interpreter take the float64-reference tolerance rule too
            // (CmdRun.cpp tolerancesByArgDtypes: the GPU's float32 arithmetic differs in the
            // last bits).
            if (!ref && rwhy.empty() && onGpu) ref = runInterp(r, set.tensors, rwhy);
            if (!ref) {
                v.status = "ok", v.check = "skipped";
                v.reason = rwhy.empty() ? std::string(kNoReference) : rwhy;
                return;
            }
            it = refCache.emplace(shapes, std::move(*ref)).first;
        }
        v.check = checkOutputsQuiet(r, outs, it->second, true, c.rtol, v.reason);
        v.status = v.check == "pass" ? "ok" : "wrong_result";
    };
    std::vector<size_t> pending;
    for (auto& v : vs)
        if (v.status == "pending") pending.push_back(v.index);
    if (pool)
        pool->forEach(pending.size(), [&](size_t i, size_t slot) {
            // A job runs on a pool thread: an exception there would end the process.
            try {
                runOne(vs[pending[i]], slot);
            } catch (const std::exception& e) {
                std::lock_guard lock(hostMu);
                vs[pending[i]].status = "error";
                vs[pending[i]].reason = e.what();
            }
            std::lock_guard lock(hostMu);
            if (vs[pending[i]].status != "stopped") progressLine(vs[pending[i]], outcome(vs[pending[i]]));
        });
    else
        for (size_t i : pending) {
            runOne(vs[i], 0);
            if (vs[i].status != "stopped") progressLine(vs[i], outcome(vs[i]));
        }
    // Stopped during the compile phase: nothing ran (runOne marked the pending ones).
    const bool stopped = stopGuard.interrupted();
    nlohmann::json baselineRec;
    if (baselineGemm)  // on the first device, after the variants: the GPU to itself again
        baselineRec = runBaseline(*baselineGemm, *r0, c.flags, *gpu, arch, c.reps, 3, 1,
                                  &pool->client(0), session);

    // 3. Best = fastest correct (checked) variant; report, store.
    const Variant* best = nullptr;
    for (auto& v : vs)
        if (v.status == "ok" && v.check == "pass" && (!best || v.timeMs < best->timeMs)) best = &v;
    std::vector<const Variant*> order;
    for (auto& v : vs) order.push_back(&v);
    std::stable_sort(order.begin(), order.end(), [](const Variant* a, const Variant* b) {
        const bool ao = a->status == "ok", bo = b->status == "ok";
        if (ao != bo) return ao;
        return ao && a->timeMs < b->timeMs;
    });
    const bool multi = pool && pool->size() > 1;
    std::printf("%4s  %-13s %12s  %s%s\n", "#", "status", onGpu ? "time ms" : "interp ms",
                multi ? "gpu   " : "", "config");
    for (const Variant* v : order) {
        char t[32] = "-";
        if (v->status == "ok") std::snprintf(t, sizeof t, "%.4f", v->timeMs);
        // A variant that ran but had nothing to check against is not "ok": tune picks only
        // checked variants, so calling it ok next to "no variant passed" contradicted itself.
        const bool unchecked = v->status == "ok" && v->check == "skipped";
        std::string dev;
        if (multi) {
            dev = v->device ? std::to_string(v->device->ordinal) : std::string("-");
            dev.resize(6, ' ');
        }
        std::printf("%4zu  %-13s %12s  %s%s%s%s\n", v->index,
                    unchecked ? "unchecked" : v->status.c_str(), t, dev.c_str(),
                    configText(v->config).c_str(), v == best ? "  <- best" : "",
                    v->cached ? "  (cached)" : "");
        if (!v->reason.empty() && v->status != "ok")
            std::printf("        %s\n", v->reason.substr(0, 400).c_str());
    }
    size_t failed = 0, unchecked = 0;
    std::string uncheckedWhy;
    for (auto& v : vs) {
        failed += v.status != "ok" && v.status != "stopped";
        if (v.status == "ok" && v.check == "skipped") ++unchecked, uncheckedWhy = v.reason;
    }
    if (stopped) {
        size_t ran = 0;
        for (auto& v : vs) ran += v.status != "stopped" && v.status != "compile_error";
        std::printf("stopped by the user: %zu of %zu variants ran; the others are stored as "
                    "\"stopped\"\n",
                    ran, vs.size());
    }
    if (best) {
        const std::string vs_ = baselineRec.is_null() ? "" : vsBaselineText(best->timeMs, baselineRec);
        std::printf("best: %s  %.4f ms%s%s (%zu of %zu variants failed)\n",
                    configText(best->config).c_str(), best->timeMs,
                    onGpu ? "" : " on the interpreter (correctness only)",
                    vs_.empty() ? "" : (" = " + vs_).c_str(), failed, vs.size());
    }
    else if (unchecked > 0) {
        // Without a reference the tile interpreter is the semantics itself: on --interp there
        // is nothing to check a variant against, so no variant can be called correct.
        std::printf("no best variant: %zu of %zu ran but none was checked, %zu failed\n",
                    unchecked, vs.size(), failed);
        if (uncheckedWhy == kNoReference)
            std::printf("  %s: add a ref_program to the file or name a reference with --ref "
                        "NAME%s\n",
                        kNoReference,
                        onGpu ? "" : " (on a GPU the tile interpreter checks the variants)");
        else
            std::printf("  the reference failed: %s\n", uncheckedWhy.c_str());
    }
    else
        std::printf("no variant passed (%zu of %zu failed)\n", failed, vs.size());

    nlohmann::json all = nlohmann::json::array();
    for (auto& v : vs) {
        const CompileResult& rr = v.r ? *v.r : *r0;
        nlohmann::json rec = baseRecord("tune", rr, c.flags, v.device ? v.device : gpu, arch);
        if (v.device) rec["device_ordinal"] = v.device->ordinal;
        nlohmann::json cfg = nlohmann::json::object();
        for (auto& [k, val] : v.config) cfg[k] = val;
        rec["tune"] = {{"session", session},
                       {"index", v.index},
                       {"config", cfg},
                       {"best", &v == best},
                       {"compile_ms", v.compileMs}};
        rec["status"] = v.status;
        if (!v.check.empty()) rec["check"] = v.check;
        if (!v.reason.empty()) rec["reason"] = v.reason;
        if (v.status == "ok") rec["time_ms"] = v.timeMs;
        rec["metrics"] = v.metrics;
        if (!v.key.empty()) rec["variant_key"] = v.key;
        if (v.cached) rec["cached"] = true;
        if (!onGpu) rec["interp"] = true;
        storeRecord(rec);
        all.push_back(rec);
    }
    if (!c.json.empty()) {
        nlohmann::json j = {{"session", session},
                            {"file", c.flags.file},
                            {"device", gpu ? gpu->name : std::string("cpu-interpreter")},
                            {"variants", all}};
        if (best) j["best"] = best->index;
        if (pool) {
            j["devices"] = nlohmann::json::array();
            for (size_t s = 0; s < pool->size(); ++s) j["devices"].push_back(pool->ordinal(s));
        }
        if (!baselineRec.is_null()) j["baseline"] = baselineRec;
        if (!writeJson(j, c.json)) return 1;
    }
    if (stopped) return 130;
    return best ? 0 : 2;
}

}  // namespace ts::cli
