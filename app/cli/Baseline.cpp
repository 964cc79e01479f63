#include "app/cli/Baseline.h"

#include <cstdio>
#include <iostream>

#include "app/cli/GpuWorker.h"
#include "app/cli/Record.h"
#include "app/cli/RunSupport.h"

namespace ts::cli {

bool prepareBaseline(const std::string& name, const CompileResult& r,
                     std::optional<rt::GemmShape>& gemm) {
    gemm.reset();
    if (name.empty()) return true;
    if (name != "cublas") {
        std::cerr << "tilec: error: --baseline '" << name
                  << "' is not a known library baseline (known: cublas)\n";
        return false;
    }
    std::string why;
    gemm = rt::gemmShapeOf(signatureOf(r), why);
    if (!gemm) {
        std::cerr << "tilec: error: --baseline cublas: " << why << "\n";
        return false;
    }
    return true;
}

nlohmann::json runBaseline(const rt::GemmShape& gemm, const CompileResult& r,
                           const CompileFlags& flags, const rt::DeviceInfo& device,
                           const std::string& arch, int reps, int warmup, int rotateSets,
                           rt::worker::WorkerClient* client, const std::string& session) {
    rt::worker::BaselineRequest req;
    req.gemm = gemm;
    req.reps = reps, req.warmup = warmup, req.rotateSets = rotateSets;
    const rt::BaselineResult b = baselineInWorker(req, client);
    nlohmann::json rec = baseRecord("baseline", r, flags, device, arch);
    rec["target"] = "library";
    rec["baseline"] = {{"library", b.library},
                       {"version", b.version},
                       {"api", b.api},
                       {"path", b.path},
                       {"gemm", rt::describeGemm(gemm)},
                       {"m", gemm.m},
                       {"n", gemm.n},
                       {"k", gemm.k},
                       {"dtype", std::string(ir::dtypeName(gemm.inDtype))},
                       {"out_dtype", std::string(ir::dtypeName(gemm.outDtype))},
                       {"accumulate", "float32"},
                       {"trans_a", gemm.transA},
                       {"trans_b", gemm.transB},
                       {"reps", b.reps},
                       {"rotate_sets", b.rotateSets},
                       {"max_error", b.maxError},
                       {"tolerance", b.tolerance}};
    rec["device_ordinal"] = device.ordinal;
    if (!session.empty()) rec["tune"] = {{"session", session}, {"baseline", true}};
    const std::string who = b.library + (b.version.empty() ? "" : " " + b.version) + " (" + b.api + ")";
    if (!b.ok) {
        rec["status"] = "error";
        rec["reason"] = b.error;
        std::printf("baseline %s: not measured: %s\n", who.c_str(), b.error.c_str());
    } else {
        const double flops = 2.0 * double(gemm.m) * double(gemm.n) * double(gemm.k);
        const double tflops = flops / (b.medianMs * 1e-3) / 1e12;
        rec["status"] = b.check == "pass" ? "ok" : "wrong_result";
        rec["check"] = b.check == "pass" ? "pass" : "fail";
        if (b.check != "pass") {
            char why[160];
            std::snprintf(why, sizeof why,
                          "sampled outputs off by %.3g of sum |a b| (tolerance %.3g)", b.maxError,
                          b.tolerance);
            rec["reason"] = why;
        }
        rec["time_ms"] = b.medianMs;
        rec["metrics"] = {{"event_ms", b.medianMs}, {"tflops", tflops}};
        std::printf("baseline %s, %s: median %.4f ms (min %.4f) over %d reps, %.1f TFLOP/s, "
                    "check %s\n",
                    who.c_str(), rt::describeGemm(gemm).c_str(), b.medianMs, b.minMs, b.reps,
                    tflops, b.check.c_str());
    }
    storeRecord(rec);
    return rec;
}

std::string vsBaselineText(double kernelMs, const nlohmann::json& rec) {
    if (!rec.contains("time_ms") || kernelMs <= 0) return {};
    char s[96];
    std::snprintf(s, sizeof s, "%.2fx %s", rec["time_ms"].get<double>() / kernelMs,
                  rec["baseline"].value("library", std::string("cuBLAS")).c_str());
    return s;
}

}  // namespace ts::cli
