// The Barrier panel's table as pure data (issue 9, no Qt): what the static schedule
// (compiler/analysis/PipelineTimeline.h) says about each synchronization object, one row per
// phase. On sm_90a (TMA + mbarrier schedule): each mbarrier phase with its parity, the tiles
// whose bytes it carries, the iteration that waits for it, arrivals and transaction bytes
// expected vs delivered and when it completed; rows that do not balance are marked bad. On the
// cp.async plan (sm_80): each cp.async group with its tiles, the step that commits it and the
// wait_group that completes it. Plus the static barrier check's diagnostics with their lines.
// Everything is read from the compiler's result; nothing is re-derived.
#pragma once
#include <string>
#include <vector>

#include "compiler/analysis/PipelineTimeline.h"

namespace ts::viz {

struct BarrierTableRow {
    std::vector<std::string> cells;  ///< one per BarrierTable::columns
    bool bad = false;                ///< expected != delivered, or a wait that never completes
    Span span;                       ///< statement to select (the wait, else the first feeder)
    std::string tooltip;
};

struct BarrierDiagnostic {
    bool error = true;
    std::string barrier, message;
    Span span;
    std::string text() const;        ///< "line 25:13: error: barrier tma_bar[0]: ..."
};

struct BarrierTable {
    std::string kind;                   ///< "mbarrier" | "cp.async" | "" (nothing to show)
    std::vector<std::string> columns;
    std::vector<BarrierTableRow> rows;
    std::vector<BarrierDiagnostic> diagnostics;
    std::string summary;                ///< one line: counts and the check's verdict
};

/// The table of `loop`'s schedule.
BarrierTable barrierTable(const analysis::PipelineTimeline& loop);

}  // namespace ts::viz
