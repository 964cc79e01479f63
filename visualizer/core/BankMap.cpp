#include "visualizer/core/BankMap.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

namespace ts::viz {
using namespace ts::analysis;

BankHeatmapModel::BankHeatmapModel(const WarpRequest& r, std::string title)
    : m_title(std::move(title)), m_lanes(r.lanes) {
    m_cost = bankCost(r, true);
    for (const BankSlot& s : m_cost.bankSlots) {
        int& c = m_cells[size_t(s.lane * kBanks + s.bank)];
        c = std::max(c, s.wavefront + 1);
        m_phaseOfLane[size_t(s.lane)] = s.phase;
    }
}

int BankHeatmapModel::bankLoad(int phase, int bank) const {
    std::set<int64_t> words;
    for (const BankSlot& s : m_cost.bankSlots)
        if (s.phase == phase && s.bank == bank) words.insert(s.word);
    return int(words.size());
}

std::string BankHeatmapModel::summary() const {
    std::ostringstream os;
    os << m_cost.phases << (m_cost.phases == 1 ? " phase, " : " phases, ") << m_cost.wavefronts << " wavefronts (ideal "
       << m_cost.ideal << "), " << m_cost.ways << "-way";
    return os.str();
}

std::vector<BankAccessRow> sortedAccessRows(const KernelBankReport& r) {
    std::vector<BankAccessRow> rows;
    for (size_t i = 0; i < r.accesses.size(); ++i) {
        const AccessReport& a = r.accesses[i];
        BankAccessRow row;
        row.index = i;
        row.line = int(a.span.line);
        row.buffer = a.buffer;
        row.instruction = a.instruction;
        row.ways = a.ways;
        row.executions = a.executions, row.wavefronts = a.wavefronts, row.ideal = a.ideal, row.excess = a.excess();
        row.where = a.worstWhere;
        rows.push_back(row);
    }
    std::stable_sort(rows.begin(), rows.end(), [](const BankAccessRow& a, const BankAccessRow& b) { return a.excess > b.excess; });
    return rows;
}

std::string formatBankTable(const KernelBankReport& r, bool sortByExcess) {
    std::ostringstream os;
    char buf[512];
    os << "kernel " << r.kernel << ": " << r.threads << " threads, " << r.blocks << " blocks; per block:\n";
    std::snprintf(buf, sizeof buf, "%-6s %-14s %-32s %5s %10s %12s %12s %12s  %s\n", "line", "buffer", "instruction", "ways",
                  "warp-execs", "wavefronts", "ideal", "excess", "worst execution");
    os << buf;
    std::vector<size_t> order;
    if (sortByExcess)
        for (auto& row : sortedAccessRows(r)) order.push_back(row.index);
    else
        for (size_t i = 0; i < r.accesses.size(); ++i) order.push_back(i);
    for (size_t i : order) {
        const AccessReport& a = r.accesses[i];
        std::snprintf(buf, sizeof buf, "%-6u %-14s %-32s %4d%s %10.0f %12.0f %12.0f %12.0f  %s%s\n", a.span.line, a.buffer.c_str(),
                      a.instruction.c_str(), a.ways, a.ways > 1 ? "!" : " ", a.executions, a.wavefronts, a.ideal, a.excess(),
                      a.worstWhere.c_str(), a.sampled ? " (sampled)" : a.unresolved ? " (some lanes unresolved)" : "");
        os << buf;
    }
    double b = double(r.blocks);
    std::snprintf(buf, sizeof buf,
                  "totals per block: ld %.0f wavefronts (ideal %.0f, excess %.0f); st %.0f (ideal %.0f, excess %.0f); "
                  "cp.async writes %.0f (ideal %.0f)\n",
                  r.loadWavefronts, r.loadIdeal, r.loadExcess(), r.storeWavefronts, r.storeIdeal, r.storeExcess(),
                  r.cpAsyncWavefronts, r.cpAsyncIdeal);
    os << buf;
    std::snprintf(buf, sizeof buf, "totals per kernel (x%lld blocks): ld excess %.0f, st excess %.0f, ld wavefronts %.0f, st wavefronts %.0f\n",
                  (long long)r.blocks, b * r.loadExcess(), b * r.storeExcess(), b * r.loadWavefronts, b * r.storeWavefronts);
    os << buf;
    for (auto& n : r.notes) os << "note: " << n << "\n";
    return os.str();
}

}  // namespace ts::viz
