// buildHopperTimeline (HopperTimeline.h): the IR walk that turns the lowered sm_90a kernel into
// one trace per warp role; BarrierSchedule.cpp runs the traces together.
#include "compiler/analysis/HopperTimeline.h"

#include <algorithm>
#include <deque>
#include <map>
#include <unordered_map>

#include "compiler/analysis/BarrierSchedule.h"
#include "compiler/analysis/HopperOccupancy.h"
#include "compiler/analysis/HopperWarpRoles.h"
#include "compiler/analysis/TraceFormat.h"
#include "compiler/ir/Builder.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/ir/IntrinsicsUserBarriers.h"
#include "compiler/ir/Printer.h"
#include "compiler/ir/Views.h"

namespace ts::analysis {
using namespace ts::ir;
using barriers::Op;
using barriers::RoleTrace;
using barriers::TraceOp;

namespace {

const CallNode* callOf(const Stmt& s) {
    auto* ev = as<EvalNode>(s);
    return ev ? dynamic_cast<const CallNode*>(ev->call.get()) : nullptr;
}

/// The intrinsics the schedule is made of; a statement without any is one Compute event.
bool scheduleOp(const std::string& op) {
    using namespace intrin;
    return op == kMbarrierInit || op == kMbarrierExpectTx || op == kMbarrierArrive || op == kCpAsyncArriveNoinc || op == kMbarrierWait ||
           op == kTmaLoad || op == kWgmmaSS || op == kWgmmaRS || op == kWgmmaWait || op == kSyncThreads ||
           op == kMbarrierExpectTxOnly || op == kTmaStore || op == kTmaReduceAdd || op == kTmaStoreWait;
}

/// Intrinsics that write shared memory through an address argument (their first): with plain
/// stores, what rewrites a TMA store's staging tile.
bool writesThroughFirstArg(const std::string& op) {
    using namespace intrin;
    return op == kCpAsync || op == kCopyVec || op == kStorePair || op == kZeroVec;
}

std::string oneLine(const Stmt& s) {
    std::string t = toString(s);
    size_t b = t.find_first_not_of(" \n");
    t = b == std::string::npos ? "" : t.substr(b);
    if (auto nl = t.find('\n'); nl != std::string::npos) t = t.substr(0, nl) + " ...";
    if (t.size() > 100) t = t.substr(0, 97) + "...";
    return t;
}

/// Static facts of the function shared by every role's walk.
struct Facts {
    int64_t electedThread = 0;
    std::map<const BufferNode*, int64_t> stageElems;  ///< TMA-loaded tile -> elements of one stage
    std::unordered_map<const StmtNode*, bool> relevant;
    /// "bar[i]" -> (stage i - b, group size n) of tl.mbarrier_init(bar[b], n): from the IR, not
    /// from a role's walk (a consumer role does not execute the elected init).
    std::map<std::string, std::pair<int64_t, int64_t>> stageOfBar;
    /// Tensor map index -> the global tensor it describes (PrimFunc attr "tma_map.<i>" = {param, ...}).
    std::map<int64_t, std::string> tmaTensor;
    /// Shared storage each statement reads (plainReads), cached.
    std::unordered_map<const StmtNode*, std::vector<std::string>> reads;
    const PrimFuncNode* func = nullptr;

    /// The shared tile whose bytes `b` names: the viewed tile for a T.view of one (a copy into
    /// the view fills the tile that statements read by its own name), else `b`.
    std::string storage(const BufferNode& b) const { return func ? storageName(*func, b) : b.name; }

    /// A plain T.copy's mbarrier "tma_copy_bar_<n>[0]": CopyTma.cpp gives each TMA-lowered copy
    /// its own one-slot barrier of that name (PlanSharedMemory.cpp knows them by it too), so its
    /// loads are no stage of a T.Pipelined loop.
    bool plainBar(const std::string& bar) const {
        if (bar.rfind("tma_copy_bar", 0) != 0) return false;
        auto it = stageOfBar.find(bar);
        return it == stageOfBar.end() || it->second.second == 1;
    }
};

/// Shared storage `s` reads (Facts::storage): loads, and addresses passed to calls other than
/// as the destination of an intrinsic that writes through its first argument.
std::vector<std::string> plainReads(const Facts& facts, const Stmt& s) {
    std::vector<std::string> out;
    std::vector<const ExprNode*> written;
    walk(
        s,
        [&](const Stmt& x) {
            auto* c = callOf(x);
            if (!c || !writesThroughFirstArg(c->op) || c->args.empty()) return;
            auto* a = as<CallNode>(c->args[0]);
            if (a && a->op == intrin::kAddressOf && !a->args.empty()) written.push_back(a->args[0].get());
        },
        [&](const Expr& e) {
            auto* ld = as<LoadNode>(e);
            if (!ld || ld->buffer->scope != Scope::Shared || std::find(written.begin(), written.end(), e.get()) != written.end()) return;
            const std::string name = facts.storage(*ld->buffer);
            if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
        });
    return out;
}

class RoleWalker {
public:
    RoleWalker(Facts& facts, std::unordered_map<const VarNode*, int64_t> env, int64_t tx, TimelineRole role)
        : m_facts(facts), m_env(std::move(env)), m_tx(tx) {
        m_trace.role = std::move(role);
    }

    /// One-iteration loop (not in the lowered IR): iteration 0 spans the statements from the
    /// first consumer wait through the planned body's last line.
    void setSingleTrip(const PlannedLoop& p) { m_single = m_singleInfo = p; }
    /// A kernel without a T.Pipelined loop: its statements are shown in program order, compute
    /// included (only the pipelined loop's compute was shown, so a plain-copy kernel's timeline
    /// had its waits but not what they waited for).
    void setPlain(bool p) { m_plain = p; }
    /// The kernel's thread index variable (executingThreads counts over it).
    void setThreadVar(const VarNode* tx) { m_txVar = tx; }

    RoleTrace take(std::vector<std::string>& notes, PipelineTimeline& loopInfo) {
        flushReleases(TimelinePhase::Epilogue, -1, m_lastSpan);
        for (auto& [buf, i] : m_plainOpen) m_plainTiles[i].releaseStep = m_plainTiles[i].lastRead;
        m_plainOpen.clear();
        exitChecks();
        for (auto& n : m_notes) notes.push_back(n);
        if (m_singleInfo && loopInfo.tripCount == 0) {
            loopInfo.loopSpan = m_singleInfo->span;
            loopInfo.loopVar = m_singleInfo->var;
            loopInfo.tripCount = 1;
        }
        if (m_pipe && loopInfo.tripCount == 0) {
            loopInfo.loopSpan = m_pipe->span;
            loopInfo.loopVar = m_pipe->var->name;
            loopInfo.tripCount = m_trips;
            loopInfo.warpSpecialized = attrBool(m_pipe->attrs, "warp_specialized", false);
        }
        if (m_stages > loopInfo.stages) loopInfo.stages = m_stages;
        return std::move(m_trace);
    }

