// gemmSubTile (GemmSubTile.h): may a T.gemm operand that is a sub-region of a shared tile be
// read in place, and at which base, row length and offset.
#include "compiler/ops/GemmSubTile.h"

#include <algorithm>

#include "compiler/transforms/LowerCommon.h"

namespace ts::ops {
using namespace ts::ir;
using xform::lower::divisibleBy;

std::optional<GemmSubTile> gemmSubTile(const Region& r, int swz, const Target& target, std::string* why) {
    auto fail = [&](std::string w) -> std::optional<GemmSubTile> {
        if (why) *why = std::move(w);
        return std::nullopt;
    };
    if (target.isHip()) return fail("the HIP MFMA gemm reads whole tiles only");
    auto shape = constShape(*r.buffer);
    const size_t n = r.ranges.size();
    if (!shape || n < 2 || shape->size() != n) return fail("the tile has no constant 2-D shape");
    for (size_t d = 0; d + 2 < n; ++d)
        if (constInt(r.ranges[d].extent) != 1) return fail("a leading dimension is sliced, not indexed");
    const int64_t e = dtypeBytes(r.buffer->dtype), ld = (*shape)[n - 1], rowBytes = ld * e;
    if (rowBytes % 16 != 0) return fail("its rows of " + std::to_string(rowBytes) + " bytes are not 16-byte multiples (ldmatrix rows)");
    if (swz && rowBytes % 128 != 0 && 128 % rowBytes != 0)
        return fail("swizzled rows of " + std::to_string(rowBytes) + " bytes are neither a multiple nor a divisor of 128");
    const Expr &rowMin = r.ranges[n - 2].min, &colMin = r.ranges[n - 1].min;
    auto row0 = constInt(rowMin), col0 = constInt(colMin);
    int64_t offset = 0;
    // Elements a moved base must be a multiple of to keep ts::swizzle's XOR pattern.
    const int64_t rowStep = swz == 0 ? 1 : rowBytes >= 128 ? 8 : 1024 / rowBytes;
    const int64_t colStep = swz == 0 ? std::max<int64_t>(1, 16 / e) : std::max<int64_t>(1, 128 / e);
    if (row0) offset += *row0 * ld;
    else if (!divisibleBy(rowMin, rowStep))
        return fail("its first row is neither a compile-time constant nor a multiple of the swizzle's " +
                    std::to_string(rowStep) + "-row period");
    if (col0) offset += *col0;
    else if ((swz != 0 && rowBytes < 128) || !divisibleBy(colMin, colStep))
        return fail("its first column is neither a compile-time constant nor a multiple of " + std::to_string(colStep) +
                    " elements (" + (swz ? "the swizzle's 128-byte line" : "16 bytes") + ")");
    if ((offset * e) % 16 != 0)
        return fail("its origin is " + std::to_string((offset * e) % 16) + " bytes off a 16-byte boundary (ldmatrix rows)");
    std::vector<Expr> idx;
    for (size_t d = 0; d + 2 < n; ++d) idx.push_back(r.ranges[d].min);
    idx.push_back(row0 ? intImm(0) : rowMin);
    idx.push_back(col0 ? intImm(0) : colMin);
    return GemmSubTile{xform::lower::addressOf(r.buffer, idx), ld, offset};
}

}  // namespace ts::ops
