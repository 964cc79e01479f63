// `tilec banks`: compiles a tile program and prints the shared-memory bank-conflict table of the
// lowered kernel (compiler/analysis/Banks.h): per access the source line, buffer, instruction,
// ways, warp executions, wavefronts vs ideal and the worst execution; per block and per kernel
// totals that bench/h200_banks.sh compares with the CUPTI counters (--json for that script).
// The JSON also records what was compiled (target, effective parameter values, a hash of the
// source) and, with --measure, the measured counters under the keys of the predicted ones
// (visualizer/core/BankCompare.h): the IDE's Bank panel loads it and checks it belongs to the
// program it shows.
// `tilec layout`: the layout grid of one buffer (visualizer/core/LayoutGrid.h) as text or SVG,
// or of a hardware layout of compiler/analysis/HwLayouts.h with --builtin (no program needed).
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>

#include <nlohmann/json.hpp>

#include "compiler/analysis/LoopLayouts.h"
#include "compiler/analysis/SharedViewLayout.h"
#include "app/cli/Commands.h"
#include "app/cli/RunSupport.h"
#include "compiler/analysis/Banks.h"
#include "compiler/analysis/HwLayouts.h"
#include "profiler/Runtime.h"
#include "profiler/check/Inputs.h"
#include "profiler/cupti/RangeProfiler.h"
#include "visualizer/core/BankCompare.h"
#include "visualizer/core/BankMap.h"
#include "visualizer/core/LayoutGrid.h"
#include "visualizer/core/Svg.h"