    void stmt(const Stmt& s) {
        if (!s) return;
        if (m_trace.ops.size() > size_t(m_maxOps)) {
            note(s->span, "the schedule has more than " + std::to_string(m_maxOps) + " events per role; the rest is not modelled");
            return;
        }
        if (m_single && m_inPipe && !as<SeqNode>(s) && s->span.valid() &&
            (s->span.line < m_single->span.line || s->span.line > m_single->lastBodyLine)) {
            m_inPipe = false, m_afterPipe = true, m_iter = -1;  // past the single iteration
            m_single.reset();
        }
        if (auto* c = callOf(s); c && c->op == trace::kTraceStampOp) return;  // tilec trace's probes
        // One-element integer locals the compiler keeps a wait's parity in (CopyTma.cpp's
        // tma_copy_phase, flipped after each wait of a copy under a condition or in a loop the
        // timeline does not unroll by iteration): their values, so such a wait's parity is known.
        if (auto* st = as<StoreNode>(s); st && st->buffer->scope == Scope::Local && isInt(st->buffer->dtype) &&
                                         st->buffer->shape.size() == 1 && constInt(st->buffer->shape[0]).value_or(0) == 1) {
            if (auto v = eval(st->value)) m_locals[st->buffer.get()] = *v;
            else m_locals.erase(st->buffer.get());
        }
        if (!relevant(s)) {
            // A plain kernel's allocations and proxy fences are not work the timeline times.
            if (m_inPipe || (m_plain && !as<AllocNode>(s) && !isFence(s))) compute(s);
            return;
        }
        if (auto* sq = as<SeqNode>(s)) {
            for (size_t i = 0; i < sq->stmts.size(); ++i) {
                stmt(sq->stmts[i]);
                // The in-flight schedule (InjectPipelineTmaFragment.cpp) peels its last iteration
                // (the gemms waited to completion) right after the loop: it is iteration n-1 of
                // the pipeline, not epilogue work (it read "wgmma k=-1" and left its tile unreleased).
                // Simplify flattens it into the statements after the loop: its wait on a full
                // barrier and its gemms, up to the first other statement.
                auto* f = as<ForNode>(sq->stmts[i]);
                auto peeled = [&](const Stmt& x) {
                    auto* c = callOf(x);
                    if (!c) return false;
                    if (c->op == intrin::kWgmmaSS || c->op == intrin::kWgmmaRS) return true;
                    return c->op == intrin::kMbarrierWait && !c->args.empty() && barName(c->args[0], x->span).rfind("tma_full[", 0) == 0;
                };
                if (f && m_pipe == f && !m_inPipe && attrInt(f->attrs, "wgmma_inflight", 0) > 0 && i + 1 < sq->stmts.size() &&
                    peeled(sq->stmts[i + 1])) {
                    m_inPipe = true, m_afterPipe = false, m_iter = m_iterBase + m_trips;
                    ++m_trips;
                    while (i + 1 < sq->stmts.size() && peeled(sq->stmts[i + 1])) stmt(sq->stmts[++i]);
                    m_inPipe = false, m_afterPipe = true, m_iter = -1;
                }
            }
        } else if (auto* i = as<IfNode>(s)) {
            auto c = eval(i->cond);
            if (!c) {
                note(i->span, "the condition '" + toString(i->cond) + "' is not known statically; its then-branch is modelled");
                c = 1;
            }
            // The thread conditions around a hand-written expect_tx say how many of the
            // role's threads add its bytes.
            m_conds.push_back(*c ? i->cond : unary(UnOp::Not, i->cond));
            stmt(*c ? i->then : i->otherwise);
            m_conds.pop_back();
        } else if (auto* f = as<ForNode>(s)) {
            loop(*f);
        } else if (auto* k = as<KernelNode>(s)) {
            stmt(k->body);
        } else if (auto* c = callOf(s)) {
            intrinsic(*c, s);
        }
    }
    int64_t m_maxOps = 200000;

private:
    bool relevant(const Stmt& s) {
        auto it = m_facts.relevant.find(s.get());
        if (it != m_facts.relevant.end()) return it->second;
        bool any = false;
        walk(s, [&](const Stmt& x) {
            if (auto* c = callOf(x); c && scheduleOp(c->op)) any = true;
        });
        return m_facts.relevant[s.get()] = any;
    }

    void note(const Span& sp, const std::string& msg) {
        std::string n = "line " + std::to_string(sp.line) + ": " + msg;
        for (auto& x : m_notes)
            if (x == n) return;
        m_notes.push_back(n);
    }

    std::optional<int64_t> eval(const Expr& e) {
        if (!e) return std::nullopt;
        switch (e->kind) {
            case ExprKind::IntImm: return as<IntImmNode>(e)->value;
            case ExprKind::Var: {
                auto it = m_env.find(static_cast<const VarNode*>(e.get()));
                if (it == m_env.end()) return std::nullopt;
                return it->second;
            }
            case ExprKind::Binary: {
                auto* b = static_cast<const BinaryNode*>(e.get());
                auto x = eval(b->a);
                if (b->op == BinOp::And && x && !*x) return 0;
                if (b->op == BinOp::Or && x && *x) return 1;
                auto y = eval(b->b);
                if (!x || !y) return std::nullopt;
                if (b->op == BinOp::And) return int64_t(*x && *y);
                if (b->op == BinOp::Or) return int64_t(*x || *y);
                return foldInt(b->op, *x, *y);
            }
            case ExprKind::Unary: {
                auto* u = static_cast<const UnaryNode*>(e.get());
                auto x = eval(u->a);
                if (!x) return std::nullopt;
                if (u->op == UnOp::Neg) return -*x;
                if (u->op == UnOp::Not) return int64_t(!*x);
                return ~*x;
            }
            case ExprKind::Select: {
                auto* s = static_cast<const SelectNode*>(e.get());
                auto c = eval(s->cond);
                if (!c) return std::nullopt;
                return eval(*c ? s->t : s->f);
            }
            case ExprKind::Cast: return eval(static_cast<const CastNode*>(e.get())->value);
            case ExprKind::Load: {
                auto it = m_locals.find(static_cast<const LoadNode*>(e.get())->buffer.get());
                if (it == m_locals.end()) return std::nullopt;
                return it->second;
            }
            default: return std::nullopt;
        }
    }

