// warp-specialize (sm_90a): gives the TMA issue of a fragment-path TMA pipeline
// (InjectPipelineTmaFragment.cpp: loop attr "tma_pipeline" + "ws_candidate") a warpgroup of its
// own. The kernel's C threads become the consumers; 128 more threads (warpgroup C/128, whole warps
// after the consumer warpgroups, so every consumer warpgroup keeps its wgmma alignment) are the
// producer, of which thread C issues every elected operation (mbarrier init, expect_tx, TMA,
// the refill's empty-barrier wait). With tx the thread index:
//
//   <allocs, mbarrier init, fence, T.sync_threads(), prologue loads>     # every thread / thread C
//   if tx < C: <statements before the loop>                               # consumers only
//   for k in T.serial(n):
//       if tx >= C: <refill: wait empty, expect_tx, TMA loads>            # thread C
//       else:       <wait full, consumers(k), arrive empty>              # (producer branch first)
//   if tx < C: <statements after the loop>
//
// With two or more consumer warpgroups (C >= 256) and nothing elected after the loop, the roles
// split instead and the registers move from the producer to the consumers (registerCounts):
//
//   <allocs, mbarrier init, fence, T.sync_threads(), prologue loads; if tx < C: <before the loop>>
//   if tx >= C: setmaxnreg.dec 24;  for k: <refill>                       # producer warpgroup
//   else:       setmaxnreg.inc 240; for k: <wait full, consumers(k), arrive empty>; <after the loop>
//
// ptxas honours setmaxnreg only where the code after it fits the new count ("setmaxnreg ignored
// to maintain minimum register requirements" when the producer shares the consumers' loop, or
// when consumer values live across its branch), hence one loop per role and the consumers' tail
// inside their branch (its block barriers become named ones of the consumers).
//
// The loop is shared (same trip count) so the lockstep thread interpreter runs it as written;
// on the GPU the producer warp has no barrier in common with the consumers inside the loop, so
// it runs up to S-1 tiles ahead on its own and no consumer warpgroup waits for another to issue
// loads. Block barriers inside consumer-only code become named barriers over the C consumer
// threads (bar.sync 1, C); top-level ones are reached by all C+128 threads. Function attrs
// "elected_thread" = C (codegen) and "ws_consumer_threads" = C (thread interpreter: wgmma and
// the arrival count that orders a phase).
// Requires: lower-to-threads. Chosen for sm_90a (Pipeline.cpp); TILESCOPE_HOPPER_WS=0 turns it
// off (measurement switch), =1 forces it on where it applies.
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <set>

#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/ir/IntrinsicsUserBarriers.h"
#include "compiler/transforms/Passes.h"

