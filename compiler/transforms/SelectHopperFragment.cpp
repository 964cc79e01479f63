// selectHopperFragmentGemm (Hopper.h): wgmma for a T.gemm that the TMA path (SelectHopper.cpp)
// declines but whose registers already have wgmma's layout -- the FlashAttention shape: the Q tile
// loaded once outside the loop, an accumulator that the online softmax reads and rescales element
// by element, and P fed from registers into the second gemm.
//
// Why the registers need no change (PTX ISA 8.x §9.7.15.5.1.1.1 "Matrix fragments for
// wgmma.mma_async"): with M = 64 rows per warpgroup, the f32 accumulator of wgmma.m64nNk16 gives
// warp w of the warpgroup rows 16w..16w+15 and, inside the warp, element (i, j) to lane
// 4*(i%8) + (j%8)/2, register 4*(j/8) + 2*((i%16)/8) + j%2 -- the mma.sync m16n8k16 C fragment of
// a one-column warp grid (analysis::makeMmaAccumulator(M, N, {M/16, 1}), the FullRow grid), element
// for element. The f16/bf16 A register fragment of k-step kk is that accumulator's registers
// 8kk..8kk+7 (a0..a7), exactly what the mma.sync path's register A operand holds. So the
// reductions, T.Parallel nests and casts of the sm_80 path stay as they are; only the gemm
// instruction changes, and its shared operands take the wgmma_smem layout.
//
// Loads stay on the sm_80 engine (cp.async pipeline or plain copies), written by the generic proxy:
// the lowering (LowerHopper.cpp lowerWgmmaFragment) fences them to the async proxy and waits for
// its wgmma before returning, so everything after it sees a finished gemm.
#include "compiler/ir/PointerTensors.h"
#include "compiler/analysis/GemmPartition.h"
#include "compiler/codegen/VectorAccess.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/transforms/Hopper.h"

#include <set>