    /// (buffer, flat element index) of tl.address_of(buffer[idx...]).
    std::pair<const BufferNode*, std::optional<int64_t>> address(const Expr& e) {
        auto* c = as<CallNode>(e);
        auto* ld = c && c->op == intrin::kAddressOf && !c->args.empty() ? as<LoadNode>(c->args[0]) : nullptr;
        if (!ld) return {nullptr, std::nullopt};
        auto shape = constShape(*ld->buffer);
        int64_t flat = 0;
        for (size_t d = 0; d < ld->indices.size(); ++d) {
            auto v = eval(ld->indices[d]);
            if (!v) return {ld->buffer.get(), std::nullopt};
            int64_t extent = shape && d < shape->size() && ld->indices.size() == shape->size() ? (*shape)[d] : 1;
            flat = flat * extent + *v;
        }
        return {ld->buffer.get(), flat};
    }

    std::string barName(const Expr& addr, const Span& sp) {
        auto [buf, idx] = address(addr);
        if (!buf) return "?";
        if (!idx) {
            note(sp, "an mbarrier index is not known statically; index 0 is modelled");
            idx = 0;
        }
        return buf->name + "[" + std::to_string(*idx) + "]";
    }
    /// Stage of barrier `name` within its init group (tl.mbarrier_init(bar[b], n) covers b..b+n-1).
    std::pair<int64_t, int64_t> stageOf(const std::string& name) {
        auto it = m_facts.stageOfBar.find(name);
        return it == m_facts.stageOfBar.end() ? std::pair<int64_t, int64_t>{-1, 1} : it->second;
    }

    TimelinePhase phase() const { return m_inPipe ? TimelinePhase::Steady : m_afterPipe ? TimelinePhase::Epilogue : TimelinePhase::Prologue; }

    TimelineEvent& event(TimelineEventKind k, std::string label, const Stmt& s, TraceOp op) {
        auto& evs = m_trace.role.events;
        TimelineEvent e;
        e.kind = k;
        e.phase = phase();
        e.step = int64_t(evs.size());
        e.iteration = m_inPipe ? m_iter : m_plain ? m_plainIter : -1;
        e.label = std::move(label);
        e.irStmt = oneLine(s);
        e.span = s->span;
        e.barrier = op.bar;
        op.event = int(evs.size());
        op.span = s->span;
        m_lastSpan = s->span;
        evs.push_back(std::move(e));
        m_trace.ops.push_back(std::move(op));
        return evs.back();
    }

    static bool isFence(const Stmt& s) {
        auto* c = callOf(s);
        return c && c->op == intrin::kFenceProxyAsync;
    }

    void compute(const Stmt& s) {
        std::string what = oneLine(s);
        auto& e = event(TimelineEventKind::Compute, "compute: " + what, s, {});
        e.tile = m_iter;
        const int64_t step = e.step;
        if (!m_plainOpen.empty()) {
            auto it = m_facts.reads.find(s.get());
            if (it == m_facts.reads.end()) it = m_facts.reads.emplace(s.get(), plainReads(m_facts, s)).first;
            for (auto& b : it->second) plainRead(b, step);
        }
        if (!m_bulk.empty()) stagingRewrite(s, step);
    }

    /// Event `step` reads shared buffer `buf`: a plain copy's tile there is held up to it.
    void plainRead(const std::string& buf, int64_t step) {
        if (auto it = m_plainOpen.find(buf); it != m_plainOpen.end()) m_plainTiles[it->second].lastRead = step;
    }
    /// The tile `buf` holds since an earlier plain copy is refilled by a copy issued at `step`:
    /// it is released at its last read, or at this issue when nothing read it.
    void plainRefill(const std::string& buf, int64_t step) {
        auto it = m_plainOpen.find(buf);
        if (it == m_plainOpen.end()) return;
        auto& t = m_plainTiles[it->second];
        t.releaseStep = t.lastRead >= 0 ? t.lastRead : step;
        m_plainOpen.erase(it);
    }

    /// Shared buffers `s` writes (stores, and the intrinsics that write through an address).
    static std::vector<std::string> writtenBuffers(const Stmt& s) {
        std::vector<std::string> out;
        auto add = [&](const BufferNode* b) {
            if (b && b->scope == Scope::Shared && std::find(out.begin(), out.end(), b->name) == out.end()) out.push_back(b->name);
        };
        walk(s, [&](const Stmt& x) {
            if (auto* st = as<StoreNode>(x)) add(st->buffer.get());
            auto* c = callOf(x);
            if (!c || !writesThroughFirstArg(c->op) || c->args.empty()) return;
            auto* a = as<CallNode>(c->args[0]);
            auto* ld = a && a->op == intrin::kAddressOf && !a->args.empty() ? as<LoadNode>(a->args[0]) : nullptr;
            if (ld) add(ld->buffer.get());
        });
        return out;
    }

    /// Event `step` (statement `s`) rewrites shared memory: if that is the staging tile of an
    /// earlier TMA store, the store's bulk-group read wait and a block barrier must come first
    /// (cp.async.bulk.wait_group.read, PTX ISA §9.7.9.27: before it the bulk copy may still be
    /// reading the tile). The first such write after them is the reuse the wait orders.
    void stagingRewrite(const Stmt& s, int64_t step) {
        auto written = writtenBuffers(s);
        for (auto& g : m_bulk) {
            if (g.reuseStep >= 0 || g.flagged || std::find(written.begin(), written.end(), g.buffer) == written.end()) continue;
            if (g.freeStep < 0) {
                g.flagged = true;
                m_bulkIssues.push_back(
                    {s->span, "bulk group " + std::to_string(g.group),
                     "the staging tile " + g.buffer + " is rewritten here (" + (m_iter >= 0 ? "iteration " + std::to_string(m_iter) : "outside the loop") +
                         ") while the " + (g.reduceAdd ? "TMA reduce-add" : "TMA store") + " of bulk group " + std::to_string(g.group) + " (line " +
                         std::to_string(g.span.line) + (g.iteration >= 0 ? ", iteration " + std::to_string(g.iteration) : "") +
                         ") may still be reading it: " +
                         (g.readStep < 0 ? "no cp.async.bulk.wait_group.read covers that group before this write"
                                         : "no block barrier after its cp.async.bulk.wait_group.read orders the other threads' writes"),
                     true});
                continue;
            }
            g.reuseStep = step, g.reuseIteration = m_iter, g.reuseSpan = s->span;
            auto& w = m_trace.role.events[size_t(g.readStep)];
            w.label += "; orders " + (m_iter >= 0 ? "iteration " + std::to_string(m_iter) + "'s" : std::string("the")) + " rewrite of " + g.buffer +
                       " (line " + std::to_string(s->span.line) + ") after the barrier at line " +
                       std::to_string(m_trace.role.events[size_t(g.freeStep)].span.line);
        }
    }

