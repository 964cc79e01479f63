// Source <-> IR <-> generated-code cross-referencing as a pure model (no Qt). Every IR line
// (ir::LineOrigin) and every generated CUDA line (CompileResult::cudaLineSpans) carries the source
// span it came from; these functions answer "which lines of a view belong to this place in the
// source" so the IDE can highlight them. They only read spans the compiler recorded; nothing here
// re-derives compiler facts.
#pragma once
#include <vector>

#include "compiler/support/Source.h"

namespace ts::viz {

/// Lines (0-based indices into `spans`) that came from 1-based source line `srcLine`: among the
/// valid spans covering that line, those of the smallest line extent. So the cursor on a
/// `T.copy` line selects the copy's lines, not the header of the loop around it; on the loop's
/// own line it selects the loop header (nothing smaller covers that line).
std::vector<int> linesForSourceLine(const std::vector<Span>& spans, uint32_t srcLine);

/// Lines whose valid span lies within the source lines of `focus` (line granularity): what a
/// statement picked in one view became in another view (a loop picks its whole body).
std::vector<int> linesWithinSpan(const std::vector<Span>& spans, const Span& focus);

/// Groups sorted 0-based line indices into inclusive [first, last] runs (for painting bands).
std::vector<std::pair<int, int>> lineRuns(const std::vector<int>& sortedLines);

}  // namespace ts::viz
