#include "compiler/interp/SharedViews.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "compiler/ir/Views.h"
#include "compiler/support/HostTensor.h"

namespace ts::interp::detail {
using ir::DType;

namespace {
uint64_t lowMask(int bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }
}  // namespace

std::pair<int64_t, int64_t> copyViewBits(const BufferState& src, int64_t srcBit0, int64_t first, int64_t last,
                                         BufferState& dst, int64_t dstBit0) {
    const int64_t sb = ir::dtypeBits(src.dtype), db = ir::dtypeBits(dst.dtype);
    first = std::max<int64_t>(first, 0);
    last = std::min<int64_t>(last, src.size - 1);
    if (first > last || sb <= 0 || db <= 0 || db > 64 || sb > 64 || dst.size <= 0) return {1, 0};
    const int64_t lo = srcBit0 + first * sb, hi = srcBit0 + (last + 1) * sb;
    if (hi <= dstBit0 || lo >= dstBit0 + dst.size * db) return {1, 0};
    const int64_t e0 = std::max<int64_t>(0, (lo - dstBit0) / db);
    const int64_t e1 = std::min<int64_t>(dst.size - 1, (hi - 1 - dstBit0) / db);
    const bool sameType = src.dtype == dst.dtype && (dstBit0 - srcBit0) % sb == 0;
    for (int64_t e = e0; e <= e1; ++e) {
        const int64_t E0 = dstBit0 + e * db, E1 = E0 + db;
        double v;
        bool written = true;  // every source element under it was written (when src tracks that)
        auto srcWritten = [&](int64_t k) {
            return src.written.empty() || k >= static_cast<int64_t>(src.written.size()) || src.written[static_cast<size_t>(k)];
        };
        if (sameType && E0 >= srcBit0 && (E0 - srcBit0) / sb < src.size) {
            const int64_t k = (E0 - srcBit0) / sb;
            v = src.data[k];  // the same element: its value, NaN payloads and all
            written = srcWritten(k);
        } else {
            uint64_t u = elementBits(dst.dtype, dst.data[e]);
            const int64_t k0 = std::max<int64_t>(0, (E0 - srcBit0) / sb);
            const int64_t k1 = std::min<int64_t>(src.size - 1, (E1 - 1 - srcBit0) / sb);
            for (int64_t k = k0; k <= k1; ++k) {
                const int64_t K0 = srcBit0 + k * sb;
                const int64_t olo = std::max(E0, K0), ohi = std::min(E1, K0 + sb);
                if (olo >= ohi) continue;
                const int n = static_cast<int>(ohi - olo);
                written = written && srcWritten(k);
                const uint64_t piece = (elementBits(src.dtype, src.data[k]) >> (olo - K0)) & lowMask(n);
                const int at = static_cast<int>(olo - E0);
                u = (u & ~(lowMask(n) << at)) | (piece << at);
            }
            v = elementValue(dst.dtype, u);
        }
        dst.data[e] = v;
        if (written && !dst.written.empty() && e < static_cast<int64_t>(dst.written.size())) dst.written[static_cast<size_t>(e)] = 1;
    }
    return {e0, e1};
}

std::string sharedStorageRoot(const ir::Attrs& attrs, const std::string& name) {
    std::string base = ir::sharedViewBase(attrs, name);
    return base.empty() ? name : base;
}

}  // namespace ts::interp::detail