    /// Bulk groups still pending when the role's walk ends (the block exits).
    void exitChecks() {
        for (auto& g : m_bulk) {
            const std::string what = std::string(g.reduceAdd ? "the TMA reduce-add" : "the TMA store") + " of " + g.buffer + " into " + g.tensor +
                                     " (bulk group " + std::to_string(g.group) + ")";
            if (g.readStep < 0)
                m_bulkIssues.push_back({g.span, "bulk group " + std::to_string(g.group),
                                        what + " may still be reading shared memory when the block exits: no cp.async.bulk.wait_group "
                                               "covers it (its tile can be reused by the next block on the SM)",
                                        true});
            else if (g.completeStep < 0)
                m_bulkIssues.push_back({g.span, "bulk group " + std::to_string(g.group),
                                        what + " is not waited for before the block exits (no cp.async.bulk.wait_group 0 without .read): "
                                               "its global writes are not known to be performed",
                                        false});
        }
    }

    void loop(const ForNode& f) {
        auto mn = eval(f.min), ext = eval(f.extent);
        if (!mn || !ext) {
            note(f.span, "the bounds of loop '" + f.var->name + "' are not known statically; its body is modelled once");
            mn = mn.value_or(0), ext = 1;
        }
        // The softmax-overlap schedule (TILESCOPE_HOPPER_SOFTMAX_OVERLAP=1) is a rotated loop with
        // its first and last iterations peeled: the model below numbers tiles by stage use, which
        // there is "K tile r with V tile r-1", and shows the peeled iterations outside the loop.
        if (attrBool(f.attrs, "softmax_overlap", false))
            note(f.span, "rotated softmax-overlap loop: each stage use r holds K tile r and V tile r-1, so 'tile k' below counts stage uses "
                         "and the peeled first and last iterations appear outside the loop (k=-1); which wgmma a wait_group retires is not "
                         "modelled for it; the barrier check (arrivals and bytes per phase) does not depend on either");
        // The same pipelined loop run again (inside an outer loop) is the pipeline again: its
        // iterations number on from the last trip's (as its tiles and barrier phases do), so its
        // stages are released and its events labelled like the first trip's.
        const bool again = m_pipe == &f && !m_inPipe;
        const bool pipe = attrBool(f.attrs, "tma_pipeline", false) && !m_inPipe && (!m_pipe || again);
        if (again) m_iterBase += m_trips;
        if (pipe) {
            m_pipe = &f;
            // A schedule whose consumers arrive on an empty mbarrier releases a stage there; a
            // block barrier in its body orders something else (the written-operand schedule's
            // dS^T stores before its gemm), after which wgmma still read the stage. Without
            // arrivals (the cp.async schedule's TMA loads) the block barrier is the release.
            m_arriveReleases = false;
            walk(f.body, [&](const Stmt& x) {
                if (auto* ev = as<EvalNode>(x))
                    if (auto* c = dynamic_cast<const CallNode*>(ev->call.get()); c && c->op == intrin::kMbarrierArrive) m_arriveReleases = true;
            });
            m_trips = *ext;
            m_inPipe = true;
        }
        // A kernel without a T.Pipelined loop: its outermost loop's iteration numbers the events
        // (the plain copies of one row tile, then the next), as a pipelined loop's do.
        const bool outer = m_plain && m_plainDepth++ == 0;
        for (int64_t i = 0; i < *ext; ++i) {
            m_env[f.var.get()] = *mn + i;
            if (pipe) m_iter = m_iterBase + i;
            if (outer) m_plainIter = i;
            stmt(f.body);
        }
        if (m_plain) --m_plainDepth;
        if (outer) m_plainIter = -1;
        m_env.erase(f.var.get());
        if (pipe) {
            m_inPipe = false;
            m_afterPipe = true;
            m_iter = -1;
        }
    }

    bool elected(const CallNode& c) const {
        using namespace intrin;
        if (c.op == kMbarrierInit || c.op == kMbarrierExpectTx || c.op == kTmaLoad) return true;
        if (c.op == kTmaStore || c.op == kTmaReduceAdd || c.op == kTmaStoreWait) return true;
        return c.op == kMbarrierWait && c.args.size() > 2 && constInt(c.args[2]).value_or(0) != 0;
    }

