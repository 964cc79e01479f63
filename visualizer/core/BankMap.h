// Pure data model of the Bank view (no Qt): for one shared-memory access of a bank report
// (compiler/analysis/Banks.h), a lanes x banks heatmap of its worst warp-wide execution -- which
// bank each lane's words hit and in which wavefront they are served -- plus the list of accesses
// sorted by excess wavefronts (what the view lists; clicking a row selects its source line).
#pragma once
#include <string>
#include <vector>

#include "compiler/analysis/Banks.h"

namespace ts::viz {

/// Heatmap of one warp request: cells[lane][bank] = wavefront + 1 serving that lane's word in
/// that bank (0 = untouched). Phases are stacked: a lane belongs to exactly one phase (AMD
/// ds_read_b128 phases are not contiguous lane ranges).
class BankHeatmapModel {
public:
    BankHeatmapModel() = default;
    explicit BankHeatmapModel(const analysis::WarpRequest& r, std::string title = {});

    const std::string& title() const { return m_title; }
    int lanes() const { return m_lanes; }  ///< 32 (warp) or 64 (AMD wavefront)
    int banks() const { return analysis::kBanks; }
    int cell(int lane, int bank) const { return m_cells[size_t(lane * analysis::kBanks + bank)]; }
    int phaseOfLane(int lane) const { return m_phaseOfLane[size_t(lane)]; }
    /// Distinct words in `bank` during `phase` (the wavefronts that bank needs).
    int bankLoad(int phase, int bank) const;
    int phases() const { return m_cost.phases; }
    const analysis::WarpCost& cost() const { return m_cost; }
    /// e.g. "4 phases, 16 wavefronts (ideal 4), 4-way".
    std::string summary() const;

private:
    std::string m_title;
    int m_lanes = analysis::kWarpSize;
    std::vector<int> m_cells = std::vector<int>(size_t(analysis::kMaxLanes * analysis::kBanks), 0);
    std::vector<int> m_phaseOfLane = std::vector<int>(analysis::kMaxLanes, -1);
    analysis::WarpCost m_cost;
};

/// One row of the access list.
struct BankAccessRow {
    size_t index = 0;  ///< into KernelBankReport::accesses
    int line = 0;      ///< source line (0 = unknown)
    std::string buffer, instruction;
    int ways = 0;
    double executions = 0, wavefronts = 0, ideal = 0, excess = 0;
    std::string where;  ///< the worst execution ("warp 0, k=3")
};

/// Rows of a report sorted by excess wavefronts (largest first), ties in program order.
std::vector<BankAccessRow> sortedAccessRows(const analysis::KernelBankReport& r);

/// Fixed-width text table of a report (what `tilec banks` prints).
std::string formatBankTable(const analysis::KernelBankReport& r, bool sortByExcess = false);

}  // namespace ts::viz
