// Span lookups behind cross-highlighting (CrossRef.h).
#include "visualizer/core/CrossRef.h"

#include <limits>

namespace ts::viz {

std::vector<int> linesForSourceLine(const std::vector<Span>& spans, uint32_t srcLine) {
    std::vector<int> out;
    uint32_t best = std::numeric_limits<uint32_t>::max();
    for (size_t i = 0; i < spans.size(); ++i) {
        const Span& s = spans[i];
        if (!s.valid()) continue;
        uint32_t end = s.endLine >= s.line ? s.endLine : s.line;
        if (srcLine < s.line || srcLine > end) continue;
        uint32_t extent = end - s.line;
        if (extent < best) {
            best = extent;
            out.clear();
        }
        if (extent == best) out.push_back(static_cast<int>(i));
    }
    return out;
}

std::vector<int> linesWithinSpan(const std::vector<Span>& spans, const Span& focus) {
    std::vector<int> out;
    if (!focus.valid()) return out;
    uint32_t fEnd = focus.endLine >= focus.line ? focus.endLine : focus.line;
    for (size_t i = 0; i < spans.size(); ++i) {
        const Span& s = spans[i];
        if (!s.valid()) continue;
        uint32_t end = s.endLine >= s.line ? s.endLine : s.line;
        if (s.line >= focus.line && end <= fEnd) out.push_back(static_cast<int>(i));
    }
    return out;
}

std::vector<std::pair<int, int>> lineRuns(const std::vector<int>& sortedLines) {
    std::vector<std::pair<int, int>> runs;
    for (int l : sortedLines) {
        if (!runs.empty() && runs.back().second + 1 == l)
            runs.back().second = l;
        else
            runs.push_back({l, l});
    }
    return runs;
}

}  // namespace ts::viz