    void intrinsic(const CallNode& c, const Stmt& s) {
        using namespace intrin;
        const bool el = elected(c);
        if (el && m_tx != m_facts.electedThread) return;
        if (m_single && !m_pipe && !m_inPipe && !m_afterPipe && c.op == kMbarrierWait && !el)
            m_inPipe = true, m_iter = 0;
        const int64_t iter = m_inPipe ? m_iter : m_plain ? m_plainIter : -1;
        if (c.op == kMbarrierInit) {
            auto [buf, idx] = address(c.args.at(0));
            int64_t n = c.args.size() > 1 ? eval(c.args[1]).value_or(1) : 1;
            int64_t arrivals = c.args.size() > 2 ? eval(c.args[2]).value_or(1) : 1;
            for (int64_t j = 0; j < n && buf; ++j) {
                std::string name = buf->name + "[" + std::to_string(idx.value_or(0) + j) + "]";
                TraceOp op;
                op.op = Op::Init, op.bar = name, op.count = arrivals, op.span = s->span;
                m_trace.ops.push_back(op);
            }
        } else if (c.op == kMbarrierExpectTx) {
            TraceOp op;
            op.op = Op::ExpectTx, op.bar = barName(c.args.at(0), s->span), op.bytes = eval(c.args.at(1)).value_or(0);
            auto [stage, S] = stageOf(op.bar);
            int64_t tile = stage >= 0 ? m_uses[op.bar]++ * S + stage : -1;
            m_lastTile[op.bar] = tile;
            const bool plain = m_facts.plainBar(op.bar);
            auto& e = event(TimelineEventKind::ExpectTx,
                            "expect_tx " + op.bar + " " + std::to_string(op.bytes) + " B (tile k=" + std::to_string(tile) + ")", s, op);
            e.bytes = op.bytes, e.stage = stage, e.tile = tile, e.elected = true, e.iteration = iter;
            if (plain) {
                // The barrier's next copy: the tile its previous copy filled is given up at the latest here.
                const int64_t step = e.step;
                m_plainExpect[op.bar] = step;
                std::vector<std::string> refilled;
                for (auto& [buf, i] : m_plainOpen)
                    if (m_plainTiles[i].barrier == op.bar) refilled.push_back(buf);
                for (auto& b : refilled) plainRefill(b, step);
            }
        } else if (c.op == kMbarrierExpectTxOnly) {
            // T.mbarrier_expect_tx(b, n): n bytes per executing thread, no arrival. Nothing the
            // language has delivers them (T.tma_copy's bytes cancel its own expect_tx), so a
            // phase armed with them never completes: the schedule reports the wait.
            TraceOp op;
            op.op = Op::ExpectBytes, op.bar = barName(c.args.at(0), s->span), op.span = s->span;
            op.bytes = eval(c.args.at(1)).value_or(0) * executingThreads();
            auto& e = event(TimelineEventKind::ExpectTx, "expect_tx " + op.bar + " " + std::to_string(op.bytes) + " B (hand-written)", s, op);
            e.bytes = op.bytes, e.iteration = iter;
        } else if (c.op == kTmaLoad) {
            TraceOp op;
            op.op = Op::TmaLoad, op.bar = barName(c.args.at(2), s->span);
            auto [buf, flat] = address(c.args.at(1));
            int64_t elems = 1;
            for (size_t a = 3; a <= 5 && a < c.args.size(); ++a) elems *= eval(c.args[a]).value_or(0);
            op.bytes = elems * (buf ? dtypeBytes(buf->dtype) : 0);
            auto [stage, S] = stageOf(op.bar);
            (void)S;
            auto lt = m_lastTile.find(op.bar);
            int64_t tile = lt != m_lastTile.end() ? lt->second : -1;
            std::string bn = buf ? buf->name : "?";
            auto& e = event(TimelineEventKind::TmaLoad,
                            "TMA " + bn + "[k=" + std::to_string(tile) + "] -> stage " + std::to_string(stage) + " on " + op.bar, s, op);
            e.bytes = op.bytes, e.stage = stage, e.tile = tile, e.elected = true, e.buffer = bn;
            if (buf && m_facts.plainBar(op.bar)) {
                const int64_t step = e.step;
                auto ex = m_plainExpect.find(op.bar);
                const int64_t issue = ex != m_plainExpect.end() ? ex->second : step;
                const std::string tileName = m_facts.storage(*buf);
                auto open = m_plainOpen.find(tileName);
                // A second box of the same copy (same expect_tx) fills the same tile.
                if (open == m_plainOpen.end() || m_plainTiles[open->second].issueStep != issue) {
                    plainRefill(tileName, issue);
                    PlainTile t;
                    t.buffer = tileName, t.barrier = op.bar, t.tile = m_plainCopies[tileName]++, t.issueStep = issue, t.span = s->span;
                    m_plainOpen[tileName] = m_plainTiles.size();
                    m_plainTiles.push_back(std::move(t));
                }
                // A plain copy is no stage: its events are numbered like its occupancy row, by the
                // copies into its buffer (two copy statements into one tile: k=0, k=1; each has a
                // barrier of its own, whose uses numbered both k=0).
                const int64_t k = m_plainTiles[m_plainOpen[tileName]].tile;
                e.tile = k;
                e.label = "TMA " + bn + "[k=" + std::to_string(k) + "] on " + op.bar;
                auto& evs = m_trace.role.events;
                if (issue >= 0 && issue < int64_t(evs.size()) && evs[size_t(issue)].kind == TimelineEventKind::ExpectTx) {
                    evs[size_t(issue)].tile = k;
                    evs[size_t(issue)].label = "expect_tx " + op.bar + " " + std::to_string(evs[size_t(issue)].bytes) + " B (" + tileName + " copy k=" +
                                               std::to_string(k) + ")";
                }
            }
        } else if (c.op == kMbarrierWait) {
            TraceOp op;
            op.op = Op::Wait, op.bar = barName(c.args.at(0), s->span);
            auto p = eval(c.args.at(1));
            if (!p) note(s->span, "the parity of a wait on " + op.bar + " is not known statically; 0 is modelled");
            op.parity = p.value_or(0) & 1;
            auto [stage, S] = stageOf(op.bar);
            (void)S;
            auto& e = event(TimelineEventKind::MbarWait, "wait " + op.bar + " parity " + std::to_string(op.parity), s, op);
            e.parity = op.parity, e.stage = stage, e.elected = el;
            if (m_facts.plainBar(op.bar))
                for (auto& [buf, i] : m_plainOpen)
                    if (m_plainTiles[i].barrier == op.bar && m_plainTiles[i].landedStep < 0) m_plainTiles[i].landedStep = e.step;
        } else if (c.op == kMbarrierArrive || c.op == kCpAsyncArriveNoinc) {
            TraceOp op;
            // A per-warp arrival (tl.mbarrier_arrive per_warp) is one arrival for each warp of the role.
            const bool perWarp = perWarpArrive(&c);
            op.op = Op::Arrive, op.bar = barName(c.args.at(0), s->span), op.count = m_trace.role.threads / (perWarp ? 32 : 1);
            auto [stage, S] = stageOf(op.bar);
            (void)S;
            auto& e = event(TimelineEventKind::MbarArrive,
                            "arrive " + op.bar + " (" + std::to_string(op.count) + (perWarp ? " warps)" : " threads)"), s, op);
            e.stage = stage, e.tile = iter;
            flushReleases(phase(), iter, s->span);
        } else if (c.op == kSyncThreads) {
            TraceOp op;
            op.op = Op::ThreadBarrier;
            op.barrierId = c.args.empty() ? 0 : eval(c.args[0]).value_or(0);
            op.count = c.args.size() > 1 ? eval(c.args[1]).value_or(0) : 0;
            std::string label = op.barrierId == 0 && op.count == 0 ? "barrier (all threads)"
                                                                   : "bar.sync " + std::to_string(op.barrierId) + ", " + std::to_string(op.count);
            op.bar = op.barrierId == 0 ? "" : "bar.sync " + std::to_string(op.barrierId);
            auto& be = event(TimelineEventKind::Barrier, label, s, op);
            // A block barrier after a bulk group's read wait lets every thread rewrite its tile.
            if (op.barrierId == 0 || op.count <= 0 || op.count >= m_trace.role.threads)
                for (auto& g : m_bulk)
                    if (g.readStep >= 0 && g.freeStep < 0) g.freeStep = be.step;
            if (!m_arriveReleases) flushReleases(phase(), iter, s->span);
        } else if (c.op == kTmaStore || c.op == kTmaReduceAdd) {
            // tl.tma_store / tl.tma_reduce_add(map, src_addr, rows, panel_elems, panels, coords...):
            // the bulk copies, then cp.async.bulk.commit_group (one group per op, Intrinsics.h).
            WalkGroup g;
            g.group = int64_t(m_bulk.size());
            g.reduceAdd = c.op == kTmaReduceAdd;
            auto [buf, flat] = address(c.args.at(1));
            (void)flat;
            int64_t elems = 1;
            for (size_t a = 2; a <= 4 && a < c.args.size(); ++a) elems *= eval(c.args[a]).value_or(0);
            g.buffer = buf ? buf->name : "?";
            g.storage = buf ? m_facts.storage(*buf) : g.buffer;
            g.bytes = elems * (buf ? dtypeBytes(buf->dtype) : 0);
            auto tm = m_facts.tmaTensor.find(eval(c.args.at(0)).value_or(-1));
            g.tensor = tm != m_facts.tmaTensor.end() ? tm->second : "?";
            g.iteration = iter;
            g.span = s->span;
            {
                auto& e = event(g.reduceAdd ? TimelineEventKind::TmaReduceAdd : TimelineEventKind::TmaStore,
                                std::string(g.reduceAdd ? "TMA reduce-add " : "TMA store ") + g.buffer + " -> " + g.tensor + " (" +
                                    std::to_string(g.bytes) + " B" + (g.reduceAdd ? ", added atomically)" : ")"),
                                s, {});
                e.bytes = g.bytes, e.buffer = g.buffer, e.elected = true, e.group = g.group, e.tile = iter;
                g.issueStep = e.step;
                if (buf) plainRead(m_facts.storage(*buf), e.step);
            }
            TraceOp op;
            op.op = Op::BulkCommit;
            auto& ce = event(TimelineEventKind::BulkCommit,
                             "cp.async.bulk.commit_group: bulk group " + std::to_string(g.group) + " (" + g.buffer + " -> " + g.tensor + ")", s, op);
            ce.group = g.group, ce.buffer = g.buffer, ce.elected = true, ce.tile = iter;
            g.commitStep = ce.step;
            m_bulk.push_back(std::move(g));
        } else if (c.op == kTmaStoreWait) {
            // tl.tma_store_wait(n, read): cp.async.bulk.wait_group[.read] n -- every group but the
            // n most recent is read out of shared memory (.read) or complete.
            TraceOp op;
            op.op = Op::BulkWait;
            op.count = c.args.empty() ? 0 : eval(c.args[0]).value_or(0);
            op.read = c.args.size() > 1 && eval(c.args[1]).value_or(0) != 0;
            const int64_t upTo = int64_t(m_bulk.size()) - std::max<int64_t>(0, op.count) - 1;  // last group retired
            std::vector<std::string> freed;
            for (int64_t g = 0; g <= upTo; ++g) {
                auto& wg = m_bulk[size_t(g)];
                const bool news = op.read ? wg.readStep < 0 : wg.completeStep < 0;
                if (news && std::find(freed.begin(), freed.end(), wg.buffer) == freed.end()) freed.push_back(wg.buffer);
            }
            std::string list;
            for (auto& b : freed) list += (list.empty() ? "" : ", ") + b;
            std::string label = std::string("cp.async.bulk.wait_group") + (op.read ? ".read " : " ") + std::to_string(op.count);
            if (upTo < 0) label += " (no bulk group pending: completes at once)";
            else {
                label += ": bulk group" + std::string(upTo > 0 ? "s 0.." : " ") + std::to_string(upTo) +
                         (op.read ? " read out of shared memory" : " complete (global writes performed)");
                if (op.read && !list.empty()) label += " (" + list + " may be rewritten after the next barrier)";
            }
            const int64_t pending = op.count;
            const bool read = op.read;
            auto& e = event(TimelineEventKind::BulkWait, label, s, op);
            e.pending = pending, e.read = read, e.elected = true, e.tile = iter;
            if (upTo >= 0) e.group = upTo;
            if (!list.empty()) e.buffer = list;
            for (int64_t g = 0; g <= upTo; ++g) {
                auto& wg = m_bulk[size_t(g)];
                if (wg.readStep < 0) plainRead(wg.storage, e.step);  // the bulk copy reads the tile until here
                if (wg.readStep < 0) wg.readStep = e.step;  // a full wait retires the reads too
                if (!read && wg.completeStep < 0) wg.completeStep = e.step;
            }
        } else if (c.op == kWgmmaSS || c.op == kWgmmaRS) {
            const bool ss = c.op == kWgmmaSS;
            auto [bufA, flatA] = address(c.args.at(0));
            auto [bufB, flatB] = address(c.args.at(1));
            const BufferNode* staged = ss && bufA && m_facts.stageElems.count(bufA) ? bufA : bufB;
            const auto flat = staged == bufA ? flatA : flatB;
            int64_t stage = -1;
            if (staged && flat && m_facts.stageElems.count(staged)) stage = *flat / m_facts.stageElems.at(staged);
            int64_t wait = ss && c.args.size() > 9                                ? eval(c.args[9]).value_or(0)
                           : !ss && (c.args.size() == 9 || c.args.size() == 11) ? eval(c.args[8]).value_or(0)
                                                                                 : 0;
            std::string operands = (bufA ? bufA->name : "regs") + std::string(",") + (bufB ? bufB->name : "?");
            auto& e = event(TimelineEventKind::Mma,
                            std::string("wgmma k=") + std::to_string(iter) + (stage >= 0 ? " (stage " + std::to_string(stage) + ")" : "") +
                                (wait > 0 ? ", left in flight (wait_group " + std::to_string(wait) + ")" : ", waited"),
                            s, {});
            e.tile = iter, e.stage = stage, e.buffer = operands, e.pending = wait;
            if (stage >= 0) {
                // A second gemm on the same tile keeps its stage busy until it retires too.
                std::pair<int64_t, int64_t> t{iter, stage};
                for (auto* q : {&m_inFlight, &m_retired}) q->erase(std::remove(q->begin(), q->end(), t), q->end());
                m_inFlight.push_back(t);
            }
            std::vector<std::string> reads;
            for (auto* b : {bufA, bufB})
                if (b && b->scope == Scope::Shared) reads.push_back(m_facts.storage(*b));
            m_wgmmaReads.push_back(std::move(reads));
            retire(wait);
            m_groups = std::min(m_groups + 1, wait);
        } else if (c.op == kWgmmaWait) {
            int64_t n = c.args.size() > 2 ? eval(c.args[2]).value_or(0) : 0;
            // The fence an accumulator's reader or writer emits first (T.clear before the loop):
            // with no wgmma group of this role in flight it completes at once; say so, so the
            // schedule's first event does not read as a wait for a gemm that was never issued.
            const bool idle = m_groups <= n;
            auto& e = event(TimelineEventKind::WgmmaWait,
                            "wgmma.wait_group " + std::to_string(n) + (idle ? " (no wgmma in flight: completes at once)" : ""),
                            s, {});
            e.pending = n;
            retire(n);
            m_groups = std::min(m_groups, n);
        }
    }

