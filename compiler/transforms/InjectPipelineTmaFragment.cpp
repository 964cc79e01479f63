// injectTmaFragmentPipeline (Hopper.h): the sm_90a schedule of a T.Pipelined loop whose gemms run
// wgmma on the mma.sync fragment layouts (FlashAttention: S = Q K^T, then the online softmax in
// registers, then O += P V with P from registers), with the K/V tiles loaded by TMA
// (fragmentTmaCopies chose the copies). S = max(1, num_stages) stages, n iterations, T threads:
//
//   full = alloc_shared((S,), uint64);  empty = alloc_shared((S,), uint64)
//   tl.mbarrier_init(full[0], S)          # one arrival per phase: the elected expect_tx
//   tl.mbarrier_init(empty[0], S, T)      # T arrivals per phase: every thread done with the stage
//   tl.fence_proxy_async(); T.sync_threads()   # operand tiles written before the loop (Q) -> wgmma
//   for p in T.unroll(S-1): if p < n: issue(p) into stage p
//   for k in T.serial(n):
//       if k + S-1 < n:                                   # refill, S-1 tiles ahead
//           if k >= 1: elected wait empty[(k-1) % S], parity ((k-1)/S) % 2   # tile k-1 released
//           issue(k + S-1) into stage (k+S-1) % S           # = tile k-1's stage
//       tl.mbarrier_wait(full[k % S], (k/S) % 2)             # tile k landed
//       consumers(k) on stage k % S                           # gemms: no fence, no barrier
//       tl.mbarrier_arrive(empty[k % S])                      # this thread is done with it
//       (per warp with TILESCOPE_HOPPER_WARP_ARRIVE=1: Hopper.h stageReleaseCount)
//
// issue(j) = elected expect_tx(full[stage], bytes of one stage) + one TMA load per tile.
//
// Late tiles (this schedule, not the ones below): a tile the body first reads after the first
// statement that reads another tile (FlashAttention's V, read only by P V after Q K^T and the
// softmax; MHA backward's lse/dO/Delta after K Q^T) completes on a second barrier array,
// full_late, with its own expect_tx in issue(j), and the consumers wait for it right before that
// statement:
//   wait full[k % S]; ...; wait full_late[k % S], (k/S) % 2; <first reader of a late tile>; ...
// The top of the iteration then waits for the early tiles alone (K: half the bytes, issued
// first) and V gets the softmax's time to land. The release and refill are unchanged (empty
// covers both). OFF unless TILESCOPE_HOPPER_LATE_WAIT=1: measured slower on the H100,
// 2026-12-06 (bench/results/h100-2026-12-06f/call-06m/, interleaved, medians of 50): attention
// B1 H16 S4096 D128 fp16 at 128x64 / 2 stages 0.2527 ms against 0.2365 without, bf16 0.2462
// against 0.2299, causal B4 H32 1.109 against 1.033; the MHA backward's written-operand
// schedule gained ~1% (0.5223 against 0.5274 ms) and stays slower than the sample's default.
//
// Softmax overlap (OFF unless TILESCOPE_HOPPER_SOFTMAX_OVERLAP=1; for a body of the
// FlashAttention shape: pre, G1 = S = Q K^T from two shared tiles, mid = the online softmax,
// G2 = O += P V with P from registers, last). On the H200, 2026-12-04, B1 H16 S4096 D128 fp16
// (bench/results/h200-session-2026-12-04/call-c/): 128x128 / 2 stages 0.2448 ms against 0.2412
// without, 128x128 / 3 stages 0.2494 against 0.2430, causal B4 H32 1.110 / 1.113 against 1.088 /
// 1.061; at 128x64 it needs 147 registers (127 without) and so loses the second block per SM
// (0.3035 against 0.2354). Correct on the GPU in 9/9 cases. The two warpgroups of a block
// already drift apart (no block barrier in the loop), so one's softmax overlaps the other's
// wgmma without it. Each warpgroup otherwise runs
// its tensor cores and its FP32/MUFU units in turn: G1, wait, softmax, G2, wait. Rotating G2 by
// one iteration lets the P V of tile k-1 run on the tensor cores while the softmax of tile k runs
// (FlashAttention-3's intra-warpgroup overlap, which TileLang asks the user to spell with
// T.Pipelined order=/stage=; here the plain loop gets it). n + 1 rotated iterations r, the
// stage of iteration r holding K tile r and V tile r-1 (loaded together, lag 1 as above):
//
//   r = 0:        wait full; pre(0); G1(0) waited; midA(0); midB(0); release
//   r in [1, n):  refill; wait full; pre(r); G1(r) committed (wait_group 1: nothing older);
//                 G2(r-1) committed, wait_group 1 retires G1(r), S pinned; midA(r) (softmax on S
//                 while G2(r-1) runs); tl.wgmma_retire(O, 0); midB(r) (O *= alpha, P = S); release
//   r = n:        wait full; G2(n-1) waited; release
//
// Legal because G2(r-1) commutes with pre(r), G1(r) and midA(r): they touch neither P nor O nor
// the V tile (softmaxOverlapPlan checks it), and midB, the first statement that does, follows the
// retire. Each stage is still released only after every wgmma reading it retired.
//
// Warpgroup ping-pong (two warpgroups, T = 256, S >= 3, >= 2 wgmma gemms at the top of the
// body; OFF unless TILESCOPE_HOPPER_PINGPONG=1: on the H200, 2026-12-02, B1 H16 S4096 D128 fp16
// at 128x128 / 3 stages it took 0.271 ms against 0.239 ms for the same code in lockstep, and
// 128x64 / 3 stages 0.360 ms against 0.234 ms for 128x64 / 2 stages in lockstep,
// bench/results/attention-2026-12-02c/; each turn still waits for P V to complete. Leaving P V in
// flight across the turn, FlashAttention-3's form (gemm_1 committed with wait_group 2, the stage of
// k-1 released after gemm_1's wait), was slower still on the H100, 2026-12-06: 0.304 ms at E against
// 0.271 ms with the wait and 0.243 ms in lockstep, bench/results/h100-2026-12-06c/. The lockstep
// 128x64 / 2-stage form runs two blocks per SM (127 registers, 99 KB), whose softmax and wgmma
// interleave with no turns; ncu there: tensor pipe 63% of cycles, XU 36%): left alone, both warpgroups wait for the same
// tile and so run in lockstep: both issue wgmma at once (the tensor cores busy, the FP32/MUFU
// units idle), then both run the softmax at once (the tensor cores idle). The H200 run at
// 3b4addf measured ~3500 SM cycles per 128x128 tile where the wgmma alone needs ~2050. With
// tl.warpgroup_turn (named barriers, resources/ts_device/hopper.cuh) each warpgroup issues its
// gemms only in its turn, and a turn spans the last gemm of iteration k-1 and the first of
// iteration k (FlashAttention-3's warp-scheduler barriers), so one warpgroup's P V + Q K^T run
// on the tensor cores while the other computes its softmax:
//
//   tl.warpgroup_turn("begin")                 # warpgroup 1 lets 0 go first; both wait their turn
//   for k: <refill, lag 2>; wait full; ...; gemm_1; turn("pass"); ...; turn("wait"); gemm_2; ...
//   tl.warpgroup_turn("end")                   # warpgroup 0's last pass (arrivals balance)
//
// The refill then lags two tiles: at iteration k it waits for tile k-2's stage (k >= 2) and
// loads tile k+S-2 (k >= 1; the prologue loaded tiles 0..S-2). Lag 1 would deadlock: warpgroup
// 0's elected thread would wait, inside its turn, for warpgroup 1 to release tile k-1, which
// warpgroup 1 does in its next turn. Hence S >= 3 (lag 2 with 2 stages has nothing in flight).
// A turn is no memory ordering: the interpreters run it as a no-op; insert-sync drops the turns
// of a loop in which lowering put a block barrier (both warpgroups would have to meet there).
// Why no block barrier in the loop: the tiles are written by the async proxy (TMA) and read by
// the async proxy (wgmma), so no proxy fence is needed; the full barrier's wait orders the landed
// data before the reads, and each fragment-path wgmma is waited to completion before its thread
// arrives on the empty barrier, so the refill (issued only after every thread arrived) cannot
// overwrite a stage a wgmma still reads. Without a __syncthreads the warpgroups drift apart by up
// to an iteration: one warpgroup's softmax overlaps the other's wgmma (the cp.async schedule
// needed three block barriers per iteration). Any trip count (1 included) and any S work: every
// issued load is waited for in the loop, and stage s's two barriers complete one phase per use.
#include <algorithm>
#include <cstdlib>
#include <set>

