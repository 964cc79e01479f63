#include "compiler/analysis/Ldmatrix.h"

#include <sstream>

#include "compiler/analysis/Swizzle.h"
#include "compiler/ir/Builder.h"

namespace ts::analysis {
using namespace ts::ir;

LdmatrixRow ldmatrixSourceRow(int lane, int matrices) {
    if (lane < 0 || lane >= 8 * matrices || lane >= 32) return {};
    return {lane / 8, lane % 8};
}

namespace {
Expr c(int64_t v) { return intImm(v); }
Expr div(Expr a, int64_t b) { return floordiv(std::move(a), c(b)); }
Expr mod(Expr a, int64_t b) { return floormod(std::move(a), c(b)); }
Expr mulc(Expr a, int64_t b) { return mul(std::move(a), c(b)); }

std::shared_ptr<LayoutNode> newFragment(std::vector<int64_t> shape) {
    auto l = std::make_shared<LayoutNode>();
    l->kind = LayoutKind::Fragment;
    l->shape = std::move(shape);
    const char* names[] = {"i", "j"};
    for (size_t d = 0; d < l->shape.size(); ++d) l->inputs.push_back(makeVar(names[d % 2]));
    l->invThread = makeVar("t");
    l->invLocal = makeVar("r");
    return l;
}
}  // namespace

Layout makeLdmatrixFragment(int matrices, bool trans) {
    auto l = newFragment({8LL * matrices, 8});
    Expr i = l->inputs[0], j = l->inputs[1];
    Expr t = l->invThread, r = l->invLocal;
    if (!trans) {
        l->thread = add(mulc(mod(i, 8), 4), div(j, 2));
        l->local = add(mulc(div(i, 8), 2), mod(j, 2));
        l->inverse = {add(mulc(div(r, 2), 8), div(t, 4)), add(mulc(mod(t, 4), 2), mod(r, 2))};
    } else {
        l->thread = add(mulc(j, 4), div(mod(i, 8), 2));
        l->local = add(mulc(div(i, 8), 2), mod(mod(i, 8), 2));
        l->inverse = {add(add(mulc(div(r, 2), 8), mulc(mod(t, 4), 2)), mod(r, 2)), div(t, 4)};
    }
    l->threads = 32;
    l->localSize = 2LL * matrices;
    std::ostringstream os;
    os << "ldmatrix.m8n8.x" << matrices << (trans ? ".trans" : "") << " destination (PTX ISA 9.7.14.5.15)";
    l->description = os.str();
    l->family = "ldmatrix";
    l->familyParams = {matrices, trans ? 1 : 0};
    return l;
}

Layout makeLdmatrixSource(int matrices) {
    auto l = newFragment({8LL * matrices});
    l->thread = l->inputs[0];
    l->local = c(0);
    l->inverse = {l->invThread};
    l->threads = 32;
    l->localSize = 1;
    std::ostringstream os;
    os << "ldmatrix.x" << matrices << " row addresses: lane t -> row t%8 of matrix t/8";
    l->description = os.str();
    l->family = "ldmatrix_src";
    l->familyParams = {matrices};
    return l;
}

// A line-by-line port of GemmSS::load (resources/ts_device.cuh). Both the "step" forms (address
// of the first row block plus an immediate) and the general form are reproduced as written, so
// a divergence between them would show up as a different bank picture, not be hidden.
std::vector<LdmatrixIssue> gemmOperandLoads(const GemmSSShape& g, int warp) {
    std::vector<LdmatrixIssue> out;
    const int64_t kE = g.eltBytes;
    // Stored row bytes of the (parent) tiles and the origins' byte offsets, as GemmTiling's kPA/kOA.
    const int64_t kRA = (g.ldA ? g.ldA : g.transA ? g.M : g.K) * kE, kRB = (g.ldB ? g.ldB : g.transB ? g.K : g.N) * kE;
    const int64_t kOA = g.offA * kE, kOB = g.offB * kE;
    const int64_t kWTM = g.M / g.wm, kWTN = g.N / g.wn;
    const int64_t kMI = kWTM / 16, kNI = kWTN / 8, kKI = g.K / 16;
    const bool kAStep = g.swizzleA == 0 || kRA >= 64, kBStep = g.swizzleB == 0 || kRB >= 64;
    const int64_t m0 = (warp / g.wn) * kWTM, n0 = (warp % g.wn) * kWTN;
    auto swzA = [&](int64_t o) { return swizzleBytes(kOA + o, kRA, g.swizzleA); };
    auto swzB = [&](int64_t o) { return swizzleBytes(kOB + o, kRB, g.swizzleB); };
    for (int kk = 0; kk < kKI; ++kk) {
        const int64_t k = kk * 16;
        for (int64_t mi = 0; mi < kMI; ++mi) {
            LdmatrixIssue is{'A', 4, g.transA, kk, int(mi), {}};
            const int64_t m = m0 + mi * 16;
            for (int lane = 0; lane < 32; ++lane) {
                const int64_t l7 = lane & 7, q0 = (lane >> 3) & 1, q1 = lane >> 4;
                int64_t a;
                if (!g.transA && kAStep) a = swzA((m0 + (lane & 15)) * kRA + (k + 8 * q1) * kE) + mi * 16 * kRA;
                else if (g.transA && kAStep) a = swzA((l7 + 8 * q1) * kRA + (m + 8 * q0) * kE) + k * kRA;
                else {
                    const int64_t r = g.transA ? (k + l7 + 8 * q1) : (m + (lane & 15));
                    const int64_t cc = g.transA ? (m + 8 * q0) : (k + 8 * q1);
                    a = swzA(r * kRA + cc * kE);
                }
                is.laneOffset[lane] = a;
            }
            out.push_back(is);
        }
        for (int64_t ni = 0; ni + 1 < kNI; ni += 2) {
            LdmatrixIssue is{'B', 4, !g.transB, kk, int(ni), {}};
            const int64_t n = n0 + ni * 8;
            for (int lane = 0; lane < 32; ++lane) {
                const int64_t l7 = lane & 7, q0 = (lane >> 3) & 1, q1 = lane >> 4;
                int64_t a;
                if (!g.transB && kBStep) a = swzB((l7 + 8 * q0) * kRB + (n + 8 * q1) * kE) + k * kRB;
                else if (g.transB && kBStep) a = swzB((n0 + l7 + 8 * q1) * kRB + (k + 8 * q0) * kE) + ni * 8 * kRB;
                else {
                    const int64_t r = g.transB ? (n + l7 + 8 * q1) : (k + l7 + 8 * q0);
                    const int64_t cc = g.transB ? (k + 8 * q0) : (n + 8 * q1);
                    a = swzB(r * kRB + cc * kE);
                }
                is.laneOffset[lane] = a;
            }
            out.push_back(is);
        }
        if (kNI % 2 == 1) {
            LdmatrixIssue is{'B', 2, !g.transB, kk, int(kNI - 1), {}};
            const int64_t n = n0 + (kNI - 1) * 8;
            for (int lane = 0; lane < 32; ++lane) {
                const int64_t q0 = (lane >> 3) & 1, l7 = lane & 7;
                const int64_t r = g.transB ? (n + l7) : (k + (lane & 15));
                const int64_t cc = g.transB ? (k + 8 * q0) : n;
                // Lanes 16-31 compute a (valid) address that ldmatrix.x2 ignores.
                is.laneOffset[lane] = lane < 16 ? swzB(r * kRB + cc * kE) : -1;
            }
            out.push_back(is);
        }
    }
    return out;
}

}  // namespace ts::analysis