namespace ts::xform {
using namespace ts::ir;

namespace {

/// Off until the H200 shows it faster than the single-role schedule (bench/h200_attention.sh
/// times both in one run).
constexpr bool kWarpSpecializeByDefault = false;

}  // namespace

/// Whether warp specialization is on: the default until measured otherwise, or the switch.
bool warpSpecializeEnabled() {
    const char* e = std::getenv("TILESCOPE_HOPPER_WS");
    if (e && *e == '0') return false;
    if (e && *e == '1') return true;
    return kWarpSpecializeByDefault;
}

namespace {

const CallNode* callOf(const Stmt& s) {
    auto* ev = as<EvalNode>(s);
    return ev ? dynamic_cast<const CallNode*>(ev->call.get()) : nullptr;
}

/// A statement that only issues elected sm_90a work or fences (safe for every thread to pass
/// through: elected operations run on the elected thread), with loops and ifs around it.
bool producerSafe(const Stmt& s) {
    bool ok = true, any = false;
    walk(s, [&](const Stmt& x) {
        if (as<StoreNode>(x) || as<TileOpNode>(x) || as<AllocNode>(x)) ok = false;
        if (auto* c = callOf(x)) {
            const std::string& op = c->op;
            const bool electedWait = op == intrin::kMbarrierWait && c->args.size() > 2 && constInt(c->args[2]).value_or(0);
            if (op == intrin::kMbarrierInit || op == intrin::kMbarrierExpectTx || op == intrin::kTmaLoad || electedWait)
                any = true;
            else if (op != intrin::kFenceProxyAsync)
                ok = false;
        } else if (auto* ev = as<EvalNode>(x)) {
            (void)ev;
            ok = false;
        }
    });
    return ok && any;
}

/// Block barriers inside consumer-only code -> bar.sync 1, C.
class NamedBarriers : public Mutator {
public:
    explicit NamedBarriers(int64_t c) : m_c(c) {}

protected:
    Stmt visitEval(const EvalNode* n, const Stmt& self) override {
        auto* c = dynamic_cast<const CallNode*>(n->call.get());
        if (!c || c->op != intrin::kSyncThreads || !c->args.empty()) return self;
        return evaluate(call(intrin::kSyncThreads, {intImm(1), intImm(m_c)}, DType::Int32, n->span), n->span);
    }

private:
    int64_t m_c;
};


/// The register counts (producer, consumer) of the roles split (header; setmaxnreg,
/// PTX ISA §9.7.17.6), or nullopt: the block owns the multiprocessor's 65536 registers (__launch_bounds__(T, 1),
/// CudaCodegen), R = 65536 / T per thread rounded down to 8 (T = C + 128); the producer, which
/// only issues TMA and waits on mbarriers, keeps 24 (the minimum), and each consumer grows to what
/// that frees, (R * T - 24 * 128) / C rounded down to 8, at most 256: with C = 256 (two consumer
/// warpgroups) 168 -> 240 (FlashAttention-3's and TileLang's split). Without it ptxas fits every
/// thread into 168 and the MHA backward's consumers spill. Only for C >= 256: with one consumer
/// warpgroup R is already 255. A count the pool cannot supply would block setmaxnreg.inc forever;
/// the counts here sum to at most R * T. TILESCOPE_HOPPER_WS_MAXNREG=0 leaves the registers alone
/// (measurement switch).
std::optional<std::pair<int64_t, int64_t>> registerCounts(int64_t C) {
    if (const char* e = std::getenv("TILESCOPE_HOPPER_WS_MAXNREG"); e && *e == '0') return std::nullopt;
    if (C < 256) return std::nullopt;
    const int64_t T = C + 128, R = std::min<int64_t>(255, 65536 / T) / 8 * 8, producer = 24;
    const int64_t consumer = std::min<int64_t>(256, (R * T - producer * 128) / C / 8 * 8);
    if (consumer <= R) return std::nullopt;
    return std::make_pair(producer, consumer);
}

class Specializer : public Mutator {
public:
    bool changed = false;
    int64_t consumers = 0;

protected:
    Stmt visitKernel(const KernelNode* k, const Stmt& self) override {
        if (k->threads.size() != 3 && k->threads.size() != 1) return self;
        for (size_t d = 1; d < k->threads.size(); ++d)
            if (k->threads[d] != 1) return self;
        if (k->threadVars.empty()) return self;
        const int64_t C = k->threads[0];
        if (C % 128 != 0) return self;
        std::vector<Stmt> top;
        flattenSeq(k->body, top);
        size_t li = top.size();
        for (size_t i = 0; i < top.size(); ++i)
            if (auto* f = as<ForNode>(top[i]); f && attrBool(f->attrs, "ws_candidate", false)) li = i;
        if (li == top.size()) return self;
        // A TMA store (ops/CopyTma.cpp) is issued by the elected thread after a block barrier
        // that orders the consumers' writes of its tile; in the producer warpgroup that thread
        // would never see those writes ordered (consumer barriers become named ones).
        bool store = false;
        walk(k->body, [&](const Stmt& x) {
            if (auto* c = callOf(x); c && (c->op == intrin::kTmaStore || c->op == intrin::kTmaStoreWait)) store = true;
        });
        if (store) return self;
        // TMA loads outside the candidate (a cp.async schedule's, InjectPipelineTmaLoads.cpp)
        // are elected in the consumers' code: with the elected thread moved to the producer
        // warpgroup nobody would issue them.
        for (size_t i = 0; i < top.size(); ++i) {
            if (i == li || producerSafe(top[i])) continue;
            bool tma = false;
            walk(top[i], [&](const Stmt& x) {
                if (auto* c = callOf(x); c && c->op == intrin::kTmaLoad) tma = true;
            });
            if (tma) return self;
        }
        const Expr tx = k->threadVars[0];
        const Expr isConsumer = lt(tx, intImm(C));
        NamedBarriers named(C);
        std::vector<Stmt> out, run, producerStmts, consumerStmts;
        auto flush = [&] {
            if (!run.empty()) out.push_back(ifThen(isConsumer, named.mutate(seq(run, k->span)), nullptr, k->span));
            run.clear();
        };
        for (size_t i = 0; i < top.size(); ++i) {
            const Stmt& s = top[i];
            auto* c = callOf(s);
            const bool blockSync = c && c->op == intrin::kSyncThreads;
            if (as<AllocNode>(s) || blockSync || producerSafe(s)) {
                flush();
                out.push_back(s);
                if (producerSafe(s)) producerStmts.push_back(s);
                continue;
            }
            if (i != li) {
                run.push_back(s);
                consumerStmts.push_back(s);
                continue;
            }
            flush();
            auto* loop = as<ForNode>(s);
            std::vector<Stmt> body, prod, cons;
            flattenSeq(loop->body, body);
            for (auto& b : body) (producerSafe(b) ? prod : cons).push_back(b);
            producerStmts.insert(producerStmts.end(), prod.begin(), prod.end());
            consumerStmts.insert(consumerStmts.end(), cons.begin(), cons.end());
            // The roles split (header): the rest of the kernel is the consumers'.
            bool tailConsumerOnly = !prod.empty();
            for (size_t j = i + 1; j < top.size(); ++j) tailConsumerOnly = tailConsumerOnly && !producerSafe(top[j]);
            const auto regs = registerCounts(C);
            if (regs && tailConsumerOnly) {
                Attrs la = loop->attrs;
                la["warp_specialized"] = true;
                auto nreg = [&](int64_t n, int64_t inc) {
                    return evaluate(call(intrin::kSetMaxNreg, {intImm(n), intImm(inc)}, DType::Int32, k->span), k->span);
                };
                Stmt producer = seq({nreg(regs->first, 0), forLoop(loop->var, loop->min, loop->extent, loop->forKind, seq(prod, loop->span), la, loop->span)},
                                    loop->span);
                std::vector<Stmt> consumer{nreg(regs->second, 1),
                                           forLoop(loop->var, loop->min, loop->extent, loop->forKind, seq(cons, loop->span), la, loop->span)};
                for (size_t j = i + 1; j < top.size(); ++j) {
                    consumer.push_back(top[j]);
                    consumerStmts.push_back(top[j]);
                }
                out.push_back(ifThen(binary(BinOp::Ge, tx, intImm(C)), producer, named.mutate(seq(consumer, k->span)), k->span));
                break;
            }
            // Producer branch first: the lockstep interpreter runs an if's branches in order, and
            // with one stage the refill of iteration k is the tile its consumers wait for.
            Stmt consumer = named.mutate(seq(cons, loop->span));
            Stmt split = prod.empty() ? ifThen(isConsumer, consumer, nullptr, loop->span)
                                      : ifThen(binary(BinOp::Ge, tx, intImm(C)), seq(prod, loop->span), consumer, loop->span);
            Attrs la = loop->attrs;
            la["warp_specialized"] = true;
            out.push_back(forLoop(loop->var, loop->min, loop->extent, loop->forKind, split, la, loop->span));
        }
        flush();
        // The producer must not read what only consumers compute (a scalar set before the loop).
        std::set<const BufferNode*> consumerWritten, producerRead;
        for (auto& x : consumerStmts)
            walk(x, [&](const Stmt& y) {
                if (auto* st = as<StoreNode>(y)) consumerWritten.insert(st->buffer.get());
            });
        for (auto& x : producerStmts)
            walk(x, [](const Stmt&) {}, [&](const Expr& e) {
                if (auto* l = as<LoadNode>(e)) producerRead.insert(l->buffer.get());
            });
        for (auto* b : producerRead)
            if (consumerWritten.count(b)) return self;
        changed = true;
        consumers = C;
        std::vector<int64_t> threads = k->threads;
        threads[0] = C + 128;
        return std::make_shared<KernelNode>(k->grid, threads, k->blockVars, k->threadVars, seq(out, k->span), k->span);
    }
};

}  // namespace

PrimFunc warpSpecialize(const PrimFunc& f, PassContext& ctx) {
    if (!ctx.target.hasWgmma() || !warpSpecializeEnabled()) return f;
    Specializer sp;
    Stmt body = sp.mutate(f->body);
    if (!sp.changed) return f;
    auto out = std::make_shared<PrimFuncNode>(*f);
    out->body = body;
    out->attrs["elected_thread"] = sp.consumers;
    out->attrs["ws_consumer_threads"] = sp.consumers;
    return out;
}

}  // namespace ts::xform