#include "compiler/analysis/WgmmaLayouts.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/Views.h"
#include "compiler/transforms/Hopper.h"

namespace ts::xform {
using namespace ts::ir;

namespace {

using lower::intrinsicStmt;
Expr addr(const Buffer& b, std::vector<Expr> idx) { return lower::addressOf(b, std::move(idx)); }

struct Producer {
    FragmentTmaCopy c;
    analysis::WgmmaTileGeometry geo;
    int64_t map = 0;
};

/// Marks the fragment-path gemms of `s` (restaged consumers) as having their operands ready:
/// lowerWgmmaFragment then emits neither the proxy fence nor the block barrier.
Stmt markOperandsReady(const Stmt& s) {
    auto* g = as<TileOpNode>(s);
    if (!g || g->op != TileOpKind::Gemm || !attrBool(g->attrs, "wgmma_fragment", false)) return s;
    Attrs a = g->attrs;
    a["wgmma_operands_ready"] = true;
    return std::make_shared<TileOpNode>(g->op, g->args, a, g->span);
}

/// A top-level fragment-path gemm split over two warpgroups.
bool twoWarpgroupGemm(const Stmt& s) {
    auto* g = as<TileOpNode>(s);
    return g && g->op == TileOpKind::Gemm && attrBool(g->attrs, "wgmma_fragment", false) && attrInt(g->attrs, "wgmma_warpgroups", 0) == 2;
}

/// Whether the loop body `stmts` (the copies excluded) takes the warpgroup ping-pong of the
/// header comment: 256 threads, S >= 3, at least two gemms, all of them top-level two-warpgroup
/// fragment gemms, and nothing that lowers to a block barrier we can see at tile level (a shared
/// write, an explicit barrier). insert-sync's check covers what lowering adds later.
bool pingPongApplies(const std::vector<Stmt>& stmts, int64_t threads, int64_t S) {
    const char* e = std::getenv("TILESCOPE_HOPPER_PINGPONG");
    if (!(e && *e == '1') || threads != 256 || S < 3) return false;
    int top = 0, all = 0;
    bool blocked = false;
    for (auto& s : stmts) {
        top += twoWarpgroupGemm(s);
        walk(s, [&](const Stmt& x) {
            if (auto* g = as<TileOpNode>(x)) {
                if (g->op == TileOpKind::Gemm) {
                    ++all;
                    return;
                }
                for (size_t i = 0; i < g->args.size(); ++i)
                    if (g->isRegion(i) && g->region(i).buffer->scope == Scope::Shared) blocked = true;
            }
            if (auto* st = as<StoreNode>(x); st && st->buffer->scope == Scope::Shared) blocked = true;
            if (auto* ev = as<EvalNode>(x))
                if (auto* c = dynamic_cast<const CallNode*>(ev->call.get()); c && (c->op == intrin::kSyncThreads || c->op == "named_barrier_arrive"))
                    blocked = true;
        });
    }
    return top >= 2 && top == all && !blocked;
}

/// The in-flight schedule (header comment): a body of G >= 1 shared-A fragment gemms and
/// nothing else, S >= 3, no ping-pong. TILESCOPE_HOPPER_INFLIGHT=0 turns it off (measurement
/// switch: every gemm waited to completion before the stage is released).
bool inflightApplies(const std::vector<Stmt>& stmts, int64_t S, bool pingPong) {
    const char* e = std::getenv("TILESCOPE_HOPPER_INFLIGHT");
    if ((e && *e == '0') || pingPong || S < 3 || stmts.empty()) return false;
    std::set<const BufferNode*> accs;
    for (auto& s : stmts) {
        auto* g = as<TileOpNode>(s);
        if (!g || g->op != TileOpKind::Gemm || !attrBool(g->attrs, "wgmma_fragment", false) || g->args.size() < 3) return false;
        if (!g->isRegion(0) || g->region(0).buffer->scope != Scope::Shared || !g->isRegion(2)) return false;
        accs.insert(g->region(2).buffer.get());
    }
    for (auto& s : stmts) {  // no gemm reads another's accumulator in the loop
        auto* g = as<TileOpNode>(s);
        if (accs.count(g->region(0).buffer.get()) || (g->isRegion(1) && accs.count(g->region(1).buffer.get()))) return false;
    }
    return true;
}

/// The softmax overlap (header comment) of the body `stmts` (copies excluded): where the two
/// gemms and the split of the statements between them are, and which producer tiles are late
/// (read by the second gemm only, loaded one iteration after the others).
struct OverlapPlan {
    size_t g1 = 0, midB = 0;                    // G1's index; the first statement of midB
    const BufferNode *S = nullptr, *O = nullptr, *P = nullptr;
    std::set<const BufferNode*> late;           // tiles G2 reads (V)
};

/// Applies when: TILESCOPE_HOPPER_SOFTMAX_OVERLAP=1 (off by default, measured slower); the body is pre, G1, mid, G2 with
/// G1 a fragment-path gemm of two shared tiles into S, G2 (the last statement) a fragment-path
/// gemm of a register A (P) and a loaded tile into O, no other gemm; pre and G1 touch neither P
/// nor O; the loaded tile G2 reads is read by nothing else and G1 reads no such tile; nothing
/// but the gemms touches a shared tile or synchronises (no block barrier may enter the loop:
/// the two warpgroups drift apart by design). mid splits at its first statement touching P or
/// O: midA before, midB from there.
std::optional<OverlapPlan> softmaxOverlapPlan(const PrimFuncNode& f, const std::vector<Stmt>& stmts, const std::vector<Producer>& producers) {
    const char* e = std::getenv("TILESCOPE_HOPPER_SOFTMAX_OVERLAP");
    if (!(e && *e == '1') || stmts.size() < 2) return std::nullopt;
    auto fragGemm = [](const Stmt& s) -> const TileOpNode* {
        auto* g = as<TileOpNode>(s);
        return g && g->op == TileOpKind::Gemm && attrBool(g->attrs, "wgmma_fragment", false) && g->args.size() >= 3 && g->isRegion(0) &&
                       g->isRegion(1) && g->isRegion(2)
                   ? g
                   : nullptr;
    };
    const TileOpNode* g2 = fragGemm(stmts.back());
    if (!g2 || g2->region(0).buffer->scope != Scope::Fragment || g2->region(1).buffer->scope != Scope::Shared) return std::nullopt;
    OverlapPlan plan;
    plan.P = g2->region(0).buffer.get();
    plan.O = g2->region(2).buffer.get();
    std::set<const BufferNode*> loaded;
    for (auto& p : producers) loaded.insert(p.c.copy->region(1).buffer.get());
    if (!loaded.count(g2->region(1).buffer.get())) return std::nullopt;
    plan.late.insert(g2->region(1).buffer.get());
    const TileOpNode* g1 = nullptr;
    for (size_t i = 0; i + 1 < stmts.size(); ++i) {
        bool nestedGemm = false, shared = false;
        walk(stmts[i], [&](const Stmt& x) {
            if (auto* t = as<TileOpNode>(x)) {
                if (t->op == TileOpKind::Gemm && x.get() != stmts[i].get()) nestedGemm = true;
                if (t->op != TileOpKind::Gemm)
                    for (size_t a = 0; a < t->args.size(); ++a)
                        if (t->isRegion(a) && t->region(a).buffer->scope == Scope::Shared) shared = true;
            }
            if (auto* st = as<StoreNode>(x); st && st->buffer->scope == Scope::Shared) shared = true;
            if (as<EvalNode>(x)) shared = true;  // barriers, fences, intrinsics: leave the loop alone
        }, [&](const Expr& x) {
            if (auto* l = as<LoadNode>(x); l && l->buffer->scope == Scope::Shared) shared = true;
        });
        if (nestedGemm || shared) return std::nullopt;
        if (auto* g = as<TileOpNode>(stmts[i]); g && g->op == TileOpKind::Gemm) {
            if (g1 || !fragGemm(stmts[i])) return std::nullopt;
            g1 = g;
            plan.g1 = i;
        }
    }
    if (!g1 || g1->region(0).buffer->scope != Scope::Shared || g1->region(1).buffer->scope != Scope::Shared) return std::nullopt;
    plan.S = g1->region(2).buffer.get();
    if (plan.S == plan.O || plan.S == plan.P || plan.late.count(g1->region(0).buffer.get()) || plan.late.count(g1->region(1).buffer.get()) ||
        attrInt(g1->attrs, "wgmma_warpgroups", 1) != attrInt(g2->attrs, "wgmma_warpgroups", 1))
        return std::nullopt;
    // By storage (ir/Views.h): a fragment view of P or O is its registers.
    const std::string P = storageName(f, *plan.P), O = storageName(f, *plan.O);
    for (size_t i = 0; i + 1 < stmts.size(); ++i) {
        const BufferTouch t = touchOf(f, stmts[i]);
        for (auto* b : plan.late)
            if (i != plan.g1 && t.any(storageName(f, *b))) return std::nullopt;
    }
    for (size_t i = 0; i <= plan.g1; ++i) {
        const BufferTouch t = touchOf(f, stmts[i]);
        if (t.any(P) || t.any(O)) return std::nullopt;
    }
    plan.midB = stmts.size() - 1;
    for (size_t i = plan.g1 + 1; i + 1 < stmts.size(); ++i) {
        const BufferTouch t = touchOf(f, stmts[i]);
        if (t.any(P) || t.any(O)) {
            plan.midB = i;
            break;
        }
    }
    return plan;
}

Stmt turn(const char* kind, Span sp) { return intrinsicStmt(intrin::kWarpgroupTurn, {std::make_shared<StrImmNode>(kind, sp)}, sp); }

}  // namespace

Stmt injectTmaFragmentPipeline(const ForNode& n, const PrimFuncNode& f, int64_t threads, const Target& target, Attrs& attrs,
                               std::map<const BufferNode*, Buffer>& staged) {
    std::set<const BufferNode*> writtenOps;  // operand tiles the body writes (Hopper.h fragmentTmaCopies)
    auto copies = fragmentTmaCopies(f, n, threads, target, nullptr, &writtenOps);
    if (!copies) return nullptr;
    std::vector<Producer> producers;
    bool rowTiles = false;
    for (auto& c : *copies) {
        const Buffer& b = c.copy->region(1).buffer;
        std::optional<analysis::WgmmaTileGeometry> geo;
        if (c.row) {  // one box of one row, row-major (pipelinedTmaWhyNot checked it)
            analysis::WgmmaTileGeometry g;
            g.rows = 1, g.cols = constInt(b->shape[0]).value_or(0), g.eltBytes = dtypeBytes(b->dtype);
            g.panelBytes = 0, g.panelElems = g.cols, g.panels = 1;
            geo = g;
            rowTiles = true;
        } else {
            auto it = f.layouts.find(b->name);
            geo = it != f.layouts.end() && it->second ? analysis::wgmmaGeometryOf(*it->second, dtypeBytes(b->dtype)) : std::nullopt;
        }
        if (!geo) return nullptr;  // infer-layouts gave every operand tile the wgmma_smem layout
        producers.push_back({c, *geo, tensorMapFor(attrs, c.param, *geo, c.rowDim)});
    }
    const Span sp = n.span;
    const int64_t S = std::max<int64_t>(1, attrInt(n.attrs, "num_stages", 1));
    std::map<const BufferNode*, Buffer> local;
    int64_t stageBytes = 0;
    for (auto& p : producers) {
        const Buffer& b = p.c.copy->region(1).buffer;
        if (!staged.count(b.get()))
            staged[b.get()] = std::make_shared<BufferNode>(b->name, b->dtype,
                                                           p.c.row ? std::vector<Expr>{intImm(S), intImm(p.geo.cols)}
                                                                   : std::vector<Expr>{intImm(S), intImm(p.geo.rows), intImm(p.geo.cols)},
                                                           Scope::Shared, b->span);
        local[b.get()] = staged[b.get()];
        stageBytes += p.geo.bytes();
    }
    Buffer full = std::make_shared<BufferNode>("tma_full", DType::UInt64, std::vector<Expr>{intImm(S)}, Scope::Shared, sp);
    Buffer empty = std::make_shared<BufferNode>("tma_empty", DType::UInt64, std::vector<Expr>{intImm(S)}, Scope::Shared, sp);
    const Var& k = n.var;
    Expr rel = sub(k, n.min);
    // Late tiles (header comment): set below, before the first issue is built.
    std::set<const BufferNode*> late;
    Buffer fullLate;
    auto issue = [&](Expr iter, Expr stage) {
        int64_t lateBytes = 0;
        for (auto& p : producers)
            if (late.count(p.c.copy->region(1).buffer.get())) lateBytes += p.geo.bytes();
        std::vector<Stmt> out{intrinsicStmt(intrin::kMbarrierExpectTx, {addr(full, {stage}), intImm(stageBytes - lateBytes)}, sp)};
        if (lateBytes > 0) out.push_back(intrinsicStmt(intrin::kMbarrierExpectTx, {addr(fullLate, {stage}), intImm(lateBytes)}, sp));
        std::unordered_map<const VarNode*, Expr> at{{k.get(), iter}};
        for (auto& p : producers) {
            const Buffer& tile = local.at(p.c.copy->region(1).buffer.get());
            std::vector<Expr> first{stage, intImm(0)};
            if (!p.c.row) first.push_back(intImm(0));
            const Buffer& bar = late.count(p.c.copy->region(1).buffer.get()) ? fullLate : full;
            std::vector<Expr> args{intImm(p.map), addr(tile, first), addr(bar, {stage}),
                                   intImm(p.geo.rows), intImm(p.geo.panelElems), intImm(p.geo.panels)};
            for (Expr& c : tmaCoordinates(p.c.copy->region(0), at)) args.push_back(c);
            out.push_back(intrinsicStmt(intrin::kTmaLoad, args, p.c.copy->span));
        }
        return seq(out, sp);
    };
    // Written operand tiles (dS^T): two copies, iteration k writing and reading copy k % 2; the
    // gemms that read one keep their proxy fence and block barrier (not marked ready).
    std::map<const BufferNode*, Buffer> twoCopies;
    for (auto* w : writtenOps) {
        Buffer b;
        walk(n.body, [&](const Stmt& x) {
            if (auto* g = as<TileOpNode>(x))
                for (size_t i = 0; i < g->args.size() && !b; ++i)
                    if (g->isRegion(i) && g->region(i).buffer.get() == w) b = g->region(i).buffer;
        });
        if (!b) return nullptr;
        if (!staged.count(w)) {
            std::vector<Expr> shape{intImm(2)};
            shape.insert(shape.end(), b->shape.begin(), b->shape.end());
            staged[w] = std::make_shared<BufferNode>(b->name, b->dtype, shape, Scope::Shared, b->span);
        }
        twoCopies[w] = staged[w];
    }
    auto readsWritten = [&](const Stmt& s0) {
        auto* g = as<TileOpNode>(s0);
        return g && g->op == TileOpKind::Gemm && ((g->isRegion(0) && writtenOps.count(g->region(0).buffer.get())) ||
                                                   (g->isRegion(1) && writtenOps.count(g->region(1).buffer.get())));
    };
    // The schedules below that run the body differently (ping-pong, softmax overlap, in flight)
    // assume neither.
    const bool plainOnly = rowTiles || !writtenOps.empty();
    auto* sq = as<SeqNode>(n.body);
    std::vector<Stmt> stmts, all = sq ? sq->stmts : std::vector<Stmt>{n.body};
    for (auto& s : all) {
        bool isCopy = false;
        for (auto& c : *copies) isCopy = isCopy || s.get() == c.copy;
        if (!isCopy) stmts.push_back(s);
    }
    const bool pingPong = !plainOnly && pingPongApplies(stmts, threads, S);
    const std::optional<OverlapPlan> overlapPlan = !pingPong && !plainOnly ? softmaxOverlapPlan(f, stmts, producers) : std::nullopt;
    const bool overlap = overlapPlan.has_value();
    const bool inflight = !plainOnly && inflightApplies(stmts, S, pingPong);
    // Late tiles (header comment; off by default, measured slower): in the plain schedule, the
    // tiles no statement reads before the first statement that reads another tile. Tried because
    // attention B (128x64, 2 stages) spent 9% of its warp stall samples on the top wait for K and
    // V together (ncu, H100, bench/results/h100-2026-12-06f/ncu-source/).
    size_t lateFirst = stmts.size();
    if (const char* lw = std::getenv("TILESCOPE_HOPPER_LATE_WAIT"); lw && *lw == '1' && !pingPong && !overlap && !inflight) {
        std::map<const BufferNode*, size_t> firstUse;
        for (auto& p : producers) {
            const BufferNode* b = p.c.copy->region(1).buffer.get();
            const std::string name = storageName(f, *b);
            size_t i = 0;
            while (i < stmts.size() && !touchOf(f, stmts[i]).any(name)) ++i;
            firstUse[b] = i;
        }
        size_t earliest = stmts.size();
        for (auto& [b, i] : firstUse) earliest = std::min(earliest, i);
        for (auto& [b, i] : firstUse)
            if (i > earliest && i < stmts.size()) late.insert(b), lateFirst = std::min(lateFirst, i);
        if (!late.empty()) fullLate = std::make_shared<BufferNode>("tma_full_late", DType::UInt64, std::vector<Expr>{intImm(S)}, Scope::Shared, sp);
    }
    Var ps = makeVar("ps", DType::Int32, sp);
    Stmt prologue = forLoop(ps, intImm(0), intImm(S - 1), ForKind::Unrolled,
                            ifThen(lt(ps, n.extent), issue(add(n.min, ps), ps), nullptr, sp), {}, sp);
    if (const auto& plan = overlapPlan) {
        // Softmax overlap (header comment): a loop of n + 1 rotated iterations r; iteration r's
        // stage holds tile r of the early tiles (K) and tile r - 1 of the late ones (V).
        int64_t earlyBytes = 0, lateBytes = 0;
        for (auto& p : producers) (plan->late.count(p.c.copy->region(1).buffer.get()) ? lateBytes : earlyBytes) += p.geo.bytes();
        const Expr n1 = add(n.extent, intImm(1));
        auto issuePart = [&](Expr t, Expr stage, bool early, bool late) {
            std::vector<Stmt> out{intrinsicStmt(intrin::kMbarrierExpectTx, {addr(full, {stage}), intImm((early ? earlyBytes : 0) + (late ? lateBytes : 0))}, sp)};
            for (auto& p : producers) {
                const bool isLate = plan->late.count(p.c.copy->region(1).buffer.get()) > 0;
                if (isLate ? !late : !early) continue;
                std::unordered_map<const VarNode*, Expr> at{{k.get(), add(n.min, isLate ? sub(t, intImm(1)) : t)}};
                const Buffer& tile = local.at(p.c.copy->region(1).buffer.get());
                std::vector<Expr> args{intImm(p.map), addr(tile, {stage, intImm(0), intImm(0)}), addr(full, {stage}),
                                       intImm(p.geo.rows), intImm(p.geo.panelElems), intImm(p.geo.panels)};
                for (Expr& c : tmaCoordinates(p.c.copy->region(0), at)) args.push_back(c);
                out.push_back(intrinsicStmt(intrin::kTmaLoad, args, p.c.copy->span));
            }
            return seq(out, sp);
        };
        // Rotated iteration t loads early tile t (t < n) and late tile t - 1 (t >= 1).
        auto rotatedIssue = [&](Expr t, Expr stage) {
            Stmt lateOnly = ifThen(binary(BinOp::Eq, t, n.extent), issuePart(t, stage, false, true), nullptr, sp);
            Stmt early = ifThen(binary(BinOp::Ge, t, intImm(1)), issuePart(t, stage, true, true), issuePart(t, stage, true, false), sp);
            return ifThen(lt(t, n.extent), early, lateOnly, sp);
        };
        Var r = makeVar("kr", DType::Int32, sp);
        Var ps2 = makeVar("ps", DType::Int32, sp);
        // No trips (an empty key range): nothing is loaded, as in the schedule above (t = n = 0 would
        // otherwise load V tile -1 and leave it in flight past the kernel's end).
        Stmt prologue2 = forLoop(ps2, intImm(0), intImm(S - 1), ForKind::Unrolled,
                                 ifThen(logicalAnd(lt(ps2, n1), binary(BinOp::Ge, n.extent, intImm(1))), rotatedIssue(ps2, ps2), nullptr, sp), {}, sp);
        const std::string sName = plan->S->name, oName = plan->O->name;
        // One rotated iteration at r: first (r = 0: no G2), last (r = n: only G2), else both.
        auto iteration = [&](Expr rr, bool first, bool last) {
            const Expr stage = floormod(rr, intImm(S));
            std::vector<Stmt> out;
            Stmt refill = seq({ifThen(binary(BinOp::Ge, rr, intImm(1)),
                                      intrinsicStmt(intrin::kMbarrierWait,
                                                    {addr(empty, {floormod(sub(rr, intImm(1)), intImm(S))}),
                                                     floormod(floordiv(sub(rr, intImm(1)), intImm(S)), intImm(2)), intImm(1)},
                                                    sp),
                                      nullptr, sp),
                               rotatedIssue(add(rr, intImm(S - 1)), floormod(add(rr, intImm(S - 1)), intImm(S)))},
                              sp);
            out.push_back(ifThen(lt(add(rr, intImm(S - 1)), n1), refill, nullptr, sp));
            out.push_back(intrinsicStmt(intrin::kMbarrierWait, {addr(full, {stage}), floormod(floordiv(rr, intImm(S)), intImm(2))}, sp));
            std::unordered_map<const VarNode*, Expr> cur{{k.get(), add(n.min, rr)}}, prev{{k.get(), add(n.min, sub(rr, intImm(1)))}};
            auto at = [&](const Stmt& s0, const std::unordered_map<const VarNode*, Expr>& m, int64_t wait, const char* retire) {
                Stmt x = markOperandsReady(restageTiles(substitute(s0, m), local, stage));
                auto* g = as<TileOpNode>(x);
                if (!g || g->op != TileOpKind::Gemm) return x;
                Attrs a = g->attrs;
                a["wgmma_wait"] = wait;
                if (retire) a["wgmma_retire_acc"] = std::string(retire), a["wgmma_retire_wait"] = int64_t(1);
                return Stmt(std::make_shared<TileOpNode>(g->op, g->args, a, g->span));
            };
            if (!last)
                for (size_t i = 0; i <= plan->g1; ++i) out.push_back(at(stmts[i], cur, first ? 0 : 1, nullptr));
            if (!first) out.push_back(at(stmts.back(), prev, last ? 0 : 1, last ? nullptr : sName.c_str()));
            if (!last) {
                for (size_t i = plan->g1 + 1; i < plan->midB; ++i) out.push_back(at(stmts[i], cur, 0, nullptr));
                if (!first)
                    out.push_back(intrinsicStmt(intrin::kWgmmaRetire, {std::make_shared<StrImmNode>(oName, sp), intImm(0)}, sp));
                for (size_t i = plan->midB; i + 1 < stmts.size(); ++i) out.push_back(at(stmts[i], cur, 0, nullptr));
            }
            out.push_back(releaseStage(addr(empty, {stage}), threads, sp));
            return seq(out, sp);
        };
        Attrs la;
        la["num_stages"] = S;
        la["tma_pipeline"] = true;
        la["softmax_overlap"] = true;
        Stmt mainLoop = forLoop(r, intImm(1), sub(n.extent, intImm(1)), ForKind::Serial, iteration(r, false, false), la, sp);
        Stmt loops = ifThen(binary(BinOp::Ge, n.extent, intImm(1)), seq({iteration(intImm(0), true, false), mainLoop, iteration(n.extent, false, true)}, sp),
                            nullptr, sp);
        return seq({std::make_shared<AllocNode>(full, nullptr, sp), std::make_shared<AllocNode>(empty, nullptr, sp),
                    intrinsicStmt(intrin::kMbarrierInit, {addr(full, {intImm(0)}), intImm(S)}, sp),
                    intrinsicStmt(intrin::kMbarrierInit, {addr(empty, {intImm(0)}), intImm(S), intImm(stageReleaseCount(threads))}, sp),
                    intrinsicStmt(intrin::kFenceProxyAsync, {}, sp), intrinsicStmt(intrin::kSyncThreads, {}, sp), prologue2, loops},
                   sp);
    }
    if (inflight) {
        // In flight: the G gemms of iteration k are committed with wgmma wait_group G, which
        // retires iteration k-1's; every thread then releases tile k-1's stage, and the elected
        // thread refills a stage two iterations after its tile (lag 2, as the ping-pong below):
        //   for k in [0, n-1): refill(k); wait full[k % S]; gemms(k, wait G); if k >= 1: arrive empty[(k-1) % S]
        //   k = n-1 (peeled):             wait full; gemms(wait 0)       # the accumulators' readers follow
        // The elected thread never waits for an arrival of its own iteration (no deadlock in the
        // lockstep interpreters or without a producer warpgroup).
        const int64_t G = int64_t(stmts.size());
        const Expr stage = floormod(rel, intImm(S));
        const Expr lag2 = sub(rel, intImm(2));
        Stmt refill = seq({ifThen(binary(BinOp::Ge, rel, intImm(2)),
                                  intrinsicStmt(intrin::kMbarrierWait,
                                                {addr(empty, {floormod(lag2, intImm(S))}), floormod(floordiv(lag2, intImm(S)), intImm(2)), intImm(1)}, sp),
                                  nullptr, sp),
                           issue(add(k, intImm(S - 2)), floormod(lag2, intImm(S)))},
                          sp);
        auto gemms = [&](int64_t wait) {
            std::vector<Stmt> out;
            for (auto& s : stmts) {
                Stmt r = markOperandsReady(restageTiles(s, local, stage));
                auto* g = as<TileOpNode>(r);
                Attrs a = g->attrs;
                a["wgmma_wait"] = wait;
                out.push_back(std::make_shared<TileOpNode>(g->op, g->args, a, g->span));
            }
            return out;
        };
        std::vector<Stmt> body{ifThen(logicalAnd(binary(BinOp::Ge, rel, intImm(1)), lt(add(rel, intImm(S - 2)), n.extent)), refill, nullptr, sp),
                               intrinsicStmt(intrin::kMbarrierWait, {addr(full, {stage}), floormod(floordiv(rel, intImm(S)), intImm(2))}, sp)};
        std::vector<Stmt> last = body;
        for (auto& g : gemms(G)) body.push_back(g);
        for (auto& g : gemms(0)) last.push_back(g);
        body.push_back(ifThen(binary(BinOp::Ge, rel, intImm(1)),
                              releaseStage(addr(empty, {floormod(sub(rel, intImm(1)), intImm(S))}), threads, sp), nullptr, sp));
        Attrs la;
        la["num_stages"] = S;
        la["tma_pipeline"] = true;
        la["ws_candidate"] = true;
        la["wgmma_inflight"] = G;
        const Expr lastK = sub(add(n.min, n.extent), intImm(1));
        Stmt mainLoop = forLoop(k, n.min, sub(n.extent, intImm(1)), ForKind::Serial, seq(body, sp), la, sp);
        Stmt peeled = substitute(seq(last, sp), std::unordered_map<const VarNode*, Expr>{{k.get(), lastK}});
        Stmt loops = ifThen(binary(BinOp::Ge, n.extent, intImm(1)), seq({mainLoop, peeled}, sp), nullptr, sp);
        return seq({std::make_shared<AllocNode>(full, nullptr, sp), std::make_shared<AllocNode>(empty, nullptr, sp),
                    intrinsicStmt(intrin::kMbarrierInit, {addr(full, {intImm(0)}), intImm(S)}, sp),
                    intrinsicStmt(intrin::kMbarrierInit, {addr(empty, {intImm(0)}), intImm(S), intImm(stageReleaseCount(threads))}, sp),
                    intrinsicStmt(intrin::kFenceProxyAsync, {}, sp), intrinsicStmt(intrin::kSyncThreads, {}, sp), prologue, loops},
                   sp);
    }
    // Written operands: the first gemm after their writes keeps its proxy fence + block barrier,
    // later ones with nothing written since need neither, and independent gemms pair up, as in
    // the cp.async schedule (the landed tiles need no fence: TMA writes through the async proxy).
    if (!writtenOps.empty()) {
        dropRepeatedWgmmaFences(stmts, /*fencedAtTop=*/true, f.attrs);
        pairIndependentWgmmas(stmts, f);
    }
    // Refill lag L (header comment): at iteration k >= L-1, wait for tile k-L's stage (k >= L)
    // and load tile k+S-L into it.
    const int64_t L = pingPong ? 2 : 1;
    const Expr stage = floormod(rel, intImm(S));
    const Expr prev = sub(rel, intImm(L));
    Stmt refill = seq({ifThen(binary(BinOp::Ge, rel, intImm(L)),
                              intrinsicStmt(intrin::kMbarrierWait,
                                            {addr(empty, {floormod(prev, intImm(S))}), floormod(floordiv(prev, intImm(S)), intImm(2)), intImm(1)}, sp),
                              nullptr, sp),
                       issue(add(k, intImm(S - L)), floormod(add(rel, intImm(S - L)), intImm(S)))},
                      sp);
    Expr refillWhen = lt(add(rel, intImm(S - L)), n.extent);
    if (L > 1) refillWhen = binary(BinOp::And, binary(BinOp::Ge, rel, intImm(L - 1)), refillWhen);
    // TILESCOPE_HOPPER_LATE_REFILL=1 (measurement switch, off): the refill after the first gemm,
    // not at the top -- the elected thread's warp then waits for the other warpgroup's release of
    // tile k-1 only once its own first gemm of tile k ran (the load of tile k+S-1 starts later).
    const char* lr = std::getenv("TILESCOPE_HOPPER_LATE_REFILL");
    const bool lateRefill = lr && *lr == '1' && !pingPong && L == 1 &&
                            std::any_of(stmts.begin(), stmts.end(), twoWarpgroupGemm);
    std::vector<Stmt> body;
    if (!lateRefill) body.push_back(ifThen(refillWhen, refill, nullptr, sp));
    body.push_back(intrinsicStmt(intrin::kMbarrierWait, {addr(full, {stage}), floormod(floordiv(rel, intImm(S)), intImm(2))}, sp));
    const int gemms = int(std::count_if(stmts.begin(), stmts.end(), twoWarpgroupGemm));
    int gemmsSeen = 0;
    bool refilled = !lateRefill;
    for (size_t si = 0; si < stmts.size(); ++si) {
        const Stmt& s = stmts[si];
        if (!refilled && si > 0 && twoWarpgroupGemm(stmts[si - 1])) {
            body.push_back(ifThen(refillWhen, refill, nullptr, sp));
            refilled = true;
        }
        if (si == lateFirst)
            body.push_back(intrinsicStmt(intrin::kMbarrierWait, {addr(fullLate, {stage}), floormod(floordiv(rel, intImm(S)), intImm(2))}, sp));
        // Ping-pong: a turn ends after each gemm but the last and begins again before the next.
        const bool gemm = pingPong && twoWarpgroupGemm(s);
        if (gemm && gemmsSeen++ > 0) body.push_back(turn("wait", sp));
        Stmt r = restageTiles(restageTiles(s, local, stage), twoCopies, floormod(rel, intImm(2)));
        if (!readsWritten(s)) r = markOperandsReady(r);
        if (gemm && gemmsSeen < gemms) {
            // A shared-A gemm passes the turn between its issue and its wait (LowerHopper.cpp).
            auto* g = as<TileOpNode>(r);
            if (g->isRegion(0) && g->region(0).buffer->scope == Scope::Shared) {
                Attrs a = g->attrs;
                a["warpgroup_pass"] = true;
                r = std::make_shared<TileOpNode>(g->op, g->args, a, g->span);
            } else {
                body.push_back(r);
                r = turn("pass", sp);
            }
        }
        body.push_back(r);
    }
    if (!refilled) body.push_back(ifThen(refillWhen, refill, nullptr, sp));
    body.push_back(releaseStage(addr(empty, {stage}), threads, sp));
    Attrs la;
    la["num_stages"] = S;
    la["tma_pipeline"] = true;
    la["ws_candidate"] = true;  // warp-specialize may give the refill a producer warpgroup
    if (pingPong) la["warpgroup_pingpong"] = true;
    if (!twoCopies.empty()) {
        // insert-sync: their hazards from one iteration to the next are the schedule's (copy k % 2,
        // each iteration's gemm barrier), not a barrier's at the top of the body.
        std::string names;
        for (auto& [w, b] : twoCopies) names += (names.empty() ? "" : ",") + b->name;
        la["two_copy_tiles"] = names;
    }
    Stmt mainLoop = forLoop(k, n.min, n.extent, ForKind::Serial, seq(body, sp), la, sp);
    if (pingPong) mainLoop = seq({turn("begin", sp), mainLoop, turn("end", sp)}, sp);
    std::vector<Stmt> setup{std::make_shared<AllocNode>(full, nullptr, sp), std::make_shared<AllocNode>(empty, nullptr, sp)};
    if (fullLate) setup.push_back(std::make_shared<AllocNode>(fullLate, nullptr, sp));
    setup.push_back(intrinsicStmt(intrin::kMbarrierInit, {addr(full, {intImm(0)}), intImm(S)}, sp));
    setup.push_back(intrinsicStmt(intrin::kMbarrierInit, {addr(empty, {intImm(0)}), intImm(S), intImm(stageReleaseCount(threads))}, sp));
    if (fullLate) setup.push_back(intrinsicStmt(intrin::kMbarrierInit, {addr(fullLate, {intImm(0)}), intImm(S)}, sp));
    for (Stmt x : {intrinsicStmt(intrin::kFenceProxyAsync, {}, sp), intrinsicStmt(intrin::kSyncThreads, {}, sp), prologue, mainLoop}) setup.push_back(x);
    return seq(setup, sp);
}

Stmt dropUnsafeWarpgroupTurns(const Stmt& body) {
    auto callIn = [](const Stmt& x, auto pred) {
        auto* ev = as<EvalNode>(x);
        auto* c = ev ? dynamic_cast<const CallNode*>(ev->call.get()) : nullptr;
        return c && pred(*c);
    };
    auto isTurn = [](const CallNode& c) { return c.op == intrin::kWarpgroupTurn; };
    auto isBarrier = [](const CallNode& c) { return c.op == intrin::kSyncThreads || c.op == "named_barrier_arrive"; };
    bool unsafe = false;
    walk(body, [&](const Stmt& x) {
        auto* f = as<ForNode>(x);
        if (!f) return;
        bool turns = false, barrier = false;
        walk(f->body, [&](const Stmt& y) { turns |= callIn(y, isTurn), barrier |= callIn(y, isBarrier); });
        unsafe |= turns && barrier;
    });
    if (!unsafe) return body;
    struct Drop : Mutator {
        Stmt visitEval(const EvalNode* n, const Stmt& self) override {
            auto* c = dynamic_cast<const CallNode*>(n->call.get());
            return c && c->op == intrin::kWarpgroupTurn ? nullptr : self;
        }
    };
    Drop d;
    return d.mutate(body);
}

}  // namespace ts::xform
