// `tilec banks`: compiles a tile program and prints the shared-memory bank-conflict table of the
// lowered kernel (compiler/analysis/Banks.h): per access the source line, buffer, instruction,
// ways, warp executions, wavefronts vs ideal and the worst execution; per block and per kernel
// totals that bench/h200_banks.sh compares with the CUPTI counters (--json for that script).
// `tilec layout`: the layout grid of one buffer (visualizer/core/LayoutGrid.h) as text or SVG.
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/cli/Commands.h"
#include "compiler/analysis/Banks.h"
#include "visualizer/core/BankMap.h"
#include "visualizer/core/LayoutGrid.h"
#include "visualizer/core/Svg.h"

namespace ts::cli {

namespace {
nlohmann::json toJson(const analysis::KernelBankReport& r, const std::string& file) {
    nlohmann::json j;
    j["file"] = file;
    j["kernel"] = r.kernel;
    j["threads"] = r.threads;
    j["blocks"] = r.blocks;
    double b = double(r.blocks);
    j["predicted"] = {{"ld_wavefronts", b * r.loadWavefronts},   {"ld_ideal", b * r.loadIdeal},
                      {"ld_conflicts", b * r.loadExcess()},      {"st_wavefronts", b * r.storeWavefronts},
                      {"st_ideal", b * r.storeIdeal},            {"st_conflicts", b * r.storeExcess()},
                      {"cp_async_wavefronts", b * r.cpAsyncWavefronts}, {"cp_async_ideal", b * r.cpAsyncIdeal}};
    auto& acc = j["accesses"] = nlohmann::json::array();
    for (auto& a : r.accesses)
        acc.push_back({{"line", a.span.line}, {"buffer", a.buffer}, {"instruction", a.instruction},
                       {"kind", analysis::accessKindName(a.kind)}, {"ways", a.ways}, {"executions_per_block", a.executions},
                       {"wavefronts_per_block", a.wavefronts}, {"ideal_per_block", a.ideal}, {"worst", a.worstWhere},
                       {"sampled", a.sampled}});
    j["notes"] = r.notes;
    return j;
}
}  // namespace

int runBanks(const BanksCommand& c) {
    auto r = compileFile(c.flags, CompileOptions{});
    if (!r) return 1;
    if (printDiagnostics(*r) || !r->lowered) return 1;
    auto rep = analysis::analyzeBanks(r->lowered);
    std::cout << viz::formatBankTable(rep, c.sortByExcess);
    if (c.heatmap >= 0 && size_t(c.heatmap) < rep.accesses.size()) {
        const auto& a = rep.accesses[size_t(c.heatmap)];
        viz::BankHeatmapModel hm(a.worst, a.buffer + " " + a.instruction + " @ " + a.worstWhere);
        std::cout << "\nlanes x banks of access " << c.heatmap << " (" << hm.summary() << "), cell = wavefront:\n     ";
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
        std::string text = toJson(rep, c.flags.file).dump(2) + "\n";
        if (c.json == "-") std::cout << text;
        else std::ofstream(c.json) << text;
    }
    return 0;
}

int runLayout(const LayoutCommand& c) {
    auto r = compileFile(c.flags, CompileOptions{});
    if (!r) return 1;
    if (printDiagnostics(*r) || !r->lowered) return 1;
    if (c.buffer.empty()) {
        for (auto& [name, l] : r->lowered->layouts) std::cout << name << ": " << (l ? l->description : "?") << "\n";
        return 0;
    }
    std::string why;
    auto m = viz::LayoutGridModel::fromFunction(r->lowered, c.buffer, &why, c.tile);
    if (!m) {
        std::cerr << "tilec: error: " << why << "\n";
        return 1;
    }
    if (!c.svg.empty()) {
        viz::SvgOptions o;
        o.highlightThread = c.thread;
        std::ofstream out(c.svg);
        out << viz::layoutToSvg(*m, o);
        if (!out) {
            std::cerr << "tilec: error: cannot write " << c.svg << "\n";
            return 1;
        }
        std::cerr << "wrote " << c.svg << " (" << m->rows() << "x" << m->cols() << ")\n";
        return 0;
    }
    std::cout << m->name() << ": " << m->description() << "\n";
    for (int64_t row = 0; row < m->rows(); ++row) {
        for (int64_t col = 0; col < m->cols(); ++col) {
            const auto& x = m->cell(row, col);
            char b[32];
            if (m->isShared()) std::snprintf(b, sizeof b, "%5lld", (long long)x.physical);
            else std::snprintf(b, sizeof b, " %3lld:%-3lld", (long long)x.thread, (long long)x.local);
            std::cout << b;
        }
        std::cout << "\n";
    }
    return 0;
}

}  // namespace ts::cli
