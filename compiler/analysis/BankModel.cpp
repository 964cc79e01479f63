// The per-request part of the bank model (analysis/Banks.h): phases, wavefronts, slots, and the
// physical offsets of shared tiles. The IR walk that produces requests is in Banks.cpp.
#include <algorithm>
#include <map>

#include "compiler/analysis/Banks.h"
#include "compiler/analysis/Layouts.h"
#include "compiler/analysis/Swizzle.h"

namespace ts::analysis {

int64_t sharedElementOffset(const ir::LayoutNode& l, const std::vector<int64_t>& idx,
                            int eltBytes) {
    const auto& s = l.shape;
    size_t r = idx.size();
    if (r == 0) return 0;
    if (l.offset && idx.size() >= l.inputs.size()) {
        // A T.Layout index map: the map on the trailing dims; leading dims (pipeline stages)
        // stack tiles of physicalElems elements, as lower-to-threads addresses them.
        const size_t lead = r - l.inputs.size();
        std::vector<std::pair<const ir::VarNode*, int64_t>> env;
        for (size_t d = 0; d < l.inputs.size(); ++d)
            env.push_back({l.inputs[d].get(), idx[lead + d]});
        // Leading dims are the pipeline stage (one dim: inject-pipeline adds exactly one).
        const int64_t stage = lead ? idx[lead - 1] : 0;
        return stage * l.physicalElems + evalInt(l.offset, env).value_or(0);
    }
    if (r == 1 || s.size() != r) return idx.back();
    const int64_t rowElems = s[r - 1] + l.padElems;
    int64_t tile = 0;
    for (size_t d = 0; d + 2 < r; ++d) tile = tile * s[d] + idx[d];
    int64_t inTile = idx[r - 2] * rowElems + idx[r - 1];
    if (l.swizzleBytes && !l.padElems && eltBytes > 0)
        inTile = swizzleBytes(inTile * eltBytes, l.rowBytes, l.swizzleBytes) / eltBytes;
    return tile * s[r - 2] * rowElems + inTile;
}

bool packedLoad(const WarpRequest& r) {
    // Register packing is an NVIDIA return-path rule; the AMD LDS phases have no such case.
    if (r.rules != BankRules::Nvidia || !r.load || r.ldmatrix || r.bytes <= 4) return false;
    for (int partner : {1, 2}) {
        bool ok = true, any = false;
        for (int l = 0; l < kWarpSize && ok; ++l) {
            const int64_t a = r.addr[l], b = r.addr[l ^ partner];
            if (a < 0) continue;
            any = true;
            ok = b < 0 || a == b;
        }
        if (ok && any) return true;
    }
    return false;
}

int phaseCount(const WarpRequest& r) {
    if (r.rules == BankRules::AmdLds) return int(ldsLaneGroups(r.bytes, r.load).size());
    if (r.ldmatrix) return r.ldmatrix;
    if (r.bytes <= 4) return 1;
    const int n = r.bytes == 8 ? 2 : 4;
    return packedLoad(r) ? n / 2 : n;
}

std::vector<int> phaseLaneList(const WarpRequest& r, int p) {
    if (r.rules == BankRules::AmdLds) return ldsLaneGroups(r.bytes, r.load).at(size_t(p));
    const int len = r.ldmatrix ? 8 : kWarpSize / phaseCount(r);
    std::vector<int> lanes;
    for (int lane = p * len; lane < (p + 1) * len && lane < kWarpSize; ++lane) lanes.push_back(lane);
    return lanes;
}

namespace {
int64_t floorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
}  // namespace

WarpCost bankCost(const WarpRequest& r, bool withSlots) {
    WarpCost c;
    const int phases = phaseCount(r);
    const int bytes = r.ldmatrix ? 16 : r.bytes;
    const int words = std::max(1, bytes / kBankBytes);
    for (int p = 0; p < phases; ++p) {
        // bank -> distinct words in arrival order; a word's position is its wavefront.
        std::vector<int64_t> perBank[kBanks];
        bool active = false;
        for (int lane : phaseLaneList(r, p)) {
            if (r.addr[lane] < 0) continue;
            active = true;
            const int64_t w0 = floorDiv(r.addr[lane], kBankBytes);
            for (int k = 0; k < words; ++k) {
                const int64_t w = w0 + k;
                const int bank = static_cast<int>(((w % kBanks) + kBanks) % kBanks);
                auto& v = perBank[bank];
                auto it = std::find(v.begin(), v.end(), w);
                int wf = static_cast<int>(it - v.begin());
                if (it == v.end()) v.push_back(w);
                if (withSlots) c.bankSlots.push_back({lane, p, bank, wf, w});
            }
        }
        if (!active) continue;
        int worst = 0;
        for (auto& v : perBank) worst = std::max(worst, static_cast<int>(v.size()));
        c.phases += 1;
        c.ideal += 1;
        c.wavefronts += worst;
        c.ways = std::max(c.ways, worst);
    }
    return c;
}

const char* accessKindName(AccessKind k) {
    switch (k) {
        case AccessKind::Load:
            return "ld";
        case AccessKind::Store:
            return "st";
        case AccessKind::CpAsync:
            return "cp.async";
        case AccessKind::Ldmatrix:
            return "ldmatrix";
        case AccessKind::Atomic:
            return "atom";
    }
    return "?";
}

}  // namespace ts::analysis
