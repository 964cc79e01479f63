// The compare view's data (issue 12): variants x metrics from results-store records
// (profiler/store/ResultsStore.h) -- typically one `tilec tune` session, or any set of profile /
// bench records -- with the best value of each metric, deltas against a chosen baseline variant,
// and, for two selected variants, their per-pass IR diffs and generated-CUDA diff (both
// recompiled from the stored program text with the recorded parameters: compiles take
// milliseconds and are deterministic, so the store keeps no IR). No Qt.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "visualizer/core/LineDiff.h"

namespace ts {
struct CompileResult;
}

namespace ts::viz {

/// One column of the table.
struct CompareColumn {
    std::string key;    ///< "time_ms", or a metric key of the records
    std::string label;  ///< "time (ms)", "DRAM read", ...
    std::string unit;   ///< "ms", "%", "B", ""
    bool lowerIsBetter = true;
};

/// One row: a variant and its values (NaN where the record has none or the variant failed).
struct CompareRow {
    nlohmann::json record;
    std::string label;   ///< "block_M=64 block_N=128 num_stages=3" (tune config, else params)
    std::string status;  ///< "ok", "wrong_result", "fault", ...
    std::string reason;
    bool ok() const { return status == "ok"; }
    /// Ran, but nothing checked its result (record "check": "skipped": no reference). A fast
    /// wrong result looks the same, so such a row is never the best (as in `tilec tune`).
    bool unchecked() const { return ok() && record.value("check", std::string()) == "skipped"; }
    /// A library's time for the same problem (record kind "baseline": cuBLAS for a GEMM), not a
    /// variant: shown as its own row, usable as the deltas' baseline, never the best, no IR.
    bool library() const { return record.value("kind", std::string()) == "baseline"; }
    std::vector<double> values;  ///< one per column
};

class VariantCompare {
public:
    /// Builds rows from `records` (failed variants included, with NaN values) and columns:
    /// time first, then every metric key any record has, default-set metrics in their order.
    /// Library baseline rows (CompareRow::library) come first, then the variants in order.
    explicit VariantCompare(std::vector<nlohmann::json> records);

    const std::vector<CompareColumn>& columns() const { return m_columns; }
    const std::vector<CompareRow>& rows() const { return m_rows; }
    /// Index of the column `key`, or -1.
    int column(const std::string& key) const;
    /// Row with the best value in `column` among ok variant rows whose result was checked (not
    /// unchecked(), check not "fail", not a library baseline; lower or higher per the column),
    /// or -1.
    int bestRow(int column) const;
    /// The first library baseline row, or -1.
    int libraryRow() const;
    /// (value - baseline) / baseline of row `row` in `column` against row `baseline`; nullopt
    /// where either value is missing or the baseline is 0.
    std::optional<double> relativeDelta(int row, int baseline, int column) const;

    /// The tune sessions in `records` (tune.session), newest last, with their record counts.
    static std::vector<std::pair<std::string, size_t>> sessions(
        const std::vector<nlohmann::json>& records);
    /// The records of one session.
    static std::vector<nlohmann::json> sessionRecords(const std::vector<nlohmann::json>& records,
                                                      const std::string& session);

private:
    std::vector<CompareColumn> m_columns;
    std::vector<CompareRow> m_rows;
};

/// Recompiles the variant of `record` from `sourceText` (its stored program) with its recorded
/// kernel, parameters and target, recording every pass's IR. Never throws.
CompileResult compileVariant(const nlohmann::json& record, const std::string& sourceText);

/// The IR diff of one pass between two variants.
struct PassDiff {
    std::string pass;
    int changedLines = 0;  ///< deleted + inserted + changed rows
    TextDiff diff;
};

/// Per-pass IR diffs (passes matched by position and name) and the generated-CUDA diff.
struct VariantDiff {
    std::string error;  ///< a variant that did not compile, or a missing source
    std::vector<PassDiff> passes;
    TextDiff cuda;
};
VariantDiff diffVariants(const CompileResult& a, const CompileResult& b);

/// "12.5 %", "1.234 ms", "3.2 MB", "1234" for a value of `unit`.
std::string formatMetric(double v, const std::string& unit);

}  // namespace ts::viz
