// Myers diff over lines and bytes, pairing of changed runs and intra-line ranges (LineDiff.h).
#include "visualizer/core/LineDiff.h"

#include <algorithm>

namespace ts::viz {
namespace {

// Myers' greedy forward algorithm with the V array of every D kept for the backtrack. `eq(i, j)`
// compares a[i] with b[j]. Works on the middle part after the common prefix/suffix were removed.
template <typename Eq>
std::vector<EditOp> myersCore(int n, int m, Eq eq) {
    std::vector<EditOp> out;
    if (n == 0 || m == 0) {
        out.insert(out.end(), n, EditOp::Delete);
        out.insert(out.end(), m, EditOp::Insert);
        return out;
    }
    const int max = n + m;
    const int off = max + 1;
    std::vector<int> v(2 * max + 3, 0);
    // trace[d] holds V before step d, only the slice k in [-d-1, d+1] that the backtrack reads,
    // so memory is O(D^2) rather than O(D·(N+M)).
    std::vector<std::vector<int>> trace;
    int dFound = -1;
    for (int d = 0; d <= max && dFound < 0; ++d) {
        trace.emplace_back(v.begin() + off - d - 1, v.begin() + off + d + 2);
        for (int k = -d; k <= d; k += 2) {
            int x;
            if (k == -d || (k != d && v[off + k - 1] < v[off + k + 1]))
                x = v[off + k + 1];  // down: insertion
            else
                x = v[off + k - 1] + 1;  // right: deletion
            int y = x - k;
            while (x < n && y < m && eq(x, y)) ++x, ++y;
            v[off + k] = x;
            if (x >= n && y >= m) {
                dFound = d;
                break;
            }
        }
    }
    // Backtrack from (n, m) through the saved V arrays, collecting the ops in reverse.
    int x = n, y = m;
    for (int d = dFound; d > 0; --d) {
        const std::vector<int>& pv = trace[d];  // V after step d-1
        auto at = [&](int kk) { return pv[kk + d + 1]; };
        int k = x - y;
        int prevK;
        if (k == -d || (k != d && at(k - 1) < at(k + 1)))
            prevK = k + 1;
        else
            prevK = k - 1;
        int prevX = at(prevK);
        int prevY = prevX - prevK;
        while (x > prevX && y > prevY) {
            out.push_back(EditOp::Equal);
            --x, --y;
        }
        out.push_back(x == prevX ? EditOp::Insert : EditOp::Delete);
        x = prevX, y = prevY;
    }
    while (x > 0 && y > 0) {
        out.push_back(EditOp::Equal);
        --x, --y;
    }
    std::reverse(out.begin(), out.end());
    // Inside each changed run put deletions before insertions (stable within each kind), which is
    // what the pairing below and a unified listing expect.
    for (size_t i = 0; i < out.size();) {
        if (out[i] == EditOp::Equal) {
            ++i;
            continue;
        }
        size_t j = i;
        while (j < out.size() && out[j] != EditOp::Equal) ++j;
        std::stable_partition(out.begin() + i, out.begin() + j,
                              [](EditOp o) { return o == EditOp::Delete; });
        i = j;
    }
    return out;
}

template <typename Seq>
std::vector<EditOp> diffSeq(const Seq& a, const Seq& b) {
    size_t n = a.size(), m = b.size();
    size_t pre = 0;
    while (pre < n && pre < m && a[pre] == b[pre]) ++pre;
    size_t suf = 0;
    while (suf < n - pre && suf < m - pre && a[n - 1 - suf] == b[m - 1 - suf]) ++suf;
    std::vector<EditOp> out(pre, EditOp::Equal);
    auto mid = myersCore(static_cast<int>(n - pre - suf), static_cast<int>(m - pre - suf),
                         [&](int i, int j) { return a[pre + i] == b[pre + j]; });
    out.insert(out.end(), mid.begin(), mid.end());
    out.insert(out.end(), suf, EditOp::Equal);
    return out;
}

void addByte(std::vector<ByteRange>& r, uint32_t pos) {
    if (!r.empty() && r.back().end == pos)
        r.back().end = pos + 1;
    else
        r.push_back({pos, pos + 1});
}

void mergeSmallGaps(std::vector<ByteRange>& r, uint32_t minGap) {
    std::vector<ByteRange> out;
    for (const ByteRange& x : r) {
        if (!out.empty() && x.begin - out.back().end < minGap)
            out.back().end = x.end;
        else
            out.push_back(x);
    }
    r = std::move(out);
}

}  // namespace

std::vector<EditOp> myersDiff(const std::vector<std::string_view>& a,
                              const std::vector<std::string_view>& b) {
    return diffSeq(a, b);
}

std::vector<EditOp> myersDiff(std::string_view a, std::string_view b) { return diffSeq(a, b); }

std::vector<std::string> splitLines(std::string_view text) {
    std::vector<std::string> lines;
    size_t start = 0;
    while (start < text.size()) {
        size_t nl = text.find('\n', start);
        if (nl == std::string_view::npos) nl = text.size();
        lines.emplace_back(text.substr(start, nl - start));
        start = nl + 1;
    }
    return lines;
}

void intraLineRanges(std::string_view oldLine, std::string_view newLine,
                     std::vector<ByteRange>& oldRanges, std::vector<ByteRange>& newRanges) {
    oldRanges.clear();
    newRanges.clear();
    uint32_t i = 0, j = 0;
    for (EditOp op : myersDiff(oldLine, newLine)) {
        switch (op) {
            case EditOp::Equal:
                ++i, ++j;
                break;
            case EditOp::Delete:
                addByte(oldRanges, i++);
                break;
            case EditOp::Insert:
                addByte(newRanges, j++);
                break;
        }
    }
    mergeSmallGaps(oldRanges, 3);
    mergeSmallGaps(newRanges, 3);
}

TextDiff diffTexts(std::string_view oldText, std::string_view newText, std::size_t maxIntraLine) {
    TextDiff d;
    d.oldLines = splitLines(oldText);
    d.newLines = splitLines(newText);
    std::vector<std::string_view> a(d.oldLines.begin(), d.oldLines.end());
    std::vector<std::string_view> b(d.newLines.begin(), d.newLines.end());
    std::vector<EditOp> ops = myersDiff(a, b);

    int i = 0, j = 0;
    for (size_t p = 0; p < ops.size();) {
        if (ops[p] == EditOp::Equal) {
            d.rows.push_back({RowKind::Equal, i++, j++, {}, {}});
            ++p;
            continue;
        }
        int dels = 0, ins = 0;
        while (p < ops.size() && ops[p] == EditOp::Delete) ++dels, ++p;
        while (p < ops.size() && ops[p] == EditOp::Insert) ++ins, ++p;
        int pairs = std::min(dels, ins);
        for (int q = 0; q < pairs; ++q) {
            DiffRow row{RowKind::Changed, i + q, j + q, {}, {}};
            const std::string& ol = d.oldLines[i + q];
            const std::string& nl = d.newLines[j + q];
            if (ol.size() > maxIntraLine || nl.size() > maxIntraLine) {
                row.oldRanges = {{0, static_cast<uint32_t>(ol.size())}};
                row.newRanges = {{0, static_cast<uint32_t>(nl.size())}};
            } else {
                intraLineRanges(ol, nl, row.oldRanges, row.newRanges);
            }
            d.rows.push_back(std::move(row));
            ++d.changed;
        }
        for (int q = pairs; q < dels; ++q) {
            d.rows.push_back({RowKind::Deleted, i + q, -1, {}, {}});
            ++d.deleted;
        }
        for (int q = pairs; q < ins; ++q) {
            d.rows.push_back({RowKind::Inserted, -1, j + q, {}, {}});
            ++d.inserted;
        }
        i += dels;
        j += ins;
    }
    return d;
}

std::vector<int> TextDiff::hunkStarts() const {
    std::vector<int> starts;
    for (size_t r = 0; r < rows.size(); ++r)
        if (rows[r].kind != RowKind::Equal && (r == 0 || rows[r - 1].kind == RowKind::Equal))
            starts.push_back(static_cast<int>(r));
    return starts;
}

std::vector<UnifiedLine> TextDiff::unified() const {
    std::vector<UnifiedLine> out;
    for (size_t r = 0; r < rows.size();) {
        if (rows[r].kind == RowKind::Equal) {
            out.push_back({EditOp::Equal, rows[r].newLine, {}});
            ++r;
            continue;
        }
        size_t end = r;
        while (end < rows.size() && rows[end].kind != RowKind::Equal) ++end;
        for (size_t q = r; q < end; ++q)
            if (rows[q].oldLine >= 0)
                out.push_back({EditOp::Delete, rows[q].oldLine, rows[q].oldRanges});
        for (size_t q = r; q < end; ++q)
            if (rows[q].newLine >= 0)
                out.push_back({EditOp::Insert, rows[q].newLine, rows[q].newRanges});
        r = end;
    }
    return out;
}

}  // namespace ts::viz
