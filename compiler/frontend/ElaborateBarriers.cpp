// Hand-written mbarrier schedules (LANGUAGE.md §3 "sync / Hopper"): T.alloc_barrier,
// T.barrier_arrive / T.mbarrier_arrive, T.barrier_wait / T.mbarrier_wait_parity,
// T.fence_proxy_async, T.set_max_nreg and the warp-role scope `with T.ws(i):`. They are
// thread-level (SIMT) code: every thread that reaches an arrive arrives once, a wait blocks the
// threads that reach it, so they elaborate straight to the sm_90a intrinsics the compiler's own
// TMA pipelines use (compiler/ir/Intrinsics.h), which codegen prints as mbarrier PTX
// (resources/ts_device/hopper.cuh) and both interpreters run on ThreadMachine's mbarrier model
// (ThreadHopper.cpp: arrival counts, phases, parity waits, a wait that can never complete is a
// deadlock diagnostic). A barrier needs sm_90 (mbarrier.try_wait.parity): other targets get a
// diagnostic from check-bounds (ThreadConditions.cpp).
//
// T.tma_copy(src, dst, barrier=b) is TileLang's producer half of a TMA load: expect_tx of the
// tile's bytes on b plus the bulk-tensor copy that delivers them, no arrival (the user arrives
// and waits). TileScope performs it as the executing threads' copy of the tile (a T.copy lowered
// for them, e.g. for a T.ws role) followed by fence.proxy.async, so that wgmma (async proxy) may
// read the tile. Announced and delivered bytes cancel, so b's phases complete exactly when its
// arrivals do, as in TileLang; the arrivals that the TileLang contract requires after the copy
// (T.barrier_arrive by the copying threads, release) order the data before the waiters, who
// acquire it. T.mbarrier_expect_tx(b, n) adds n transaction bytes per executing thread that
// nothing in TileScope's language delivers: the interpreters report the wait that never
// completes. Tile ops under a role (T.ws, `if tx < 128`) are lowered for the role's threads
// (compiler/transforms/WarpRoles.h).
#include <set>

#include "compiler/frontend/ElaborateOpsImpl.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/ir/IntrinsicsUserBarriers.h"