    /// wgmma groups beyond the `pending` most recent are complete: their stages can be released
    /// at the role's next barrier or arrive.
    void retire(int64_t pending) {
        while (int64_t(m_inFlight.size()) > pending) {
            m_retired.push_back(m_inFlight.front());
            m_inFlight.pop_front();
        }
        // A wgmma reads its shared operands until it retires: at the latest event (the gemm
        // itself when waited, else the wgmma.wait_group that retires it).
        while (int64_t(m_wgmmaReads.size()) > pending) {
            for (auto& b : m_wgmmaReads.front()) plainRead(b, int64_t(m_trace.role.events.size()) - 1);
            m_wgmmaReads.pop_front();
        }
    }
    void flushReleases(TimelinePhase ph, int64_t iter, const Span& sp) {
        if (ph == TimelinePhase::Epilogue) retire(0);
        while (!m_retired.empty()) {
            auto [tile, stage] = m_retired.front();
            m_retired.pop_front();
            auto& evs = m_trace.role.events;
            TimelineEvent e;
            e.kind = TimelineEventKind::Release;
            e.phase = ph;
            e.step = int64_t(evs.size());
            e.iteration = iter;
            e.tile = tile, e.stage = stage;
            e.label = "release stage " + std::to_string(stage) + " (tile k=" + std::to_string(tile) + ")";
            e.span = sp;
            TraceOp op;
            op.event = int(evs.size());
            op.span = sp;
            evs.push_back(e);
            m_trace.ops.push_back(op);
        }
    }