namespace ts::xform {
using namespace ts::ir;

namespace {

/// The warp grid a fragment-path gemm of an M x N accumulator takes on `warps` warps: the plain
/// one-column grid of 16 rows per warp, else (warpgroupOrder) the warpgroup-order grid of
/// analysis::partitionWarpgroups; nullopt when neither exists. *plain says which.
std::optional<analysis::WarpPartition> fragmentGrid(int64_t M, int64_t N, int warps, analysis::GemmPolicy policy,
                                                    bool warpgroupOrder, bool* plain = nullptr) {
    auto wp = analysis::partitionWarps(M, N, warps, policy);
    const bool isPlain = warps % 4 == 0 && M == 16 * warps && (warps == 4 || (wp && wp->wm == warps && wp->wn == 1));
    if (plain) *plain = isPlain;
    if (isPlain) return analysis::WarpPartition{warps, 1};
    if (!warpgroupOrder) return std::nullopt;
    return analysis::partitionWarpgroups(M, N, warps, policy);
}

/// The widest swizzle panel (128, 64 or 32 bytes) of shared tile `tile` that every fragment-path
/// gemm reading it can address: a gemm whose warpgroups split the MN extent of an MN-major operand
/// (B stored K x N with warpgroups along N, A stored K x M with warpgroups along M) starts each
/// warpgroup's descriptor at a multiple of its slice, which must be whole panels
/// (ts::wgmma_operand_desc). 0 when no panel fits.
int panelLimit(const PrimFuncNode& f, const BufferNode* tile, int64_t threads, bool warpgroupOrder) {
    int limit = 128;
    const int warps = static_cast<int>(threads / 32);
    walk(f.body, [&](const Stmt& s) {
        auto* g = as<TileOpNode>(s);
        if (!g || g->op != TileOpKind::Gemm || g->args.size() < 3 || !g->isRegion(0) || !g->isRegion(1) || !g->isRegion(2)) return;
        auto cs = constShape(*g->region(2).buffer);
        if (!cs || cs->size() != 2) return;
        auto policy = analysis::parseGemmPolicy(attrStr(g->attrs, "policy", "Square")).value_or(analysis::GemmPolicy::Square);
        auto grid = fragmentGrid((*cs)[0], (*cs)[1], warps, policy, warpgroupOrder);
        if (!grid) return;
        const int e = int(dtypeBytes(tile->dtype));
        for (int i = 0; i < 2; ++i) {
            if (g->region(i).buffer.get() != tile) continue;
            const bool mnMajor = i == 1 ? !attrBool(g->attrs, "transpose_B", false) : attrBool(g->attrs, "transpose_A", false);
            const int split = i == 1 ? grid->wn : grid->wm / 4;
            if (!mnMajor || split <= 1) continue;
            const int64_t sliceBytes = (i == 1 ? (*cs)[1] : (*cs)[0]) / split * e;
            int fit = 0;
            for (int p : {128, 64, 32})
                if (sliceBytes % p == 0) {
                    fit = p;
                    break;
                }
            limit = std::min(limit, fit);
        }
    });
    return limit;
}

/// Everything but the other readers of the shared operands: dtypes, shapes, the one-column warp
/// grid, the wgmma plan, whole tiles without user layouts.
std::optional<analysis::HopperGemmPlan> fragmentGemmPlan(const PrimFuncNode& f, const TileOpNode& gemm, int64_t threads,
                                                         const Target& target, bool warpgroupOrder, std::string* why) {
    auto no = [&](const std::string& s) {
        if (why) *why = s;
        return std::nullopt;
    };
    if (!targetHasWgmma(target)) return no("the target is not sm_90a");
    if (gemm.args.size() < 3 || !gemm.isRegion(0) || !gemm.isRegion(1) || !gemm.isRegion(2)) return no("not a region gemm");
    const Region &A = gemm.region(0), &B = gemm.region(1), &C = gemm.region(2);
    const bool regA = A.buffer->scope == Scope::Fragment;
    if (std::string scopes = wgmmaOperandScopeWhy(gemm, true); !scopes.empty()) return no(scopes);
    if (A.buffer->dtype != B.buffer->dtype) return no("A and B dtypes differ");
    if (C.buffer->dtype != DType::Float32) return no("the accumulator is not float32");
    // Before the warp grid: a float32 (tf32) gemm is off wgmma whatever its accumulator's layout.
    if (A.buffer->dtype != DType::Float16 && A.buffer->dtype != DType::BFloat16)
        return no("wgmma is used for float16/bfloat16 operands with a float32 accumulator");
    // A stack of tiles (a hand-written pipeline's (stages, rows, cols) tile, one stage selected):
    // the trailing two dimensions are the tile, every leading one must select a single index.
    // The wgmma_smem layout then stacks whole tiles (LowerToThreads userOffset: leading dims times
    // the tile's physical size), so the selected stage is a 2-D operand tile of its own.
    for (const Region* r : {&A, &B}) {
        auto sh = constShape(*r->buffer);
        if (r->buffer->scope != Scope::Shared || !sh || sh->size() <= 2) continue;
        for (size_t d = 0; d + 2 < sh->size(); ++d)
            if (constInt(r->ranges[d].extent) != int64_t(1))
                return no("'" + r->buffer->name + "' is read across several indices of its dimension " + std::to_string(d) +
                          " (wgmma reads one 2-D tile of a stack of tiles: its trailing two dimensions)");
    }
    auto trailing2 = [](std::optional<std::vector<int64_t>> v) -> std::optional<std::vector<int64_t>> {
        if (v && v->size() > 2) v->erase(v->begin(), v->end() - 2);
        return v;
    };
    // The operands' own extents (a column slice of a shared tile is read in place, below).
    auto ash = regA ? constShape(*A.buffer) : trailing2(constExtents(A)), bsh = trailing2(constExtents(B)), cs = constShape(*C.buffer);
    if (!ash || !bsh || !cs || ash->size() != 2 || bsh->size() != 2 || cs->size() != 2) return no("tiles are not 2-D constant shapes");
    const bool ta = attrBool(gemm.attrs, "transpose_A", false), tb = attrBool(gemm.attrs, "transpose_B", false);
    if (regA && ta) return no("a transposed register A operand");
    const int64_t M = (*cs)[0], N = (*cs)[1], K = ta ? (*ash)[0] : (*ash)[1];
    const int warps = static_cast<int>(threads / 32);
    if (threads % 128 != 0)
        return no(std::to_string(threads) + " threads are not whole warpgroups (wgmma is issued by 128 threads at a time)");
    // One warpgroup has one wgmma partition whatever the policy says (its 4 warps own 16 rows
    // each: PTX ISA §9.7.15.5.1.1.1); with several, the policy must stack them along M too --
    // the plain mma_c grid of 16 rows per warp, one warp column. Otherwise the mma_c layout in
    // warpgroup order (Layouts.h WarpPartition::byWarpgroup: several m64 tiles per warpgroup,
    // warpgroups along N too), which is wgmma's D fragment, when the caller allows it.
    auto policy = analysis::parseGemmPolicy(attrStr(gemm.attrs, "policy", "Square")).value_or(analysis::GemmPolicy::Square);
    bool plainGrid = false;
    fragmentGrid(M, N, warps, policy, false, &plainGrid);
    analysis::WarpPartition grid{warps, 1};
    if (!plainGrid) {
        auto g = analysis::partitionWarpgroups(M, N, warps, policy);
        if (g && !warpgroupOrder)
            return no("its " + std::to_string(M) + " x " + std::to_string(N) + " accumulator needs wgmma's layout (the mma_c layout in warpgroup order: " +
                      std::to_string(g->wm / 4) + " x " + std::to_string(g->wn) + " warpgroups of m64 tiles), and another op on the same fragment "
                      "needs the mma.sync one (a gemm that stays on mma.sync, a user layout): both keep mma.sync");
        if (!g) {
            if (M != 16 * warps)
                return no("its " + std::to_string(M) + " x " + std::to_string(N) + " accumulator over " + std::to_string(threads / 128) +
                          (threads / 128 == 1 ? " warpgroup" : " warpgroups") + " has no grid of m64 tiles (wgmma gives each warpgroup a multiple of 64 rows and of 8 columns)" +
                          (M >= 64 ? std::string() : ": wgmma needs at least 64 accumulator rows (block_M >= 64)"));
            return no("the policy's warp grid is not one warp column (use FullRow)");
        }
        grid = *g;
    }
    const int gm = grid.wm / 4, gn = grid.wn;
    if (regA && gn != 1)
        return no("a register A operand with the warpgroups split along N (each of the " + std::to_string(gn) +
                  " warpgroup columns would need every column of A's rows): give every warpgroup its own rows (block_M = " +
                  std::to_string(64 * (threads / 128)) + " for threads=" + std::to_string(threads) + ", or fewer threads)");
    std::string w;
    // Every gemm reading a shared tile must address it with one swizzle: the narrowest panel any
    // of them needs (warpgroups side by side on an MN-major operand), 128 bytes by default.
    const int limA = regA ? 128 : panelLimit(f, A.buffer.get(), threads, warpgroupOrder);
    const int limB = panelLimit(f, B.buffer.get(), threads, warpgroupOrder);
    if (!limA || !limB)
        return no("warpgroups side by side read '" + (limA ? B : A).buffer->name +
                  "' (MN-major) from an offset that is not a multiple of 32 bytes, the narrowest swizzle panel");
    // One warpgroup column's instruction, B whole (its MN-major slices at whole panels, which
    // panelLimit narrowed the tile's panels to).
    auto plan = analysis::hopperGemmPlanGrid(M, N, K, gm, gn, A.buffer->dtype, C.buffer->dtype, ta, tb, &w, limA, limB);
    if (!plan) return no(w);
    if (plan->warpgroups != gm) return no("the wgmma plan splits M differently from the warp grid");
    for (const Region* r : {&A, &B}) {
        if (r->buffer->scope != Scope::Shared) continue;
        auto sh = constShape(*r->buffer);
        if (!sh || sh->size() < 2 || r->ranges.size() != sh->size()) return no("'" + r->buffer->name + "' is not a 2-D tile");
        if (f.layouts.count(r->buffer->name)) return no("'" + r->buffer->name + "' has a user layout");
        const size_t lead = sh->size() - 2;  // stacked tiles: the trailing two dims are the tile
        const int e = int(dtypeBytes(r->buffer->dtype));
        if (lead) {
            // Each stacked tile starts where the one before ends: 1024-byte multiples keep every
            // stage on the swizzle pattern's period (the descriptors' base offset stays 0).
            const int64_t bytes = (*sh)[lead] * (*sh)[lead + 1] * e;
            if (bytes % 1024)
                return no("one tile of '" + r->buffer->name + "' is " + std::to_string(bytes) +
                          " bytes, not a multiple of 1024 (every stacked tile must start on the 128-byte swizzle's 1024-byte period)");
        }
        bool whole = true;
        for (size_t d = lead; d < lead + 2; ++d) whole = whole && constInt(r->ranges[d].min) == 0 && constInt(r->ranges[d].extent) == (*sh)[d];
        if (whole) {
            if (lead) (r == &A ? plan->aTile : plan->bTile) = *analysis::wgmmaTileGeometry((*sh)[lead], (*sh)[lead + 1], e, &w, r == &A ? limA : limB);
            continue;
        }
        // A column slice reads the parent's panels in place (the descriptors' start address
        // moves by whole swizzle atoms); anything else stays on mma.sync, which reads any
        // 16-byte-aligned sub-tile in place (GemmSubTile.h).
        const analysis::WgmmaTileGeometry& sub = r == &A ? plan->a : plan->b;
        auto col0 = constInt(r->ranges[lead + 1].min);
        if (constInt(r->ranges[lead].min) != int64_t(0) || constInt(r->ranges[lead].extent) != (*sh)[lead])
            return no("'" + r->buffer->name + "' is a sub-region that wgmma cannot read in place: it does not span every row");
        auto parent = analysis::wgmmaTileGeometry((*sh)[lead], (*sh)[lead + 1], e, &w, r == &A ? limA : limB);
        if (!col0 || !parent || !analysis::wgmmaColumnSlice(*parent, sub, *col0, &w))
            return no("'" + r->buffer->name + "' is a sub-region that wgmma cannot read in place: " +
                      (!col0 ? std::string("its first column is not a compile-time constant") : w));
        (r == &A ? plan->aTile : plan->bTile) = *parent;
    }
    return plan;
}

/// The shared operand tiles of `gemm` (A unless it is a register operand, and B) have no reader
/// but T.copy into them and other T.gemm ops, which are added to *coGemms. False with *why otherwise.
bool sharedOperandsReadOnlyByGemms(const PrimFuncNode& f, const TileOpNode& gemm,
                                   std::vector<const TileOpNode*>* coGemms, std::string* why) {
    const Region &A = gemm.region(0), &B = gemm.region(1);
    auto isOperand = [&](const BufferNode* b) {
        return b == B.buffer.get() || (A.buffer->scope == Scope::Shared && b == A.buffer.get());
    };
    bool alone = true;
    // A hand-written cp.async into the tile (T.ptx_cp_async(T.access_ptr(S[stage, r, c], "w", n))
    // addresses its first element through the layout and copies n elements on from there: under
    // the wgmma_smem swizzle, which permutes whole 16-byte chunks of a row (WgmmaLayouts.h), a copy
    // of 4, 8 or 16 bytes starting at a column that is a multiple of its element count stays
    // one contiguous run. Its destination element is exempt below; any other is a reader.
    std::set<const ExprNode*> chunkCopies;
    std::string misaligned;
    walk(f.body, [&](const Stmt& s) {
        auto* ev = as<EvalNode>(s);
        auto* c = ev ? dynamic_cast<const CallNode*>(ev->call.get()) : nullptr;
        if (!c || c->op != intrin::kCpAsync || c->args.size() < 3) return;
        auto* at = dynamic_cast<const CallNode*>(c->args[0].get());
        auto* dst = at && at->op == intrin::kAddressOf && !at->args.empty() ? as<LoadNode>(at->args[0]) : nullptr;
        if (!dst || !isOperand(dst->buffer.get()) || dst->indices.empty()) return;
        const auto bytes = constInt(c->args[2]);
        const int64_t n = bytes ? *bytes / dtypeBytes(dst->buffer->dtype) : 0;
        const int64_t d = codegen::knownDivisor(dst->indices.back());
        if (n > 0 && bytes && *bytes <= 16 && (d == 0 || d % n == 0))
            chunkCopies.insert(at->args[0].get());
        else if (misaligned.empty())
            misaligned = "a hand-written cp.async into '" + dst->buffer->name + "' at line " + std::to_string(s->span.line) +
                         " does not start on a multiple of its " + std::to_string(n) + " elements (the swizzle moves 16-byte chunks)";
    });
    walk(
        f.body,
        [&](const Stmt& s) {
            auto* t = as<TileOpNode>(s);
            if (!t || t == &gemm) return;
            for (size_t i = 0; i < t->args.size(); ++i) {
                auto* r = std::get_if<Region>(&t->args[i]);
                if (!r || !isOperand(r->buffer.get())) continue;
                // A copy into or out of the tile addresses it through its layout, whichever it is
                // (CopyOp's rules, lowered per element or by TMA where the layout allows).
                if (t->op == TileOpKind::Copy) continue;
                if (t->op == TileOpKind::Gemm && i < 2)
                    coGemms->push_back(t);
                else
                    alone = false;
            }
        },
        [&](const Expr& e) {
            if (auto* l = as<LoadNode>(e))
                if (isOperand(l->buffer.get()) && !chunkCopies.count(e.get())) alone = false;
        });
    if (!alone && why) *why = misaligned.empty() ? "a shared operand tile is read by other statements too" : misaligned;
    return alone;
}

}  // namespace

// The shared operands get the wgmma_smem layout, which is a function of the stored tile alone
// (its shape and dtype: the TMA swizzle of WgmmaLayouts.h), whichever operand role and transpose
// a gemm reads it with. So other T.gemm ops may read the same tile (SwiGLU's X tile feeds the
// gate and the up GEMM; attention backward reads K, Q, dO and dS in two GEMMs each) provided
// every gemm connected to this one through shared operand tiles takes this path too; any other
// reader (a T.Parallel load, a copy out of the tile, an sm_80 gemm) would want another layout.
std::optional<analysis::HopperGemmPlan> selectHopperFragmentGemm(const PrimFuncNode& f, const TileOpNode& gemm,
                                                                 int64_t threads, const Target& target, std::string* why,
                                                                 const std::function<bool(const TileOpNode&)>& warpgroupOrder) {
    // Each gemm's own answer: a co-gemm kept off the warpgroup order cannot take wgmma, and then
    // the tile it shares with this gemm cannot be a wgmma operand tile for this one either.
    auto orderOf = [&](const TileOpNode& g) { return !warpgroupOrder || warpgroupOrder(g); };
    auto plan = fragmentGemmPlan(f, gemm, threads, target, orderOf(gemm), why);
    if (!plan) return std::nullopt;
    std::vector<const TileOpNode*> todo{&gemm};
    std::set<const TileOpNode*> seen{&gemm};
    while (!todo.empty()) {
        const TileOpNode* g = todo.back();
        todo.pop_back();
        std::vector<const TileOpNode*> coGemms;
        std::string w;
        if (!sharedOperandsReadOnlyByGemms(f, *g, &coGemms, &w)) {
            if (why) *why = g == &gemm ? w : "a shared operand tile is shared with the T.gemm at line " + std::to_string(g->span.line) + ", where " + w;
            return std::nullopt;
        }
        for (const TileOpNode* c : coGemms) {
            if (!seen.insert(c).second) continue;
            if (!fragmentGemmPlan(f, *c, threads, target, orderOf(*c), &w)) {
                if (why) *why = "a shared operand tile is also read by the T.gemm at line " + std::to_string(c->span.line) + ", which cannot take wgmma: " + w;
                return std::nullopt;
            }
            todo.push_back(c);
        }
    }
    return plan;
}

}  // namespace ts::xform

