// The picture of a pipeline timeline as pure data (issue 9; no Qt): rows of bars on one shared
// axis, built from the compiler's static plan (compiler/analysis/PipelineTimeline.h, one row per
// warp role plus one row per shared-memory stage for its occupancy, and one per shared tile that
// TMA stores read, with each bulk group's read and the rewrite it orders) and, when loaded, from a
// measured `tilec trace` (visualizer/core/MeasuredTrace.h, one row per traced warp). Also the
// view transform (zoom and pan of the axis) and hit-testing, so the widget
// (visualizer/widgets/TimelineWidget.h) only paints and forwards input, and tests can check
// positions without a display.
//
// Axis: the plan's logical time where it has one (sm_90a: one unit per event, waits as late as
// the mbarrier rules make them), else the step (program order position, sm_80 cp.async plan).
// A plan event occupies [x, x + 1). Measured microseconds are mapped onto that axis with the
// scale `tilec trace` wrote (its plan process: ts = origin + time * unit_us).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/analysis/PipelineTimeline.h"

namespace ts::viz {

struct MeasuredTrace;

/// Colour class of a bar (the widget maps it to a colour per theme: timelineColor). Measured
/// events take the class of the planned event they stamp (wait, wgmma, issue, release).
/// Store: a TMA store or reduce-add out of a shared tile (sm_90a), and a staging tile being read by one.
enum class TimelineCategory { Copy, Wait, Mma, Release, Barrier, Commit, Compute, Occupancy, Measured, Store };
const char* timelineCategoryName(TimelineCategory c);
/// 0xRRGGBB of `c` on a light or dark background (fills; text is drawn black or white by contrast).
uint32_t timelineColor(TimelineCategory c, bool dark);

struct TimelineItem {
    double start = 0, end = 0;   ///< axis units; end == start: an instant (drawn as a tick)
    double mid = -1;             ///< occupancy: when the tile landed (in flight before, resident after); -1 none
    std::string label;           ///< short text drawn in the bar when it fits ("mma k3")
    std::string tiny;            ///< shortest form for narrow bars ("M3"; "" none)
    std::string tooltip;         ///< several lines: what, when, where (hover)
    TimelineCategory category = TimelineCategory::Compute;
    int64_t iteration = -1, stage = -1;
    Span span;                   ///< source statement (click selects it); invalid: none
    std::string irStmt;          ///< IR statement it comes from (one line)
    bool unreached = false;      ///< sm_90a: the schedule deadlocks before this event
    bool error = false;          ///< at a barrier issue of the static check
    int event = -1;              ///< index in the role's events (plan rows); -1 otherwise
};

enum class TimelineRowKind { Role, Stage, Measured };

struct TimelineRow {
    std::string name;            ///< "all warps (thread 0 issues)", "stage 1", "block 0 · warp 2"
    TimelineRowKind kind = TimelineRowKind::Role;
    std::vector<TimelineItem> items;  ///< in start order
};

/// One iteration's extent on the axis (header bands "k=3").
struct IterationBand {
    int64_t iteration = 0;
    double start = 0, end = 0;
};

class TimelineModel {
public:
    TimelineModel() = default;
    /// Rows of `loop`: its roles (events at `time`, or `step` for the cp.async plan), then its
    /// stages (occupancy: from the copy's issue to its release, landed at `mid`), then one row
    /// per shared buffer that plain copies fill ("A_shared (plain copy)": each copy's tile from
    /// its issue to its last read before the next copy into the buffer), then the
    /// staging tiles of its TMA stores (loop.bulkGroups: each group from its issue to the
    /// wait_group.read after which the tile is read out, all in flight; a one-unit compute bar
    /// where the next iteration rewrites the tile that wait and the following barrier order).
    static TimelineModel fromPlan(const analysis::PipelineTimeline& loop);

    const std::vector<TimelineRow>& rows() const { return m_rows; }
    const std::vector<IterationBand>& iterations() const { return m_bands; }
    /// Smallest start and largest end over every item (0, 1 for an empty model).
    double axisMin() const { return m_min; }
    double axisMax() const { return m_max; }
    /// "logical time" (sm_90a) or "step" (cp.async plan).
    const std::string& axisUnit() const { return m_unit; }
    /// One line about the plan ("T.Pipelined over k: 16 iterations, 4 stages, TMA + mbarrier").
    const std::string& summary() const { return m_summary; }
    bool empty() const { return m_rows.empty(); }

    /// Adds the measured warps of `trace` as rows below the plan, on the plan's axis. Returns
    /// warnings (the trace is of other sizes/stages/file than the plan, or it has no scale to
    /// align with and was fitted onto the plan's steady state instead); empty when it matches.
    std::vector<std::string> addMeasured(const MeasuredTrace& trace, const std::string& sourceFile);
    bool hasMeasured() const;

private:
    void updateExtent();
    std::vector<TimelineRow> m_rows;
    std::vector<IterationBand> m_bands;
    double m_min = 0, m_max = 1;
    double m_steadyMin = 0, m_steadyMax = 1;  ///< extent of the loop's iterations
    int64_t m_trips = 0, m_stages = 0;
    std::string m_unit = "step", m_summary;
};

/// Zoom and pan of the axis, and the row geometry, in widget pixels.
struct TimelineView {
    double origin = 0;        ///< axis value at x = labelWidth
    double pxPerUnit = 24;    ///< zoom
    int labelWidth = 200;     ///< row names column
    int headerHeight = 30;    ///< axis ticks and iteration bands
    int rowHeight = 24, rowGap = 6;
    static constexpr double kMinPxPerUnit = 0.05, kMaxPxPerUnit = 400;

    double xOf(double axis) const { return labelWidth + (axis - origin) * pxPerUnit; }
    double axisAt(double x) const { return origin + (x - labelWidth) / pxPerUnit; }
    double rowTop(int row) const { return headerHeight + row * double(rowHeight + rowGap); }
    /// Row under y; -1 above the first or below the last of `rows` rows, or in a gap.
    int rowAt(double y, int rows) const;
    /// Multiplies the zoom by `factor` (clamped) keeping the axis value under x where it is.
    void zoomAt(double x, double factor);
    /// Moves the content `dx` pixels to the right (the axis value at each x decreases).
    void panBy(double dx) { origin -= dx / pxPerUnit; }
    /// Zoom and origin that show [model.axisMin(), axisMax()] in `widthPx` (labels excluded),
    /// with half a unit of margin on each side.
    void fit(const TimelineModel& model, int widthPx);
    /// Total height of `rows` rows.
    int height(int rows) const { return int(rowTop(rows)) + rowGap; }
};

struct TimelineHit {
    int row = -1, item = -1;
    bool valid() const { return row >= 0 && item >= 0; }
};

/// The item under (x, y): the bar whose [start, end) contains the axis value at x, or an
/// instant within `tolerancePx`; the nearest when several qualify. None outside rows.
TimelineHit hitTest(const TimelineModel& model, const TimelineView& view, double x, double y, double tolerancePx = 4);

}  // namespace ts::viz
