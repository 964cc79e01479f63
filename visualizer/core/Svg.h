// SVG export of the layout grid and bank heatmap models (no Qt): self-contained SVG 1.1 text,
// one <rect> + <text> per cell, colours from threadColor/bankColor so the exported picture
// matches the IDE's. Used by `tilec layout --svg` and the views' "Export SVG" action.
#pragma once
#include <string>

#include "visualizer/core/BankMap.h"
#include "visualizer/core/LayoutGrid.h"

namespace ts::viz {

struct SvgOptions {
    int cell = 28;           ///< cell size in pixels
    bool physical = false;   ///< shared tiles: label offsets and colour by bank (else by row chunk)
    int64_t highlightThread = -1;  ///< outline this thread's cells
};

/// The grid: header line, column/row indices, one labelled cell per element ("T12\nr5" for
/// fragments; "201\nb4" (offset, bank) for shared tiles).
std::string layoutToSvg(const LayoutGridModel& m, const SvgOptions& o = {});
/// The heatmap: 32 lane rows x 32 bank columns, cell text = wavefront, phase separators.
std::string heatmapToSvg(const BankHeatmapModel& m, int cell = 18);

}  // namespace ts::viz