    Facts& m_facts;
    std::unordered_map<const VarNode*, int64_t> m_env;
    std::vector<Expr> m_conds;  ///< the conditions (negated in else branches) around the statement
    const VarNode* m_txVar = nullptr;  ///< the thread index (setThreadVar)

    /// Threads of the role (m_tx .. m_tx + threads - 1) for which every enclosing condition
    /// holds; a condition not known at some thread counts as true there.
    int64_t executingThreads() {
        if (!m_txVar) return m_trace.role.threads;
        int64_t n = 0;
        const int64_t saved = m_env[m_txVar];
        for (int64_t t = m_tx; t < m_tx + m_trace.role.threads; ++t) {
            m_env[m_txVar] = t;
            bool all = true;
            for (auto& c : m_conds) all = all && eval(c).value_or(1) != 0;
            n += all;
        }
        m_env[m_txVar] = saved;
        return n;
    }
    int64_t m_tx;
    RoleTrace m_trace;
    std::vector<std::string> m_notes;
    const ForNode* m_pipe = nullptr;
    std::optional<PlannedLoop> m_single, m_singleInfo;
    bool m_inPipe = false, m_afterPipe = false;
    int64_t m_iterBase = 0;  ///< iterations of the pipelined loop's earlier runs (loop(): inside an outer loop)
    int64_t m_iter = -1, m_trips = 0, m_stages = 1;
    Span m_lastSpan;
    std::map<std::string, int64_t> m_uses, m_lastTile;
    std::deque<std::pair<int64_t, int64_t>> m_inFlight, m_retired;
    bool m_plain = false;        ///< setPlain
    std::map<std::string, size_t> m_plainOpen;       ///< buffer -> its plain tile still held (m_plainTiles)
    std::map<std::string, int64_t> m_plainExpect;    ///< plain barrier -> step of its latest expect_tx
    std::map<std::string, int64_t> m_plainCopies;    ///< buffer -> plain copies into it so far
    std::deque<std::vector<std::string>> m_wgmmaReads;  ///< shared operands of each wgmma group in flight
    int m_plainDepth = 0;        ///< loops entered, in a plain kernel
    int64_t m_plainIter = -1;    ///< the outermost loop's iteration, in a plain kernel
    bool m_arriveReleases = false;  ///< the pipelined loop releases stages by mbarrier arrivals (loop())
    std::map<const BufferNode*, int64_t> m_locals;  ///< one-element integer locals with known values (stmt())
    int64_t m_groups = 0;  ///< wgmma groups this role issued that may still be in flight

public:
    /// A bulk group as the walk sees it: steps of this role; times are filled in after the run.
    struct WalkGroup : BulkGroup {
        bool flagged = false;  ///< a rewrite before its wait + barrier was reported
        std::string storage;   ///< the staging tile's storage (Facts::storage)
    };
    std::vector<WalkGroup> m_bulk;
    std::vector<BarrierIssue> m_bulkIssues;

