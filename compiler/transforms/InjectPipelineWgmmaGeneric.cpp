// injectGenericOperandInflight (Hopper.h): the sm_90a cp.async schedule of a T.Pipelined loop whose
// fragment-path wgmma gemms (SelectHopperFragment.cpp) read a shared operand tile that the loop
// body itself writes with ordinary stores -- the fused RMSNorm -> GEMM of samples/rmsnorm_matmul.py
// and rmsnorm_mlp.py, where a T.Parallel writes X * G into the A tile every iteration. The TMA
// schedules decline such a loop (the tile is not loaded by a copy), and the plain cp.async
// schedule (InjectPipeline.cpp) waits every wgmma to completion: a generic write into a tile that
// an in-flight wgmma may still read is a race. Here the written tile gets one copy per in-flight
// gemm group (2: iteration k writes copy k % 2 while wgmma k-1 reads the other), the loads run
// S-2 tiles ahead instead of S-1 (the stage a refill overwrites was read by wgmma k-2, retired),
// and iteration k's gemms are committed with wait_group G (G gemms per iteration), which retires
// iteration k-1's; so wgmma k-1 runs on the tensor cores while the threads load, normalise and
// store tile k. S = num_stages >= 3, n iterations:
//
//   for p in T.unroll(S-2): if p < n: producers(p) -> stage p;  tl.cp_async_commit()
//   for k in [0, n-1):                      # the last iteration is peeled, its gemms waited (0)
//       tl.cp_async_wait(S-3)              # tile k landed (this thread's copies)
//       T.sync_threads()                   # ... every thread's; every thread retired wgmma k-2
//       if k + S-2 < n: producers(k + S-2) -> stage (k-2) % S
//       tl.cp_async_commit()
//       others(k): producer tiles at stage k % S, written tiles at copy k % 2
//       gemm_1(k) .. gemm_G(k)             # the first: fence.proxy.async + barrier, then each
//                                          # wgmma committed with wait_group G
//   tl.cp_async_wait(0)
//
// Hazards (each thread passes iteration k-1's wait_group before the barrier of iteration k):
//  - refill(k) overwrites tile k-2's stage: its other readers finished before iteration k-2's
//    gemm barrier, its wgmma retired at iteration k-1;
//  - others(k) write copy k % 2, last read by wgmma k-2 (retired at iteration k-1); wgmma k-1
//    reads the other copy;
//  - wgmma k reads what others(k) wrote and the landed tile k: each thread's cp.async wait and
//    stores, its fence.proxy.async, then the block barrier (lowerWgmmaFragment).
// Applies when: target with wgmma, S >= 3, TILESCOPE_HOPPER_INFLIGHT is not 0, the body's last
// statements are G >= 1 top-level fragment-path gemms with a shared A tile, at least one shared
// operand tile is written by the statements before them (and nowhere else, never used outside the
// loop), and nothing before the gemms touches an accumulator or reads a written tile, nor touches
// an operand tile through a view (accesses by storage, ir/Views.h: see writtenOperands).
#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include "compiler/ir/Functor.h"
#include "compiler/ir/Views.h"
#include "compiler/ops/Registry.h"
#include "compiler/transforms/Hopper.h"

