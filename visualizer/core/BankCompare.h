// Predicted vs measured shared-memory bank counters per kernel (issue 4, Bank view): the
// whole-grid totals of a bank report (compiler/analysis/Banks.h) next to the CUPTI counters that
// `tilec banks FILE --measure --json OUT` wrote on a GPU (app/cli/CmdBanks.cpp,
// profiler/cupti/RangeProfiler.h), with an agree/disagree verdict per counter, and a check that a
// measurement belongs to the program shown (kernel, grid, parameter values, target, source text).
// The CLI writes its JSON with analysis::kernelCounters() and the IDE compares with
// compareCounters(), so both sides use one set of formulas. No Qt.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "compiler/analysis/Banks.h"

namespace ts::viz {

/// One counter the Bank view compares: key in analysis::kernelCounters / MeasuredBanks::measured,
/// a label, and the Nsight Compute metric it is measured with (l1tex__* names as in the Nsight
/// Compute "Memory Workload Analysis" shared-memory table; collected by tilec banks --measure).
struct CounterSpec {
    const char* key;
    const char* label;
    const char* metric;
};
/// ld/st conflicts, ld/st wavefronts, ldmatrix wavefronts -- in display order.
const std::vector<CounterSpec>& comparedCounters();

/// 64-bit FNV-1a of `text` without its `# tilescope:` parameter pragma line, 16 lower-case hex
/// digits: which source text a measurement ran on (parameter values are compared separately).
std::string sourceHash(const std::string& text);

/// A measured bank-counter file (the JSON of `tilec banks --measure --json`).
struct MeasuredBanks {
    std::string file, kernel, target, sourceHash;  ///< target/sourceHash empty: not recorded
    int64_t blocks = 0, threads = 0;
    /// Effective factory parameter values (name -> Python repr) of the measured compile; files
    /// written before tilec recorded them (bench/results/banks-2026-11-29) have none.
    bool hasParams = false;
    std::map<std::string, std::string> params;
    std::string device, chip, error;              ///< GPU name, chip ("GH100"), CUPTI error if any
    std::map<std::string, double> measured;       ///< counter key -> value; absent = not measured
    std::map<std::string, double> predictedThen;  ///< prediction written with the measurement
    std::vector<std::string> dropped;             ///< metrics the chip does not offer
};

/// Parses a tilec banks JSON text. nullopt with `why` when it is not one or has no "measured"
/// section (written without --measure). Reads the counters from "measured.counters" or, for
/// older files, from the raw "measured.metrics".
std::optional<MeasuredBanks> parseMeasuredBanks(const std::string& json, std::string* why);

/// The agreement rule of bench/h200_banks.sh: equal, or |p - m| <= 0.5% of `opWavefronts`, the
/// measured wavefronts of the same operation (ld or st) -- a difference small against the traffic
/// (the row-sum residue of inter-block contention, README "Shared-memory bank conflicts").
/// A negative `measured` (tilec's "not measured") never agrees.
bool countersAgree(double predicted, double measured, double opWavefronts);

/// One row of the comparison.
struct CounterComparison {
    std::string key, label, metric;
    double predicted = 0;
    std::optional<double> measured;  ///< nullopt: not measured (dropped metric)
    std::optional<bool> agree;       ///< nullopt when not measured
};
/// Rows of comparedCounters() for the current prediction `r` and a measurement. The ld rows
/// also agree when the LDS-only prediction matches (chips whose ld counters exclude ldmatrix).
std::vector<CounterComparison> compareCounters(const analysis::KernelBankReport& r,
                                               const MeasuredBanks& m);

enum class MeasuredMatch { Matches, Mismatch, Unknown };
/// Whether a measurement belongs to the program shown, and why not (one line per difference,
/// e.g. "pad = 1 when measured, 0 now"). Unknown: the file does not record enough to tell.
struct MatchReport {
    MeasuredMatch status = MeasuredMatch::Unknown;
    std::vector<std::string> reasons;
};
/// Compares kernel name, grid blocks, parameter values (`params`: name -> repr), codegen target
/// and the hash of `sourceText` with what `m` recorded.
MatchReport matchMeasured(const MeasuredBanks& m, const std::string& kernel, int64_t blocks,
                          const std::map<std::string, std::string>& params,
                          const std::string& target, const std::string& sourceText);

}  // namespace ts::viz
