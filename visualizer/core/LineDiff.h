// Text diff as a pure data model (no Qt): what the pass explorer's diff view paints. Two texts are
// compared line by line with Myers' O((N+M)·D) algorithm ("An O(ND) Difference Algorithm and Its
// Variations", 1986); runs of deleted lines that face runs of inserted lines are paired into
// "changed" rows, and each pair is diffed again character by character (same algorithm) to give
// the intra-line highlights. Side-by-side rows and a unified listing are two views of one result.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ts::viz {

/// One step of an edit script turning sequence A into sequence B.
enum class EditOp : uint8_t { Equal, Delete, Insert };

/// The shortest edit script between `a` and `b` (Myers). Equal steps consume one element of both,
/// Delete one of `a`, Insert one of `b`. Common prefix/suffix are stripped first, so near-equal
/// inputs cost O(N). Deletions are emitted before insertions inside a changed run.
std::vector<EditOp> myersDiff(const std::vector<std::string_view>& a,
                              const std::vector<std::string_view>& b);
/// The same over the bytes of two strings (used for intra-line highlights).
std::vector<EditOp> myersDiff(std::string_view a, std::string_view b);

/// Half-open byte range [begin, end) inside one line.
struct ByteRange {
    uint32_t begin = 0, end = 0;
    bool operator==(const ByteRange&) const = default;
};

/// What a side-by-side row shows.
enum class RowKind : uint8_t {
    Equal,     ///< same line on both sides
    Deleted,   ///< only on the left (old) side
    Inserted,  ///< only on the right (new) side
    Changed,   ///< a left line and a right line that differ; see the ranges
};

/// One row of the side-by-side view. Line numbers are 0-based indices into the old/new line
/// vectors, -1 where the side is empty. For Changed rows the ranges mark the differing bytes.
struct DiffRow {
    RowKind kind = RowKind::Equal;
    int oldLine = -1, newLine = -1;
    std::vector<ByteRange> oldRanges, newRanges;
};

/// One line of the unified view: a context line (Equal), a removed old line or an added new line.
struct UnifiedLine {
    EditOp op = EditOp::Equal;
    int line = -1;  ///< 0-based index into old (Delete) or new (Equal, Insert) lines
    std::vector<ByteRange> ranges;  ///< intra-line highlights (empty for Equal / unpaired lines)
};

/// The diff of two texts.
struct TextDiff {
    std::vector<std::string> oldLines, newLines;  ///< the inputs split at '\n' (no terminators)
    std::vector<DiffRow> rows;                    ///< side-by-side rows in order
    int deleted = 0, inserted = 0, changed = 0;   ///< row counts by kind
    /// True when both texts are line-for-line equal.
    bool identical() const { return deleted == 0 && inserted == 0 && changed == 0; }
    /// Indices into `rows` where a run of non-Equal rows starts (next/previous change).
    std::vector<int> hunkStarts() const;
    /// The unified listing: for each hunk, old lines first (Delete), then new lines (Insert).
    std::vector<UnifiedLine> unified() const;
};

/// Splits text into lines at '\n'. A trailing newline does not make an extra empty line.
std::vector<std::string> splitLines(std::string_view text);

/// Diffs two texts (see the file comment). Lines longer than `maxIntraLine` bytes, or pairs whose
/// byte diff would be too costly, get one range covering the whole line instead.
TextDiff diffTexts(std::string_view oldText, std::string_view newText,
                   std::size_t maxIntraLine = 4000);

/// The changed byte ranges of one changed line pair, small equal islands (< 3 bytes) between
/// changes merged away so highlights read as words, not confetti.
void intraLineRanges(std::string_view oldLine, std::string_view newLine,
                     std::vector<ByteRange>& oldRanges, std::vector<ByteRange>& newRanges);

}  // namespace ts::viz