    /// A plain copy's tile (Facts::plainBar) in its shared buffer: steps of this role.
    using PlainTile = PlainCopyTile;
    std::vector<PlainTile> m_plainTiles;

public:
    void setStages(int64_t s) { m_stages = s; }
};

}  // namespace

std::optional<PlannedLoop> plannedLoopOf(const PrimFunc& planned) {
    std::optional<PlannedLoop> out;
    walk(planned->body, [&](const Stmt& s) {
        auto* f = as<ForNode>(s);
        if (out || !f || f->forKind != ForKind::Pipelined) return;
        PlannedLoop p;
        p.span = f->span;
        p.var = f->var->name;
        p.trips = constInt(f->extent).value_or(0);
        p.lastBodyLine = f->span.line;
        walk(f->body, [&](const Stmt& x) { p.lastBodyLine = std::max(p.lastBodyLine, x->span.endLine ? x->span.endLine : x->span.line); });
        out = p;
    });
    return out;
}

TimelineResult buildHopperTimeline(const PrimFunc& lowered, const HopperTimelineOptions& opts) {
    TimelineResult r;
    const KernelNode* kn = findKernel(lowered);
    if (!kn) return r;
    Facts facts;
    facts.func = lowered.get();
    facts.electedThread = attrInt(lowered->attrs, "elected_thread", 0);
    bool any = false;
    int64_t S = 1;
    walk(kn->body, [&](const Stmt& s) {
        auto* c = callOf(s);
        if (!c) return;
        if (c->op == intrin::kMbarrierInit || c->op == intrin::kTmaLoad) any = true;
        if (c->op == intrin::kTmaLoad && c->args.size() > 5) {
            auto* ac = as<CallNode>(c->args[1]);
            auto* ld = ac && !ac->args.empty() ? as<LoadNode>(ac->args[0]) : nullptr;
            int64_t elems = 1;
            for (size_t a = 3; a <= 5; ++a) elems *= constInt(c->args[a]).value_or(0);
            // A plain copy's tile is no stage: a wgmma reading it releases no stage.
            auto* bc = as<CallNode>(c->args[2]);
            auto* bl = bc && !bc->args.empty() ? as<LoadNode>(bc->args[0]) : nullptr;
            const bool plain = bl && bl->indices.size() == 1 &&
                               facts.plainBar(bl->buffer->name + "[" + std::to_string(constInt(bl->indices[0]).value_or(0)) + "]");
            if (ld && elems > 0 && !plain) facts.stageElems[ld->buffer.get()] = elems;
        }
        if (c->op == intrin::kMbarrierInit && c->args.size() > 1) {
            const int64_t n = constInt(c->args[1]).value_or(1);
            S = std::max(S, n);
            auto* ac = as<CallNode>(c->args[0]);
            auto* ld = ac && !ac->args.empty() ? as<LoadNode>(ac->args[0]) : nullptr;
            const int64_t base = ld && ld->indices.size() == 1 ? constInt(ld->indices[0]).value_or(0) : 0;
            for (int64_t j = 0; ld && j < n; ++j) facts.stageOfBar[ld->buffer->name + "[" + std::to_string(base + j) + "]"] = {j, n};
        }
    });
    if (!any) return r;
    for (int64_t i = 0; i < attrInt(lowered->attrs, "tma_maps", 0); ++i) {
        auto m = attrInts(lowered->attrs, "tma_map." + std::to_string(i));
        if (!m.empty() && m[0] >= 0 && size_t(m[0]) < lowered->params.size()) facts.tmaTensor[i] = lowered->params[size_t(m[0])]->name;
    }

    std::unordered_map<const VarNode*, int64_t> env;
    for (size_t d = 0; d < kn->blockVars.size(); ++d) env[kn->blockVars[d].get()] = d < opts.block.size() ? opts.block[d] : 0;
    for (size_t d = 1; d < kn->threadVars.size(); ++d) env[kn->threadVars[d].get()] = 0;
    const int64_t T = kn->threadCount();
    const int64_t C = attrInt(lowered->attrs, "ws_consumer_threads", 0);
    struct RoleSpec {
        std::string name;
        int64_t tx, threads;
    };
    std::vector<RoleSpec> specs;
    if (C > 0 && C < T)
        specs = {{"producer (thread " + std::to_string(facts.electedThread) + " issues)", facts.electedThread, T - C},
                 {"consumer", 0, C}};
    else if (auto roles = handWrittenWarpRoles(*kn, T); !roles.empty())
        for (auto& w : roles) specs.push_back({w.name, w.tx, w.threads});
    else
        specs = {{"all warps (thread " + std::to_string(facts.electedThread) + " issues)", facts.electedThread, T}};

    bool hasPipe = false;
    walk(kn->body, [&](const Stmt& x) {
        if (auto* fo = as<ForNode>(x); fo && attrBool(fo->attrs, "tma_pipeline", false)) hasPipe = true;
    });
    PipelineTimeline t;
    t.schedule = "tma";
    t.async = true;
    t.loopSpan = kn->span;
    t.warpSpecialized = specs.size() > 1;
    std::vector<RoleTrace> traces;
    std::vector<PlainCopyTile> plainTiles;
    std::vector<BulkGroup> bulk;
    std::vector<BarrierIssue> bulkIssues;
    for (auto& sp : specs) {
        auto e = env;
        if (!kn->threadVars.empty()) e[kn->threadVars[0].get()] = sp.tx;
        RoleWalker w(facts, e, sp.tx, TimelineRole{sp.name, sp.threads, {}});
        if (!kn->threadVars.empty()) w.setThreadVar(kn->threadVars[0].get());
        w.m_maxOps = opts.maxEvents;
        w.setStages(S);
        if (opts.planned && opts.planned->trips == 1) w.setSingleTrip(*opts.planned);
        w.setPlain(!hasPipe && !(opts.planned && opts.planned->trips == 1));
        w.stmt(kn->body);
        traces.push_back(w.take(r.notes, t));
        for (auto p : w.m_plainTiles) {
            p.role = traces.size() - 1;
            plainTiles.push_back(std::move(p));
        }
        for (auto& g : w.m_bulk) {
            bulk.push_back(g);
            bulk.back().role = int(traces.size()) - 1;
        }
        bulkIssues.insert(bulkIssues.end(), w.m_bulkIssues.begin(), w.m_bulkIssues.end());
    }
    t.stages = S;
    barriers::runSchedule(traces, opts.tmaLatency, t);
    // The bulk groups' times are those of their events in the issuing role.
    for (auto& g : bulk) {
        const auto& evs = traces[size_t(g.role)].role.events;
        auto at = [&](int64_t step) { return step >= 0 && size_t(step) < evs.size() ? evs[size_t(step)].time : -1; };
        g.issueTime = at(g.issueStep), g.readTime = at(g.readStep), g.freeTime = at(g.freeStep);
        g.completeTime = at(g.completeStep), g.reuseTime = at(g.reuseStep);
    }
    t.bulkGroups = std::move(bulk);
    t.issues.insert(t.issues.end(), bulkIssues.begin(), bulkIssues.end());
    // A value the walk had to guess (a run-time bound, parity or condition) or a cut-off run
    // makes the check inconclusive: its findings are then warnings, not errors.
    if (!r.notes.empty()) {
        for (auto& i : t.issues) i.error = false;
        if (!t.issues.empty())
            r.notes.push_back("the barrier check is not conclusive for this kernel (see the notes above): its findings are warnings");
    }
    for (auto& tr : traces) t.roles.push_back(std::move(tr.role));
    // Producers / consumers as in the cp.async model: what each role issues, one line each.
    for (auto& role : t.roles)
        for (auto& e : role.events) {
            if (e.kind != TimelineEventKind::TmaLoad && e.kind != TimelineEventKind::Mma) continue;
            auto& list = e.kind == TimelineEventKind::TmaLoad ? t.producers : t.consumers;
            if (std::find(list.begin(), list.end(), e.irStmt) == list.end()) list.push_back(e.irStmt);
        }
    fillOccupancy(t, [&](const std::string& bar) { return facts.plainBar(bar); }, plainTiles);
    r.loops.push_back(std::move(t));
    return r;
}

}  // namespace ts::analysis
