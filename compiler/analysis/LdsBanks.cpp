// The AMD LDS half of the bank model (analysis/Banks.h, BankRules::AmdLds): which lanes of a
// 64-lane wavefront the LDS checks against each other for one ds_read/ds_write. The per-phase
// cost (distinct 4-byte words per bank, 32 banks) is the shared bankCost of BankModel.cpp. Also
// the LDS reads of the HIP gemm's MFMA operands (LdsBanks.h).
// Sources are cited in Banks.h; none of this is measured (no AMD GPU here).
#include "compiler/analysis/LdsBanks.h"

#include "compiler/analysis/Banks.h"
#include "compiler/analysis/Swizzle.h"

namespace ts::analysis {

namespace {
std::vector<std::vector<int>> consecutiveGroups(int len) {
    std::vector<std::vector<int>> groups;
    for (int g = 0; g < kWaveSize / len; ++g) {
        std::vector<int> lanes;
        for (int l = g * len; l < (g + 1) * len; ++l) lanes.push_back(l);
        groups.push_back(lanes);
    }
    return groups;
}

/// ds_read_b128 (CK docs): four lanes from the first and four from the second quarter of each
/// half-wave: 0-3+20-23, 4-7+16-19, 8-11+28-31, 12-15+24-27, then the same + 32.
std::vector<std::vector<int>> readB128Groups() {
    static const int kFirst[4] = {0, 4, 8, 12}, kSecond[4] = {20, 16, 28, 24};
    std::vector<std::vector<int>> groups;
    for (int half = 0; half < 2; ++half)
        for (int g = 0; g < 4; ++g) {
            std::vector<int> lanes;
            for (int i = 0; i < 4; ++i) lanes.push_back(32 * half + kFirst[g] + i);
            for (int i = 0; i < 4; ++i) lanes.push_back(32 * half + kSecond[g] + i);
            groups.push_back(lanes);
        }
    return groups;
}
}  // namespace

std::vector<std::vector<int>> ldsLaneGroups(int bytes, bool load) {
    if (bytes <= 4) return consecutiveGroups(32);  // half-waves
    if (bytes <= 8) return consecutiveGroups(16);  // quarter-waves (ds_*_b64)
    return load ? readB128Groups() : consecutiveGroups(8);
}

}  // namespace ts::analysis

namespace ts::analysis {

std::vector<MfmaOperandRead> mfmaOperandReads(const GemmSSShape& g, int wave) {
    std::vector<MfmaOperandRead> out;
    const int64_t e = g.eltBytes, wtm = g.M / g.wm, wtn = g.N / g.wn;
    const int64_t m0 = (wave / g.wn) * wtm, n0 = (wave % g.wn) * wtn;
    // Stored offset of logical (row, col) of an operand kept [rows][cols], or transposed.
    auto offset = [&](bool trans, int64_t rows, int64_t cols, int swz, int64_t r, int64_t c) {
        const int64_t rowElems = trans ? rows : cols;
        const int64_t sr = trans ? c : r, sc = trans ? r : c;
        return swizzleBytes((sr * rowElems + sc) * e, rowElems * e, swz);
    };
    auto emit = [&](char op, int64_t kk, int64_t index, auto coord) {
        // coord(lane, item) -> byte offset. Merge the four items when every lane's are
        // contiguous and the first is 8-byte aligned (one ds_read_b64).
        bool merged = true;
        for (int l = 0; l < 64 && merged; ++l) {
            const int64_t o0 = coord(l, 0);
            merged = o0 % 8 == 0;
            for (int i = 1; i < 4 && merged; ++i) merged = coord(l, i) == o0 + i * e;
        }
        for (int i = 0; i < (merged ? 1 : 4); ++i) {
            MfmaOperandRead r;
            r.operand = op, r.kk = int(kk), r.index = int(index), r.item = i;
            r.bytes = merged ? int(4 * e) : int(e);
            for (int l = 0; l < 64; ++l) r.laneOffset[size_t(l)] = coord(l, i);
            out.push_back(r);
        }
    };
    // The in-atom maps of ts::mfma16 (HwLayouts.h makeMfma16Layout): A (i, k) = (l%16,
    // 4*(l/16)+item); B (k, j) = (4*(l/16)+item, l%16).
    for (int64_t kk = 0; kk < g.K / 16; ++kk) {
        for (int64_t mi = 0; mi < wtm / 16; ++mi)
            emit('A', kk, mi, [&](int l, int i) {
                return offset(g.transA, g.M, g.K, g.swizzleA, m0 + mi * 16 + l % 16,
                              kk * 16 + 4 * (l / 16) + i);
            });
        for (int64_t ni = 0; ni < wtn / 16; ++ni)
            emit('B', kk, ni, [&](int l, int i) {
                return offset(g.transB, g.K, g.N, g.swizzleB, kk * 16 + 4 * (l / 16) + i,
                              n0 + ni * 16 + l % 16);
            });
    }
    return out;
}

}  // namespace ts::analysis