namespace ts::fe::elab {
using ir::DType;

namespace {

constexpr int64_t kWarpGroup = 128;  ///< threads of a warp group (T.ws's unit)

ir::Stmt intrinsic(const char* op, std::vector<ir::Expr> args, Span s) {
    return ir::evaluate(ir::call(op, std::move(args), DType::Int32, s), s);
}

/// The arrival counts of T.alloc_barrier: an int (one barrier) or a list of ints.
std::vector<int64_t> arriveCounts(const Value& v, Span s) {
    std::vector<int64_t> out;
    auto one = [&](const Value& x) {
        if (!x.isIntLike() || x.asInt() < 1 || x.asInt() > (1 << 20) - 1)
            throw CompileError(s, "T.alloc_barrier: an arrival count must be a compile-time int in "
                                  "[1, 2^20 - 1] (mbarrier's pending count), got " + repr(x));
        out.push_back(x.asInt());
    };
    if (v.isSequence()) {
        for (const Value& x : v.items()) one(x);
        if (out.empty()) throw CompileError(s, "T.alloc_barrier needs at least one arrival count");
    } else {
        one(v);
    }
    return out;
}

}  // namespace

ir::Expr barrierAddress(Elaborator& el, const Value& v, Span s, const std::string& fn) {
    ir::Expr load;
    if (auto* b = v.extAs<BufferValue>(); b && !b->isVar) {
        load = ir::load(b->buffer, {ir::intImm(0, s)}, s);
    } else if (v.is(ValueKind::Ext)) {
        load = el.toExpr(v, s, fn + " barrier");
    }
    auto* l = load ? ir::as<ir::LoadNode>(load) : nullptr;
    if (!l || l->buffer->scope != ir::Scope::Shared || l->buffer->dtype != DType::UInt64 ||
        l->indices.size() != 1)
        throw CompileError(s, fn + " takes a barrier of T.alloc_barrier (or one element of it), got " +
                                  (load ? "'" + typeName(v) + "'" : typeName(v)),
                           "bars = T.alloc_barrier([128] * 2) ... " + fn + "(bars[stage], ...)");
    // A constant index past the barriers T.alloc_barrier made would name another shared
    // variable (or none): the mbarrier operations on it are undefined.
    if (auto idx = ir::constInt(l->indices[0]); idx && !l->buffer->shape.empty())
        if (auto n = ir::constInt(l->buffer->shape[0]); n && (*idx < 0 || *idx >= *n))
            throw CompileError(s, fn + ": barrier index " + std::to_string(*idx) + " is out of range: '" + l->buffer->name +
                                      "' holds " + std::to_string(*n) + " barrier" + (*n == 1 ? "" : "s") +
                                      " (indices 0.." + std::to_string(*n - 1) + ")");
    return ir::call(ir::intrin::kAddressOf, {load}, DType::Int64, s);
}

void Elaborator::installBarriers() {
    // bars = T.alloc_barrier(arrive_count): mbarriers in shared memory (8 bytes each), barrier i
    // expecting arrive_count[i] arrivals per phase. Thread 0 initialises them and the block
    // waits for that (bar.sync), as TileLang's lowering does before the kernel body.
    defineT("alloc_barrier", [](Elaborator& el, CallArgs& a) {
        auto b = a.bind({"arrive_count"}, 1);
        el.requireKernel(a.span, "T.alloc_barrier");
        // Its initialisation ends with a block barrier (bar.sync) every thread must reach (found
        // by fuzz_meta: an alloc_barrier moved into a warp role's branch gave IR the verifier
        // rejects, an internal error).
        if (el.threadDivergent())
            throw CompileError(a.span,
                               "T.alloc_barrier inside thread-dependent control flow: its initialisation "
                               "waits for every thread of the block, and not every thread gets here",
                               "allocate the barriers at the top of the kernel, before the 'if' on the "
                               "thread index (as TileLang's examples do)");
        std::vector<int64_t> counts = arriveCounts(b[0], b.spans[0]);
        ir::Buffer bars = el.allocate(ir::Scope::Shared, {ir::intImm(int64_t(counts.size()))},
                                      DType::UInt64, a.span, "T.alloc_barrier");
        for (size_t i = 0; i < counts.size();) {
            size_t j = i;
            while (j < counts.size() && counts[j] == counts[i]) ++j;
            el.emit(intrinsic(ir::intrin::kMbarrierInit,
                              {ir::call(ir::intrin::kAddressOf,
                                        {ir::load(bars, {ir::intImm(int64_t(i), a.span)}, a.span)},
                                        DType::Int64, a.span),
                               ir::intImm(int64_t(j - i), a.span), ir::intImm(counts[i], a.span)},
                              a.span));
            i = j;
        }
        el.emit(intrinsic(ir::intrin::kSyncThreads, {}, a.span));
        el.funcAttrs()["explicit_mbarriers"] = int64_t(1);
        return Value::ext(std::make_shared<BufferValue>(bars, false));
    });
    // One arrival of every thread that executes it (mbarrier.arrive; release semantics).
    for (const char* n : {"barrier_arrive", "mbarrier_arrive"}) {
        std::string name = n;
        defineT(n, [name](Elaborator& el, CallArgs& a) {
            auto b = a.bind({name == "barrier_arrive" ? "barrier_id" : "mbarrier"}, 1);
            el.requireKernel(a.span, "T." + name);
            el.emit(intrinsic(ir::intrin::kMbarrierArrive,
                              {barrierAddress(el, b[0], b.spans[0], "T." + name)}, a.span));
            return Value::none();
        });
    }
    // Every thread that executes it waits until the barrier's phase of this parity completed
    // (mbarrier.try_wait.parity: phase k has parity k % 2; a fresh barrier's parity-1 phase
    // counts as completed, which is how producers skip their first "slot free" wait).
    for (const char* n : {"barrier_wait", "mbarrier_wait_parity"}) {
        std::string name = n;
        defineT(n, [name](Elaborator& el, CallArgs& a) {
            auto b = a.bind({name == "barrier_wait" ? "barrier_id" : "mbarrier", "parity"}, 2);
            el.requireKernel(a.span, "T." + name);
            ir::Expr addr = barrierAddress(el, b[0], b.spans[0], "T." + name);
            ir::Expr parity = el.toExprLike(b[1], DType::Int32, b.spans[1], "T." + name + " parity");
            if (!ir::isInt(parity->dtype))
                throw CompileError(b.spans[1], "T." + name + ": the parity must be an integer");
            el.emit(intrinsic(ir::intrin::kMbarrierWait, {addr, parity}, a.span));
            return Value::none();
        });
    }
    // T.sync_grid(): a barrier across every block of the grid (cooperative launch). Every thread
    // of the block must reach it, as for __syncthreads, so not under a thread-dependent `if` or
    // loop; inside T.Parallel it splits the loop (Elaborator::buildLoop). The kernel is marked
    // "cooperative": launched with cuLaunchCooperativeKernel, all blocks co-resident.
    defineT("sync_grid", [](Elaborator& el, CallArgs& a) {
        a.bind({}, 0);
        el.requireKernel(a.span, "T.sync_grid");
        if (el.threadDivergent())
            throw CompileError(a.span,
                               "T.sync_grid inside thread-dependent control flow: the grid barrier "
                               "waits for every thread of every block, and not every thread of this "
                               "block gets here (it would deadlock)",
                               "move T.sync_grid out of the `if`/loop whose condition reads the "
                               "thread index, to where every thread of the block runs it");
        el.emit(intrinsic(ir::intrin::kSyncGrid, {}, a.span));
        el.funcAttrs()["cooperative"] = int64_t(1);
        return Value::none();
    });
    // Programmatic dependent launch (PTX ISA §9.7.13.8 griddepcontrol, sm_90): T.pdl_trigger()
    // lets the next kernel of the stream start (griddepcontrol.launch_dependents), T.pdl_sync()
    // waits for the kernels before this one to finish and their writes to be visible
    // (griddepcontrol.wait). ts::pdl_* (resources/ts_device.cuh) are no-ops below sm_90 and on HIP,
    // as on the interpreters (kernels run one after another). TileScope's launcher does not set
    // the programmatic-serialization attribute, so on the GPU, too, each kernel starts after the
    // one before it ends: correct, without the overlap.
    for (const char* n : {"pdl_trigger", "pdl_sync"}) {
        const std::string name = n;
        defineT(name, [name](Elaborator& el, CallArgs& a) {
            a.bind({}, 0);
            el.requireKernel(a.span, "T." + name);
            el.emit(intrinsic(name.c_str(), {}, a.span));
            return Value::none();
        });
    }
    defineT("fence_proxy_async", [](Elaborator& el, CallArgs& a) {
        a.bind({}, 0);
        el.requireKernel(a.span, "T.fence_proxy_async");
        el.emit(intrinsic(ir::intrin::kFenceProxyAsync, {}, a.span));
        return Value::none();
    });
    // T.set_max_nreg(count, increase): setmaxnreg.inc/dec for the executing warp group (every
    // thread of a warp group must execute it). Registers only: no effect on the interpreters.
    defineT("set_max_nreg", [](Elaborator& el, CallArgs& a) {
        auto b = a.bind({"reg_count", "is_inc"}, 2);
        el.requireKernel(a.span, "T.set_max_nreg");
        if (!b[0].isIntLike() || b[0].asInt() < 24 || b[0].asInt() > 256 || b[0].asInt() % 8)
            throw CompileError(b.spans[0],
                               "T.set_max_nreg: the register count must be a compile-time multiple "
                               "of 8 in [24, 256] (setmaxnreg), got " + repr(b[0]));
        if (!b[1].isIntLike() || (b[1].asInt() != 0 && b[1].asInt() != 1))
            throw CompileError(b.spans[1], "T.set_max_nreg: is_inc must be 0 (release) or 1 (grow)");
        el.emit(intrinsic(ir::intrin::kSetMaxNreg,
                          {ir::intImm(b[0].asInt(), a.span), ir::intImm(b[1].asInt(), a.span)},
                          a.span));
        return Value::none();
    });
    // T.tma_copy(src, dst, barrier=b): see the header comment. TMA needs sm_90 (check-bounds
    // reports other targets through the function attr explicit_tma). Multicast over a cluster
    // (cluster_mask) has no meaning in a one-block launch.
    defineT("tma_copy", [](Elaborator& el, CallArgs& a) {
        el.requireKernel(a.span, "T.tma_copy");
        CallArgs copy;
        copy.pos = a.pos, copy.posSpans = a.posSpans, copy.span = a.span, copy.callee = "T.tma_copy";
        static const std::set<std::string> kIgnored{"leader_scope_threads", "eviction_policy", "annotations"};
        // A load (global -> shared) needs the mbarrier its bytes complete on; opCopy checks
        // the direction, the dtypes and this once the regions are known.
        const Value* bar = a.keyword("barrier");
        if (!bar || bar->isNone()) copy.callee = "T.tma_copy (no barrier)";
        for (size_t i = 0; i < a.kw.size(); ++i) {
            const auto& [k, v] = a.kw[i];
            const Span at = i < a.kwSpans.size() ? a.kwSpans[i] : a.span;
            if (k == "barrier") {
                if (!v.isNone()) barrierAddress(el, v, at, "T.tma_copy");
            } else if (k == "cluster_mask") {
                if (!v.isNone())
                    throw CompileError(at, "T.tma_copy: TMA multicast (cluster_mask) needs a thread-block cluster, "
                                           "which TileScope does not launch",
                                       "drop cluster_mask: each block loads its own tile");
            } else if (!kIgnored.count(k)) {
                copy.kw.push_back(a.kw[i]);
                copy.kwSpans.push_back(at);
            }
        }
        elaborateCopy(el, copy);
        el.emit(intrinsic(ir::intrin::kFenceProxyAsync, {}, a.span));
        el.funcAttrs()["explicit_tma"] = int64_t(1);
        return Value::none();
    });
    // T.mbarrier_expect_tx(b, bytes): every executing thread adds `bytes` to b's current phase.
    defineT("mbarrier_expect_tx", [](Elaborator& el, CallArgs& a) {
        auto b = a.bind({"mbarrier", "tx"}, 2);
        el.requireKernel(a.span, "T.mbarrier_expect_tx");
        ir::Expr addr = barrierAddress(el, b[0], b.spans[0], "T.mbarrier_expect_tx");
        ir::Expr bytes = el.toExprLike(b[1], DType::Int32, b.spans[1], "T.mbarrier_expect_tx bytes");
        if (!ir::isInt(bytes->dtype))
            throw CompileError(b.spans[1], "T.mbarrier_expect_tx: the transaction byte count must be an integer");
        el.emit(intrinsic(ir::intrin::kMbarrierExpectTxOnly, {addr, bytes}, a.span));
        return Value::none();
    });
    // Register hints of TileLang's warp-specialization pass (it turns them into setmaxnreg in the
    // producer / consumer branch it makes). TileScope keeps the block's register allocation:
    // accepted and ignored, as T.no_set_max_nreg is.
    for (const char* n : {"annotate_producer_reg_dealloc", "annotate_consumer_reg_alloc"}) {
        std::string name = n;
        defineT(n, [name](Elaborator& el, CallArgs& a) {
            auto b = a.bind({"reg_count"}, 0);
            el.requireKernel(a.span, "T." + name);
            if (b.has(0) && !b[0].isIntLike())
                throw CompileError(b.spans[0], "T." + name + ": the register count must be a compile-time int");
            return Value::none();
        });
    }
    // T.wgmma_gemm(A, B, C, ...): TileLang's wgmma without the implicit wait (the user waits
    // with T.wait_wgmma). TileScope issues it as T.gemm, whose lowering waits for its result
    // (wgmma on sm_90a where the operands qualify, else mma.sync), so T.wait_wgmma(n) has
    // nothing left to wait for.
    defineT("wgmma_gemm", [](Elaborator& el, CallArgs& a) {
        CallArgs g;
        g.pos = a.pos, g.posSpans = a.posSpans, g.span = a.span, g.callee = "T.wgmma_gemm";
        for (size_t i = 0; i < a.kw.size(); ++i)
            if (a.kw[i].first != "annotations") {
                g.kw.push_back(a.kw[i]);
                g.kwSpans.push_back(i < a.kwSpans.size() ? a.kwSpans[i] : a.span);
            }
        return elaborateGemm(el, g);
    });
    defineT("wait_wgmma", [](Elaborator& el, CallArgs& a) {
        auto b = a.bind({"id"}, 1);
        el.requireKernel(a.span, "T.wait_wgmma");
        if (!b[0].isIntLike() || b[0].asInt() < 0)
            throw CompileError(b.spans[0], "T.wait_wgmma: the number of wgmma groups left pending must be a compile-time int >= 0");
        return Value::none();
    });
    // T.ptx_commit_group() / T.ptx_wait_group(n): cp.async.commit_group / wait_group n of the
    // executing thread (no-ops around synchronous stores; they order TileScope's own cp.async).
    defineT("ptx_commit_group", [](Elaborator& el, CallArgs& a) {
        a.bind({}, 0);
        el.requireKernel(a.span, "T.ptx_commit_group");
        el.emit(intrinsic(ir::intrin::kCpAsyncCommit, {}, a.span));
        return Value::none();
    });
    defineT("ptx_wait_group", [](Elaborator& el, CallArgs& a) {
        auto b = a.bind({"num"}, 1);
        el.requireKernel(a.span, "T.ptx_wait_group");
        if (!b[0].isIntLike() || b[0].asInt() < 0 || b[0].asInt() > 7)
            throw CompileError(b.spans[0], "T.ptx_wait_group: the number of cp.async groups left pending must be a compile-time int in [0, 7] (cp.async.wait_group's immediate), got " + repr(b[0]));
        el.emit(intrinsic(ir::intrin::kCpAsyncWait, {ir::intImm(b[0].asInt(), a.span)}, a.span));
        return Value::none();
    });
    // `with T.ws(i, ...):` the statements run by warp group(s) i (threads 128*i .. 128*i+127):
    // an `if` on the thread index (Elaborate.cpp execWith).
    defineT("ws", [](Elaborator& el, CallArgs& a) {
        el.requireKernel(a.span, "T.ws");
        if (a.pos.empty() || !a.kw.empty())
            throw CompileError(a.span, "T.ws takes the warp group indices, e.g. T.ws(0) or T.ws(1, 2)");
        const auto& tv = el.kernelThreadVars();
        if (tv.empty()) throw CompileError(a.span, "T.ws needs the kernel's thread index");
        const int64_t groups = (el.kernelThreads() + kWarpGroup - 1) / kWarpGroup;
        ir::Expr group = ir::floordiv(tv[0], ir::intImm(kWarpGroup, a.span));
        ir::Expr cond;
        for (size_t i = 0; i < a.pos.size(); ++i) {
            if (!a.pos[i].isIntLike() || a.pos[i].asInt() < 0 || a.pos[i].asInt() >= groups)
                throw CompileError(a.argSpan(i), "T.ws: warp group " + repr(a.pos[i]) +
                                                     " does not exist in a block of " +
                                                     std::to_string(el.kernelThreads()) +
                                                     " threads (" + std::to_string(groups) +
                                                     " warp groups of 128)");
            ir::Expr c = ir::binary(ir::BinOp::Eq, group, ir::intImm(a.pos[i].asInt(), a.span), a.span);
            cond = cond ? ir::binary(ir::BinOp::Or, cond, c, a.span) : c;
        }
        return Value::ext(std::make_shared<WarpRoleScope>(cond));
    });
}

}  // namespace ts::fe::elab