namespace ts::cli {

namespace {
nlohmann::json toJson(const analysis::KernelBankReport& r, const CompileResult& cr,
                      const CompileFlags& flags) {
    nlohmann::json j;
    j["format"] = "tilescope-banks/1";
    j["file"] = flags.file;
    j["kernel"] = r.kernel;
    j["threads"] = r.threads;
    j["blocks"] = r.blocks;
    // What was compiled, so that a reader (the IDE) can tell whether the counters belong to its
    // program: codegen target, every factory parameter's effective value, the source's hash.
    j["target"] = flags.target.empty() ? defaultTarget() : flags.target;
    j["params"] = nlohmann::json::object();
    for (const auto& p : cr.params) j["params"][p.name] = p.value;
    if (auto text = readFile(flags.file)) j["source_hash"] = viz::sourceHash(*text);
    j["predicted"] = nlohmann::json::object();
    for (const auto& [k, v] : analysis::kernelCounters(r)) j["predicted"][k] = v;
    auto& acc = j["accesses"] = nlohmann::json::array();
    for (auto& a : r.accesses)
        acc.push_back({{"line", a.span.line},
                       {"buffer", a.buffer},
                       {"instruction", a.instruction},
                       {"kind", analysis::accessKindName(a.kind)},
                       {"ways", a.ways},
                       {"executions_per_block", a.executions},
                       {"wavefronts_per_block", a.wavefronts},
                       {"ideal_per_block", a.ideal},
                       {"worst", a.worstWhere},
                       {"sampled", a.sampled}});
    j["notes"] = r.notes;
    return j;
}
/// Runs the kernel once on the GPU under the CUPTI range profiler; fills j["measured"].
bool measure(const CompileResult& r, nlohmann::json& j) {
    std::string why;
    auto* gpu = rt::GpuRuntime::get(&why);
    if (!gpu) {
        std::cerr << "tilec: error: --measure needs a GPU: " << why << "\n";
        return false;
    }
    std::vector<rt::TensorParam> sig;
    for (auto& a : r.kernel.args) sig.push_back({a.name, a.dtype, a.shape, a.isOutput});
    rt::RunRequest req;
    req.source = r.cuda;
    req.kernel = r.kernel.name;
    req.signature = sig;
    for (int i = 0; i < 3; ++i)
        req.config.grid[i] = r.kernel.grid[i], req.config.block[i] = r.kernel.block[i];
    req.config.dynamicSmemBytes = r.kernel.dynamicSmemBytes;
    req.config.cooperative = r.kernel.cooperative;
    req.tensors = rt::makeInputs(sig, {}).tensors;
    for (auto& m : r.kernel.tensorMaps) req.tensorMaps.push_back({m.tensor, m.boxInner, m.boxOuter, m.swizzleBytes, m.rowDim});
    // Compile first (outside the profiled region), then profile exactly the checked launch.
    auto nv = gpu->compile(r.cuda);
    if (!nv.ok) {
        std::cerr << "tilec: error: NVRTC failed:\n" << nv.log;
        return false;
    }
    gpu->makeCurrent();
    rt::RunResult res;
    auto m = rt::cupti::measureKernels(gpu->device().ordinal, rt::cupti::bankMetricNames(),
                                       [&] { res = gpu->run(req); });
    if (!res.ok) {
        std::cerr << "tilec: error: the kernel failed at " << rt::stageName(res.failedStage) << ": "
                  << res.error << "\n";
        return false;
    }
    auto& out = j["measured"];
    out["device"] = gpu->device().name;
    out["chip"] = m.chip;
    out["ranges"] = m.ranges;
    out["dropped_metrics"] = m.dropped;
    for (auto& [k, v] : m.values) out["metrics"][k] = v;
    // The compared counters under the predicted keys; null where the chip lacks the metric.
    for (const auto& spec : viz::comparedCounters())
        out["counters"][spec.key] = m.values.count(spec.metric)
                                        ? nlohmann::json(m.values.at(spec.metric))
                                        : nlohmann::json();
    if (!m.ok) {
        out["error"] = m.error;
        std::cerr << "tilec: error: CUPTI: " << m.error << "\n";
        return false;
    }
    auto get = [&](const std::string& k) { return m.values.count(k) ? m.values.at(k) : -1.0; };
    const auto& p = j["predicted"];
    std::printf("measured on %s (%s), %zu kernel range(s):\n", gpu->device().name.c_str(),
                m.chip.c_str(), m.ranges);
    std::printf("  %-44s %14s %14s\n", "counter", "predicted", "measured");
    auto row = [&](const char* label, double pred, const std::string& metric) {
        std::printf("  %-44s %14.0f %14.0f\n", label, pred, get(metric));
    };
    row("shared ld bank conflicts (excess wavefronts)", p["ld_conflicts"].get<double>(),
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
    row("shared st bank conflicts (excess wavefronts)", p["st_conflicts"].get<double>(),
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum");
    row("shared ld wavefronts (incl. ldmatrix?)", p["ld_wavefronts"].get<double>(),
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum");
    row("shared st wavefronts", p["st_wavefronts"].get<double>(),
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum");
    row("ldmatrix wavefronts", p["ldsm_wavefronts"].get<double>(),
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum");
    for (auto& d : m.dropped) std::printf("  (metric not available here: %s)\n", d.c_str());
    return true;
}

}  // namespace

int runBanks(const BanksCommand& c) {
    if (c.listMetrics) {
        std::string why;
        auto* gpu = rt::GpuRuntime::get(&why);
        if (!gpu) return std::cerr << "tilec: error: " << why << "\n", 1;
        gpu->makeCurrent();
        auto names = rt::cupti::listMetrics(gpu->device().ordinal, c.metricFilter, &why);
        if (names.empty())
            return std::cerr << "tilec: error: " << (why.empty() ? "no metric matches" : why)
                             << "\n",
                   1;
        for (auto& n : names) std::cout << n << "\n";
        return 0;
    }
    auto r = compileFile(c.flags, CompileOptions{});
    if (!r) return 1;
    if (printDiagnostics(*r) || !r->lowered) return 1;
    if (!oneLaunchOrReport(*r, "banks")) return 1;
    auto rep = analysis::analyzeBanks(r->lowered);
    std::cout << viz::formatBankTable(rep, c.sortByExcess);
    nlohmann::json j = toJson(rep, *r, c.flags);
    bool measuredOk = true;
    if (c.measure) measuredOk = r->ok && measure(*r, j);
    if (c.heatmap >= 0 && size_t(c.heatmap) < rep.accesses.size()) {
        const auto& a = rep.accesses[size_t(c.heatmap)];
        viz::BankHeatmapModel hm(a.worst, a.buffer + " " + a.instruction + " @ " + a.worstWhere);
        std::cout << "\nlanes x banks of access " << c.heatmap << " (" << hm.summary()
                  << "), cell = wavefront:\n     ";
        for (int b = 0; b < hm.banks(); ++b) std::cout << (b % 10);
        std::cout << "\n";
        for (int l = 0; l < hm.lanes(); ++l) {
            char head[16];
            std::snprintf(head, sizeof head, "%3d  ", l);
            std::cout << head;
            for (int b = 0; b < hm.banks(); ++b) {
                int v = hm.cell(l, b);
                std::cout << (v == 0 ? '.' : v < 10 ? char('0' + v) : '+');
            }
            std::cout << "\n";
        }
    }
    if (!c.json.empty()) {
        if (!writeJson(j, c.json)) return 1;
    }
    return measuredOk ? 0 : 2;
}

namespace {
/// Prints the grid as text (thread:local or physical offset per cell) or writes the SVG.
int drawLayout(const viz::LayoutGridModel& m, const LayoutCommand& c) {
    if (!c.svg.empty()) {
        viz::SvgOptions o;
        o.highlightThread = c.thread;
        std::ofstream out(c.svg);
        out << viz::layoutToSvg(m, o);
        if (!out) {
            std::cerr << "tilec: error: cannot write " << c.svg << "\n";
            return 1;
        }
        std::cerr << "wrote " << c.svg << " (" << m.rows() << "x" << m.cols() << ")\n";
        return 0;
    }
    std::cout << m.name() << ": " << m.description() << "\n";
    // Shared offsets: one column wider than the largest, so 5-digit offsets stay apart.
    int width = 5;
    if (m.isShared())
        for (int64_t row = 0; row < m.rows(); ++row)
            for (int64_t col = 0; col < m.cols(); ++col)
                width = std::max(width, 1 + int(std::to_string(m.cell(row, col).physical).size()));
    for (int64_t row = 0; row < m.rows(); ++row) {
        for (int64_t col = 0; col < m.cols(); ++col) {
            const auto& x = m.cell(row, col);
            char b[32];
            if (m.isShared())
                std::snprintf(b, sizeof b, "%*lld", width, (long long)x.physical);
            else
                std::snprintf(b, sizeof b, " %3lld:%-3lld", (long long)x.thread,
                              (long long)x.local);
            std::cout << b;
        }
        std::cout << "\n";
    }
    return 0;
}

/// "AxB" -> {A, B} (positive integers); nullopt on anything else.
std::optional<std::vector<int64_t>> parsePair(const std::string& s) {
    auto x = s.find('x');
    if (x == std::string::npos || x == 0 || x + 1 == s.size()) return std::nullopt;
    std::vector<int64_t> out;
    for (auto part : {s.substr(0, x), s.substr(x + 1)}) {
        char* end = nullptr;
        long long v = std::strtoll(part.c_str(), &end, 10);
        if (*end != 0 || v <= 0) return std::nullopt;
        out.push_back(v);
    }
    return out;
}

// Limits of `tilec layout`: a grid is one text cell or SVG rectangle per element, so 1M cells is
// already far past readable; the warp grid is bounded by the CUDA limit of 1024 threads per block
// (CUDA C Programming Guide, "Compute Capabilities", maximum number of threads per block).
constexpr int64_t kMaxLayoutElements = 1 << 20;
constexpr int64_t kMaxThreadsPerBlock = 1024;

/// "ldmatrix:x4" -> "ldmatrix:4" (PTX writes the matrix count as .x1/.x2/.x4; both are accepted).
std::string normalizeBuiltin(std::string spec) {
    auto colon = spec.find(':');
    if (colon != std::string::npos && colon + 1 < spec.size() &&
        (spec[colon + 1] == 'x' || spec[colon + 1] == 'X') && spec.compare(0, 8, "ldmatrix") == 0)
        spec.erase(colon + 1, 1);
    return spec;
}

int runBuiltinLayout(const LayoutCommand& c) {
    std::vector<int64_t> shape;
    std::vector<int> grid;
    if (!c.shape.empty()) {
        auto p = parsePair(c.shape);
        if (!p)
            return std::cerr << "tilec: error: --shape wants ROWSxCOLS, got '" << c.shape << "'\n",
                   1;
        // Compare without multiplying first: 4294967296x4294967296 overflows int64.
        if ((*p)[0] > kMaxLayoutElements || (*p)[1] > kMaxLayoutElements / (*p)[0])
            return std::cerr << "tilec: error: --shape " << c.shape << " has too many elements (at "
                             << "most " << kMaxLayoutElements << " = 1M, e.g. 1024x1024)\n",
                   1;
        shape = *p;
    }
    const std::string spec = normalizeBuiltin(c.builtin);
    if (!c.warps.empty()) {
        auto p = parsePair(c.warps);
        if (!p) return std::cerr << "tilec: error: --warps wants AxB, got '" << c.warps << "'\n", 1;
        // A warp is 32 threads, an mfma wave 64, a wgmma warpgroup 128.
        const int64_t unit = spec.rfind("wgmma", 0) == 0  ? 128
                             : spec.rfind("mfma", 0) == 0 ? 64
                                                          : 32;
        const int64_t maxUnits = kMaxThreadsPerBlock / unit;
        if ((*p)[0] > maxUnits || (*p)[1] > maxUnits / (*p)[0])
            return std::cerr << "tilec: error: --warps " << c.warps << " is more than "
                             << kMaxThreadsPerBlock << " threads per block (at most " << maxUnits
                             << " groups of " << unit << " threads, e.g. " << maxUnits << "x1)\n",
                   1;
        grid = {int((*p)[0]), int((*p)[1])};
    }
    std::string why;
    auto l = analysis::makeBuiltinLayout(spec, shape, grid, &why);
    if (!l) return std::cerr << "tilec: error: " << why << "\n", 1;
    if (c.tile != 0)
        return std::cerr << "tilec: error: --tile applies to a multi-buffered shared tile of a "
                            "program, not to --builtin\n",
               1;
    if (c.thread < -1 || (c.thread >= 0 && c.thread >= l->threads))
        return std::cerr << "tilec: error: --thread " << c.thread
                         << " is out of range (this layout "
                         << "has " << l->threads << " threads: 0.." << l->threads - 1 << ")\n",
               1;
    return drawLayout(viz::LayoutGridModel::fromLayout(l, 4, 0, 0, c.builtin), c);
}
}  // namespace

int runLayout(const LayoutCommand& c) {
    if (!c.builtin.empty()) {
        if (!c.flags.file.empty() || !c.buffer.empty())
            return std::cerr << "tilec: error: --builtin shows a hardware layout; give no FILE or "
                                "--buffer with it\n",
                   1;
        return runBuiltinLayout(c);
    }
    if (!c.shape.empty() || !c.warps.empty())
        return std::cerr << "tilec: error: --shape and --warps only apply to --builtin\n", 1;
    if (c.flags.file.empty())
        return std::cerr << "tilec: error: layout needs a FILE or --builtin NAME\n", 1;
    // Without --buffer the command lists the buffers; an --svg there was silently not written.
    if (!c.svg.empty() && c.buffer.empty())
        return std::cerr << "tilec: error: --svg draws one buffer's grid: give --buffer NAME (tilec layout FILE lists them)\n", 2;
    auto r = compileFile(c.flags, CompileOptions{});
    if (!r) return 1;
    if (printDiagnostics(*r) || !r->lowered) return 1;
    if (!oneLaunchOrReport(*r, "layout")) return 1;
    if (c.buffer.empty()) {
        const auto placed = analysis::sharedPlacements(*r->lowered);
        // Buffers first, then the T.Parallel nests' layouts by line (analysis/LoopLayouts.h).
        for (const std::string& name : analysis::layoutKeysInListOrder(r->lowered->layouts)) {
            const auto& l = r->lowered->layouts.at(name);
            auto p = placed.find(name);
            if (p != placed.end() && p->second.through)
                std::cout << name << ": placed through '" << p->second.through->name << "' (" << p->second.layout->description << ")\n";
            else
                std::cout << name << ": " << (l ? l->description : "?") << "\n";
        }
        return 0;
    }
    // Check --tile and --thread against the layout before drawing: out-of-range values would
    // print offsets outside the allocation or outline nothing.
    if (auto it = r->lowered->layouts.find(c.buffer);
        it != r->lowered->layouts.end() && it->second) {
        const auto& l = it->second;
        const int64_t stages = l->shape.size() >= 3 ? l->shape[0] : 1;
        if (c.tile < 0 || c.tile >= stages) {
            std::cerr << "tilec: error: --tile " << c.tile << " is out of range: '" << c.buffer
                      << "' has " << stages << (stages == 1 ? " stage (only --tile 0)" : " stages")
                      << (stages == 1 ? std::string() : " (0.." + std::to_string(stages - 1) + ")")
                      << "\n";
            return 1;
        }
        const int64_t threads =
            int64_t(r->kernel.block[0]) * r->kernel.block[1] * r->kernel.block[2];
        if (c.thread < -1 || (c.thread >= 0 && c.thread >= threads)) {
            std::cerr << "tilec: error: --thread " << c.thread
                      << " is out of range (the kernel has " << threads << " threads: 0.."
                      << threads - 1 << ")\n";
            return 1;
        }
    }
    std::string why;
    auto m = viz::LayoutGridModel::fromFunction(r->lowered, c.buffer, &why, c.tile);
    if (!m) {
        std::cerr << "tilec: error: " << why << "\n";
        return 1;
    }
    return drawLayout(*m, c);
}

}  // namespace ts::cli