// fragmentTmaCopies (Hopper.h): whether a T.Pipelined loop of fragment-path gemms can have its
// operand tiles loaded by TMA (the schedule is InjectPipelineTmaFragment.cpp). Pure: infer-layouts
// asks it for the note it prints, inject-pipeline for the rewrite, and both get the same answer.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include "compiler/ir/Views.h"
#include "compiler/ops/Registry.h"

namespace ts::xform {
using namespace ts::ir;

std::optional<std::vector<FragmentTmaCopy>> fragmentTmaCopies(const PrimFuncNode& f, const ForNode& loop, int64_t threads,
                                                              const Target& target, std::string* why,
                                                              std::set<const BufferNode*>* writtenOperands) {
    const char* ew = std::getenv("TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS");
    const bool written = ew && *ew == '1';
    auto no = [&](const std::string& s) {
        if (why) *why = s;
        return std::nullopt;
    };
    if (const char* e = std::getenv("TILESCOPE_HOPPER_NO_FRAGMENT_TMA"); e && *e == '1')
        return no("TILESCOPE_HOPPER_NO_FRAGMENT_TMA=1");
    if (loop.forKind != ForKind::Pipelined) return no("the loop is not a T.Pipelined loop");
    auto* sq = as<SeqNode>(loop.body);
    const std::vector<Stmt> body = sq ? sq->stmts : std::vector<Stmt>{loop.body};
    // Shared operand tiles of the body's fragment-path gemms.
    std::set<const BufferNode*> operands;
    for (auto& s : body)
        // infer-layouts asks before it annotates (then the gemm's own checks decide); later passes
        // read its record (after infer-layouts every tile has a layout, which those checks refuse).
        if (auto* g = as<TileOpNode>(s); g && g->op == TileOpKind::Gemm &&
                                         (attrBool(g->attrs, "wgmma_fragment", false) || selectHopperFragmentGemm(f, *g, threads, target)))
            for (size_t i = 0; i < 2; ++i)
                if (g->region(i).buffer->scope == Scope::Shared) operands.insert(g->region(i).buffer.get());
    if (operands.empty()) return no("no gemm of the loop body takes wgmma on the fragment layouts");
    // Every global -> shared copy anywhere in the loop must be a top-level TMA copy into an operand.
    std::set<const StmtNode*> top;
    for (auto& s : body) top.insert(s.get());
    std::vector<FragmentTmaCopy> out;
    std::set<const BufferNode*> loaded, sources, rows;
    std::string w;
    bool ok = true;
    walk(loop.body, [&](const Stmt& s) {
        auto* t = as<TileOpNode>(s);
        if (!ok || !t || t->op != TileOpKind::Copy || !t->isRegion(0) || !t->isRegion(1)) return;
        const Region &src = t->region(0), &dst = t->region(1);
        if (src.buffer->scope != Scope::Global || dst.buffer->scope != Scope::Shared) return;
        if (std::string off = tmaDisabledWhy(f, *t); !off.empty())
            return ok = false, void(w = "the copy into '" + dst.buffer->name + "' takes no TMA: " + off);
        if (written && top.count(t) && !operands.count(dst.buffer.get()) && dst.buffer->shape.size() == 1) {
            TmaLoadPlan plan;  // a row tile (FragmentTmaCopy::row)
            if (std::string no = pipelinedTmaWhyNot(f, *t, target, &plan); !no.empty())
                return ok = false, void(w = "the copy into '" + dst.buffer->name + "' takes no TMA: " + no);
            if (!loaded.insert(dst.buffer.get()).second) return ok = false, void(w = "'" + dst.buffer->name + "' is loaded twice in the loop");
            sources.insert(src.buffer.get());
            rows.insert(dst.buffer.get());
            out.push_back({t, plan.param, plan.rowDim, true});
            return;
        }
        if (!top.count(t) || !operands.count(dst.buffer.get()))
            return ok = false, void(w = "the copy into '" + dst.buffer->name + "' does not fill a wgmma operand tile at the loop's top level");
        if (!loaded.insert(dst.buffer.get()).second) return ok = false, void(w = "'" + dst.buffer->name + "' is loaded twice in the loop");
        auto sh = constShape(*dst.buffer);
        auto geo = sh && sh->size() == 2 ? analysis::wgmmaTileGeometry((*sh)[0], (*sh)[1], dtypeBytes(dst.buffer->dtype), &w) : std::nullopt;
        if (!geo) return ok = false, void(w = "'" + dst.buffer->name + "' is not a TMA tile" + (w.empty() ? "" : ": " + w));
        auto rowDim = tmaCopyRowDim(*t, *geo, w);
        if (!rowDim) return ok = false, void();
        int64_t param = -1;
        for (size_t i = 0; i < f.params.size(); ++i)
            if (f.params[i] == src.buffer) param = int64_t(i);
        if (param < 0 && isPointerTensor(f, *src.buffer))  // ir/PointerTensors.h: no host tensor map
            return ok = false, void(w = "'" + src.buffer->name + "' is made by T.make_tensor from a pointer known only inside the kernel (TMA tensor maps are built on the host)");
        if (param < 0) return ok = false, void(w = "'" + src.buffer->name + "' is not a kernel tensor");
        sources.insert(src.buffer.get());
        out.push_back({t, param, *rowDim});
    });
    if (!ok) return no(w);
    if (out.empty()) return no("no operand tile is loaded in the loop");
    // Writes are found by the storage they land on (ir/Views.h storageName): a store through a
    // view of a source tensor writes the tensor, one through a shared view of an operand tile
    // writes the tile's bytes -- its first stage once the schedule multi-buffers it, which a TMA
    // load may be filling. (Compared by buffer, float32 scratch written through
    // T.view(K_shared, ...) after the gemm kept this schedule, with no fence and no barrier.)
    auto storage = [&](const BufferNode& b) { return storageName(f, b); };
    auto named = [&](const BufferNode& b) {
        const std::string k = storage(b);
        return k == b.name ? "'" + b.name + "'" : "'" + k + "' (through its view '" + b.name + "')";
    };
    std::set<std::string> sourceKeys, operandKeys;
    for (auto* b : sources) sourceKeys.insert(storage(*b));
    for (auto* b : operands) operandKeys.insert(storage(*b));
    // TMA reads global memory through the async proxy: the kernel must not write the sources.
    // Operand tiles not loaded here must not be written in the loop (fenced once before it).
    walk(
        f.body,
        [&](const Stmt& s) {
            if (auto* st = as<StoreNode>(s); st && sourceKeys.count(storage(*st->buffer))) ok = false, w = "the kernel writes " + named(*st->buffer);
            auto* t = as<TileOpNode>(s);
            if (!t) return;
            for (size_t i = 0; i < t->args.size(); ++i)
                if (auto* r = std::get_if<Region>(&t->args[i]); r && sourceKeys.count(storage(*r->buffer)) &&
                    ops::find(t->op) && (ops::find(t->op)->access(*t, i) & ops::kWrite))
                    ok = false, w = "the kernel writes " + named(*r->buffer);
        },
        nullptr);
    std::set<const StmtNode*> tmaCopies;
    for (auto& c : out) tmaCopies.insert(c.copy);
    // Written operands (header, TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS=1): operand tiles written
    // by a statement other than a TMA copy, checked here and then left out of the rule below.
    if (written && ok) {
        std::map<std::string, const BufferNode*> byKey;
        for (auto* b : operands) byKey[storage(*b)] = b;
        for (auto* b : rows) byKey[storage(*b)] = b;
        std::vector<BufferTouch> touch;
        for (auto& s : body) touch.push_back(tmaCopies.count(s.get()) ? BufferTouch{} : touchOf(f, s));
        std::set<std::string> outsideKeys;  // storage touched outside the loop
        {
            std::set<const StmtNode*> inLoop;
            walk(loop.body, [&](const Stmt& x) { inLoop.insert(x.get()); });
            walk(f.body, [&](const Stmt& x) {
                if (inLoop.count(x.get()) || !(as<TileOpNode>(x) || as<StoreNode>(x) || as<EvalNode>(x))) return;
                for (auto& k : touchOf(f, x).reads) outsideKeys.insert(k);
                for (auto& k : touchOf(f, x).writes) outsideKeys.insert(k);
            });
        }
        std::set<const BufferNode*> twoCopies;
        for (auto& [key, b] : byKey) {
            if (!ok) break;
            size_t lastWrite = 0, firstRead = body.size();
            bool any = false, viewed = false;
            for (size_t i = 0; i < body.size(); ++i) {
                if (touch[i].writes.count(key)) any = true, lastWrite = i;
                if (touch[i].reads.count(key) && firstRead == body.size()) firstRead = i;
                viewed = viewed || touch[i].viewed.count(key);
            }
            if (rows.count(b)) {  // a TMA-loaded row tile: only its copy writes it
                if (any) ok = false, w = "'" + b->name + "' is written in the loop";
                else if (outsideKeys.count(key)) ok = false, w = "'" + b->name + "' is used outside the loop";
                continue;
            }
            if (!any) continue;
            if (loaded.count(b)) ok = false, w = "'" + b->name + "' is loaded by TMA and also written in the loop";
            else if (viewed) ok = false, w = "'" + b->name + "' is written or read through a view in the loop";
            else if (outsideKeys.count(key)) ok = false, w = "'" + b->name + "' is written in the loop and used outside it";
            else if (firstRead <= lastWrite) ok = false, w = "'" + b->name + "' is read before its last write in the loop body";
            else if (std::none_of(body.begin(), body.begin() + std::ptrdiff_t(firstRead), [tile = b](const Stmt& s) { return writesWholeTile(s, *tile); }))
                ok = false, w = "'" + b->name + "' is not written whole before it is read in the loop body (a write of part of the tile or under a "
                                "condition leaves elements of two iterations back in its second copy)";
            else if (!as<TileOpNode>(body[firstRead]) || as<TileOpNode>(body[firstRead])->op != TileOpKind::Gemm)
                ok = false, w = "'" + b->name + "' is first read by a statement that is not a gemm (no barrier orders its writes)";
            else
                twoCopies.insert(b);
            if (ok) operandKeys.erase(key);
        }
        if (!ok) return no(w);
        // The second copies must fit: every shared tile of the kernel counted once (views lie on
        // their tile), the loaded ones once per stage, the written ones twice. plan-smem may reuse
        // bytes between tiles whose lives do not overlap, so this can decline a kernel that would
        // fit, never take one that cannot (DeepSeek MLA decode's S tile went 8 KiB over the limit).
        if (!twoCopies.empty()) {
            const int64_t S = std::max<int64_t>(1, attrInt(loop.attrs, "num_stages", 1));
            int64_t bytes = 1024;  // the stage mbarriers and alignment
            walk(f.body, [&](const Stmt& x) {
                auto* a = as<AllocNode>(x);
                if (!a || a->buffer->scope != Scope::Shared || !sharedViewBase(f.attrs, a->buffer->name).empty()) return;
                int64_t n = dtypeBytes(a->buffer->dtype);
                for (auto& e : a->buffer->shape) n *= constInt(e).value_or(0);
                bytes += n * (twoCopies.count(a->buffer.get()) ? 2 : loaded.count(a->buffer.get()) ? S : 1);
            });
            if (bytes > target.maxSharedBytesPerBlock())
                return no("two copies of the written operand tile" + std::string(twoCopies.size() > 1 ? "s" : "") + " would need about " +
                          std::to_string(bytes) + " bytes of shared memory, more than the " + std::to_string(target.maxSharedBytesPerBlock()) +
                          "-byte limit of " + target.arch());
        }
        if (writtenOperands) writtenOperands->insert(twoCopies.begin(), twoCopies.end());
    }
    // Nothing else writes an operand tile in the loop: the gemms skip their proxy fence and
    // block barrier (the TMA copies themselves are the only writers the schedule orders).
    // Nor is one read through a view in the loop: the schedule multi-buffers the tile, and the
    // view stays on its first stage (plan-pipelines keeps such a tile's copy synchronous).
    auto viewOfOperand = [&](const BufferNode& b) { return storage(b) != b.name && operandKeys.count(storage(b)); };
    auto reject = [&](const std::string& why) {  // the first reason in program order
        if (ok) ok = false, w = why;
    };
    walk(
        loop.body,
        [&](const Stmt& s) {
            if (auto* st = as<StoreNode>(s); st && operandKeys.count(storage(*st->buffer))) reject(named(*st->buffer) + " is written in the loop");
            auto* t = as<TileOpNode>(s);
            if (!t || tmaCopies.count(t)) return;
            const ops::TileOp* op = ops::find(t->op);
            for (size_t i = 0; i < t->args.size(); ++i)
                if (auto* r = std::get_if<Region>(&t->args[i]); r && operandKeys.count(storage(*r->buffer))) {
                    if (op && (op->access(*t, i) & ops::kWrite)) reject(named(*r->buffer) + " is written in the loop");
                    else if (viewOfOperand(*r->buffer)) reject(named(*r->buffer) + " is read in the loop");
                }
        },
        [&](const Expr& e) {
            if (auto* l = as<LoadNode>(e); l && viewOfOperand(*l->buffer)) reject(named(*l->buffer) + " is read in the loop");
        });
    if (!ok) return no(w);
    return out;
}

}  // namespace ts::xform