namespace ts::xform {
using namespace ts::ir;

namespace {

using lower::intrinsicStmt;

bool fragmentGemmWithSharedA(const Stmt& s) {
    auto* g = as<TileOpNode>(s);
    return g && g->op == TileOpKind::Gemm && attrBool(g->attrs, "wgmma_fragment", false) && g->args.size() >= 3 && g->isRegion(0) &&
           g->isRegion(1) && g->isRegion(2) && g->region(0).buffer->scope == Scope::Shared;
}

}  // namespace

BufferTouch touchOf(const PrimFuncNode& f, const Stmt& s) {
    BufferTouch t;
    auto key = [&](const BufferNode& b) {
        std::string k = storageName(f, b);
        if (k != b.name) t.viewed.insert(k);
        return k;
    };
    walk(
        s,
        [&](const Stmt& x) {
            if (auto* op = as<TileOpNode>(x)) {
                const ops::TileOp* o = ops::find(op->op);
                for (size_t i = 0; i < op->args.size(); ++i) {
                    auto* r = std::get_if<Region>(&op->args[i]);
                    if (!r) continue;
                    const uint8_t a = o ? o->access(*op, i) : uint8_t(ops::kRead | ops::kWrite);
                    if (a & ops::kWrite) t.writes.insert(key(*r->buffer));
                    if (a & ops::kRead) t.reads.insert(key(*r->buffer));
                }
            } else if (auto* st = as<StoreNode>(x)) {
                t.writes.insert(key(*st->buffer));
            }
        },
        [&](const Expr& e) {
            if (auto* l = as<LoadNode>(e)) t.reads.insert(key(*l->buffer));
        });
    return t;
}

bool writesWholeTile(const Stmt& s, const BufferNode& b) {
    auto shape = constShape(b);
    if (!shape || shape->empty()) return false;
    auto whole = [&](const Region& r) {
        if (r.buffer->name != b.name || r.ranges.size() != shape->size()) return false;
        for (size_t d = 0; d < shape->size(); ++d)
            if (constInt(r.ranges[d].min) != int64_t(0) || constInt(r.ranges[d].extent) != (*shape)[d]) return false;
        return true;
    };
    if (auto* t = as<TileOpNode>(s)) {
        if (t->op == TileOpKind::Fill) return t->isRegion(0) && whole(t->region(0));
        if (t->op == TileOpKind::Copy)
            return t->isRegion(0) && t->isRegion(1) && t->region(0).buffer->scope != Scope::Global && whole(t->region(1));
        return false;
    }
    // A T.Parallel nest, one loop per dimension of the tile, each from 0, storing b[...] indexed by
    // its variables in some order (a transposed store writes the whole tile too), each over the
    // extent of the dimension it indexes.
    std::vector<std::pair<const VarNode*, int64_t>> vars;  // variable, extent
    Stmt cur = s;
    while (auto* fr = as<ForNode>(cur)) {
        auto ext = constInt(fr->extent);
        if (fr->forKind != ForKind::Parallel || vars.size() >= shape->size() || constInt(fr->min) != int64_t(0) || !ext) return false;
        vars.push_back({fr->var.get(), *ext});
        cur = fr->body;
    }
    if (vars.size() != shape->size()) return false;
    auto* sq = as<SeqNode>(cur);
    const std::vector<Stmt> stmts = sq ? sq->stmts : std::vector<Stmt>{cur};
    for (auto& x : stmts) {  // only the nest body's own statements: a store under an If may not run
        auto* st = as<StoreNode>(x);
        if (!st || st->buffer->name != b.name || st->indices.size() != vars.size()) continue;
        std::vector<bool> used(vars.size(), false);
        bool all = true;
        for (size_t d = 0; d < st->indices.size() && all; ++d) {
            auto* v = as<VarNode>(st->indices[d]);
            auto it = std::find_if(vars.begin(), vars.end(), [&](const auto& p) { return p.first == v; });
            const size_t at = size_t(it - vars.begin());
            all = v && it != vars.end() && !used[at] && it->second == (*shape)[d];
            if (all) used[at] = true;
        }
        if (all) return true;
    }
    return false;
}

namespace {

/// The decision of the header comment on the statements of the planned body: `cons` in order,
/// `producerTiles` the tiles the async copies fill. The tiles to give two copies, or empty.
/// Accesses are compared by the storage they lie on (ir/Views.h storageName): the statements
/// before the gemms run while the previous iteration's wgmma is in flight, and a fragment view
/// of its accumulator is its registers, a shared view of an operand tile its bytes. An operand
/// tile touched through a view before the gemms (or read by them through one) declines: the
/// view would not follow the tile's two copies. (Compared by buffer, such a loop kept the
/// schedule: a read of the accumulator through T.reshape ran beside the wgmma writing it, and
/// float32 scratch in T.view(A_shared, ...) was written while the wgmma read those bytes.)
std::set<const BufferNode*> writtenOperands(const PrimFuncNode& f, const ForNode& n, const std::vector<Stmt>& cons,
                                            const std::set<const BufferNode*>& producerTiles, int64_t S, const Target& target,
                                            int64_t* gemms) {
    const char* e = std::getenv("TILESCOPE_HOPPER_INFLIGHT");
    if ((e && *e == '0') || !targetHasWgmma(target) || S < 3 || cons.empty() || producerTiles.empty()) return {};
    // The trailing gemms.
    size_t first = cons.size();
    while (first > 0 && fragmentGemmWithSharedA(cons[first - 1])) --first;
    const int64_t G = int64_t(cons.size() - first);
    if (G == 0) return {};
    auto storage = [&](const BufferNode& b) { return storageName(f, b); };
    std::set<std::string> operands, accs, producers;
    std::map<std::string, const BufferNode*> operandTile;  // storage -> the tile the gemms read
    for (size_t i = first; i < cons.size(); ++i) {
        auto* g = as<TileOpNode>(cons[i]);
        for (size_t r = 0; r < 2; ++r) {
            const BufferNode& b = *g->region(r).buffer;
            if (storage(b) != b.name) return {};  // an operand read through a view
            operands.insert(b.name);
            operandTile[b.name] = &b;
        }
        accs.insert(storage(*g->region(2).buffer));
    }
    for (auto& a : accs)
        if (operands.count(a)) return {};
    for (auto* p : producerTiles) producers.insert(storage(*p));
    // Operand tiles written before the gemms (not by a producer: those are staged by S already).
    std::set<const BufferNode*> written;
    std::set<std::string> writtenKeys;
    for (size_t i = 0; i < first; ++i) {
        BufferTouch t = touchOf(f, cons[i]);
        for (auto& a : accs)
            if (t.any(a)) return {};  // the accumulators stay the gemms'
        for (auto& v : t.viewed)
            if (operands.count(v)) return {};  // an operand tile's bytes through a view
        for (auto& w : t.writes)
            if (operands.count(w) && operandTile[w]->scope == Scope::Shared && !producers.count(w)) written.insert(operandTile[w]), writtenKeys.insert(w);
    }
    if (written.empty()) return {};
    // Each written tile is stored whole before the gemms (writesWholeTile): an element iteration k
    // leaves alone would be read from copy k % 2, two iterations old.
    for (auto* b : written)
        if (std::none_of(cons.begin(), cons.begin() + std::ptrdiff_t(first), [&](const Stmt& s) { return writesWholeTile(s, *b); }))
            return {};
    for (size_t i = 0; i < first; ++i) {
        BufferTouch t = touchOf(f, cons[i]);
        for (auto& w : writtenKeys)
            if (t.reads.count(w)) return {};  // only the gemms read a written tile
    }
    // A written tile lives in this loop alone (its copies are indexed by the iteration).
    std::set<const StmtNode*> inLoop;
    walk(n.body, [&](const Stmt& x) { inLoop.insert(x.get()); });
    bool outside = false;
    walk(
        f.body,
        [&](const Stmt& s) {
            if (inLoop.count(s.get()) || s.get() == &n) return;
            if (auto* t = as<TileOpNode>(s))
                for (auto& arg : t->args)
                    if (auto* r = std::get_if<Region>(&arg); r && writtenKeys.count(storage(*r->buffer))) outside = true;
            if (auto* st = as<StoreNode>(s); st && writtenKeys.count(storage(*st->buffer))) outside = true;
        },
        nullptr);
    if (outside) return {};
    if (gemms) *gemms = G;
    return written;
}

}  // namespace

bool genericOperandInflightApplies(const ForNode& loop, const PrimFuncNode& f, const Target& target) {
    if (loop.forKind != ForKind::Pipelined) return false;
    auto producers = attrInts(loop.attrs, "pipeline_producers");
    const int64_t S = attrInt(loop.attrs, "num_stages", 1);
    auto* sq = as<SeqNode>(loop.body);
    const std::vector<Stmt> body = sq ? sq->stmts : std::vector<Stmt>{loop.body};
    std::vector<Stmt> cons;
    std::set<const BufferNode*> tiles;
    for (size_t i = 0; i < body.size(); ++i) {
        if (std::find(producers.begin(), producers.end(), int64_t(i)) != producers.end()) {
            if (auto* t = as<TileOpNode>(body[i]); t && t->isRegion(1)) tiles.insert(t->region(1).buffer.get());
        } else if (auto* a = as<AllocNode>(body[i]); !(a && a->buffer->scope == Scope::Shared && !a->init)) {
            cons.push_back(body[i]);
        }
    }
    return !writtenOperands(f, loop, cons, tiles, S, target, nullptr).empty();
}

Stmt injectGenericOperandInflight(const ForNode& n, const PrimFuncNode& f, const std::vector<Stmt>& cons, const std::vector<Stmt>& prod,
                                  std::map<const BufferNode*, Buffer>& local, std::map<const BufferNode*, Buffer>& staged, int64_t S,
                                  const Target& target, const PipelineTmaLoads& tma) {
    std::set<const BufferNode*> producerTiles;
    for (auto& [b, st] : local) producerTiles.insert(b);
    int64_t G = 0;
    const std::set<const BufferNode*> written = writtenOperands(f, n, cons, producerTiles, S, target, &G);
    if (written.empty() || prod.empty()) return nullptr;
    const size_t first = cons.size() - size_t(G);
    const Span sp = n.span;
    std::map<const BufferNode*, Buffer> copies;
    for (auto* w : written) {
        // The original buffer object, from a gemm region (operands holds raw pointers).
        Buffer b;
        for (size_t i = first; i < cons.size() && !b; ++i) {
            auto* g = as<TileOpNode>(cons[i]);
            for (size_t r = 0; r < 2; ++r)
                if (g->region(r).buffer.get() == w) b = g->region(r).buffer;
        }
        if (!staged.count(w)) {
            std::vector<Expr> shape{intImm(2)};
            shape.insert(shape.end(), b->shape.begin(), b->shape.end());
            staged[w] = std::make_shared<BufferNode>(b->name, b->dtype, shape, Scope::Shared, b->span);
        }
        copies[w] = staged[w];
    }
    const Var& k = n.var;
    const Expr rel = sub(k, n.min);
    // Producers TMA can load take TMA on per-stage mbarriers (InjectPipelineTmaLoads.cpp).
    const bool cpAsync = tma.anyCpAsync();
    auto producersAt = [&](Expr iter, Expr stage) { return tma.producersAt(prod, local, iter, stage); };
    auto commit = [&]() -> Stmt { return cpAsync ? intrinsicStmt("tl.cp_async_commit", {}, sp) : nullptr; };
    Var ps = makeVar("ps", DType::Int32, sp);
    Stmt prologue = forLoop(ps, intImm(0), intImm(S - 2), ForKind::Unrolled,
                            seq({ifThen(lt(ps, n.extent), producersAt(add(n.min, ps), ps), nullptr, sp), commit()}, sp), {}, sp);
    auto body = [&](int64_t wait) {
        std::vector<Stmt> out{cpAsync ? intrinsicStmt("tl.cp_async_wait", {intImm(S - 3)}, sp) : nullptr, tma.waitFull(rel),
                              intrinsicStmt(intrin::kSyncThreads, {}, sp),
                              ifThen(lt(add(rel, intImm(S - 2)), n.extent),
                                     producersAt(add(k, intImm(S - 2)), floormod(sub(rel, intImm(2)), intImm(S))), nullptr, sp),
                              commit()};
        for (size_t i = 0; i < cons.size(); ++i) {
            Stmt s = restageTiles(restageTiles(cons[i], local, floormod(rel, intImm(S))), copies, floormod(rel, intImm(2)));
            if (i >= first) {
                auto* g = as<TileOpNode>(s);
                Attrs a = g->attrs;
                a["wgmma_wait"] = wait;
                // One fence + barrier (the first gemm's) covers every operand write of the iteration.
                if (i > first) a["wgmma_operands_ready"] = true;
                s = std::make_shared<TileOpNode>(g->op, g->args, a, g->span);
            }
            out.push_back(s);
        }
        return seq(out, sp);
    };
    Attrs la;
    la["num_stages"] = S;
    la["wgmma_inflight"] = G;
    if (tma.any()) la["tma_loads"] = true, la["tma_pipeline"] = true;  // the static timeline and the trace read its iterations
    const Expr lastK = sub(add(n.min, n.extent), intImm(1));
    Stmt mainLoop = forLoop(k, n.min, sub(n.extent, intImm(1)), ForKind::Serial, body(G), la, sp);
    Stmt peeled = substitute(body(0), std::unordered_map<const VarNode*, Expr>{{k.get(), lastK}});
    return seq({tma.setup(), prologue, ifThen(binary(BinOp::Ge, n.extent, intImm(1)), seq({mainLoop, peeled}, sp), nullptr, sp),
                cpAsync ? intrinsicStmt("tl.cp_async_wait", {intImm(0)}, sp) : nullptr},
               sp);
}

}  // namespace ts::xform
